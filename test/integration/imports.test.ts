import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { importOrderUuid } from '../../src/domain/derived-uuid';
import { consignmentWorkflowId } from '../../src/temporal/consignment.starter';
import { importWorkflowId } from '../../src/temporal/import.starter';
import { SA } from '../../workflows/search-attributes';
import { multipart } from '../support/multipart';
import { startTestService, type TestService } from '../support/test-service';

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/imports', name), 'utf8');
const consignor = { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+902161234567' };

let svc: TestService;
let key: string;
let customerId: number;

beforeAll(async () => {
  // Small pages and batches, so a few hundred orders span several pages, batches and workflow runs.
  svc = await startTestService({}, undefined, {
    importTuning: { pageOrders: 40, batchSize: 10, parallelBatches: 3, concurrency: 4, pagesPerRun: 2, heartbeatTimeout: '10 seconds' },
  });
  ({ apiKey: key, customerId } = await svc.customer('Anadolu Butik'));
});
afterAll(async () => svc?.stop());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const post = (payload: object, options: { apiKey?: string; lang?: string; headers?: Record<string, string> } = {}) =>
  svc.request({ method: 'POST', url: '/api/v1/imports', apiKey: options.apiKey ?? key, lang: options.lang, headers: options.headers, payload });
const get = (url: string, options: { apiKey?: string; lang?: string; headers?: Record<string, string> } = {}) =>
  svc.request({ method: 'GET', url, apiKey: options.apiKey ?? key, lang: options.lang, headers: options.headers });

function upload(file: string | Buffer, options: object, extra: { apiKey?: string; headers?: Record<string, string>; lang?: string } = {}) {
  const body = multipart([
    { name: 'options', content: JSON.stringify(options) },
    { name: 'file', filename: 'orders_export.csv', type: 'text/csv', content: file },
  ]);
  return svc.request({
    method: 'POST',
    url: '/api/v1/imports',
    apiKey: extra.apiKey ?? key,
    lang: extra.lang,
    payload: body.payload,
    headers: { ...body.headers, ...extra.headers },
  });
}

async function finished(id: string, apiKey = key): Promise<Json> {
  for (let i = 0; i < 1200; i++) {
    const res = await get(`/api/v1/imports/${id}`, { apiKey });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    if (['completed', 'failed', 'cancelled'].includes(data.state)) return data;
    await sleep(100);
  }
  throw new Error(`import ${id} did not finish`);
}

async function accepted(res: Awaited<ReturnType<typeof post>>): Promise<string> {
  expect(res.statusCode).toBe(202);
  return res.json().data.id;
}

/** A generic-template file of `n` orders, every second one with two items. */
function genericFile(prefix: string, n: number): string {
  const lines = [
    'reference_no,consignee_name,consignee_phone,consignee_address,consignee_city,consignee_country,package_weight,item_description,item_quantity,item_unit_price',
  ];
  for (let i = 0; i < n; i++) {
    const ref = `${prefix}-${String(i).padStart(4, '0')}`;
    lines.push(`${ref},Müşteri ${i},+905551112233,"Çiçek Sk. ${i}, D:1",Ankara,TR,1.5,Kilim yastık,1,150`);
    if (i % 2) lines.push(`${ref},,,,,,,Lokum kutusu,2,75.5`);
  }
  return lines.join('\n') + '\n';
}

const consignmentCount = async (importId: string) =>
  Number((await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments WHERE import_id = $1', [importId])).rows[0].n);

describe('POST /api/v1/imports with a Shopify export', () => {
  let importId: string;

  it('answers 202 at once and creates one draft per order, whose items are its line items', async () => {
    const res = await post({ csv: fixture('shopify-orders.csv'), preset: 'shopify', consignor, preference: 1 });
    importId = await accepted(res);
    expect(res.json()).toMatchObject({
      status: true,
      message: 'Import accepted: the orders are being created.',
      data: { id: importId, preset: 'shopify', process: false },
    });
    expect(['queued', 'running']).toContain(res.json().data.state);

    const done = await finished(importId);
    expect(done).toMatchObject({
      state: 'completed',
      counts: { rows: 10, orders: 6, created: 4, processed: 0, failed: 2, duplicates: 0, cancelled: 0 },
      progress: { rows_total: 10, rows_done: 10, orders_done: 6, orders_known: true, percent: 100 },
      error: null,
    });
    expect(done.started_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(done.finished_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const found = await get(`/api/v1/consignments/find/reference_no/${encodeURIComponent('#1001')}`);
    expect(found.statusCode).toBe(200);
    expect(found.json().data).toMatchObject({
      reference_no: '#1001',
      status: 24,
      consignor: { name: 'Anadolu Butik' },
      consignee: { name: 'Ayşe Yılmaz', city: 'İstanbul', postal_code: '34710', address: 'Bağdat Cd. No:5, D:3' },
    });
    expect(found.json().data.packages[0].items.map((i: Json) => [i.description, i.quantity, i.unit_price])).toEqual([
      ['Pamuklu tişört - Beyaz / M [TS-001-M]', 2, 149.9],
      ['Türk kahvesi, 250 g [TK-250]', 1, 120],
    ]);
    expect(await consignmentCount(importId)).toBe(4);
  });

  it('starts each draft’s lifecycle workflow with the ImportId search attribute, ready for updates and processing', async () => {
    const { rows } = await svc.db.query<{ id: number; uuid: string }>('SELECT id, uuid FROM consignments WHERE import_id = $1 ORDER BY id', [importId]);
    const seqs = (
      await svc.db.query<{ seq: number; consignment_id: number }>(
        'SELECT seq, consignment_id FROM import_orders WHERE import_id = $1 AND consignment_id IS NOT NULL',
        [importId],
      )
    ).rows;
    for (const { seq, consignment_id } of seqs) expect(rows.find((r) => Number(r.id) === Number(consignment_id))?.uuid).toBe(importOrderUuid(importId, seq));
    // The drafts are in the outbox; the relay starts their workflows (after the second it leaves new drafts to their clients).
    await svc.runtime.relay!.drained();
    const description = await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(rows[0].uuid)).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.typedSearchAttributes.get(SA.ImportId)).toBe(importId);
    expect(description.typedSearchAttributes.get(SA.ConsignmentId)).toBe(Number(rows[0].id));
    // Operators find an import's consignments in the Temporal UI by `ImportId = "<id>"`.
    for (let i = 0; i < 100; i++) {
      if ((await svc.runtime.client.workflow.count(`ImportId = "${importId}" AND WorkflowType = "consignmentWorkflow"`)).count === 4) break;
      await sleep(100);
    }
    expect((await svc.runtime.client.workflow.count(`ImportId = "${importId}" AND WorkflowType = "consignmentWorkflow"`)).count).toBe(4);
    expect((await svc.runtime.client.workflow.getHandle(importWorkflowId(importId)).describe()).typedSearchAttributes.get(SA.ImportId)).toBe(importId);

    const id = Number(rows[0].id);
    const update = await svc.request({
      method: 'PUT',
      url: `/api/v1/consignments/draft/${id}`,
      apiKey: key,
      payload: { invoice_number: 'FTR-1', packages: [{ weight: 1 }] },
    });
    expect(update.statusCode).toBe(200);
    const processed = await svc.request({ method: 'POST', url: `/api/v1/consignments/draft/${id}/start-process`, apiKey: key });
    expect(processed.statusCode).toBe(200);
    expect(processed.json().data.consignment).toBe(id);
  });

  it.each([
    ['en', 'This value should not be blank.', 'This value should be positive.', 'This value is too long. It should have 3 characters or less.'],
    ['tr', 'Bu değer boş bırakılmamalıdır.', 'Bu değer pozitif olmalıdır.', 'Bu değer çok uzun. En fazla 3 karakter olmalıdır.'],
  ])('lists the rows to fix with messages in the caller’s language (%s), as JSON and as CSV', async (lang, blank, positive, countryTooLong) => {
    const res = await get(`/api/v1/imports/${importId}/errors`, { lang });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe(lang);
    expect(res.json().data).toMatchObject({ page: 1, lastPage: 1, total: 3 });
    expect(res.json().data.results).toEqual([
      { row: 5, order: '#1003', field: 'Shipping Country', path: 'consignee.country', message: countryTooLong },
      { row: 6, order: '#1003', field: 'Lineitem quantity', path: 'packages.0.items.1.quantity', message: positive },
      { row: 10, order: '#1005', field: 'Shipping Name', path: 'consignee.name', message: blank },
    ]);

    for (const request of [
      { url: `/api/v1/imports/${importId}/errors?format=csv` },
      { url: `/api/v1/imports/${importId}/errors`, headers: { accept: 'text/csv' } },
    ]) {
      const csv = await get(request.url, { lang, headers: request.headers });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('row,order,field,message');
      expect(lines).toHaveLength(4);
      expect(lines[3]).toBe(`10,#1005,Shipping Name,${blank}`);
    }
  });

  it('imports the same file again, sent as multipart, creating nothing: every valid order is a duplicate', async () => {
    const id = await accepted(await upload(fixture('shopify-orders.csv'), { preset: 'shopify', consignor, preference: 1 }));
    expect(id).not.toBe(importId);
    const done = await finished(id);
    expect(done).toMatchObject({ state: 'completed', file_name: 'orders_export.csv', counts: { orders: 6, created: 0, duplicates: 4, failed: 2 } });
    expect(await consignmentCount(id)).toBe(0);
    expect(Number((await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments WHERE customer_id = $1', [customerId])).rows[0].n)).toBe(4);
  });

  it('lists the customer’s imports, newest first', async () => {
    const res = await get('/api/v1/imports?limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ page: 1, limit: 1, total: 2, lastPage: 2 });
    expect(res.json().data.results[0].counts.duplicates).toBe(4);
    expect((await get('/api/v1/imports?page=2&limit=1')).json().data.results[0].id).toBe(importId);
    expect((await get('/api/v1/imports?limit=1000')).statusCode).toBe(400);
  });
});

describe('WooCommerce export with processing', () => {
  it('creates and processes every valid order: a label and a carrier for each', async () => {
    const { apiKey } = await svc.customer('Zeytin Dalı');
    const id = await accepted(
      await upload(
        fixture('woocommerce-orders.csv'),
        { preset: 'woocommerce', consignor, preference: 1, process: true, package: { weight: 1.2, length: 30, width: 20, height: 10 } },
        { apiKey },
      ),
    );
    const done = await finished(id, apiKey);
    expect(done).toMatchObject({ state: 'completed', process: true, counts: { orders: 3, created: 2, processed: 2, failed: 1 } });
    const found = await get('/api/v1/consignments/find/reference_no/2051', { apiKey });
    expect(found.json().data).toMatchObject({ reference_no: '2051', consignee: { name: 'Zeynep Kaya', city: 'Bursa' } });
    expect([2, 3]).toContain(found.json().data.status);
    expect(found.json().data.labels).toHaveLength(1);
    const errors = await get(`/api/v1/imports/${id}/errors`, { apiKey });
    expect(errors.json().data.results).toEqual([
      { row: 5, order: '2053', field: 'Billing Email', path: 'consignee.email', message: 'This value is not a valid email address.' },
    ]);
  });
});

describe('a NUL byte in a cell', () => {
  /** Imports `file` (generic preset) for a new customer `name`: the finished import and its error entries. */
  async function importCorrupted(name: string, file: string) {
    const { apiKey } = await svc.customer(name);
    const id = await accepted(await upload(file, { preset: 'generic', consignor }, { apiKey }));
    return { done: await finished(id, apiKey), errors: (await get(`/api/v1/imports/${id}/errors`, { apiKey })).json().data.results };
  }

  it('fails that order with an error naming the column; the other orders are created', async () => {
    const { done, errors } = await importCorrupted('NUL Butik', genericFile('NUL', 3).replace('Müşteri 1,', 'Müş\u0000teri 1,'));
    expect(done).toMatchObject({ state: 'completed', counts: { orders: 3, created: 2, failed: 1 } });
    expect(errors).toEqual([
      { row: 3, order: 'NUL-0001', field: 'consignee_name', path: 'consignee.name', message: 'This value contains a NUL character or invalid UTF-8.' },
    ]);
  });

  it('in the order’s own reference: that order fails, named without the NUL', async () => {
    const { done, errors } = await importCorrupted('NUL Referans', genericFile('NULREF', 2).replace(/NULREF-0001/g, 'NULREF-\u00000001'));
    expect(done).toMatchObject({ state: 'completed', counts: { orders: 2, created: 1, failed: 1 } });
    expect(errors).toEqual([
      { row: 3, order: 'NULREF-\uFFFD0001', field: 'reference_no', path: 'reference_no', message: 'This value contains a NUL character or invalid UTF-8.' },
    ]);
  });

  it('in the header or the file name: accepted, stored without the NUL', async () => {
    const { apiKey } = await svc.customer('NUL Başlık');
    const file = genericFile('NULHEAD', 1).replace('item_quantity', 'item_quan\u0000tity');
    const body = multipart([
      { name: 'options', content: JSON.stringify({ preset: 'generic', consignor }) },
      { name: 'file', filename: 'orders\u0000.csv', type: 'text/csv', content: file },
    ]);
    const res = await svc.request({ method: 'POST', url: '/api/v1/imports', apiKey, payload: body.payload, headers: body.headers });
    const done = await finished(await accepted(res), apiKey);
    expect(done).toMatchObject({ state: 'completed', file_name: 'orders\uFFFD.csv' });
  });
});

describe('the generic template', () => {
  it('downloads as CSV and imports as it is', async () => {
    const template = await get('/api/v1/imports/template.csv');
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toMatch(/^text\/csv/);
    const { apiKey } = await svc.customer('Şablon');
    const id = await accepted(await post({ csv: template.body, preset: 'generic', consignor }, { apiKey }));
    expect(await finished(id, apiKey)).toMatchObject({ state: 'completed', counts: { rows: 3, orders: 2, created: 2 } });
  });
});

describe('refusals', () => {
  const shopify = () => fixture('shopify-orders.csv');
  it.each([
    [
      'an unknown preset',
      () => post({ csv: shopify(), preset: 'magento', consignor }),
      'preset',
      'Unknown preset "magento". Available presets: generic, shopify, woocommerce.',
    ],
    [
      'a preset that needs a consignor without one',
      () => post({ csv: shopify(), preset: 'shopify' }),
      'consignor',
      'The shopify preset needs the sender: give a consignor in the import options.',
    ],
    ['no file', () => post({ preset: 'shopify', consignor }), 'csv', 'This value should not be blank.'],
    ['an empty file', () => post({ csv: '', preset: 'shopify', consignor }), 'csv', 'The file is empty: it has no order rows below the header.'],
    [
      'a header without rows',
      () => post({ csv: shopify().split('\n')[0] + '\n', preset: 'shopify', consignor }),
      'file',
      'The file is empty: it has no order rows below the header.',
    ],
    [
      'another shop’s file',
      () => post({ csv: fixture('woocommerce-orders.csv'), preset: 'shopify', consignor }),
      'file',
      'The file lacks the column(s) "Name", "Shipping Name", "Shipping Address1", "Lineitem name", "Lineitem quantity" that the shopify preset needs.',
    ],
    [
      'broken quoting',
      () => post({ csv: 'reference_no,consignee_name\nA-1,"Ali\n', preset: 'generic', consignor }),
      'file',
      expect.stringMatching(/^The file is not valid CSV \(line \d+\): CSV_QUOTE_NOT_CLOSED$/),
    ],
    [
      'a file that is not UTF-8',
      () => upload(Buffer.from('reference_no,consignee_name\nA-1,\xdd\xfeik\n', 'latin1'), { preset: 'generic', consignor }),
      'file',
      'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.',
    ],
    [
      'a multipart request without a file',
      () => svc.request({ method: 'POST', url: '/api/v1/imports', apiKey: key, ...multipart([{ name: 'options', content: '{"preset":"shopify"}' }]) }),
      'file',
      'This value should not be blank.',
    ],
    [
      'processing without a package weight',
      () => post({ csv: shopify(), preset: 'shopify', consignor, preference: 1, process: true }),
      'package.weight',
      'This value should not be blank.',
    ],
    [
      'a consignor the draft rules refuse',
      () => post({ csv: shopify(), preset: 'shopify', consignor: { ...consignor, country: 'XX' } }),
      'consignor.country',
      'This value is not a valid country.',
    ],
  ])('refuses %s with a 400 envelope', async (_case, send, field, message) => {
    const res = await send();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: false, errors: [{ field, message }] });
  });

  it('speaks Turkish too', async () => {
    const res = await post({ csv: fixture('shopify-orders.csv'), preset: 'magento', consignor }, { lang: 'tr' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'preset', message: 'Bilinmeyen ön ayar "magento". Kullanılabilir ön ayarlar: generic, shopify, woocommerce.' },
    ]);
  });

  it('keeps no file it refused', async () => {
    const { rows } = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM import_files WHERE file_id NOT IN (SELECT file_id FROM imports)');
    expect(Number(rows[0].n)).toBe(0);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same file and options, whichever form carries them; other options are 422', async () => {
    const { apiKey } = await svc.customer('Tekrar');
    const headers = { 'idempotency-key': `imp-${randomUUID()}` };
    const csv = genericFile('IDEM', 3);
    const first = await post({ csv, preset: 'generic', consignor }, { apiKey, headers });
    const id = await accepted(first);
    const again = await upload(csv, { preset: 'generic', consignor }, { apiKey, headers });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(id);
    const other = await post({ csv, preset: 'generic', consignor, preference: 2 }, { apiKey, headers });
    expect(other.statusCode).toBe(422);
    expect((await finished(id, apiKey)).counts.created).toBe(3);
    expect((await get('/api/v1/imports', { apiKey })).json().data.total).toBe(1);
  });
});

describe('isolation between customers', () => {
  it('shows another customer’s import to no one else', async () => {
    const owner = await svc.customer('Sahibi');
    const stranger = await svc.customer('Yabancı');
    const id = await accepted(await post({ csv: genericFile('MINE', 1), preset: 'generic', consignor }, { apiKey: owner.apiKey }));
    await finished(id, owner.apiKey);
    for (const url of [`/api/v1/imports/${id}`, `/api/v1/imports/${id}/errors`]) {
      const res = await get(url, { apiKey: stranger.apiKey });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: false, errors: [{ message: 'Import not found.' }] });
    }
    expect((await svc.request({ method: 'POST', url: `/api/v1/imports/${id}/cancel`, apiKey: stranger.apiKey })).statusCode).toBe(404);
    expect((await get('/api/v1/imports', { apiKey: stranger.apiKey })).json().data.total).toBe(0);
    expect((await get('/api/v1/imports/not-a-uuid', { apiKey: owner.apiKey })).statusCode).toBe(404);
  });
});

describe('large files', () => {
  it('works through a file in pages and workflow runs (continue-as-new) without losing or repeating an order', async () => {
    const { apiKey } = await svc.customer('Büyük Dosya');
    const id = await accepted(await upload(genericFile('BIG', 250), { preset: 'generic', consignor }, { apiKey }));
    const done = await finished(id, apiKey);
    expect(done).toMatchObject({ state: 'completed', counts: { rows: 375, orders: 250, created: 250, failed: 0, duplicates: 0 } });
    expect(await consignmentCount(id)).toBe(250);
    const { rows } = await svc.db.query<{ n: number }>('SELECT count(DISTINCT reference_no)::int AS n FROM consignments WHERE import_id = $1', [id]);
    expect(Number(rows[0].n)).toBe(250);
    // 250 orders in pages of 40, two pages per run: the import continued as new at least twice.
    let runs = 0;
    for (let i = 0; i < 50 && runs < 3; i++) {
      runs = 0;
      for await (const _ of svc.runtime.client.workflow.list({ query: `WorkflowId = "${importWorkflowId(id)}"` })) runs++;
      if (runs < 3) await sleep(200);
    }
    expect(runs).toBeGreaterThanOrEqual(3);
  });

  it('stops on cancel: no order is created after it, every order not created is reported cancelled', async () => {
    const { apiKey } = await svc.customer('Vazgeçen');
    const id = await accepted(await upload(genericFile('STOP', 400), { preset: 'generic', consignor }, { apiKey }));
    const res = await svc.request({ method: 'POST', url: `/api/v1/imports/${id}/cancel`, apiKey, lang: 'tr' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: true, message: 'İçe aktarma iptal edildi: başka sipariş oluşturulmayacak.', data: { id, state: 'cancelled' } });
    const counts = res.json().data.counts;
    expect(counts.created).toBeLessThan(400);
    expect(counts.created + counts.cancelled + counts.failed + counts.duplicates).toBe(counts.orders);
    // The import's workflow has ended: no batch of it is left to create another order.
    await svc.runtime.client.workflow.getHandle(importWorkflowId(id)).result();
    expect(await consignmentCount(id)).toBe(counts.created);
    expect((await get(`/api/v1/imports/${id}`, { apiKey })).json().data.counts).toEqual(counts);

    const again = await svc.request({ method: 'POST', url: `/api/v1/imports/${id}/cancel`, apiKey });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].message).toBe('The import has already finished (cancelled).');
  });
});
