import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { consignmentWorkflowId } from '../../src/temporal/consignment.starter';
import { useRecordingServer } from '../support/recording-server';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * DELETE /api/v1/consignments/draft/{id}: a draft (status 24) goes through its workflow; the row leaves
 * lookups and lists, its reference is free again, webhooks subscribed to `consignment.deleted` hear of it,
 * and the workflow ends. Anything but a draft is refused; another customer's id is not found.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const receiver = useRecordingServer();
let svc: TestService;
let key: string;
let otherKey: string;

const party = { name: 'Depo', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+905551112233' };
const create = async (reference_no: string, apiKey = key) => {
  const res = await svc.sendJson('POST', '/api/v1/consignments/draft', apiKey, {
    reference_no,
    provider_id: 1,
    consignor: party,
    consignee: party,
    packages: [{ weight: 1 }],
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as Json;
};
const remove = (id: number, apiKey = key, lang?: string) => svc.request({ method: 'DELETE', url: `/api/v1/consignments/draft/${id}`, apiKey, lang });

beforeAll(async () => {
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1' });
  ({ apiKey: key } = await svc.customer('Deleting'));
  ({ apiKey: otherKey } = await svc.customer('Other'));
  for (const subscribedEvent of ['consignment.deleted', 'consignment.status.updated']) {
    const res = await svc.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      apiKey: key,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        description: subscribedEvent,
        endpoint: `${receiver.origin}/${subscribedEvent}`,
        subscribedEvent,
        securityType: 'header',
        dataType: 'JSON',
        data: '',
        securityData: [],
        status: 1,
      }),
    });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(async () => svc?.stop());

describe('DELETE /api/v1/consignments/draft/{id}', () => {
  it('deletes a draft: gone from lookups and lists, its reference free, a consignment.deleted event, the workflow completed', async () => {
    const draft = await create('DEL-1');
    const res = await remove(draft.id, key, 'tr');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true, message: 'Taslak gönderi silindi.', data: { consignment: draft.id } });

    expect((await svc.request({ method: 'GET', url: `/api/v1/consignments/${draft.id}/details`, apiKey: key })).statusCode).toBe(404);
    expect((await svc.request({ method: 'GET', url: '/api/v1/consignments/find/reference_no/DEL-1', apiKey: key })).statusCode).toBe(404);
    expect((await svc.request({ method: 'GET', url: '/api/v1/consignments?reference_no=DEL-', apiKey: key })).json().data.total).toBe(0);
    const again = await create('DEL-1');
    expect(again.id).not.toBe(draft.id);

    const delivered = await waitFor('the deletion event', () => receiver.received.find((r) => r.url === '/consignment.deleted'));
    const event = JSON.parse(delivered.body) as Json;
    expect(event).toMatchObject({ event: 'consignment.deleted', data: { consignment: draft.id, uuid: draft.uuid, reference_no: 'DEL-1', status: 24 } });
    expect(delivered.headers['webhook-id']).toBe(event.id);
    // Subscribers of status changes are not sent the deletion.
    expect(receiver.received.filter((r) => r.url === '/consignment.status.updated')).toEqual([]);

    const handle = svc.runtime.client.workflow.getHandle(consignmentWorkflowId(draft.uuid));
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    // Nothing of it is left in the read model but its event.
    expect((await svc.db.query('SELECT 1 FROM consignments WHERE uuid = $1', [draft.uuid])).rows).toHaveLength(0);
    expect((await svc.db.query('SELECT 1 FROM consignment_events WHERE id = $1', [event.id])).rows).toHaveLength(1);
  });

  it('refuses anything but a draft (409), and answers not found for a deleted one or another customer’s', async () => {
    const processed = await create('DEL-2');
    expect((await svc.request({ method: 'POST', url: `/api/v1/consignments/draft/${processed.id}/start-process`, apiKey: key })).statusCode).toBe(200);
    const refused = await remove(processed.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().status).toBe(false);
    expect((await svc.request({ method: 'GET', url: `/api/v1/consignments/${processed.id}/details`, apiKey: key })).statusCode).toBe(200);

    const cancelled = await create('DEL-3');
    expect((await svc.request({ method: 'POST', url: `/api/v1/consignments/${cancelled.id}/cancel`, apiKey: key })).statusCode).toBe(200);
    expect((await remove(cancelled.id)).statusCode).toBe(409);

    const theirs = await create('DEL-4', otherKey);
    expect((await remove(theirs.id)).statusCode).toBe(404);
    expect((await svc.request({ method: 'GET', url: `/api/v1/consignments/${theirs.id}/details`, apiKey: otherKey })).statusCode).toBe(200);

    const once = await create('DEL-5');
    expect((await remove(once.id)).statusCode).toBe(200);
    expect((await remove(once.id)).statusCode).toBe(404);
    expect((await remove(987654321)).statusCode).toBe(404);
    expect((await svc.request({ method: 'DELETE', url: '/api/v1/consignments/draft/abc', apiKey: key })).statusCode).toBe(400);
  });
});
