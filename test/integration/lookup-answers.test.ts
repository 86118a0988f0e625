import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { draftBody } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

/**
 * The lookups' answers (GET /consignments/{id}/details, /consignments/find/reference_no/{reference_no}) follow
 * the consignment: repeated, they are the same bytes; after a change to it, by whatever path, they show it, by id
 * and by reference alike. On PGlite they come from the read cache and the API's kept answers (by the version of
 * the details), on PostgreSQL from the database each time.
 */
let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Lookup answers'));
}, 120_000);
afterAll(async () => svc?.stop());

describe('lookup answers', () => {
  it('answer the same again while nothing changed, and the change after one, by id and by reference', async () => {
    const draft = await svc.request({
      method: 'POST',
      url: '/api/v1/consignments/draft',
      apiKey: key,
      payload: draftBody({ reference_no: 'LOOKUP-ANSWER-1' }),
    });
    expect(draft.statusCode).toBe(201);
    const id = draft.json().data.id as number;
    const byId = (lang = 'en') => svc.request({ method: 'GET', url: `/api/v1/consignments/${id}/details`, apiKey: key, lang });
    const byReference = () => svc.request({ method: 'GET', url: '/api/v1/consignments/find/reference_no/LOOKUP-ANSWER-1', apiKey: key });

    const first = await byId();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await byId()).body).toBe(first.body);
    expect((await byReference()).body).toBe(first.body);
    expect((await byId('tr')).json().data.details[0].status_description).toBe('Yeni taslak');

    // Changed by a statement of its own (no request of the API's): the next lookups show it.
    await svc.db.query(`UPDATE consignments SET barcode = 'BC-CHANGED-1' WHERE id = $1`, [id]);
    expect((await byId()).json().data.barcode).toBe('BC-CHANGED-1');
    expect((await byReference()).json().data.barcode).toBe('BC-CHANGED-1');
    expect((await byId('tr')).json().data.barcode).toBe('BC-CHANGED-1');
    // A change to a table of its details other than the consignment's own: its history.
    await svc.db.query(`INSERT INTO consignment_history (consignment_id, status, message) VALUES ($1, 24, 'noted')`, [id]);
    expect((await byReference()).json().data.details).toHaveLength(2);
    expect((await byId()).json().data.details).toHaveLength(2);
  });
});
