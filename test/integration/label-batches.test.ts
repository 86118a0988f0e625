import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consignmentApi, draftBody, type ConsignmentApi } from '../support/consignments';
import { readPdf } from '../support/pdf-tools';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * Merged label batches: POST /labels/batch and GET /imports/{id}/labels answer one PDF (label pages or A4
 * sheets of four) or one ZPL stream, in the order asked, and name every consignment that has no label —
 * in the headers and on a notes page — instead of skipping it. The PDFs are read back with poppler.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
let key: string;
let otherKey: string;
let api: ConsignmentApi;
/** Processed consignments of customer A, in creation order: id, barcode and reference. */
const shipped: { id: number; barcode: string; reference: string }[] = [];
let draftId: number;
let cancelled: { id: number; barcode: string };
let otherId: number;
let importId: string;

const batch = (body: unknown, apiKey = key, lang?: string) =>
  svc.request({ method: 'POST', url: '/api/v1/labels/batch', apiKey, lang, payload: body as object });

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Batch A'));
  ({ apiKey: otherKey } = await svc.customer('Batch B'));
  api = consignmentApi(svc, key);
  for (const reference of ['BATCH-1', 'BATCH-2', 'BATCH-3', 'BATCH-4', 'BATCH-5']) {
    const done = await api.processed(draftBody({ reference_no: reference }));
    shipped.push({ id: done.id, barcode: done.barcode, reference });
  }
  draftId = (await api.draft(draftBody({ reference_no: 'BATCH-DRAFT' }))).id;
  const toCancel = await api.processed(draftBody({ reference_no: 'BATCH-CANCELLED' }));
  expect((await svc.request({ method: 'POST', url: `/api/v1/consignments/${toCancel.id}/cancel`, apiKey: key })).statusCode).toBe(200);
  cancelled = { id: toCancel.id, barcode: toCancel.barcode };
  otherId = (await consignmentApi(svc, otherKey).processed(draftBody({ reference_no: 'BATCH-OTHER' }))).id;

  const party = (name: string, city: string) => ({ name, country: 'TR', city, address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+905551112233' });
  const csv = [
    'reference_no,consignee_name,consignee_phone,consignee_address,consignee_city,consignee_country,package_weight',
    'IMPL-1,Müşteri Bir,+905551112233,Çiçek Sk. 1,Ankara,TR,1',
    'IMPL-2,Müşteri İki,+905551112233,Çiçek Sk. 2,Ankara,TR,1',
    'IMPL-3,Müşteri Üç,+905551112233,Çiçek Sk. 3,Ankara,TR,1',
  ].join('\n');
  const started = await svc.request({
    method: 'POST',
    url: '/api/v1/imports',
    apiKey: key,
    payload: { preset: 'generic', process: true, provider_id: 1, consignor: party('Depo', 'İstanbul'), csv },
  });
  expect(started.statusCode).toBe(202);
  importId = started.json().data.id;
  await waitFor(
    'the import to finish',
    async () => (await svc.request({ method: 'GET', url: `/api/v1/imports/${importId}`, apiKey: key })).json().data.state === 'completed',
    { timeoutMs: 60_000 },
  );
}, 120_000);
afterAll(async () => svc?.stop());

