import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { party, turkishDomesticDraft, waitForProcessed } from '../support/consignments';
import { SENDEO_TEST_CUSTOMER, startSendeoDouble, type SendeoDouble } from '../support/carriers/sendeo-double';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * A `sendeo` carrier account (Sendeo's current API) through our HTTP API, its base_url pointing at the Sendeo test
 * double written from Sendeo's published document: booking with the district ids Sendeo needs, our label with
 * its piece barcodes, statuses by polling TRACKDELIVERY, cancellation before pickup, a field Sendeo would refuse
 * answered as a 400 naming it, and exactly one delivery when the booking's answer is lost.
 */
let svc: TestService;
let sd: SendeoDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  sd = await startSendeoDouble();
  // The double listens on loopback: private targets allowed. Polling every second, so statuses follow quickly.
  // A booking in doubt is settled by the service itself 3 s after processing gave up.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '1000', CARRIER_WAIT_MS: '4000', BOOKING_GRACE_MS: '3000' });
  ({ apiKey: key } = await svc.customer('Sendeo shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await sd?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang?: string) =>
  svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload, ...(lang ? { lang } : {}) });
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;

const domestic = (reference: string, overrides: Record<string, unknown> = {}) => turkishDomesticDraft(providerId, reference, overrides);

const draft = async (reference: string, overrides: Record<string, unknown> = {}) => {
  const created = await call('POST', '/consignments/draft', domestic(reference, overrides));
  expect(created.statusCode).toBe(201);
  return created.json().data.id as number;
};

describe('a Sendeo carrier account', () => {
  it('is connected with the customer code and password of its API user; the password is never shown', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'sendeo',
      description: 'Sendeo',
      credentials: { customer_code: SENDEO_TEST_CUSTOMER.code, password: SENDEO_TEST_CUSTOMER.password },
      settings: {
        base_url: sd.baseUrl,
        rates: {
          bands: [
            { up_to: 5, price: 70 },
            { up_to: 20, price: 110 },
          ],
        },
      },
    });
    expect(res.statusCode).toBe(201);
    providerId = res.json().data.provider_id;
    expect(JSON.stringify(res.json())).not.toContain(SENDEO_TEST_CUSTOMER.password);
    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'sendeo',
      supports: { quotes: true, cancel_in_transit: false, push_tracking: false },
    });
    const bad = await call('POST', '/carrier-accounts', { carrier: 'sendeo', credentials: { token: 'old-style' } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Json[]).map((e) => e.field)).toEqual(
      expect.arrayContaining(['credentials.customer_code', 'credentials.password', 'credentials.token']),
    );
  });

  it('books: SETDELIVERY with Sendeo’s district ids, then the measurements; our label carries Sendeo’s piece barcodes; tracked to delivered', async () => {
    const id = await draft('SD-1');
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const data = processed.json().data as Json;
    const delivery = sd.deliveries.get(data.barcode)!;
    expect(delivery).toBeDefined();
    expect(delivery.request).toMatchObject({
      ReferenceNo: data.barcode,
      SenderCityId: 34,
      SenderDistrictId: 34245,
      ReceiverCityId: 6,
      CustomerReferenceType: 'SD-1',
    });
    expect(delivery.measurements).toHaveLength(2);
    for (const r of sd.requests) expect([r.operation, r.validationErrors, r.unknownFields]).toEqual([r.operation, [], []]);
    expect(data.providerTrackingCode).toBe(delivery.trackingNumber);
    const pdf = Buffer.from(data.base64label, 'base64').toString('latin1');
    expect(pdf.match(/\/Type \/Page\b/g)).toHaveLength(2);

    sd.advance(data.barcode, 102);
    sd.advance(data.barcode, 105);
    sd.advance(data.barcode, 109);
    sd.advance(data.barcode, 111);
    await waitFor('delivered', async () => ((await details(id)).status === 7 ? true : undefined), { timeoutMs: 30_000 });
    expect(((await details(id)).details as Json[]).map((h) => h.status)).toEqual(expect.arrayContaining([4, 5, 6, 7]));
  });

  it('cancels at Sendeo before pickup, and answers its refusal once the parcel is picked up', async () => {
    const a = await draft('SD-CANCEL-1');
    const processedA = (await call('POST', `/consignments/draft/${a}/start-process`)).json().data as Json;
    expect((await call('POST', `/consignments/${a}/cancel`)).statusCode).toBe(200);
    expect(sd.deliveries.get(processedA.barcode)!.cancelled).toBe(true);

    const b = await draft('SD-CANCEL-2');
    const processedB = (await call('POST', `/consignments/draft/${b}/start-process`)).json().data as Json;
    sd.advance(processedB.barcode, 102);
    await waitFor('picked up', async () => ((await details(b)).status === 4 ? true : undefined), { timeoutMs: 30_000 });
    const refused = await call('POST', `/consignments/${b}/cancel`);
    expect(refused.statusCode).toBe(409);
  });

  it('answers a field Sendeo would refuse as a 400 naming it, in the caller’s language, leaving the draft a draft', async () => {
    const id = await draft('SD-FIELD', { special_services: [{ service_type: 'cash_on_delivery', details: { amount: 7500 } }] });
    const before = sd.requests.length;
    const res = await call('POST', `/consignments/draft/${id}/start-process`, undefined, 'tr');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: false,
      errors: [{ field: 'special_services.0.details.amount', message: 'Kargo firması bu değeri kabul etmiyor: Sendeo collects at most 5000 TRY on delivery' }],
    });
    expect(sd.requests.slice(before).map((r) => r.operation)).not.toContain('SETDELIVERY');
    expect((await details(id)).status).toBe(24);

    const unknown = await draft('SD-DISTRICT', { consignee: { ...party('Atlantis', { name: 'X' }), state: 'Ankara' } });
    const refused = await call('POST', `/consignments/draft/${unknown}/start-process`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { field: 'consignee.city', message: 'The carrier does not accept this value: Sendeo knows no district "Atlantis" in Ankara' },
    ]);
  });

  it('books exactly once when SETDELIVERY’s answer is lost: the retry finds the delivery by our ReferenceNo', async () => {
    const id = await draft('SD-LOST');
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'SETDELIVERY' });
    const before = sd.requests.length;
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const data = processed.json().data as Json;
    expect(
      sd.requests
        .slice(before)
        .map((r) => r.operation)
        .filter((op) => op === 'SETDELIVERY' || op === 'GETBARCODE'),
    ).toEqual(['SETDELIVERY', 'GETBARCODE']);
    const held = [...sd.deliveries.values()].filter((d) => d.request.CustomerReferenceType === 'SD-LOST');
    expect(held).toHaveLength(1);
    expect(data.providerTrackingCode).toBe(held[0].trackingNumber);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith(`Booking recovered: Sendeo already held this consignment under ${data.barcode}`))).toBe(true);
  });

  it('a later processing after CARRIER_UNAVAILABLE asks first: one delivery, the one the unanswered try made', async () => {
    const id = await draft('SD-LATER');
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'SETDELIVERY' });
    sd.failNext({ kind: 'hang' }, { operation: 'GETBARCODE', times: 20 });
    expect((await call('POST', `/consignments/draft/${id}/start-process`)).statusCode).toBe(503);
    sd.clearFaults();
    const again = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(again.statusCode).toBe(200);
    const held = [...sd.deliveries.values()].filter((d) => d.request.CustomerReferenceType === 'SD-LATER');
    expect(held).toHaveLength(1);
    expect(again.json().data.providerTrackingCode).toBe(held[0].trackingNumber);
  });

  const held = (reference: string) => [...sd.deliveries.values()].filter((d) => d.request.CustomerReferenceType === reference);

  it('a retry with the same Idempotency-Key after a 503 processes again: one delivery, the one the unanswered try made', async () => {
    const id = await draft('SD-SAMEKEY');
    const send = () =>
      svc.request({ method: 'POST', url: `/api/v1/consignments/draft/${id}/start-process`, apiKey: key, headers: { 'idempotency-key': 'sd-same-key' } });
    // Booked at Sendeo, the answer lost, and every look-up unanswered for the whole carrier wait.
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'SETDELIVERY' });
    sd.failNext({ kind: 'hang' }, { operation: 'GETBARCODE', times: 20 });
    const first = await send();
    expect(first.statusCode).toBe(503);
    expect(held('SD-SAMEKEY')).toHaveLength(1);
    sd.clearFaults();

    const before = sd.requests.length;
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    // The retry asked Sendeo what it holds under our ReferenceNo, and booked nothing.
    const asked = sd.requests.slice(before).map((r) => r.operation);
    expect(asked).toContain('GETBARCODE');
    expect(asked).not.toContain('SETDELIVERY');
    expect(held('SD-SAMEKEY')).toHaveLength(1);
    expect(again.json().data.providerTrackingCode).toBe(held('SD-SAMEKEY')[0].trackingNumber);
    // Now an outcome: replayed as it is.
    const third = await send();
    expect(third.statusCode).toBe(200);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json().data.barcode).toBe(again.json().data.barcode);
  });

  it('a retry with the same Idempotency-Key after SETDELIVERY failed for the whole wait books once Sendeo works again', async () => {
    const id = await draft('SD-DOWN');
    const send = () =>
      svc.request({ method: 'POST', url: `/api/v1/consignments/draft/${id}/start-process`, apiKey: key, headers: { 'idempotency-key': 'sd-down-key' } });
    sd.failNext({ kind: 'status', status: 500 }, { operation: 'SETDELIVERY', times: 1000 });
    expect((await send()).statusCode).toBe(503);
    sd.clearFaults();
    expect(held('SD-DOWN')).toHaveLength(0);
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(held('SD-DOWN')).toHaveLength(1);
    expect(again.json().data.providerTrackingCode).toBe(held('SD-DOWN')[0].trackingNumber);
    // Nothing left in doubt: the service does not settle anything later.
    await new Promise((r) => setTimeout(r, 4_000));
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.filter((m) => /CARRIER_UNAVAILABLE/.test(m))).toEqual([]);
  });

  it('settles a booking in doubt itself when nobody processes again: the delivery Sendeo holds becomes the consignment’s, noted in its history', async () => {
    const id = await draft('SD-NOBODY');
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'SETDELIVERY' });
    sd.failNext({ kind: 'hang' }, { operation: 'GETBARCODE', times: 20 });
    expect((await call('POST', `/consignments/draft/${id}/start-process`)).statusCode).toBe(503);
    sd.clearFaults();
    expect((await details(id)).status).toBe(24);
    const found = await waitForProcessed(details, id);
    expect(held('SD-NOBODY')).toHaveLength(1);
    expect(found.labels[0].tracking_code).toBe(held('SD-NOBODY')[0].trackingNumber);
    const messages = (found.details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith('Booking recovered: Sendeo already held this consignment'))).toBe(true);
    expect(messages.some((m) => m.startsWith('Processed without a request'))).toBe(true);
  });
});
