import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  startKolayGelsinDouble,
  validateWebhookPayload,
  type KolayGelsinDouble,
  type KolayGelsinDoubleOptions,
} from '../../support/carriers/kolay-gelsin-double';
import type { KolayGelsinEnvelope } from '../../support/carriers/kolay-gelsin.schemas';

interface Answer {
  status: number;
  body: Record<string, unknown> & Partial<KolayGelsinEnvelope<Record<string, unknown>>>;
}

let double: KolayGelsinDouble;

async function post(op: string, body: unknown, opts: { auth?: string | null; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  const auth = opts.auth === undefined ? `Bearer ${double.token}` : opts.auth;
  if (auth !== null) headers.authorization = auth;
  const res = await fetch(`${double.baseUrl}/${op}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
  });
  const text = await res.text();
  let parsed: Answer['body'];
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed };
}

/** A domestic V2 create (recipient inline), as api-docs.md's example, for the default customer 20 / address 28. */
const v2Body = (over: Record<string, unknown> = {}) => ({
  SenderCustomer: { CustomerId: 20, Address: { AddressId: 28 } },
  Recipient: {
    RecipientType: 1,
    RecipientName: 'Ayşe',
    RecipientSurname: 'Yılmaz',
    Gsm: '5551234567',
    OnlyDeliverToRecipient: false,
    Address: { CityId: 34, TownName: 'Kadıköy', AddressTypeId: 1, AddressText: 'Mehmet Akman Sk. No 1 Koşuyolu Mh.', PostalCode: '34718' },
  },
  PackageType: 2,
  PayingParty: 1,
  CustomerSpecificCode: 'CF-1001',
  ShipmentItemList: [{ Width: 20, Length: 30, Height: 10, Weight: 1.5, ContentText: 'Kitap', CustomerBarcode: 'CF1001-1', CustomerTrackingId: 'CF-1001-1' }],
  ...over,
});

async function createDelivery(over: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await post('SaveIntegrationShipmentV2', v2Body(over));
  expect([status, body.ResultCode]).toEqual([200, 200]);
  return (body.Payload as { ShipmentId: string }).ShipmentId;
}

async function withDouble(options: KolayGelsinDoubleOptions, fn: () => Promise<void>): Promise<void> {
  const saved = double;
  double = await startKolayGelsinDouble(options);
  try {
    await fn();
  } finally {
    await double.close();
    double = saved;
  }
}

beforeEach(async () => {
  double = await startKolayGelsinDouble();
});
afterEach(async () => {
  await double.close();
});

describe('Kolay Gelsin double: create', () => {
  it('accepts a valid domestic SaveIntegrationShipmentV2 with the provisioned token and answers the envelope', async () => {
    const { status, body } = await post('SaveIntegrationShipmentV2', v2Body());
    expect(status).toBe(200);
    expect(body).toMatchObject({ Source: 'parcelDelivery', JobOwner: 'APIReadQ', ResultCode: 200, ResultMessage: 'OK', Intent: null, Tag: null });
    const payload = body.Payload as Record<string, unknown>;
    expect(payload.ShipmentId).toMatch(/^\d+$/);
    expect(payload.CustomerSpecificCode).toBe('CF-1001');
    expect(payload.ShipmentTrackingLink).toBe(`https://esubebeta.klyglsn.com/track/${payload.ShipmentId}`);
    const [label] = payload.ShipmentItemLabelList as Array<Record<string, string>>;
    expect(label.ShipmentItemId).toMatch(/^\d+$/);
    expect(label.CustomerBarcode).toBe('CF1001-1');
    expect(label.ShipmentItemIdLabel).toContain('CF1001-1');
    expect(double.deliveries.get(payload.ShipmentId as string)?.events.map((e) => e.cargoEventType)).toEqual([1]);
    expect(double.requests.at(-1)).toMatchObject({ operation: 'SaveIntegrationShipmentV2', outcome: 'ok', status: 200 });
  });

  it('supports the two-step swagger flow SaveRecipient → SaveIntegrationShipment and refuses an unknown RecipientId', async () => {
    const recipient = await post('SaveRecipient', { ...(v2Body().Recipient as object) });
    expect(recipient.body.ResultCode).toBe(200);
    const recipientId = (recipient.body.Payload as { RecipientId: number }).RecipientId;
    expect(Number.isInteger(recipientId)).toBe(true);
    const v1 = { ...v2Body(), Recipient: { RecipientId: recipientId }, ShipmentItemList: [{ Weight: 2, CustomerTrackingId: 'T-1' }] };
    const created = await post('SaveIntegrationShipment', v1);
    expect(created.body.ResultCode).toBe(200);
    // no CustomerBarcode given: the double hands out a KG-style barcode
    expect((created.body.Payload as { ShipmentItemLabelList: Array<{ CustomerBarcode: string }> }).ShipmentItemLabelList[0].CustomerBarcode).toMatch(
      /^KLY\d+$/,
    );

    const unknown = await post('SaveIntegrationShipment', { ...v1, Recipient: { RecipientId: 999 } });
    expect([unknown.status, unknown.body.ResultCode, unknown.body.ResultMessage]).toEqual([500, 500, 'NoContactsFound']);
    // swagger declares integer dimensions for SaveIntegrationShipment
    const decimal = await post('SaveIntegrationShipment', { ...v1, ShipmentItemList: [{ Weight: 2.5, CustomerTrackingId: 'T-1' }] });
    expect(decimal.body.ResultMessage).toContain('ShipmentItemList[0].Weight must be integer');
  });

  it('refuses a missing required field with the documented message naming the field', async () => {
    const items = [{ Weight: 1 }];
    const a = await post('SaveIntegrationShipmentV2', v2Body({ ShipmentItemList: items }));
    expect([a.status, a.body.ResultCode, a.body.Payload]).toEqual([500, 500, null]);
    expect(a.body.ResultMessage).toBe('SomethingWentWrong [ShipmentItemList[0].CustomerTrackingId is required]');

    const { PackageType: _omit, ...noPackageType } = v2Body();
    const b = await post('SaveIntegrationShipmentV2', noPackageType);
    expect(b.body.ResultMessage).toBe('MoveOptionNotFound [PackageType is required]');

    const c = await post('SaveIntegrationShipmentV2', v2Body({ SenderCustomer: { CustomerId: 20, Address: {} } }));
    expect([c.body.ResultCode, c.body.ResultMessage]).toEqual([404.1, 'Adres müşteriye ait değil [SenderCustomer.Address.AddressId is required]']);

    const r = v2Body().Recipient as Record<string, unknown>;
    const d = await post('SaveIntegrationShipmentV2', v2Body({ Recipient: { ...r, RecipientSurname: undefined } }));
    expect(d.body.ResultMessage).toBe('ErrorSavingReceiver [Recipient.RecipientSurname is required]');
    expect(double.requests.at(-1)?.validationErrors).toEqual(['Recipient.RecipientSurname is required']);
  });

  it('refuses a wrong enum or type naming the field', async () => {
    const a = await post('SaveIntegrationShipmentV2', v2Body({ PackageType: 3 }));
    expect(a.body.ResultMessage).toBe('MoveOptionNotFound [PackageType must be one of 1, 2]');

    const b = await post('SaveIntegrationShipmentV2', v2Body({ SenderCustomer: { CustomerId: '20', Address: { AddressId: 28 } } }));
    expect(b.body.ResultMessage).toBe('CustomerNotFound [SenderCustomer.CustomerId must be integer]');

    const c = await post('SaveIntegrationShipmentV2', v2Body({ PayingParty: 3, OnlyDeliverToRecipient: 'yes' }));
    expect(c.body.ResultMessage).toContain('PayingParty must be one of 1, 2');
    expect(c.body.ResultMessage).toContain('OnlyDeliverToRecipient must be boolean');

    const r = v2Body().Recipient as { Address: object };
    const d = await post('SaveIntegrationShipmentV2', v2Body({ Recipient: { ...r, Address: { ...r.Address, CityId: 82 } } }));
    expect(d.body.ResultMessage).toBe('CityNotFound [Recipient.Address.CityId must be <= 81]');
  });

  it('refuses a too-long identity number (TCKN is 11 digits, VKN 10) with the documented messages', async () => {
    const r = v2Body().Recipient as Record<string, unknown>;
    const a = await post('SaveIntegrationShipmentV2', v2Body({ Recipient: { ...r, OnlyDeliverToRecipient: true, RecipientIdentityNumber: '123456789012' } }));
    expect(a.body.ResultMessage).toBe(`IdentityNumberNotValid [Recipient.RecipientIdentityNumber must match pattern "^[1-9][0-9]{10}$"]`);

    const b = await post('SaveIntegrationShipmentV2', v2Body({ Recipient: { ...r, OnlyDeliverToRecipient: true } }));
    expect(b.body.ResultMessage).toBe('IdentityNumberEntryIsRequired [Recipient.RecipientIdentityNumber is required]');

    const corporate = { RecipientType: 2, RecipientTitle: 'Ekol Lojistik AŞ', OnlyDeliverToRecipient: true, RecipientTaxIdentityNumber: '12345678901' };
    const address = { CityId: 34, TownName: 'Sancaktepe', AddressText: 'İmam Hatip Cd.', BuldingName: 'Ekol' };
    const c = await post('SaveRecipient', { ...corporate, Address: address });
    expect(c.body.ResultMessage).toBe('TaxIdentificationNumberNotValid [RecipientTaxIdentityNumber must match pattern "^[0-9]{10}$"]');
    const d = await post('SaveRecipient', { ...corporate, RecipientTaxIdentityNumber: '1234567890', Address: { ...address, BuldingName: undefined } });
    expect(d.body.ResultMessage).toBe('ErrorSavingReceiver [Address.BuildingName|BuldingName is required]');
    const e = await post('SaveRecipient', { ...corporate, RecipientTaxIdentityNumber: '1234567890', Address: address });
    expect(e.body.ResultCode).toBe(200);
  });

  it('applies the documented business rules: unknown customer, foreign address, out of coverage', async () => {
    await withDouble({ coveredCityIds: [34] }, async () => {
      const a = await post('SaveIntegrationShipmentV2', v2Body({ SenderCustomer: { CustomerId: 21, Address: { AddressId: 28 } } }));
      expect(a.body.ResultMessage).toBe('CustomerNotFound');
      const b = await post('SaveIntegrationShipmentV2', v2Body({ SenderCustomer: { CustomerId: 20, Address: { AddressId: 29 } } }));
      expect([b.body.ResultCode, b.body.ResultMessage]).toEqual([404.1, 'Adres müşteriye ait değil']);
      const r = v2Body().Recipient as { Address: object };
      const ankara = { ...r, Address: { ...r.Address, CityId: 6, TownName: 'Çankaya' } };
      const c = await post('SaveIntegrationShipmentV2', v2Body({ Recipient: ankara }));
      expect(c.body.ResultMessage).toBe('Bu kordinatta kurye çalışma alanı bulunamamıştır.');
      const d = await post('SaveIntegrationShipmentV2', v2Body({ Recipient: { ...ankara, SaveOutOfCoverage: true } }));
      expect(d.body.ResultCode).toBe(200);
    });
  });
});