describe('POST /api/v1/labels/batch', () => {
  it('merges the labels into one PDF of 100 × 150 mm pages in the order asked, then a notes page naming every consignment without one', async () => {
    const order = [shipped[2], shipped[0], shipped[4]];
    const entries = [order[0].id, order[1].barcode, String(order[2].id), draftId, cancelled.barcode, otherId, 999_999_999];
    const res = await batch({ consignments: entries });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="labels.pdf"');
    expect(res.headers['x-labels-count']).toBe('3');
    expect(res.headers['x-labels-missing']).toBe('4');
    expect(res.headers['x-labels-missing-entries']).toBe([draftId, cancelled.barcode, otherId, 999_999_999].join(','));

    const pdf = readPdf(res.rawPayload);
    expect(pdf.pages).toBe(4);
    for (const [width, height] of pdf.sizes) {
      expect(width).toBeCloseTo(283.46, 1);
      expect(height).toBeCloseTo(425.2, 1);
    }
    order.forEach((c, i) => {
      expect(pdf.text[i]).toContain(c.barcode);
      expect(pdf.text[i]).toContain(c.reference);
    });
    const notes = pdf.text[3].replace(/\s+/g, ' ');
    expect(notes).toContain('Consignments without a label (4)');
    expect(notes).toMatch(new RegExp(`Consignment ${draftId} · Reference BATCH-DRAFT — no label yet`));
    expect(notes).toMatch(new RegExp(`Consignment ${cancelled.barcode} · Reference BATCH-CANCELLED — label voided`));
    // Another customer's consignment is as unknown as one that does not exist.
    expect(notes).toMatch(new RegExp(`Consignment ${otherId} — not found`));
    expect(notes).toMatch(/Consignment 999999999 — not found/);
    expect(notes).not.toContain('BATCH-OTHER');
  });

  it('lays the labels out four to an A4 sheet, and writes the notes in Turkish when asked', async () => {
    const res = await batch({ consignments: [...shipped.map((c) => c.id), draftId], layout: 'a4' }, key, 'tr');
    expect(res.statusCode).toBe(200);
    const pdf = readPdf(res.rawPayload);
    // Five labels: a full sheet and one with a single label, then the notes page.
    expect(pdf.pages).toBe(3);
    for (const [width, height] of pdf.sizes) {
      expect(width).toBeCloseTo(595.28, 1);
      expect(height).toBeCloseTo(841.89, 1);
    }
    const onSheet = (page: number) => shipped.filter((c) => pdf.text[page].includes(c.barcode)).map((c) => c.reference);
    expect(onSheet(0)).toEqual(['BATCH-1', 'BATCH-2', 'BATCH-3', 'BATCH-4']);
    expect(onSheet(1)).toEqual(['BATCH-5']);
    // Reading order on the sheet: top left, top right, bottom left, bottom right.
    const firstSheet = pdf.text[0];
    expect(firstSheet.indexOf(shipped[0].barcode)).toBeLessThan(firstSheet.indexOf(shipped[2].barcode));
    expect(pdf.text[2]).toContain('Etiketi olmayan gönderiler (1)');
    expect(pdf.text[2]).toContain('henüz etiketi yok (işlenmedi)');
  });

  it('streams ZPL: each label in order, then a notes label', async () => {
    const res = await batch({ consignments: [shipped[1].barcode, shipped[3].id, draftId], format: 'zpl' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zpl');
    const zpl = res.payload;
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    expect(zpl.indexOf(shipped[1].barcode)).toBeGreaterThan(-1);
    expect(zpl.indexOf(shipped[1].barcode)).toBeLessThan(zpl.indexOf(shipped[3].barcode));
    expect(zpl.slice(zpl.lastIndexOf('^XA'))).toContain(`${draftId} · BATCH-DRAFT — no label yet (not processed)`);
  });

  it('answers 409 when none of the consignments has a label, and prints every entry it is given, duplicates included', async () => {
    const none = await batch({ consignments: [draftId, cancelled.id] });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ status: false, errors: [{ message: 'None of these consignments has a label to print.' }] });
    const twice = await batch({ consignments: [shipped[0].id, shipped[0].id] });
    expect(readPdf(twice.rawPayload).pages).toBe(2);
    expect(twice.headers['x-labels-missing']).toBe('0');
    expect(twice.headers['x-labels-missing-entries']).toBeUndefined();
  });

  it("names a carrier's label that exists in the other format only, and a label file that cannot be read", async () => {
    // Carrier labels are kept as received, in one format: made here by taking a format away.
    const [pdfOnly, zplOnly, broken] = await Promise.all(
      ['BATCH-FMT-1', 'BATCH-FMT-2', 'BATCH-FMT-3'].map((reference) => api.processed(draftBody({ reference_no: reference }))),
    );
    await svc.db.query('UPDATE labels SET zpl = NULL WHERE consignment_id = $1', [pdfOnly.id]);
    await svc.db.query('UPDATE labels SET pdf = NULL WHERE consignment_id = $1', [zplOnly.id]);
    await svc.db.query("UPDATE labels SET pdf = convert_to('not a pdf', 'UTF8') WHERE consignment_id = $1", [broken.id]);

    const pdf = await batch({ consignments: [shipped[0].id, pdfOnly.id, zplOnly.id, broken.id] });
    expect(pdf.statusCode).toBe(200);
    // What the headers can know before the first byte: the ZPL-only label. The unreadable file is found while printing.
    expect(pdf.headers['x-labels-missing-entries']).toBe(String(zplOnly.id));
    const read = readPdf(pdf.rawPayload);
    expect(read.pages).toBe(3);
    const notes = read.text[2].replace(/\s+/g, ' ');
    expect(notes).toContain('Consignments without a label (2)');
    expect(notes).toContain(`Consignment ${zplOnly.id} · Reference BATCH-FMT-2 — the carrier's label exists only as ZPL`);
    expect(notes).toContain(`Consignment ${broken.id} · Reference BATCH-FMT-3 — the label file could not be read`);

    const zpl = await batch({ consignments: [pdfOnly.id, zplOnly.id], format: 'zpl' });
    expect(zpl.headers['x-labels-missing-entries']).toBe(String(pdfOnly.id));
    expect(zpl.payload).toContain(`${pdfOnly.id} · BATCH-FMT-1 — the carrier's label exists only as PDF`);
  });

  it('refuses a malformed request, naming each problem', async () => {
    const problems = async (body: unknown) => {
      const res = await batch(body);
      expect(res.statusCode).toBe(400);
      return (res.json() as Json).errors as { field?: string; message: string }[];
    };
    expect(await problems({ consignments: [] })).toEqual([{ field: 'consignments', message: expect.any(String) }]);
    expect(await problems({})).toEqual([{ field: 'consignments', message: 'This value should not be blank.' }]);
    expect(await problems({ consignments: [1.5, 'a b', {}, 0, 'CF1'] })).toEqual(
      ['consignments.0', 'consignments.1', 'consignments.2', 'consignments.3'].map((field) => ({
        field,
        message: 'Each entry must be a consignment id or barcode.',
      })),
    );
    expect(await problems({ consignments: Array.from({ length: 10_001 }, (_, i) => i + 1) })).toEqual([
      { field: 'consignments', message: expect.stringContaining('10000') },
    ]);
    expect(await problems({ consignments: [1], format: 'zpl', layout: 'a4' })).toEqual([
      { field: 'layout', message: 'A4 sheets are for PDF; ZPL prints one label after another.' },
    ]);
    expect(await problems({ consignments: [1], format: 'png' })).toEqual([{ field: 'format', message: expect.any(String) }]);
    expect(await problems({ consignments: [1], copies: 2 })).toEqual([{ field: 'copies', message: expect.any(String) }]);
  });
});

