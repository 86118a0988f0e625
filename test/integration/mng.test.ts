import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { party, turkishDomesticDraft } from '../support/consignments';
import { MNG_TEST_APP, MNG_TEST_CUSTOMER, startMngDouble, type MngDouble, type MngOrder } from '../support/carriers/mng-double';
import { readPdf } from '../support/pdf-tools';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * An `mng` carrier account (MNG Kargo's REST API behind IBM API Connect) through our HTTP API, its base_url pointing
 * at the MNG test double written from the published contract: the three booking stages under our barcode, MNG's ZPL
 * kept as the label and our PDF printing the barcodes it encodes, statuses by the account's tracking poller, a cancel
 * before the branch accepts the parcel (and MNG's refusal after), a field MNG would refuse answered as a 400 naming
 * it, and exactly one order when the booking's answer is lost.
 */
let svc: TestService;
let mng: MngDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  mng = await startMngDouble();
  // The double listens on loopback: private targets allowed. Polling every second, so statuses follow quickly.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '1000', CARRIER_WAIT_MS: '4000', BOOKING_GRACE_MS: '3000' });
  ({ apiKey: key } = await svc.customer('MNG shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await mng?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang?: string) =>
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
/** The orders MNG holds under a service barcode (ours are upper-case already). */
const order = (barcode: string): MngOrder => mng.orders.get(barcode)!;
const live = (o: MngOrder) => o.shipments.filter((s) => !s.cancelled);

describe('an MNG Kargo carrier account', () => {
  it('is connected with the app’s IBM keys and the merchant’s customer number and password; no secret is shown', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'mng',
      description: 'MNG Kargo',
      credentials: {
        client_id: MNG_TEST_APP.clientId,
        client_secret: MNG_TEST_APP.clientSecret,
        customer_number: MNG_TEST_CUSTOMER.customerNumber,
        password: MNG_TEST_CUSTOMER.password,
      },
      settings: { base_url: mng.baseUrl, default_email: 'siparis@anadolubutik.example', rates: { bands: [{ up_to: 10, price: 90 }] } },
    });
    expect(res.statusCode).toBe(201);
    providerId = res.json().data.provider_id;
    const answer = JSON.stringify(res.json());
    expect(answer).not.toContain(MNG_TEST_APP.clientSecret);
    expect(answer).not.toContain(`"${MNG_TEST_CUSTOMER.password}"`);
    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'mng',
      supports: { quotes: true, cancel_in_transit: false, push_tracking: false },
    });
    const bad = await call('POST', '/carrier-accounts', { carrier: 'mng', credentials: { client_id: 'x' }, settings: { payment_type: 3 } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Json[]).map((e) => e.field)).toEqual(
      expect.arrayContaining(['credentials.client_secret', 'credentials.customer_number', 'credentials.password', 'settings.payment_type']),
    );
  });

  it('books in MNG’s three stages; our PDF prints the barcodes MNG’s ZPL encodes, a page per piece; tracked to delivered', async () => {
    const id = await draft('MNG-1');
    const data = await process(id);
    const o = order(data.barcode);
    expect(o).toBeDefined();
    expect(o.recipient).toMatchObject({
      cityCode: 6,
      districtCode: 9601,
      fullName: 'Şükrü Öztürk',
      email: 'siparis@anadolubutik.example',
      mobilePhoneNumber: '5551112233',
    });
    expect(o.pieces.map((p) => p.barcode)).toEqual([`${data.barcode}_PARCA1`, `${data.barcode}_PARCA2`]);
    for (const r of mng.requests) expect([r.operation, r.validationErrors, r.unknownFields]).toEqual([r.operation, [], []]);
    const [shipment] = live(o);
    expect(data.providerTrackingCode).toBe(shipment.shipmentId);
    expect(data.contentType).toBe('application/pdf');
    const label = readPdf(Buffer.from(data.base64label, 'base64'));
    expect(label.pages).toBe(2);
    shipment.barcodes.forEach((b, i) => {
      expect(label.text[i]).toContain(b.barcode);
      expect(label.text[i]).toContain('03401700'); // the routing line: MNG's branch code
    });

    mng.advance(data.barcode, 2);
    mng.advance(data.barcode, 3);
    mng.advance(data.barcode, 4);
    mng.advance(data.barcode, 5, { deliveryTo: 'Şükrü Öztürk' });
    await waitFor('delivered', async () => ((await details(id)).status === 7 ? true : undefined), { timeoutMs: 30_000 });
    expect(((await details(id)).details as Json[]).map((h) => h.status)).toEqual(expect.arrayContaining([4, 5, 6, 7]));
  });

  it('serves MNG’s own ZPL, byte for byte, when processing asks for ZPL', async () => {
    const id = await draft('MNG-ZPL');
    const data = await process(id, { label_format: 'zpl' });
    expect(data.contentType).toBe('application/zpl');
    const zpl = live(order(data.barcode))[0]
      .barcodes.map((b) => `${b.value}\n`)
      .join('');
    expect(Buffer.from(data.base64label, 'base64').toString('utf8')).toBe(zpl);
  });

  it('cancels at MNG before its branch accepts the parcel, and answers MNG’s refusal once it has', async () => {
    const a = await draft('MNG-CANCEL-1');
    const processedA = await process(a);
    expect((await call('POST', `/consignments/${a}/cancel`)).statusCode).toBe(200);
    expect(order(processedA.barcode)).toMatchObject({ cancelled: true, shipments: [{ cancelled: true }] });

    const b = await draft('MNG-CANCEL-2');
    const processedB = await process(b);
    mng.advance(processedB.barcode, 2);
    const refused = await call('POST', `/consignments/${b}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(JSON.stringify(refused.json().errors)).toContain('KABUL EDİLDİĞİ İÇİN İPTAL EDİLEMEZ');
    expect(order(processedB.barcode).cancelled).toBe(false);
  });

  it('answers a field MNG would refuse as a 400 naming it, leaving the draft a draft, with no booking call', async () => {
    const id = await draft('MNG-TAX', { consignee: { ...party('Çankaya', { name: 'Şükrü Öztürk' }), state: 'Ankara', tax_number: '12345678901' } });
    const before = mng.requests.length;
    const res = await call('POST', `/consignments/draft/${id}/start-process`, undefined, 'tr');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        field: 'consignee.tax_number',
        message: 'Kargo firması bu değeri kabul etmiyor: MNG takes a valid TC Kimlik number (11 digits) or a tax number (10 digits)',
      },
    ]);
    expect(mng.requests.length).toBe(before);
    expect((await details(id)).status).toBe(24);

    const unknown = await draft('MNG-DISTRICT', { consignee: { ...party('Atlantis', { name: 'X' }), state: 'Ankara' } });
    const from = mng.requests.length;
    const refused = await call('POST', `/consignments/draft/${unknown}/start-process`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { field: 'consignee.city', message: 'The carrier does not accept this value: MNG knows no district "Atlantis" in Ankara' },
    ]);
    expect(mng.requests.slice(from).every((r) => r.operation === 'getcities' || r.operation === 'getdistricts')).toBe(true);
  });

  it('books exactly once when createOrder’s answer is lost: the retry finds the order by our reference and makes its barcode', async () => {
    const id = await draft('MNG-LOST');
    mng.failNext({ kind: 'applyThenDrop' }, { operation: 'createOrder' });
    const before = mng.requests.length;
    const data = await process(id);
    const asked = mng.requests
      .slice(before)
      .map((r) => r.operation)
      .filter((op) => op === 'createOrder' || op === 'getshipmentstatus' || op === 'createbarcode');
    expect(asked).toEqual(['createOrder', 'getshipmentstatus', 'createbarcode']);
    const o = order(data.barcode);
    expect(o.shipments).toHaveLength(1);
    expect(data.providerTrackingCode).toBe(o.shipments[0].shipmentId);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith(`Booking recovered: MNG Kargo already held this consignment under ${data.barcode}`))).toBe(true);
  });

  it('books exactly once when createbarcode’s answer is lost: the one shipment MNG issued is the consignment’s', async () => {
    const id = await draft('MNG-LOST-BARCODE');
    mng.failNext({ kind: 'applyThenStatus', status: 500 }, { operation: 'createbarcode' });
    const data = await process(id);
    const o = order(data.barcode);
    expect(o.shipments).toHaveLength(1);
    expect(data.providerTrackingCode).toBe(o.shipments[0].shipmentId);
    const label = readPdf(Buffer.from(data.base64label, 'base64'));
    expect(label.text[0]).toContain(o.shipments[0].barcodes[0].barcode);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith(`Booking recovered: MNG Kargo already held this consignment under ${data.barcode}`))).toBe(true);
  });
});
