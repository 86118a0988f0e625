import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { consignmentApi, draftBody, type ConsignmentApi } from '../support/consignments';
import { readPdf } from '../support/pdf-tools';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Customs documents: GET /consignments/{id}/documents/{cn22|cn23|proforma}.pdf answers the PDF made from the
 * consignment's items, parties and invoice number, in English or Turkish, exactly when the lookup's
 * `permissions` say it applies (CN22 up to 300 SDR, CN23 above, proforma for any international consignment
 * with items); otherwise a 409 saying why. The PDFs are read back with poppler.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let svc: TestService;
let key: string;
let otherKey: string;
let api: ConsignmentApi;

const abroad = (items: Json[], overrides: Json = {}) =>
  draftBody({
    invoice_number: 'INV-2026-77',
    consignee: {
      name: 'Jana Schmidt',
      country: 'DE',
      city: 'Berlin',
      postal_code: '10115',
      address: 'Invalidenstraße 117',
      phone_number: '+4930123456',
      eori_number: 'DE123456789012345',
    },
    packages: [{ weight: 2, items }],
    ...overrides,
  });
const rug = { description: 'Kilim yastık kılıfı', gtip: '630493000000', origin: 'TR', currency_code: 'EUR', unit_price: 24.5, quantity: 2 };
const lamp = { description: 'El yapımı bakır lamba', gtip: '940540000000', origin: 'TR', currency_code: 'EUR', unit_price: 450, quantity: 1 };

const documentOf = (id: number, file: string, lang?: string, apiKey = key) =>
  svc.request({ method: 'GET', url: `/api/v1/consignments/${id}/documents/${file}`, apiKey, lang });
const permissions = async (id: number) => (await api.details(id)).permissions as Json;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Customs A'));
  ({ apiKey: otherKey } = await svc.customer('Customs B'));
  api = consignmentApi(svc, key);
}, 60_000);
afterAll(async () => svc?.stop());

describe('customs documents', () => {
  it('makes the CN22 and the proforma invoice of a low-value parcel abroad, in English or Turkish, and refuses its CN23', async () => {
    const { id } = await api.draft(abroad([rug]));
    expect(await permissions(id)).toMatchObject({ can_create_cn22: true, can_create_cn23: false, can_create_proforma_invoice: true });

    const cn22 = await documentOf(id, 'cn22.pdf');
    expect(cn22.statusCode).toBe(200);
    expect(cn22.headers['content-type']).toBe('application/pdf');
    const en = readPdf(cn22.rawPayload);
    expect(en.sizes[0][0]).toBeCloseTo(283.46, 1);
    const text = en.text.join('\n');
    for (const expected of ['CUSTOMS DECLARATION CN 22', 'Kilim yastık kılıfı', '630493000000', '49.00']) expect(text).toContain(expected);

    const tr = readPdf((await documentOf(id, 'cn22.pdf', 'tr')).rawPayload).text.join('\n');
    expect(tr).toContain('GÜMRÜK BEYANNAMESİ CN 22');

    const proforma = readPdf((await documentOf(id, 'proforma.pdf')).rawPayload);
    expect(proforma.sizes[0][0]).toBeCloseTo(595.28, 1);
    const invoice = proforma.text.join('\n');
    for (const expected of ['PROFORMA INVOICE', 'INV-2026-77', 'Jana Schmidt', 'DE123456789012345']) expect(invoice).toContain(expected);

    const cn23 = await documentOf(id, 'cn23.pdf');
    expect(cn23.statusCode).toBe(409);
    expect(cn23.json().errors[0].message).toMatch(/^This consignment declares \d+\.\d\d SDR, within the 300 SDR of a CN22: its declaration is the CN22\.$/);
  });

  it('makes the CN23 of a parcel declared above 300 SDR, processed or not, and refuses its CN22', async () => {
    const done = await api.processed(abroad([rug, lamp]));
    expect(await permissions(done.id)).toMatchObject({ can_create_cn22: false, can_create_cn23: true, can_create_proforma_invoice: true });
    const cn23 = await documentOf(done.id, 'cn23.pdf');
    expect(cn23.statusCode).toBe(200);
    const text = readPdf(cn23.rawPayload).text.join('\n');
    expect(text).toContain('CUSTOMS DECLARATION CN 23');
    expect(text).toContain('El yapımı bakır lamba');
    expect(text).toContain(done.barcode);
    expect(cn23.headers['content-disposition']).toBe(`inline; filename="cn23-${done.barcode}.pdf"`);

    const cn22 = await documentOf(done.id, 'cn22.pdf', 'tr');
    expect(cn22.statusCode).toBe(409);
    expect(cn22.json().errors[0].message).toMatch(
      /^CN22 en fazla 300 SDR değerindeki içerik içindir; bu gönderi \d+\.\d\d SDR bildiriyor: beyannamesi CN23’tür\.$/,
    );
  });

  it('has none for a domestic consignment, one without items or a cancelled one, and says why', async () => {
    const domestic = await api.draft(draftBody());
    expect(await permissions(domestic.id)).toMatchObject({ can_create_cn22: false, can_create_cn23: false, can_create_proforma_invoice: false });
    expect((await documentOf(domestic.id, 'proforma.pdf')).json()).toEqual({
      status: false,
      errors: [{ message: 'Customs documents are for international consignments.' }],
    });

    const empty = await api.draft(abroad([]));
    expect(await permissions(empty.id)).toMatchObject({ can_create_cn22: false, can_create_cn23: false, can_create_proforma_invoice: false });
    const noItems = await documentOf(empty.id, 'proforma.pdf');
    expect(noItems.statusCode).toBe(409);
    expect(noItems.json().errors[0].message).toBe('The consignment declares no contents: add its items (packages[].items) first.');

    const cancelled = await api.draft(abroad([rug]));
    expect((await svc.request({ method: 'POST', url: `/api/v1/consignments/${cancelled.id}/cancel`, apiKey: key })).statusCode).toBe(200);
    expect(await permissions(cancelled.id)).toMatchObject({ can_create_cn22: false, can_create_cn23: false, can_create_proforma_invoice: false });
    expect((await documentOf(cancelled.id, 'cn22.pdf')).statusCode).toBe(409);
  });

  it("is not found for another customer's consignment or a document that does not exist", async () => {
    const { id } = await api.draft(abroad([rug]));
    expect((await documentOf(id, 'cn22.pdf', undefined, otherKey)).statusCode).toBe(404);
    const unknown = await documentOf(id, 'cn24.pdf');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0].message).toBe('No such customs document: cn22.pdf, cn23.pdf or proforma.pdf.');
    expect((await documentOf(999_999_999, 'cn22.pdf')).statusCode).toBe(404);
    expect((await documentOf(0, 'cn22.pdf')).statusCode).toBe(400);
  });
});