describe('Kolay Gelsin double: authentication (static token in the Authorization header, no login operation)', () => {
  it('refuses a call without or with a bad token with 401 and the swagger Error shape', async () => {
    const none = await post('SaveIntegrationShipmentV2', v2Body(), { auth: null });
    expect(none).toEqual({ status: 401, body: { code: 'Unauthorized', message: expect.any(String) } });
    const bad = await post('SaveIntegrationShipmentV2', v2Body(), { auth: 'Bearer wrong' });
    expect(bad.status).toBe(401);
    expect(double.deliveries.size).toBe(0);
    expect(double.requests.map((r) => r.outcome)).toEqual(['unauthorized', 'unauthorized']);
  });

  it('accepts the raw token (swagger apiKey) unless told to insist on Bearer, and refuses a revoked token', async () => {
    expect((await post('GetCorporateShipmentsStatus', { ShipmentIdList: ['1'], OnlyLatestEvents: true }, { auth: double.token })).status).toBe(200);
    double.revokeToken(double.token);
    expect((await post('GetCorporateShipmentsStatus', { ShipmentIdList: ['1'], OnlyLatestEvents: true })).status).toBe(401);
    await withDouble({ authScheme: 'bearer', tokens: ['t-1'] }, async () => {
      expect((await post('GetCorporateShipmentsStatus', { ShipmentIdList: ['1'], OnlyLatestEvents: true }, { auth: 't-1' })).status).toBe(401);
      expect((await post('GetCorporateShipmentsStatus', { ShipmentIdList: ['1'], OnlyLatestEvents: true }, { auth: 'Bearer t-1' })).status).toBe(200);
    });
  });
});

