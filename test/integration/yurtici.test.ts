import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { turkishDomesticDraft, waitForProcessed } from '../support/consignments';
import { YURTICI_TEST_USER_SENDER_PAYS } from '../support/carriers/yurtici.schemas';
import { startYurticiDouble, type YurticiDouble } from '../support/carriers/yurtici-double';
import { readPdf } from '../support/pdf-tools';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * A `yurtici` carrier account (Yurtiçi Kargo's SOAP service) through our HTTP API, its base_url pointing at the
 * Yurtiçi test double written from Yurtiçi's published contract: booking under our barcode, the cargoKey its branch
 * scans on our label; statuses read by the account's tracking poller (a key at most once a minute, as Yurtiçi
 * allows); a cancel refused once the branch has the parcel, with Yurtiçi's status as the reason; a field Yurtiçi
 * would refuse answered as a 400 naming it; and exactly one shipment when the booking's answer is lost.
 */
let svc: TestService;
let yk: YurticiDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  yk = await startYurticiDouble();
  // The double listens on loopback: private targets allowed. Rounds every second; Yurtiçi's minute decides.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '1000', CARRIER_WAIT_MS: '4000', BOOKING_GRACE_MS: '3000' });
  ({ apiKey: key } = await svc.customer('Yurtiçi shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await yk?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object, lang?: string) =>
  svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload, ...(lang ? { lang } : {}) });
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;
const draft = async (reference: string, overrides: Record<string, unknown> = {}) => {
  const created = await call('POST', '/consignments/draft', turkishDomesticDraft(providerId, reference, overrides));
  expect(created.statusCode).toBe(201);
  return created.json().data.id as number;
};
const held = (reference: string) => [...yk.shipments.values()].filter((s) => s.order.orgReceiverCustId === reference);

