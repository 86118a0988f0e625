import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { turkishDomesticDraft, waitForProcessed } from '../support/consignments';
import { SURAT_TEST_ACCOUNT } from '../support/carriers/surat.schemas';
import { startSuratDouble, type SuratDouble } from '../support/carriers/surat-double';
import { readPdf } from '../support/pdf-tools';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * A `surat` carrier account (Sürat Kargo's SOAP service) through our HTTP API, its base_url pointing at the Sürat
 * test double written from Sürat's published contract: booking under our code with our label (Sürat prints none
 * through this operation), movements read by the account's tracking poller to delivered, withdrawal before pickup
 * and Sürat's refusal after it, a field Sürat would refuse answered as a 400 naming it, and exactly one shipment
 * when the booking's answer is lost.
 */
let svc: TestService;
let sd: SuratDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  sd = await startSuratDouble();
  // The double listens on loopback: private targets allowed. Rounds every second, so movements follow quickly.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '1000', CARRIER_WAIT_MS: '4000', BOOKING_GRACE_MS: '3000' });
  ({ apiKey: key } = await svc.customer('Sürat shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await sd?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object, lang?: string) =>
  svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload, ...(lang ? { lang } : {}) });
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;
const draft = async (reference: string, overrides: Record<string, unknown> = {}) => {
  const created = await call('POST', '/consignments/draft', turkishDomesticDraft(providerId, reference, overrides));
  expect(created.statusCode).toBe(201);
  return created.json().data.id as number;
};
const held = (reference: string) => [...sd.shipments.values()].filter((s) => s.gonderi.ReferansNo === reference);

describe('a Sürat Kargo carrier account', () => {
  it('is connected with the account code and its two passwords; neither is ever shown', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'surat',
      description: 'Sürat',
      credentials: { account_code: SURAT_TEST_ACCOUNT.cariKodu, password: SURAT_TEST_ACCOUNT.sifre, web_service_password: SURAT_TEST_ACCOUNT.webSifre },
      settings: { base_url: sd.serviceUrl, rates: { bands: [{ up_to: 10, price: 75 }] } },
    });
    expect(res.statusCode).toBe(201);
    providerId = res.json().data.provider_id;
    expect(JSON.stringify(res.json())).not.toContain(SURAT_TEST_ACCOUNT.webSifre);
    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'surat',
      supports: { quotes: true, cancel_in_transit: false, push_tracking: false },
    });
    const bad = await call('POST', '/carrier-accounts', { carrier: 'surat', credentials: { account_code: 'ABC', password: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Json[]).map((e) => e.field)).toEqual(expect.arrayContaining(['credentials.account_code', 'credentials.web_service_password']));
  });

  it('books under our barcode, prints our label with it, and follows Sürat’s movements to delivered', async () => {
    const id = await draft('SR-1');
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const data = processed.json().data as Json;
    const shipment = sd.find(data.barcode)!;
    expect(shipment.gonderi).toMatchObject({ OzelKargoTakipNo: data.barcode, ReferansNo: 'SR-1', Il: 'Ankara', Ilce: 'Çankaya', Adet: 2 });
    for (const r of sd.requests) expect([r.operation, r.validationErrors, r.unknownFields]).toEqual([r.operation, [], []]);
    expect(data.providerTrackingCode).toBe(shipment.barcode);
    expect((await details(id)).status).toBe(2); // handed in at a branch: no pickup booked
    const label = readPdf(Buffer.from(data.base64label, 'base64'));
    expect(label.pages).toBe(2); // a page per package, each with the code the branch scans
    for (const page of label.text) expect(page).toContain(data.barcode);

    sd.pickUp(data.barcode);
    sd.inTransit(data.barcode);
    sd.outForDelivery(data.barcode);
    sd.deliver(data.barcode);
    await waitFor('delivered', async () => ((await details(id)).status === 7 ? true : undefined), { timeoutMs: 30_000 });
    expect(((await details(id)).details as Json[]).map((h) => h.status)).toEqual(expect.arrayContaining([4, 5, 6, 7]));
  });

  it('withdraws at Sürat before pickup, and answers Sürat’s refusal once it has the parcel', async () => {
    const a = await draft('SR-CANCEL-1');
    const processedA = (await call('POST', `/consignments/draft/${a}/start-process`)).json().data as Json;
    expect((await call('POST', `/consignments/${a}/cancel`)).statusCode).toBe(200);
    expect(sd.find(processedA.barcode)!.withdrawal).toBeTruthy();

    const b = await draft('SR-CANCEL-2');
    const processedB = (await call('POST', `/consignments/draft/${b}/start-process`)).json().data as Json;
    sd.pickUp(processedB.barcode);
    await waitFor('picked up', async () => ((await details(b)).status === 4 ? true : undefined), { timeoutMs: 30_000 });
    const refused = await call('POST', `/consignments/${b}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(sd.find(processedB.barcode)!.withdrawal).toBeFalsy();
  });

  it('answers a field Sürat would refuse as a 400 naming it, in the caller’s language, leaving the draft a draft', async () => {
    const id = await draft('SR-COD', { special_services: [{ service_type: 'cash_on_delivery', details: { amount: 120 } }] });
    const before = sd.requests.length;
    const res = await call('POST', `/consignments/draft/${id}/start-process`, undefined, 'tr');
    expect(res.statusCode).toBe(400);
    expect((res.json().errors as Json[]).map((e) => e.field)).toEqual(['special_services.0', 'invoice_number']);
    expect(res.json().errors[0].message).toMatch(/^Kargo firması bu değeri kabul etmiyor: /);
    expect(sd.requests.length).toBe(before);
    expect((await details(id)).status).toBe(24);
  });

  it('books exactly once when the booking’s answer is lost: the retry finds the shipment by our code', async () => {
    const id = await draft('SR-LOST');
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur' });
    const before = sd.requests.length;
    const processed = await call('POST', `/consignments/draft/${id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const asked = sd.requests.slice(before).map((r) => r.operation);
    expect(asked.filter((op) => op !== 'KargoTakipHareketDetayliV2')).toEqual(['GonderiyiKargoyaGonderYeniSiparisBarkodOlustur', 'WebSiparisKodu']);
    expect(held('SR-LOST')).toHaveLength(1);
    expect(processed.json().data.providerTrackingCode).toBe(held('SR-LOST')[0].barcode);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith('Booking recovered: Sürat'))).toBe(true);
  });

  it('settles a booking in doubt itself when nobody processes again: the shipment Sürat holds becomes the consignment’s', async () => {
    const id = await draft('SR-NOBODY');
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur' });
    sd.failNext({ kind: 'hang' }, { operation: 'WebSiparisKodu', times: 20 });
    expect((await call('POST', `/consignments/draft/${id}/start-process`)).statusCode).toBe(503);
    sd.clearFaults();
    const found = await waitForProcessed(details, id);
    expect(held('SR-NOBODY')).toHaveLength(1);
    expect(found.labels[0].tracking_code).toBe(held('SR-NOBODY')[0].barcode);
  });
});