describe('Kolay Gelsin double: cancel and status', () => {
  it('cancels before pickup and reports event 31 with the cancellation reason', async () => {
    const id = await createDelivery();
    const cancel = await post('CancelPickupAndDelivery', { ShipmentId: id, DeliveryCancellationReason: 1 });
    expect([cancel.status, cancel.body.ResultCode, cancel.body.Payload]).toEqual([200, 200, null]);
    expect(double.deliveries.get(id)?.cancellation).toEqual({ reason: 1, kind: 'cancelled-before-pickup' });

    const status = await post('GetCorporateShipmentsStatus', { ShipmentIdList: [id], OnlyLatestEvents: true });
    const [model] = (status.body.Payload as { ShipmentModelList: Array<Record<string, unknown>> }).ShipmentModelList;
    expect(model).toMatchObject({ ShipmentId: id, CustomerBarcode: 'CF1001-1', CustomerTrackingId: 'CF-1001-1', CustomerSpecificCode: 'CF-1001' });
    expect(model.CargoEventLogModelList).toEqual([
      expect.objectContaining({ CargoEventType: '31', EventDetailModel: expect.objectContaining({ DeliveryCancellationReason: '1' }) }),
    ]);
  });

  it('accepts a cancel in transit (return starts) and refuses one after delivery or a second one', async () => {
    const inTransit = await createDelivery();
    double.advance(inTransit, 12);
    double.advance(inTransit, 18);
    expect((await post('CancelPickupAndDelivery', { ShipmentId: inTransit, DeliveryCancellationReason: 2 })).body.ResultCode).toBe(200);
    expect(double.deliveries.get(inTransit)?.cancellation?.kind).toBe('return-started');
    const again = await post('CancelPickupAndDelivery', { ShipmentId: inTransit, DeliveryCancellationReason: 1 });
    expect([again.status, again.body.ResultMessage]).toEqual([500, 'ShipmentAlreadyCancelled']);

    const delivered = await createDelivery();
    double.advance(delivered, 12);
    double.advance(delivered, { cargoEventType: 29, detail: { DeliveredPersonName: 'Ayşe Yılmaz', DeliveredPersonRole: 'Kendisi' } });
    const refused = await post('CancelPickupAndDelivery', { ShipmentId: delivered, DeliveryCancellationReason: 1 });
    expect([refused.status, refused.body.ResultCode, refused.body.ResultMessage]).toEqual([500, 500, 'ShipmentAlreadyDelivered']);

    const badType = await post('CancelPickupAndDelivery', { ShipmentId: Number(delivered), DeliveryCancellationReason: 3 });
    expect(badType.body.ResultMessage).toBe('SomethingWentWrong [ShipmentId must be string; DeliveryCancellationReason must be one of 1, 2]');
    expect((await post('CancelPickupAndDelivery', { ShipmentId: '1', DeliveryCancellationReason: 1 })).body.ResultMessage).toBe('ShipmentNotFound');
  });

  it('answers status queries by any list, latest or full history, and refuses an all-empty query', async () => {
    const id = await createDelivery();
    double.advance(id, { cargoEventType: 12, locationName: 'İSTANBUL' });
    double.advance(id, 17);
    const all = await post('GetCorporateShipmentsStatus', { CustomerBarcodeList: ['CF1001-1'], OnlyLatestEvents: false });
    const [model] = (all.body.Payload as { ShipmentModelList: Array<{ CargoEventLogModelList: Array<Record<string, string>> }> }).ShipmentModelList;
    expect(model.CargoEventLogModelList.map((e) => e.CargoEventType)).toEqual(['1', '12', '17']);
    expect(model.CargoEventLogModelList[1].LocationName).toBe('İSTANBUL');
    expect(model.CargoEventLogModelList[0]).not.toHaveProperty('TimeStamp');
    const latest = await post('GetCorporateShipmentsStatus', { CustomerSpecificCodeList: ['CF-1001'], OnlyLatestEvents: true });
    expect(validateWebhookPayload((latest.body.Payload as { ShipmentModelList: unknown }).ShipmentModelList)).toBe(true);

    const empty = await post('GetCorporateShipmentsStatus', { ShipmentIdList: [], CustomerTrackingIdList: [], OnlyLatestEvents: true });
    expect(empty.body.ResultMessage).toBe('Parametrelerin hepsi boş olamaz');
    const noFlag = await post('GetCorporateShipmentsStatus', { ShipmentIdList: [id] });
    expect(noFlag.body.ResultMessage).toBe('SomethingWentWrong [OnlyLatestEvents is required]');
  });

  it('answers several ShipmentIds in one status query, each with its own events, and nothing for an unknown one', async () => {
    const a = await createDelivery();
    const b = await createDelivery({ CustomerSpecificCode: 'CF-1002', ShipmentItemList: [{ CustomerBarcode: 'CF1002-1', CustomerTrackingId: 'CF-1002-1' }] });
    double.advance(a, 12);
    double.advance(b, 12);
    double.advance(b, 29);
    const res = await post('GetCorporateShipmentsStatus', { ShipmentIdList: [b, 'nope', a], OnlyLatestEvents: false });
    expect([res.status, res.body.ResultCode]).toEqual([200, 200]);
    const models = (res.body.Payload as { ShipmentModelList: Array<{ ShipmentId: string; CargoEventLogModelList: Array<{ CargoEventType: string }> }> })
      .ShipmentModelList;
    expect(validateWebhookPayload(models)).toBe(true);
    const events = Object.fromEntries(models.map((m) => [m.ShipmentId, m.CargoEventLogModelList.map((e) => e.CargoEventType)]));
    expect(events).toEqual({ [a]: ['1', '12'], [b]: ['1', '12', '29'] });
  });

  it('requires the accept-language header on GetCorporateCustomerCargoEventTypes', async () => {
    // fetch sends `accept-language: *` unless told otherwise: outside the contract's enum
    const star = await post('GetCorporateCustomerCargoEventTypes', {});
    expect(star.body.ResultMessage).toBe('SomethingWentWrong [header accept-language must be one of tr-TR, en-EN]');
    const german = await post('GetCorporateCustomerCargoEventTypes', {}, { headers: { 'accept-language': 'de-DE' } });
    expect(german.body.ResultCode).toBe(500);
    const en = await post('GetCorporateCustomerCargoEventTypes', {}, { headers: { 'accept-language': 'en-EN' } });
    const list = (en.body.Payload as { CargoEventTypeList: Array<{ CargoEventType: number; EventCustomerDescription: string }> }).CargoEventTypeList;
    expect(list).toContainEqual({ CargoEventType: 29, EventCustomerDescription: 'Delivered' });
  });

  it('serves the delivery signature document announced by the delivered event', async () => {
    const id = await createDelivery();
    const [item] = double.advance(id, 29);
    const [event] = item.CargoEventLogModelList;
    expect(event.DocumentType).toBe('4');
    const doc = await post('GetDocumentForHistory', { DocumentId: event.DocumentId, DocumentType: 4 });
    expect(
      Buffer.from((doc.body.Payload as { Data: string }).Data, 'base64')
        .toString()
        .startsWith('%PDF'),
    ).toBe(true);
  });
});

