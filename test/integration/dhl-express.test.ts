import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { internationalDraftBody } from '../support/consignments';
import { startMyDhlDouble, type MyDhlDouble } from '../support/carriers/mydhl-double';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * A `dhl_express` carrier account through our HTTP API, its base_url pointing at the MyDHL test double (which
 * checks every request against the carrier's OpenAPI document): an international draft with GTIP is booked
 * with its customs data, the label DHL returned is ours, tracking follows DHL's checkpoints.
 */
let svc: TestService;
let dhl: MyDhlDouble;
let key: string;
let providerId: number;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  dhl = await startMyDhlDouble();
  // The double listens on loopback: private targets allowed; polling every 300 ms.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '300' });
  ({ apiKey: key } = await svc.customer('DHL shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await dhl?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object) => svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload });

const international = (reference: string) =>
  internationalDraftBody([{ description: 'Kilim yastık kılıfı', gtip: '630493000000', origin: 'TR', currency_code: 'EUR', unit_price: 24.5, quantity: 2 }], {
    preference: 0,
    provider_id: providerId,
    reference_no: reference,
    invoice_number: `INV-${reference}`,
  });

describe('a DHL Express carrier account', () => {
  it('is connected with its MyDHL credentials, masked, and listed as a provider that cannot cancel in transit', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'dhl_express',
      description: 'DHL Express TR',
      credentials: { username: dhl.username, password: dhl.password, account_number: '123456789' },
      settings: { base_url: dhl.baseUrl },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain(dhl.password);
    providerId = res.json().data.provider_id;
    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'dhl_express',
      supports: { quotes: true, cancel_in_transit: false, push_tracking: false },
    });

    const bad = await call('POST', '/carrier-accounts', {
      carrier: 'dhl_express',
      credentials: { username: 'u', password: 'p', account_number: 'not a number!' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('credentials.account_number');
  });

  it('books an international draft with its customs data and keeps the label DHL returned; tracking follows DHL', async () => {
    const created = await call('POST', '/consignments/draft', international('DHL-1'));
    expect(created.statusCode).toBe(201);
    const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const done = processed.json().data as Json;

    const sent = dhl.requests.find((r) => r.operation === 'shipments.create')!;
    expect(sent.validationErrors).toEqual([]);
    const content = (sent.body as Json).content;
    expect(content).toMatchObject({ isCustomsDeclarable: true, incoterm: 'DDU', declaredValue: 49, declaredValueCurrency: 'EUR' });
    expect(content.exportDeclaration.lineItems[0]).toMatchObject({
      commodityCodes: [{ typeCode: 'outbound', value: '630493000000' }],
      manufacturerCountry: 'TR',
    });
    expect(content.exportDeclaration.invoice.number).toBe('INV-DHL-1');

    expect(done.providerTrackingCode).toMatch(/^\d{10}$/);
    expect(dhl.shipments.has(done.providerTrackingCode)).toBe(true);
    expect(done.contentType).toBe('application/pdf');
    expect(Buffer.from(done.base64label, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    dhl.setTracking(done.providerTrackingCode, 'delivered');
    await waitFor(
      'DHL’s delivery checkpoint',
      async () => ((await call('GET', `/consignments/${done.consignment}/details`)).json().data.status === 7 ? true : undefined),
      { timeoutMs: 60_000 },
    );
  });

  it('makes a ZPL label when processing asks for one: DHL’s ZPL is the label, served as ZPL', async () => {
    const created = await call('POST', '/consignments/draft', international('DHL-ZPL'));
    const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`, { label_format: 'zpl' });
    expect(processed.statusCode).toBe(200);
    expect(processed.json().data.contentType).toBe('application/zpl');
    expect(Buffer.from(processed.json().data.base64label, 'base64').toString()).toMatch(/^\^XA/);
    const sent = dhl.requests.filter((r) => r.operation === 'shipments.create').at(-1)!;
    expect((sent.body as Json).outputImageProperties.encodingFormat).toBe('zpl');
  });

  it('answers DHL’s refusal of the credentials and its faults: credentials refused at once, 5xx retried', async () => {
    const created = await call('POST', '/consignments/draft', international('DHL-ERR'));
    dhl.failNext({ kind: 'status', status: 401 }, { operation: 'shipments.create' });
    const refused = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].message).toContain('credentials');
    dhl.failNext({ kind: 'status', status: 503 }, { operation: 'shipments.create' });
    const retried = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(retried.statusCode).toBe(200);
  });

  it('answers a DHL refusal in our envelope with DHL’s reason, leaving the draft a draft', async () => {
    const created = await call('POST', '/consignments/draft', international('DHL-2'));
    dhl.failNext({ kind: 'refusal', preset: 'serviceNotAvailableForRoute' }, { operation: 'shipments.create' });
    const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(processed.statusCode).toBe(400);
    expect(processed.json().errors[0]).toMatchObject({ field: 'provider_id', message: expect.stringContaining('7008') });
    expect((await call('GET', `/consignments/${created.json().data.id}/details`)).json().data.status).toBe(24);
  });

  it('after a lost answer (DHL booked, the connection dropped), the retry finds that shipment by our reference, leaves it unused and books anew', async () => {
    dhl.failNext({ kind: 'applyThenDrop' }, { operation: 'shipments.create' });
    const created = await call('POST', '/consignments/draft', international('DHL-LOST'));
    const before = dhl.requests.length;
    const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(processed.statusCode).toBe(200);
    // (Tracking rounds of earlier consignments interleave: by waybill, left out; the look-up goes by reference.)
    const asked = dhl.requests
      .slice(before)
      .filter((r) => r.operation !== 'tracking.single' && !(r.operation === 'tracking.multi' && r.query.shipmentTrackingNumber !== undefined));
    expect(asked.map((r) => [r.operation, r.status ?? r.fault])).toEqual([
      ['shipments.create', 'applyThenDrop'],
      // The retry looks first, by the CU reference the lost create carried, then books again.
      ['tracking.multi', 200],
      ['shipments.create', 201],
    ]);
    for (const r of asked) expect(r.validationErrors).toEqual([]);
    const key = (asked[0].body as Json).customerReferences[0].value as string;
    expect(key).toBe(String(created.json().data.uuid).replace(/-/g, ''));
    expect(asked[1].query).toMatchObject({ shipmentReference: key, shipmentReferenceType: 'CU', shipperAccountNumber: '123456789' });
    const held = [...dhl.shipments.values()]
      .filter((s) => (s.request.customerReferences as { value: string }[])[0].value === key)
      .map((s) => s.shipmentTrackingNumber);
    expect(held).toHaveLength(2);
    const lost = held.find((awb) => awb !== processed.json().data.providerTrackingCode)!;
    expect(processed.json().data.providerTrackingCode).toBe(held[1]);
    const messages = ((await call('GET', `/consignments/${created.json().data.id}/details`)).json().data.details as Json[]).map((h) => String(h.message));
    expect(messages.some((m) => m.includes(lost) && m.includes('left unused'))).toBe(true);
  });

  it('books a DHL courier pickup when the account asks (awaiting pickup), and cancelling cancels the pickup at DHL', async () => {
    const account = await call('POST', '/carrier-accounts', {
      carrier: 'dhl_express',
      description: 'DHL Express TR pickup',
      credentials: { username: dhl.username, password: dhl.password, account_number: '123456789' },
      settings: { base_url: dhl.baseUrl, time_zone: 'Europe/Istanbul', pickup: { requested: true, close_time: '18:00', location: 'reception' } },
    });
    expect(account.statusCode).toBe(201);
    const bad = await call('POST', '/carrier-accounts', {
      carrier: 'dhl_express',
      credentials: { username: 'u', password: 'p', account_number: '123456789' },
      settings: { time_zone: 'Mars/Olympus_Mons', pickup: { requested: true, close_time: '25:00' } },
    });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as Json[]).map((e) => e.field).sort()).toEqual(['settings.pickup.close_time', 'settings.time_zone']);

    const created = await call('POST', '/consignments/draft', { ...international('DHL-PICKUP'), provider_id: account.json().data.provider_id });
    const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const awb = processed.json().data.providerTrackingCode as string;
    const dcn = dhl.shipments.get(awb)!.dispatchConfirmationNumber!;
    expect(dcn).toBeDefined();
    expect((await call('GET', `/consignments/${created.json().data.id}/details`)).json().data.status).toBe(3);

    const cancelled = await call('POST', `/consignments/${created.json().data.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    const pickupCancel = dhl.requests.find((r) => r.operation === 'pickups.cancel' && r.path === `/pickups/${dcn}`);
    expect(pickupCancel).toMatchObject({ status: 200, validationErrors: [] });
    expect((await call('GET', `/consignments/${created.json().data.id}/details`)).json().data.status).toBe(10);
  });

  it('cancels before pickup by voiding our label (DHL has no shipment cancel)', async () => {
    const created = await call('POST', '/consignments/draft', international('DHL-3'));
    const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(processed.statusCode).toBe(200);
    const cancelled = await call('POST', `/consignments/${created.json().data.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect((await call('GET', `/consignments/${created.json().data.id}/details`)).json().data.status).toBe(10);
  });
});
