import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { turkishDomesticDraft } from '../support/consignments';
import { HEPSIJET_TEST_ACCOUNT, readHepsijetZplBarcode, startHepsijetDouble, type HepsijetDouble } from '../support/carriers/hepsijet-double';
import { readPdf } from '../support/pdf-tools';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * A `hepsijet` carrier account (HepsiJet's integration REST API) through our HTTP API, its base_url pointing at the
 * HepsiJet test double written from HepsiJet's published documents: booking under our barcode, which HepsiJet prints
 * on its own ZPL label (kept as the consignment's ZPL, our PDF printing the same barcode beside it); statuses read
 * by the account's tracking poller; a delivery deleted before pickup and recalled after it; a field HepsiJet cannot
 * carry answered as a 400 naming it; and exactly one delivery when the booking's answer is lost.
 */
let svc: TestService;
let hj: HepsijetDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  hj = await startHepsijetDouble();
  // The double listens on loopback: private targets allowed. Polling every second, so statuses follow quickly.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '1000', CARRIER_WAIT_MS: '4000', BOOKING_GRACE_MS: '3000' });
  ({ apiKey: key } = await svc.customer('HepsiJet shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await hj?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object, lang?: string) =>
  svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload, ...(lang ? { lang } : {}) });
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;
const draft = async (reference: string, overrides: Record<string, unknown> = {}) => {
  const created = await call('POST', '/consignments/draft', turkishDomesticDraft(providerId, reference, overrides));
  expect(created.statusCode).toBe(201);
  return created.json().data.id as number;
};
const process = async (id: number, body?: object) => {
  const res = await call('POST', `/consignments/draft/${id}/start-process`, body);
  expect(res.statusCode).toBe(200);
  return res.json().data as Json;
};
const held = (reference: string) => [...hj.deliveries.values()].filter((d) => (d.rawRequest as Json).delivery.customerOrderId === reference);
/** The ZPL HepsiJet answered for a delivery's booking, every parcel's label ending in a newline. */
const answeredZpl = (no: string) => {
  const booked = hj.requests.find(
    (r) => r.operation === 'sendDeliveryOrderEnhanced' && r.outcome === 'ok' && (r.body as Json).delivery.customerDeliveryNo === no,
  )!;
  return ((booked.response as Json).data.zplBarcodeDTOList as Json[]).map((l) => `${l.zplBarcode}\n`).join('');
};

describe('a HepsiJet carrier account', () => {
  it('is connected with its user and password and the codes HepsiJet gave the account; the password is never shown', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'hepsijet',
      description: 'HepsiJet',
      credentials: { user_name: HEPSIJET_TEST_ACCOUNT.username, password: HEPSIJET_TEST_ACCOUNT.password },
      settings: {
        base_url: hj.baseUrl,
        company_name: 'TestCompany',
        company_code: 'TSTCMPNY',
        sender_address_id: 'TSTCMPNY_ADR1',
        xdock_code: 'TSTCMPNY_KUSTEPE',
        rates: { bands: [{ up_to: 10, price: 79 }] },
      },
    });
    expect(res.statusCode).toBe(201);
    providerId = res.json().data.provider_id;
    expect(JSON.stringify(res.json())).not.toContain(HEPSIJET_TEST_ACCOUNT.password);
    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'hepsijet',
      supports: { quotes: true, cancel_in_transit: true, push_tracking: false },
    });
  });

  it('books under our barcode; HepsiJet’s ZPL is the .zpl label, our PDF prints its barcode on every parcel; tracked to delivered', async () => {
    const id = await draft('HJ-1');
    const data = await process(id);
    const delivery = hj.deliveries.get(data.barcode)!;
    expect(delivery).toBeDefined();
    expect(delivery.rawRequest).toMatchObject({
      delivery: {
        customerDeliveryNo: data.barcode,
        customerOrderId: 'HJ-1',
        totalParcels: '2',
        recipientAddress: { city: { name: 'Ankara' }, town: { name: 'Çankaya' } },
        senderAddress: { companyAddressId: 'TSTCMPNY_ADR1', city: { name: 'İstanbul' }, town: { name: 'Kadıköy' } },
      },
    });
    for (const r of hj.requests) expect([r.operation, r.validationErrors, r.unknownFields]).toEqual([r.operation, [], []]);
    expect(data.providerTrackingCode).toBe(data.barcode);
    expect(data.contentType).toBe('application/pdf');
    const label = readPdf(Buffer.from(data.base64label, 'base64'));
    expect(label.pages).toBe(2);
    const printed = readHepsijetZplBarcode(answeredZpl(data.barcode))!;
    // Every page: the barcode HepsiJet's label carries, and the routing its label prints, whole.
    for (const page of label.text) {
      expect(page).toContain(printed);
      expect(page).toMatch(/Rota \/ Route\s+ÇANKAYA · ÇANKAYA-ÇANKAYA01-STD/);
    }

    hj.advance(data.barcode, 'ACCEPTED');
    hj.advance(data.barcode, 'IN_TRANSFER');
    hj.advance(data.barcode, 'OUT_FOR_DELIVERY');
    hj.advance(data.barcode, 'DELIVERED');
    await waitFor('delivered', async () => ((await details(id)).status === 7 ? true : undefined), { timeoutMs: 30_000 });
    expect(((await details(id)).details as Json[]).map((h) => h.status)).toEqual(expect.arrayContaining([4, 5, 6, 7]));
  });

  it('answers a ZPL label asked for with HepsiJet’s own ZPL, byte for byte', async () => {
    const id = await draft('HJ-ZPL');
    const data = await process(id, { label_format: 'zpl' });
    expect(data.contentType).toBe('application/zpl');
    expect(Buffer.from(data.base64label, 'base64').toString('utf8')).toBe(answeredZpl(data.barcode));
  });

  it('deletes the delivery before pickup, and recalls it once HepsiJet has the parcel', async () => {
    const a = await draft('HJ-CANCEL-1');
    const processedA = await process(a);
    expect((await call('POST', `/consignments/${a}/cancel`)).statusCode).toBe(200);
    expect(hj.deliveries.get(processedA.barcode)!.events.at(-1)!.event).toBe('DELETED');

    const b = await draft('HJ-CANCEL-2');
    const processedB = await process(b);
    hj.advance(processedB.barcode, 'ACCEPTED');
    await waitFor('picked up', async () => ((await details(b)).status === 4 ? true : undefined), { timeoutMs: 30_000 });
    const before = hj.requests.length;
    expect((await call('POST', `/consignments/${b}/cancel`)).statusCode).toBe(200);
    expect(hj.requests.slice(before).map((r) => r.operation)).toContain('externalRecallDeliveryOrder');
    expect(hj.deliveries.get(processedB.barcode)!.events.at(-1)!.event).toBe('RECALLED');
  });

  it('answers cash on delivery, which HepsiJet cannot collect, as a 400 naming the service, in the caller’s language, without calling HepsiJet', async () => {
    const id = await draft('HJ-COD', { special_services: [{ service_type: 'cash_on_delivery', details: { amount: 120 } }] });
    const before = hj.requests.length;
    const res = await call('POST', `/consignments/draft/${id}/start-process`, undefined, 'tr');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: false,
      errors: [{ field: 'special_services.0.service_type', message: 'Kargo firması bu değeri kabul etmiyor: HepsiJet does not collect cash on delivery' }],
    });
    expect(hj.requests.length).toBe(before);
    expect((await details(id)).status).toBe(24);
  });

  it('books exactly once when the booking’s answer is lost: the retry finds the delivery by our customerDeliveryNo', async () => {
    const id = await draft('HJ-LOST');
    hj.failNext({ kind: 'applyThenDrop' }, { operation: 'sendDeliveryOrderEnhanced' });
    const before = hj.requests.length;
    const data = await process(id);
    // Its own calls (the poller asks about the other consignments meanwhile).
    const own = hj.requests.slice(before).filter((r) => r.path.includes(data.barcode) || JSON.stringify(r.body ?? {}).includes(data.barcode));
    expect(own.map((r) => r.operation)).toEqual(['sendDeliveryOrderEnhanced', 'getDeliveryTracking', 'generateZplBarcode']);
    expect(held('HJ-LOST')).toHaveLength(1);
    expect(data.providerTrackingCode).toBe(held('HJ-LOST')[0].customerDeliveryNo);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith(`Booking recovered: HepsiJet already held this consignment under ${data.barcode}`))).toBe(true);
  });
});