describe('Kolay Gelsin double: webhook', () => {
  let receiver: Server;
  let received: Array<{ headers: IncomingHttpHeaders; body: unknown }>;
  let receiverUrl: string;

  beforeEach(async () => {
    received = [];
    receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(text) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/kolay-gelsin`;
  });
  afterEach(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('pushes the webhook.json array for a status change, with Basic authentication', async () => {
    const id = await createDelivery();
    const payload = double.advance(id, { cargoEventType: 18, courierName: 'Kurye 7', numberPlate: '34 KG 007' });
    const pushed = await double.pushWebhook(receiverUrl, payload, { type: 'basic', username: 'kg', password: 's3cret' });
    expect(pushed.status).toBe(200);
    expect(received).toHaveLength(1);
    const { headers, body } = received[0];
    expect(headers['content-type']).toContain('application/json');
    expect(headers.authorization).toBe(`Basic ${Buffer.from('kg:s3cret').toString('base64')}`);
    expect(validateWebhookPayload(body)).toBe(true);
    expect(body).toEqual([
      {
        ShipmentId: id,
        ShipmentItemId: expect.stringMatching(/^\d+$/),
        CustomerTrackingId: 'CF-1001-1',
        CustomerBarcode: 'CF1001-1',
        CustomerSpecificCode: 'CF-1001',
        CargoEventLogModelList: [expect.objectContaining({ CargoEventType: '18', CourierName: 'Kurye 7', NumberPlate: '34 KG 007', DocumentType: '0' })],
      },
    ]);
    expect(double.webhooks).toHaveLength(1);
  });

  it('sends the static hash header when configured that way', async () => {
    await withDouble({ webhookAuth: { type: 'hash', headerName: 'X-KG-Hash', value: 'abc123' } }, async () => {
      const id = await createDelivery();
      await double.pushWebhook(receiverUrl, double.advance(id, 29));
      expect(received[0].headers['x-kg-hash']).toBe('abc123');
      expect(validateWebhookPayload(received[0].body)).toBe(true);
      expect(validateWebhookPayload([{ ShipmentId: '1', ShipmentItemId: '1', CargoEventLogModelList: [{ CargoEventType: '99' }] }])).toBe(false);
    });
  });
});

describe('Kolay Gelsin double: fault switches', () => {
  it('answers the next N requests with 503/500 and then recovers', async () => {
    double.faults.failNext(2, 503);
    expect((await post('SaveIntegrationShipmentV2', v2Body())).status).toBe(503);
    expect((await post('SaveIntegrationShipmentV2', v2Body())).status).toBe(503);
    expect((await post('SaveIntegrationShipmentV2', v2Body())).status).toBe(200);
    double.faults.failNext(1);
    const fivehundred = await post('SaveIntegrationShipmentV2', v2Body());
    expect([fivehundred.status, fivehundred.body.ResultCode]).toEqual([500, undefined]);
    expect(double.requests.map((r) => r.outcome)).toEqual(['fault', 'fault', 'ok', 'fault']);
  });

  it('hangs the next request until the client gives up', async () => {
    double.faults.hangNext(1);
    await expect(post('SaveIntegrationShipmentV2', v2Body(), { timeoutMs: 300 })).rejects.toThrow();
    expect(double.requests.at(-1)?.outcome).toBe('hang');
    expect((await post('SaveIntegrationShipmentV2', v2Body())).status).toBe(200);
  });

  it('refuses the next valid request for an operation with a business error', async () => {
    double.faults.refuseNext(1, { operation: 'SaveIntegrationShipmentV2', resultMessage: 'Tahsilatlı kargo yapılamaz.' });
    expect((await post('GetCorporateShipmentsStatus', { ShipmentIdList: ['1'], OnlyLatestEvents: true })).status).toBe(200);
    const refused = await post('SaveIntegrationShipmentV2', v2Body());
    expect([refused.status, refused.body.ResultCode, refused.body.ResultMessage]).toEqual([500, 500, 'Tahsilatlı kargo yapılamaz.']);
    expect(double.deliveries.size).toBe(0);
    expect((await post('SaveIntegrationShipmentV2', v2Body())).body.ResultCode).toBe(200);
  });

  it('can send error envelopes with HTTP 200 so that only ResultCode tells failure', async () => {
    await withDouble({ errorHttpStatus: 200 }, async () => {
      const a = await post('SaveIntegrationShipmentV2', v2Body({ PackageType: 9 }));
      expect([a.status, a.body.ResultCode]).toEqual([200, 500]);
    });
  });
});
