import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { multipart } from '../support/multipart';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Document uploads (POST /api/v1/documents): PDF, PNG and JPEG recognised from their content, not their
 * names; a size limit; drafts reference only the caller's documents; lookups list them with signed links.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
let key: string;
let otherKey: string;
let pdf: Buffer;
let png: Buffer;
const jpeg = readFileSync(join(__dirname, '../fixtures/documents/receipt.jpg'));

const upload = (content: Buffer | string, filename = 'file.bin', apiKey = key, type = 'application/octet-stream') => {
  const body = multipart([{ name: 'file', filename, type, content }]);
  return svc.request({ method: 'POST', url: '/api/v1/documents', apiKey, payload: body.payload, headers: body.headers });
};
const party = { name: 'Depo', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+905551112233' };
const createDraft = (documents: { id: number }[], apiKey = key) =>
  svc.sendJson('POST', '/api/v1/consignments/draft', apiKey, { consignor: party, consignee: party, documents });

beforeAll(async () => {
  svc = await startTestService({ DOCUMENT_MAX_BYTES: String(64 * 1024) });
  ({ apiKey: key } = await svc.customer('Documents'));
  ({ apiKey: otherKey } = await svc.customer('Other'));
  pdf = await new Promise<Buffer>((resolve) => {
    const doc = new PDFDocument({ size: 'A6' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('Proforma invoice 2026-001');
    doc.end();
  });
  png = await QRCode.toBuffer('consignflow');
});
afterAll(async () => svc?.stop());

describe('POST /api/v1/documents', () => {
  it('stores PDF, PNG and JPEG, telling them apart by content (not by name or declared type)', async () => {
    for (const [content, name, type] of [
      [pdf, 'invoice.pdf', 'application/pdf'],
      [png, 'scan.pdf', 'image/png'], // named .pdf, is a PNG
      [jpeg, 'receipt', 'image/jpeg'],
    ] as const) {
      const res = await upload(content, name);
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ file_name: name, content_type: type, size: content.length });
      expect(res.json().data.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
  });

  it('refuses what is not a PDF, PNG or JPEG (415), an empty file (400), a file over the limit (413), and a body that is not multipart (415)', async () => {
    const text = await upload('%PD not quite a PDF', 'fake.pdf', key, 'application/pdf');
    expect(text.statusCode).toBe(415);
    expect(text.json().errors).toEqual([{ message: 'The document must be a PDF, PNG or JPEG file.', field: 'file' }]);
    expect((await upload(Buffer.alloc(0), 'empty.pdf')).statusCode).toBe(400);
    const big = await upload(Buffer.concat([pdf, Buffer.alloc(64 * 1024)]), 'big.pdf');
    expect(big.statusCode).toBe(413);
    expect(big.json().errors[0].field).toBe('file');
    const json = await svc.sendJson('POST', '/api/v1/documents', key, '{}');
    expect(json.statusCode).toBe(415);
    expect(json.json().errors[0].message).toBe('The request body must be multipart/form-data with the document as its `file` part.');
    const none = multipart([{ name: 'other', content: 'x' }]);
    expect((await svc.request({ method: 'POST', url: '/api/v1/documents', apiKey: key, payload: none.payload, headers: none.headers })).statusCode).toBe(400);
    expect((await upload(pdf, 'x.pdf', 'wrong')).statusCode).toBe(401);
  });
});

describe('documents on drafts', () => {
  it('a draft references the caller’s documents; the lookup lists them with signed links that download the bytes', async () => {
    const invoice = (await upload(pdf, 'invoice.pdf')).json().data as Json;
    const receipt = (await upload(jpeg, 'receipt.jpg')).json().data as Json;
    const created = await createDraft([{ id: invoice.id }, { id: receipt.id }]);
    expect(created.statusCode).toBe(201);
    expect(created.json().data.documents).toEqual([{ id: invoice.id }, { id: receipt.id }]);

    const detail = (await svc.request({ method: 'GET', url: `/api/v1/consignments/${created.json().data.id}/details`, apiKey: key })).json().data as Json;
    expect(detail.documents).toEqual([
      {
        id: invoice.id,
        file_name: 'invoice.pdf',
        content_type: 'application/pdf',
        size: pdf.length,
        file_url: expect.stringMatching(/\/api\/v1\/documents\/\d+\/invoice\.pdf\?hash=/),
        created_at: invoice.created_at,
      },
      { id: receipt.id, file_name: 'receipt.jpg', content_type: 'image/jpeg', size: jpeg.length, file_url: expect.any(String), created_at: receipt.created_at },
    ]);
    const link = new URL(detail.documents[0].file_url);
    const file = await svc.request({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(pdf)).toBe(true);
    // A wrong signature opens nothing; a right one for another name neither.
    expect((await svc.request({ method: 'GET', url: `${link.pathname}?hash=${'x'.repeat(32)}` })).statusCode).toBe(403);
    expect((await svc.request({ method: 'GET', url: `${link.pathname.replace('invoice.pdf', 'other.pdf')}${link.search}` })).statusCode).toBe(403);
  });

  it('refuses another customer’s document or an unknown id, naming the entry, and writes nothing', async () => {
    const theirs = (await upload(png, 'theirs.png', otherKey)).json().data as Json;
    const mine = (await upload(png, 'mine.png')).json().data as Json;
    const count = async () => (await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments')).rows[0].n;
    const before = await count();
    const refused = await createDraft([{ id: mine.id }, { id: theirs.id }, { id: 987654 }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { message: 'There is no such document of yours.', field: 'documents.1.id' },
      { message: 'There is no such document of yours.', field: 'documents.2.id' },
    ]);
    expect(await count()).toBe(before);
    const draft = (await createDraft([])).json().data as Json;
    const update = await svc.sendJson('PUT', `/api/v1/consignments/draft/${draft.id}`, key, { documents: [{ id: theirs.id }] });
    expect(update.statusCode).toBe(400);
    expect(update.json().errors[0].field).toBe('documents.0.id');
    expect((await createDraft([{ id: theirs.id }], otherKey)).statusCode).toBe(201);
  });
});
