import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * GET /api/v1/consignments: a customer's consignments, newest first, in detail form, narrowed by status,
 * provider, reference prefix, barcode, import and creation time, a page at a time. Another customer's
 * consignments never appear.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
let key: string;
let otherKey: string;
const ids: Record<string, number> = {};
let processedBarcode: string;
let importId: string;

const party = (name: string, city: string) => ({ name, country: 'TR', city, address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+905551112233' });
const draft = (reference_no: string) => ({
  reference_no,
  provider_id: 1,
  consignor: party('Depo', 'İstanbul'),
  consignee: party('Alıcı', 'Ankara'),
  packages: [{ weight: 1 }],
});

const list = async (query = '', apiKey = key) => {
  const res = await svc.request({ method: 'GET', url: `/api/v1/consignments${query}`, apiKey });
  return { res, body: res.json() as Json };
};
const refsOf = (body: Json) => (body.data.results as Json[]).map((c) => c.reference_no as string);

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('List A'));
  ({ apiKey: otherKey } = await svc.customer('List B'));
  const create = async (reference: string, apiKey = key) => {
    const res = await svc.sendJson('POST', '/api/v1/consignments/draft', apiKey, draft(reference));
    expect(res.statusCode).toBe(201);
    ids[reference] = res.json().data.id;
  };
  for (const reference of ['LIST-A1', 'LIST-A2', 'LIST-B1', 'P%X', 'PAX']) await create(reference);
  await create('LIST-OTHER', otherKey);
  const processed = await svc.request({ method: 'POST', url: `/api/v1/consignments/draft/${ids['LIST-A2']}/start-process`, apiKey: key });
  expect(processed.statusCode).toBe(200);
  processedBarcode = processed.json().data.barcode;
  expect((await svc.request({ method: 'POST', url: `/api/v1/consignments/${ids['LIST-B1']}/cancel`, apiKey: key })).statusCode).toBe(200);

  const csv = [
    'reference_no,consignee_name,consignee_phone,consignee_address,consignee_city,consignee_country,package_weight',
    'IMP-1,Müşteri,+905551112233,Çiçek Sk. 1,Ankara,TR,1',
    'IMP-2,Müşteri,+905551112233,Çiçek Sk. 2,Ankara,TR,1',
  ].join('\n');
  const started = await svc.sendJson('POST', '/api/v1/imports', key, { preset: 'generic', consignor: party('Depo', 'İstanbul'), csv });
  expect(started.statusCode).toBe(202);
  importId = started.json().data.id;
  await waitFor('the import to finish', async () => {
    const res = await svc.request({ method: 'GET', url: `/api/v1/imports/${importId}`, apiKey: key });
    return res.json().data.state === 'completed';
  });
});
afterAll(async () => svc?.stop());