describe('GET /api/v1/imports/{id}/labels', () => {
  it("merges an import's labels in the order of its file", async () => {
    const res = await svc.request({ method: 'GET', url: `/api/v1/imports/${importId}/labels`, apiKey: key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="labels-${importId}.pdf"`);
    expect(res.headers['x-labels-count']).toBe('3');
    const pdf = readPdf(res.rawPayload);
    expect(pdf.pages).toBe(3);
    expect(pdf.text.map((page) => /IMPL-\d/.exec(page)?.[0])).toEqual(['IMPL-1', 'IMPL-2', 'IMPL-3']);

    const zpl = await svc.request({ method: 'GET', url: `/api/v1/imports/${importId}/labels?format=zpl`, apiKey: key });
    expect(zpl.payload.match(/IMPL-\d/g)).toEqual(['IMPL-1', 'IMPL-2', 'IMPL-3']);
  });

  it("is not found for another customer's import, and refuses a bad format or layout", async () => {
    expect((await svc.request({ method: 'GET', url: `/api/v1/imports/${importId}/labels`, apiKey: otherKey })).statusCode).toBe(404);
    const bad = await svc.request({ method: 'GET', url: `/api/v1/imports/${importId}/labels?format=zpl&layout=a4`, apiKey: key });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'layout', message: 'A4 sheets are for PDF; ZPL prints one label after another.' }]);
    expect((await svc.request({ method: 'GET', url: `/api/v1/imports/${importId}/labels?size=big`, apiKey: key })).statusCode).toBe(400);
  });
});

describe('npx consignflow labels', () => {
  const BIN = join(__dirname, '../../bin/consignflow.js');
  let dir: string;
  let url: string;
  beforeAll(async () => {
    await svc.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(svc.app.server.address() as { port: number }).port}`;
    dir = mkdtempSync(join(tmpdir(), 'consignflow-labels-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const { CONSIGNFLOW_URL: _url, CONSIGNFLOW_API_KEY: _key, ...env } = process.env;
      execFile(process.execPath, [BIN, 'labels', ...args, '--url', url, '--api-key', key], { env, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it("writes an import's labels to a file, and exits 0 when every consignment has its label", async () => {
    const out = join(dir, 'labels.pdf');
    const run = await cli(['--import', importId, '-o', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`3 labels written to ${out}\n`);
    expect(readPdf(readFileSync(out)).text.map((page) => /IMPL-\d/.exec(page)?.[0])).toEqual(['IMPL-1', 'IMPL-2', 'IMPL-3']);
  });

  it('names the consignments without a label and exits 1; a refused request writes no file and exits 2', async () => {
    const list = join(dir, 'list.txt');
    writeFileSync(list, `${shipped[0].barcode}\n${draftId}\n\n`);
    const out = join(dir, 'some.zpl');
    const run = await cli(['--from', list, '--format', 'zpl', '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`1 label written to ${out}`);
    expect(run.stdout).toContain(`1 consignment without a label: ${draftId} (the last labels of the file list them, with the reasons)`);
    expect(readFileSync(out, 'utf8')).toContain(shipped[0].barcode);

    const none = await cli(['--consignments', String(draftId), '-o', join(dir, 'none.pdf')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('None of these consignments has a label to print.');
    const refused = await cli(['--consignments', 'a b', '-o', join(dir, 'bad.pdf')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('consignments.0: Each entry must be a consignment id or barcode.');
    expect(existsSync(join(dir, 'bad.pdf'))).toBe(false);
    expect((await cli(['-o', join(dir, 'x.pdf')])).stderr).toContain('name the labels with exactly one of --import, --consignments or --from');
  });
});
