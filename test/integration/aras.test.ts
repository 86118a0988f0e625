import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { turkishDomesticDraft, waitForProcessed } from '../support/consignments';
import { ARAS_TEST_ORDER_CREDENTIALS, ARAS_TEST_QUERY_CREDENTIALS } from '../support/carriers/aras.schemas';
import { startArasDouble, type ArasDouble } from '../support/carriers/aras-double';
import { readPdf } from '../support/pdf-tools';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * An `aras` carrier account (Aras Kargo's order and query SOAP services) through our HTTP API, pointing at the Aras
 * test double written from Aras' own documents: the order under our code with a barcode per piece on our label (Aras
 * prints none), statuses read by the account's tracking poller once Aras' branch has the cargo, deletion before the
 * waybill is cut and Aras' refusal after it, a field Aras would refuse answered as a 400 naming it, and exactly one
 * order when the booking's answer is lost.
 */
let svc: TestService;
let aras: ArasDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  aras = await startArasDouble();
  // The double listens on loopback: private targets allowed. Rounds every second, so statuses follow quickly.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '1000', CARRIER_WAIT_MS: '4000', BOOKING_GRACE_MS: '3000' });
  ({ apiKey: key } = await svc.customer('Aras shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await aras?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object, lang?: string) =>
  svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload, ...(lang ? { lang } : {}) });
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;
const draft = async (reference: string, overrides: Record<string, unknown> = {}) => {
  const created = await call('POST', '/consignments/draft', turkishDomesticDraft(providerId, reference, overrides));
  expect(created.statusCode).toBe(201);
  return created.json().data.id as number;
};
const held = (reference: string) => [...aras.orders.values()].filter((o) => o.fields.SpecialField1 === reference);

describe('an Aras Kargo carrier account', () => {
  it('is connected with the order service’s user and the query service’s customer code; the password is never shown', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'aras',
      description: 'Aras',
      credentials: {
        user_name: ARAS_TEST_ORDER_CREDENTIALS.userName,
        password: ARAS_TEST_ORDER_CREDENTIALS.password,
        customer_code: ARAS_TEST_QUERY_CREDENTIALS.customerCode,
      },
      settings: { base_url: aras.orderServiceUrl, query_url: aras.queryServiceUrl, rates: { bands: [{ up_to: 10, price: 92 }] } },
    });
    expect(res.statusCode).toBe(201);
    providerId = res.json().data.provider_id;
    expect(JSON.stringify(res.json())).not.toContain(ARAS_TEST_ORDER_CREDENTIALS.password);
    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'aras',
      supports: { quotes: true, cancel_in_transit: false, push_tracking: false },
    });
    const bad = await call('POST', '/carrier-accounts', { carrier: 'aras', credentials: { user_name: 'x', password: 'y' }, settings: { payor_type: 3 } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Json[]).map((e) => e.field)).toEqual(expect.arrayContaining(['credentials.customer_code', 'settings.payor_type']));
  });

  it('sends the order under our code, prints a page per piece with its barcode, and follows Aras to delivered', async () => {
    const id = await draft('AR-1');
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const data = processed.json().data as Json;
    const order = aras.orders.get(data.barcode)!;
    expect(order.fields).toMatchObject({
      IntegrationCode: data.barcode,
      SpecialField1: 'AR-1',
      ReceiverCityName: 'Ankara',
      ReceiverTownName: 'Çankaya',
      PieceCount: '2',
    });
    for (const r of aras.requests) expect([r.operation, r.validationErrors, r.unknownFields]).toEqual([r.operation, [], []]);
    const label = readPdf(Buffer.from(data.base64label, 'base64'));
    expect(label.pages).toBe(2);
    expect(label.text.join(' ')).toContain(`${data.barcode}02`);

    aras.advance(data.barcode, 'received');
    aras.advance(data.barcode, 'inTransit');
    aras.advance(data.barcode, 'outForDelivery');
    aras.advance(data.barcode, 'delivered');
    await waitFor('delivered', async () => ((await details(id)).status === 7 ? true : undefined), { timeoutMs: 30_000, intervalMs: 500 });
    expect(((await details(id)).details as Json[]).map((h) => h.status)).toEqual(expect.arrayContaining([4, 5, 6, 7]));
  });

  it('deletes the order before Aras’ branch cuts its waybill, and answers Aras’ refusal after', async () => {
    const a = await draft('AR-CANCEL-1');
    const processedA = (await call('POST', `/consignments/draft/${a}/start-process`)).json().data as Json;
    expect((await call('POST', `/consignments/${a}/cancel`)).statusCode).toBe(200);
    expect(aras.orders.has(processedA.barcode)).toBe(false);

    const b = await draft('AR-CANCEL-2');
    const processedB = (await call('POST', `/consignments/draft/${b}/start-process`)).json().data as Json;
    aras.advance(processedB.barcode, 'received');
    const refused = await call('POST', `/consignments/${b}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(JSON.stringify(refused.json().errors)).toContain('(999)');
  });

  it('answers a field Aras would refuse as a 400 naming it, in the caller’s language, leaving the draft a draft', async () => {
    const id = await draft('AR-LONG', { invoice_number: 'INV-2026-000000000123' });
    const before = aras.requests.length;
    const res = await call('POST', `/consignments/draft/${id}/start-process`, undefined, 'tr');
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as Json[]).map((e) => e.field)).toEqual(['invoice_number']);
    expect(res.json().errors[0].message).toMatch(/^Kargo firması bu değeri kabul etmiyor: /);
    expect(aras.requests.length).toBe(before);
    expect((await details(id)).status).toBe(24);
  });

  it('books exactly once when SetOrder’s answer is lost: the retry finds the order by our code', async () => {
    const id = await draft('AR-LOST');
    aras.failNext({ kind: 'applyThenDrop' }, { operation: 'SetOrder' });
    const before = aras.requests.length;
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const asked = aras.requests.slice(before).map((r) => r.operation);
    expect(asked.filter((op) => op !== 'GetQueryJSON')).toEqual(['SetOrder', 'GetOrderWithIntegrationCode']);
    expect(held('AR-LOST')).toHaveLength(1);
    expect(held('AR-LOST')[0].sends).toBe(1);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith('Booking recovered: Aras'))).toBe(true);
  });

  it('settles a booking in doubt itself when nobody processes again: the order Aras holds becomes the consignment’s', async () => {
    const id = await draft('AR-NOBODY');
    aras.failNext({ kind: 'applyThenDrop' }, { operation: 'SetOrder' });
    aras.failNext({ kind: 'hang' }, { operation: 'GetOrderWithIntegrationCode', times: 20 });
    expect((await call('POST', `/consignments/draft/${id}/start-process`)).statusCode).toBe(503);
    aras.clearFaults();
    const found = await waitForProcessed(details, id);
    expect(held('AR-NOBODY')).toHaveLength(1);
    expect(found.labels[0].tracking_code).toBe(held('AR-NOBODY')[0].integrationCode);
  });
});