describe('a Yurtiçi Kargo carrier account', () => {
  it('is connected with its web service user and password; the password is never shown', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'yurtici',
      description: 'Yurtiçi',
      credentials: { user_name: YURTICI_TEST_USER_SENDER_PAYS.userName, password: 'YK-secret-not-shown' },
      settings: { base_url: yk.endpointUrl, rates: { bands: [{ up_to: 10, price: 85 }] } },
    });
    expect(res.statusCode).toBe(201);
    providerId = res.json().data.provider_id;
    expect(JSON.stringify(res.json())).not.toContain('YK-secret-not-shown');
    // The double's test user's password is YK: the account is replaced with it (the stored one is never shown back).
    const replaced = await svc.request({
      method: 'PUT',
      url: `/api/v1/carrier-accounts/${providerId}`,
      apiKey: key,
      payload: {
        carrier: 'yurtici',
        description: 'Yurtiçi',
        credentials: { user_name: YURTICI_TEST_USER_SENDER_PAYS.userName, password: YURTICI_TEST_USER_SENDER_PAYS.password },
        settings: { base_url: yk.endpointUrl, rates: { bands: [{ up_to: 10, price: 85 }] } },
      },
    });
    expect(replaced.statusCode).toBe(200);
    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'yurtici',
      supports: { quotes: true, cancel_in_transit: false, push_tracking: false },
    });
    const bad = await call('POST', '/carrier-accounts', { carrier: 'yurtici', credentials: { user_name: 'YKTEST' }, settings: { language: 'DE' } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Json[]).map((e) => e.field)).toEqual(expect.arrayContaining(['credentials.password', 'settings.language']));
  });

  it('books under our barcode, which our label carries for Yurtiçi’s branch to scan, and follows the statuses to delivered', async () => {
    const id = await draft('YK-1');
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const data = processed.json().data as Json;
    const shipment = yk.shipments.get(data.barcode)!;
    expect(shipment.order).toMatchObject({
      cargoKey: data.barcode,
      receiverCustName: 'Şükrü Öztürk',
      cityName: 'Ankara',
      townName: 'Çankaya',
      cargoCount: '2',
    });
    for (const r of yk.requests) expect([r.operation, r.errors, r.unknownFields]).toEqual([r.operation, [], []]);
    expect(data.providerTrackingCode).toBe(data.barcode);
    expect((await details(id)).status).toBe(2);
    const label = readPdf(Buffer.from(data.base64label, 'base64'));
    expect(label.pages).toBe(2); // a page per package, each with the code the branch scans
    for (const page of label.text) expect(page).toContain(data.barcode);

    // Before the first question (a minute after the hand-over: Yurtiçi's own rule), the parcel travels to its receiver.
    yk.pickUp(data.barcode);
    yk.move(data.barcode, 'loaded');
    yk.move(data.barcode, 'outForDelivery');
    yk.deliver(data.barcode);
    await waitFor('delivered', async () => ((await details(id)).status === 7 ? true : undefined), { timeoutMs: 120_000, intervalMs: 2_000 });
    expect(((await details(id)).details as Json[]).map((h) => h.status)).toEqual(expect.arrayContaining([4, 5, 6, 7]));
    const asked = yk.requests.filter((r) => r.operation === 'queryShipment' && ((r.body?.keys as string[] | undefined) ?? []).includes(data.barcode));
    expect(asked.every((r) => r.errors.length === 0)).toBe(true);
  }, 180_000);

  it('cancels before Yurtiçi’s branch has the parcel, and answers Yurtiçi’s status as the reason once it has', async () => {
    const a = await draft('YK-CANCEL-1');
    const processedA = (await call('POST', `/consignments/draft/${a}/start-process`)).json().data as Json;
    expect((await call('POST', `/consignments/${a}/cancel`)).statusCode).toBe(200);
    expect(yk.shipments.get(processedA.barcode)!.status).toBe('CNL');

    const b = await draft('YK-CANCEL-2');
    const processedB = (await call('POST', `/consignments/draft/${b}/start-process`)).json().data as Json;
    yk.pickUp(processedB.barcode);
    const refused = await call('POST', `/consignments/${b}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(JSON.stringify(refused.json().errors)).toContain('IND');
    expect(yk.shipments.get(processedB.barcode)!.status).toBe('IND');
  });

  it('answers a field Yurtiçi would refuse as a 400 naming it, in the caller’s language, leaving the draft a draft', async () => {
    const id = await draft('YK-COD', { special_services: [{ service_type: 'cash_on_delivery', details: { amount: 120 } }] });
    const before = yk.requests.length;
    const res = await call('POST', `/consignments/draft/${id}/start-process`, undefined, 'tr');
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as Json[]).map((e) => e.field)).toEqual(['special_services.0.details.payment', 'invoice_number']);
    expect(res.json().errors[0].message).toMatch(/^Kargo firması bu değeri kabul etmiyor: /);
    expect(yk.requests.length).toBe(before);
    expect((await details(id)).status).toBe(24);
  });

  it('books exactly once when the booking’s answer is lost: the retry finds the shipment by its cargoKey', async () => {
    const id = await draft('YK-LOST');
    yk.failNext({ kind: 'applyThenDrop' }, { operation: 'createShipment' });
    const before = yk.requests.length;
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const own = yk.requests
      .slice(before)
      .filter((r) => r.operation === 'createShipment' || (r.body?.keys as string[] | undefined)?.includes(processed.json().data.barcode));
    expect(own.map((r) => r.operation)).toEqual(['createShipment', 'queryShipment']);
    expect(held('YK-LOST')).toHaveLength(1);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith('Booking recovered: Yurtiçi'))).toBe(true);
  });

  it('settles a booking in doubt itself when nobody processes again: the shipment Yurtiçi holds becomes the consignment’s', async () => {
    const id = await draft('YK-NOBODY');
    yk.failNext({ kind: 'applyThenDrop' }, { operation: 'createShipment' });
    yk.failNext({ kind: 'hang' }, { operation: 'queryShipment', times: 20 });
    expect((await call('POST', `/consignments/draft/${id}/start-process`)).statusCode).toBe(503);
    yk.clearFaults();
    const found = await waitForProcessed(details, id);
    expect(held('YK-NOBODY')).toHaveLength(1);
    expect(found.labels[0].tracking_code).toBe(held('YK-NOBODY')[0].cargoKey);
  });
});