describe('GET /api/v1/consignments', () => {
  it("lists the caller's consignments newest first, in the detail form of a lookup, with the page's numbers", async () => {
    const { res, body } = await list();
    expect(res.statusCode).toBe(200);
    expect(body.data).toMatchObject({ page: 1, lastPage: 1, limit: 10, total: 7 });
    // The import's two drafts came last (created together: their order is the ids').
    expect(refsOf(body).slice(0, 2).sort()).toEqual(['IMP-1', 'IMP-2']);
    expect(refsOf(body)).not.toContain('LIST-OTHER');
    expect(refsOf(body).slice(2)).toEqual(['PAX', 'P%X', 'LIST-B1', 'LIST-A2', 'LIST-A1']);
    // The same form as the lookup by id.
    const detail = await svc.request({ method: 'GET', url: `/api/v1/consignments/${ids['LIST-A2']}/details`, apiKey: key });
    expect((body.data.results as Json[]).find((c) => c.id === ids['LIST-A2'])).toEqual(detail.json().data);
    expect(res.headers['ratelimit-limit']).toBe('120');
  });

  it('narrows by status (repeated or comma-separated), provider, reference prefix, barcode and import', async () => {
    expect(refsOf((await list('?status=10')).body)).toEqual(['LIST-B1']);
    const processedStatus = (await list(`?barcode=${processedBarcode}`)).body;
    expect(refsOf(processedStatus)).toEqual(['LIST-A2']);
    const status = processedStatus.data.results[0].status;
    expect(refsOf((await list(`?status=${status}&status=10`)).body).sort()).toEqual(['LIST-A2', 'LIST-B1']);
    expect(refsOf((await list(`?status=${status},10`)).body).sort()).toEqual(['LIST-A2', 'LIST-B1']);
    expect((await list('?status=24')).body.data.total).toBe(5);
    expect((await list('?provider_id=1')).body.data.total).toBe(5);
    expect((await list('?provider_id=2')).body.data.total).toBe(0);
    expect(refsOf((await list('?reference_no=LIST-')).body)).toEqual(['LIST-B1', 'LIST-A2', 'LIST-A1']);
    // `%` and `_` are themselves in a prefix, not wildcards.
    expect(refsOf((await list(`?reference_no=${encodeURIComponent('P%')}`)).body)).toEqual(['P%X']);
    expect(refsOf((await list(`?import_id=${importId}`)).body)).toEqual(['IMP-2', 'IMP-1']);
    expect(refsOf((await list(`?import_id=${importId}&status=24&reference_no=IMP-1`)).body)).toEqual(['IMP-1']);
    // Another customer's import or barcode: nothing.
    expect((await list(`?import_id=${importId}`, otherKey)).body.data.total).toBe(0);
    expect((await list(`?barcode=${processedBarcode}`, otherKey)).body.data.total).toBe(0);
  });

  it('narrows by creation time: days (UTC, the whole day) or instants', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await list(`?created_from=${today}&created_to=${today}`)).body.data.total).toBe(7);
    expect((await list(`?created_from=${tomorrow}`)).body.data.total).toBe(0);
    expect((await list(`?created_to=${yesterday}`)).body.data.total).toBe(0);
    const hourAgo = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    expect((await list(`?created_from=${hourAgo}`)).body.data.total).toBe(7);
  });

  it('pages', async () => {
    const first = (await list('?limit=3')).body.data;
    const third = (await list('?limit=3&page=3')).body.data;
    expect(first).toMatchObject({ page: 1, lastPage: 3, limit: 3, total: 7 });
    expect(third.results).toHaveLength(1);
    expect(third.results[0].reference_no).toBe('LIST-A1');
    expect((await list('?limit=3&page=9')).body.data).toMatchObject({ results: [], page: 9, lastPage: 3, total: 7 });
  });

  it('refuses bad parameters, each naming itself, in the caller’s language', async () => {
    const refused = async (query: string, field: string, lang?: string) => {
      const res = await svc.request({ method: 'GET', url: `/api/v1/consignments${query}`, apiKey: key, lang });
      expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
      expect(res.json().errors.map((e: Json) => e.field)).toContain(field);
      return res.json().errors as Json[];
    };
    await refused('?status=abc', 'status');
    await refused('?status=99', 'status');
    await refused('?provider_id=0', 'provider_id');
    await refused('?provider_id=1&provider_id=2', 'provider_id');
    await refused('?limit=101', 'limit');
    await refused('?page=0', 'page');
    await refused('?import_id=nope', 'import_id');
    await refused('?created_from=yesterday', 'created_from');
    await refused('?created_from=2026-02-30', 'created_from');
    const [range] = await refused('?created_from=2026-11-24&created_to=2026-11-23', 'created_to', 'tr');
    expect(range.message).toBe('Bu tarih aralığın başlangıcından sonra olmalıdır.');
    await refused('?statuss=24', 'statuss');
    expect((await list('', 'wrong-key')).res.statusCode).toBe(401);
  });
});
