import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrate } from '../../src/db/migrate';
import { draftBody, party, waitForProcessed } from '../support/consignments';
import { startKolayGelsinDouble, type KolayGelsinDouble } from '../support/carriers/kolay-gelsin-double';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * A `kolay_gelsin` carrier account through our HTTP API, its base_url pointing at the Kolay Gelsin test
 * double, which checks every request against the schemas written from the carrier's OpenAPI document: a
 * domestic booking (recipient, then shipment with our piece barcodes), our label with one page per piece,
 * statuses pushed by its webhook (Basic auth or hash header) and found by status query, cancellation,
 * and each class of carrier error.
 */
let svc: TestService;
let kg: KolayGelsinDouble;
let key: string;
let providerId: number;
let statusUrl: string;
const WEBHOOK_SECRET = 'kolay-gelsin-webhook-secret-1';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  kg = await startKolayGelsinDouble();
  // The double listens on loopback: private targets allowed. Polling is slow so the webhook is what moves statuses.
  // A booking in doubt is settled by the service itself 3 s after processing gave up.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_POLL_INTERVAL_MS: '600000', CARRIER_WAIT_MS: '4000', BOOKING_GRACE_MS: '3000' });
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  ({ apiKey: key } = await svc.customer('Kolay Gelsin shipper'));
});
afterAll(async () => {
  await svc?.stop();
  await kg?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => svc.request({ method, url: `/api/v1${url}`, apiKey: key, payload });
const details = async (id: number) => (await call('GET', `/consignments/${id}/details`)).json().data as Json;

const domestic = (reference: string, packages = 1) =>
  draftBody({
    preference: 0,
    provider_id: providerId,
    reference_no: reference,
    invoice_number: `IRS-${reference}`,
    consignee: { ...party('Çankaya', { name: 'Şükrü Öztürk', address: 'Atatürk Bulvarı No:5 D:3' }), state: 'Ankara', postal_code: '06420' },
    packages: Array.from({ length: packages }, (_v, i) => ({
      package_type: 1,
      weight: 1.4 + i,
      length: 30,
      width: 20,
      height: 15,
      items: [{ description: 'Seramik kupa', quantity: 2 }],
    })),
  });

const booked = async (reference: string, packages = 1) => {
  const created = await call('POST', '/consignments/draft', domestic(reference, packages));
  expect(created.statusCode).toBe(201);
  const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
  expect(processed.statusCode).toBe(200);
  return { id: created.json().data.id as number, data: processed.json().data as Json };
};

describe('a Kolay Gelsin carrier account', () => {
  it('is connected with the token, customer and address ids Kolay Gelsin hands out; secrets are never shown', async () => {
    const res = await call('POST', '/carrier-accounts', {
      carrier: 'kolay_gelsin',
      description: 'Kolay Gelsin',
      credentials: { token: kg.token, customer_id: 20, address_id: 28, webhook_secret: WEBHOOK_SECRET },
      settings: {
        base_url: kg.baseUrl,
        rates: {
          currency: 'TRY',
          transit_days: 1,
          bands: [
            { up_to: 2, price: 55 },
            { up_to: 10, price: 80 },
          ],
          per_unit_above: 6,
          max: 30,
        },
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain(kg.token);
    expect(res.body).not.toContain(WEBHOOK_SECRET);
    providerId = res.json().data.provider_id;
    expect(res.json().data.status_webhook).toMatchObject({ registered: true, error: null });
    const { port } = svc.app.server.address() as AddressInfo;
    statusUrl = `http://127.0.0.1:${port}/api/v1/carrier-accounts/${providerId}/status-updates`;

    const providers = (await call('GET', '/providers')).json().data as Json[];
    expect(providers.find((p) => p.id === providerId)).toMatchObject({
      carrier: 'kolay_gelsin',
      supports: { quotes: true, cancel_in_transit: true, push_tracking: true },
    });
  });

  it('refuses bad credentials and rate tables field by field', async () => {
    const bad = await call('POST', '/carrier-accounts', {
      carrier: 'kolay_gelsin',
      credentials: { token: 't', customer_id: 'twenty', address_id: 28, webhook_secret: 'short' },
      settings: {
        rates: {
          bands: [
            { up_to: 5, price: 10 },
            { up_to: 2, price: 20 },
          ],
        },
      },
    });
    expect(bad.statusCode).toBe(400);
    const fields = (bad.json().errors as Json[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['credentials.customer_id', 'credentials.webhook_secret', 'settings.rates.bands']));
    const tr = await svc.request({
      method: 'POST',
      url: '/api/v1/carrier-accounts',
      apiKey: key,
      lang: 'tr',
      payload: {
        carrier: 'kolay_gelsin',
        credentials: { token: 't', customer_id: 1, address_id: 1 },
        settings: {
          rates: {
            bands: [
              { up_to: 5, price: 1 },
              { up_to: 5, price: 2 },
            ],
          },
        },
      },
    });
    expect(tr.json().errors[0]).toEqual({ field: 'settings.rates.bands', message: 'Bu değerler artan sırada olmalıdır.' });
  });

  it('books a domestic draft: the recipient, then the shipment with our piece barcodes; our label has a page per piece', async () => {
    const before = kg.requests.length;
    const { data } = await booked('KG-1', 2);
    const sent = kg.requests.slice(before);
    expect(sent.map((r) => r.operation)).toEqual(['SaveRecipient', 'SaveIntegrationShipment']);
    for (const r of sent) expect(r.validationErrors ?? []).toEqual([]);
    expect(sent[0].headers.authorization).toBe(`Bearer ${kg.token}`);
    expect(sent[0].body).toMatchObject({
      RecipientType: 1,
      RecipientName: 'Şükrü',
      RecipientSurname: 'Öztürk',
      Address: { CityId: 6, TownName: 'Çankaya', PostalCode: '06420' },
    });
    const shipment = sent[1].body as Json;
    expect(shipment).toMatchObject({
      SenderCustomer: { CustomerId: 20, Address: { AddressId: 28 } },
      PackageType: 2,
      PayingParty: 1,
      CustomerSpecificCode: 'KG-1',
    });
    expect(shipment.ShipmentItemList).toHaveLength(2);
    // Integers in the contract: 1.4 kg is declared as 2.
    expect(shipment.ShipmentItemList[0]).toMatchObject({
      Weight: 2,
      Width: 20,
      Length: 30,
      Height: 15,
      DeliveryNote: 'IRS-KG-1',
      ContentText: 'Seramik kupa, Seramik kupa',
    });

    const delivery = kg.deliveries.get(data.providerTrackingCode)!;
    expect(delivery).toBeDefined();
    expect(delivery.items.map((i) => i.customerBarcode)).toEqual([data.barcode, `${data.barcode}-2`]);
    const pdf = Buffer.from(data.base64label, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
  });

  it('books exactly once when the answer to SaveIntegrationShipment is lost: the retry finds the shipment by our piece barcode', async () => {
    kg.faults.applyThenDropNext(1, 'SaveIntegrationShipment');
    const before = kg.requests.length;
    const { id, data } = await booked('KG-LOST', 2);
    expect(kg.requests.slice(before).map((r) => [r.operation, r.outcome])).toEqual([
      ['SaveRecipient', 'ok'],
      ['SaveIntegrationShipment', 'dropped-after-apply'],
      // The retry asks first, by the first piece's CustomerTrackingId, and books nothing more.
      ['GetCorporateShipmentsStatus', 'ok'],
    ]);
    const held = [...kg.deliveries.entries()].filter(([, d]) => d.customerSpecificCode === 'KG-LOST');
    expect(held).toHaveLength(1);
    expect(data.providerTrackingCode).toBe(held[0][0]);
    expect(held[0][1].items.map((i) => i.customerBarcode)).toEqual([data.barcode, `${data.barcode}-2`]);
    const messages = ((await details(id)).details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith(`Booking recovered: Kolay Gelsin already held this consignment under ${data.barcode}`))).toBe(true);
    // Our label, one page per piece, as for any booking.
    expect(
      Buffer.from(data.base64label, 'base64')
        .toString('latin1')
        .match(/\/Type \/Page\b/g),
    ).toHaveLength(2);
  });

  it('a later processing after CARRIER_UNAVAILABLE asks first: the booking an unanswered try made is the one kept', async () => {
    // The shipment is saved but its answer lost, and the retry's look-up never answers: processing gives up (503).
    kg.faults.applyThenDropNext(1, 'SaveIntegrationShipment');
    kg.faults.hangNext(20, 'GetCorporateShipmentsStatus');
    const created = await call('POST', '/consignments/draft', domestic('KG-LATER'));
    const first = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(first.statusCode).toBe(503);
    kg.faults.reset();
    const held = () => [...kg.deliveries.entries()].filter(([, d]) => d.customerSpecificCode === 'KG-LATER');
    expect(held()).toHaveLength(1);

    // Processing again, later: the intent recorded before the lost call makes it look before booking.
    const before = kg.requests.length;
    const again = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(again.statusCode).toBe(200);
    expect(kg.requests.slice(before).map((r) => r.operation)).toEqual(['GetCorporateShipmentsStatus']);
    expect(held()).toHaveLength(1);
    expect(again.json().data.providerTrackingCode).toBe(held()[0][0]);
  });

  it('a retry with the same Idempotency-Key after a 503 processes again: the shipment the unanswered try saved, nothing booked twice', async () => {
    kg.faults.applyThenDropNext(1, 'SaveIntegrationShipment');
    kg.faults.hangNext(20, 'GetCorporateShipmentsStatus');
    const created = await call('POST', '/consignments/draft', domestic('KG-SAMEKEY'));
    const send = () =>
      svc.request({
        method: 'POST',
        url: `/api/v1/consignments/draft/${created.json().data.id}/start-process`,
        apiKey: key,
        headers: { 'idempotency-key': 'kg-same' },
      });
    expect((await send()).statusCode).toBe(503);
    kg.faults.reset();
    const held = () => [...kg.deliveries.entries()].filter(([, d]) => d.customerSpecificCode === 'KG-SAMEKEY');
    expect(held()).toHaveLength(1);

    const before = kg.requests.length;
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(kg.requests.slice(before).map((r) => r.operation)).toEqual(['GetCorporateShipmentsStatus']);
    expect(held()).toHaveLength(1);
    expect(again.json().data.providerTrackingCode).toBe(held()[0][0]);
    expect((await send()).headers['idempotent-replayed']).toBe('true');
  });

  it('settles a booking in doubt itself when nobody processes again: the shipment Kolay Gelsin holds becomes the consignment’s', async () => {
    kg.faults.applyThenDropNext(1, 'SaveIntegrationShipment');
    kg.faults.hangNext(20, 'GetCorporateShipmentsStatus');
    const created = await call('POST', '/consignments/draft', domestic('KG-NOBODY'));
    const id = created.json().data.id as number;
    expect((await call('POST', `/consignments/draft/${id}/start-process`)).statusCode).toBe(503);
    kg.faults.reset();
    const found = await waitForProcessed(details, id);
    const held = [...kg.deliveries.entries()].filter(([, d]) => d.customerSpecificCode === 'KG-NOBODY');
    expect(held).toHaveLength(1);
    expect(found.labels[0].tracking_code).toBe(held[0][0]);
    const messages = (found.details as Json[]).map((h) => h.message as string);
    expect(messages.some((m) => m.startsWith('Processed without a request'))).toBe(true);
  });

  it('cancels at Kolay Gelsin what an unanswered try saved before the draft changes', async () => {
    kg.faults.applyThenDropNext(1, 'SaveIntegrationShipment');
    kg.faults.hangNext(20, 'GetCorporateShipmentsStatus');
    const created = await call('POST', '/consignments/draft', domestic('KG-CHANGED'));
    const id = created.json().data.id as number;
    expect((await call('POST', `/consignments/draft/${id}/start-process`)).statusCode).toBe(503);
    kg.faults.reset();
    expect((await call('PUT', `/consignments/draft/${id}`, { invoice_number: 'IRS-2' })).statusCode).toBe(200);
    const held = [...kg.deliveries.entries()].filter(([, d]) => d.customerSpecificCode === 'KG-CHANGED');
    expect(held).toHaveLength(1);
    expect(held[0][1].cancellation?.kind).toBe('cancelled-before-pickup');
    const after = await details(id);
    expect(after.status).toBe(24);
    expect((after.details as Json[]).some((h) => /made by a try whose answer was lost, cancelled/.test(h.message))).toBe(true);
  });

  it('moves statuses when Kolay Gelsin’s webhook says so (Basic auth or hash header), confirmed by status query', async () => {
    const { id, data } = await booked('KG-2');
    const shipmentId = data.providerTrackingCode as string;

    const wrong = await kg.pushWebhook(statusUrl, kg.advance(shipmentId, 12), { type: 'basic', username: 'consignflow', password: 'not-the-secret-at-all' });
    expect(wrong.status).toBe(401);
    const pushed = await kg.pushWebhook(statusUrl, kg.webhookPayload(shipmentId), { type: 'basic', username: 'consignflow', password: WEBHOOK_SECRET });
    expect(pushed.status).toBe(202);
    expect(JSON.parse(pushed.body).data.consignments).toEqual([id]);
    await waitFor('picked up', async () => ((await details(id)).status === 4 ? true : undefined), { timeoutMs: 30_000 });
    const query = kg.requests.filter((r) => r.operation === 'GetCorporateShipmentsStatus').at(-1)!;
    expect(query.validationErrors ?? []).toEqual([]);
    expect(query.body).toMatchObject({ OnlyLatestEvents: false, ShipmentIdList: [shipmentId] });

    // api-docs.md's flat event form, authenticated by the hash header the portal offers.
    kg.advance(shipmentId, 18);
    const flat = await kg.pushWebhook(statusUrl, { ShipmentId: Number(shipmentId), CargoEventType: '29' }, { type: 'hash', value: WEBHOOK_SECRET });
    expect(flat.status).toBe(202);
    kg.advance(shipmentId, 29);
    await kg.pushWebhook(statusUrl, kg.webhookPayload(shipmentId), { type: 'hash', value: WEBHOOK_SECRET });
    await waitFor('delivered', async () => ((await details(id)).status === 7 ? true : undefined), { timeoutMs: 30_000 });
    const history = (await details(id)).details as Json[];
    expect(history.map((h) => h.status)).toEqual(expect.arrayContaining([4, 6, 7]));
  });

  it('keeps a consignment operable while Kolay Gelsin refuses its status query: the refusal is recorded, asked again later', async () => {
    const { id, data } = await booked('KG-REFUSED');
    const shipmentId = data.providerTrackingCode as string;
    const auth = { type: 'basic' as const, username: 'consignflow', password: WEBHOOK_SECRET };
    // Refused twice (the look-up's own retry does not retry a refusal): once for this webhook, once more for the next.
    kg.faults.refuseNext(2, { operation: 'GetCorporateShipmentsStatus', resultMessage: 'CustomerNotFound' });
    await kg.pushWebhook(statusUrl, kg.advance(shipmentId, 12), auth);
    const refused = async () =>
      ((await details(id)).details as Json[]).filter((h) =>
        /^Tracking at .* refused: Kolay Gelsin GetCorporateShipmentsStatus: CustomerNotFound\. Asking again in 20 min$/.test(h.message),
      );
    await waitFor('the refused poll in the history', async () => ((await refused()).length === 1 ? true : undefined), { timeoutMs: 30_000 });
    expect((await details(id)).status).toBe(3);
    await kg.pushWebhook(statusUrl, kg.webhookPayload(shipmentId), auth);
    await waitFor(
      'the second refusal, waiting twice as long',
      async () => ((await details(id)).details as Json[]).some((h) => /refused: .*CustomerNotFound\. Asking again in 40 min$/.test(h.message)) || undefined,
      { timeoutMs: 30_000 },
    );

    // Kolay Gelsin answers again: the next notice moves the consignment, which was never given up.
    await kg.pushWebhook(statusUrl, kg.webhookPayload(shipmentId), auth);
    await waitFor('picked up', async () => ((await details(id)).status === 4 ? true : undefined), { timeoutMs: 30_000 });
    const cancelled = await call('POST', `/consignments/${id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
  });

  it('cancels through CancelPickupAndDelivery, and passes on Kolay Gelsin’s refusal after delivery', async () => {
    const { id, data } = await booked('KG-3');
    const cancelled = await call('POST', `/consignments/${id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    const sent = kg.requests.filter((r) => r.operation === 'CancelPickupAndDelivery').at(-1)!;
    expect(sent.validationErrors ?? []).toEqual([]);
    expect(sent.body).toEqual({ ShipmentId: data.providerTrackingCode, DeliveryCancellationReason: 1 });
    expect(kg.deliveries.get(data.providerTrackingCode)!.cancellation?.kind).toBe('cancelled-before-pickup');

    const other = await booked('KG-4');
    kg.advance(other.data.providerTrackingCode, 12);
    kg.advance(other.data.providerTrackingCode, 29);
    const late = await call('POST', `/consignments/${other.id}/cancel`);
    expect(late.statusCode).toBe(409);
    expect(JSON.stringify(late.json().errors)).toContain('ShipmentAlreadyDelivered');
  });

  it('answers Kolay Gelsin’s business refusal in our envelope, and retries its faults', async () => {
    const created = await call('POST', '/consignments/draft', domestic('KG-5'));
    kg.faults.refuseNext(1, { operation: 'SaveIntegrationShipment', resultMessage: 'MoveOptionNotFound' });
    const refused = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({ field: 'provider_id', message: expect.stringContaining('MoveOptionNotFound') });
    expect((await details(created.json().data.id)).status).toBe(24);

    // A 500 without an envelope is retried: the booking goes through, once.
    kg.faults.failNext(1, 503);
    const retried = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(retried.statusCode).toBe(200);
    expect([...kg.deliveries.values()].filter((d) => d.customerSpecificCode === 'KG-5')).toHaveLength(1);
  });

  it('refuses the account’s token when Kolay Gelsin revokes it', async () => {
    const created = await call('POST', '/consignments/draft', domestic('KG-7'));
    kg.revokeToken(kg.token);
    try {
      const refused = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0].message).toContain('token');
    } finally {
      kg.addToken(kg.token);
    }
  });

  it('keeps working for an account made as `sendeo` before that kind became Sendeo’s current API: migrated to kolay_gelsin, its credentials still open', async () => {
    const made = await call('POST', '/carrier-accounts', {
      carrier: 'kolay_gelsin',
      description: 'Made before the rename',
      credentials: { token: kg.token, customer_id: 20, address_id: 28 },
      settings: { base_url: kg.baseUrl },
    });
    const legacy = made.json().data.provider_id as number;
    // The row as the previous release left it (credentials were sealed under the kind's old name, which kolay_gelsin keeps).
    await svc.db.query(`UPDATE carrier_accounts SET carrier = 'sendeo' WHERE provider_id = $1`, [legacy]);
    await svc.db.query(`DELETE FROM schema_migrations WHERE name = '015_carrier_kinds_and_booking_intents.sql'`);
    expect(await migrate(svc.db)).toEqual(['015_carrier_kinds_and_booking_intents.sql']);
    expect((await call('GET', `/carrier-accounts/${legacy}`)).json().data).toMatchObject({ carrier: 'kolay_gelsin', description: 'Made before the rename' });
    const created = await call('POST', '/consignments/draft', { ...domestic('KG-LEGACY'), provider_id: legacy });
    const processed = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(processed.statusCode).toBe(200);
    expect(kg.deliveries.get(processed.json().data.providerTrackingCode)?.customerSpecificCode).toBe('KG-LEGACY');
  });

  it('refuses international shipments with a clear reason', async () => {
    const created = await call('POST', '/consignments/draft', {
      ...domestic('KG-8'),
      consignee: { ...party('Berlin', { country: 'DE', name: 'Jana Schmidt' }), postal_code: '10115' },
      packages: [
        {
          package_type: 1,
          weight: 1,
          items: [{ description: 'Seramik kupa', gtip: '691200', origin: 'TR', currency_code: 'EUR', unit_price: 10, quantity: 2 }],
        },
      ],
    });
    const refused = await call('POST', `/consignments/draft/${created.json().data.id}/start-process`);
    expect(refused.json().errors).toEqual([expect.objectContaining({ field: 'provider_id', message: expect.stringContaining('within Turkey') })]);
    expect(refused.statusCode).toBe(400);
  });
});
