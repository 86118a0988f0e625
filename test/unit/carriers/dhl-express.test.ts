import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CarrierBusyError, CarrierInputError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import { DhlExpressCarrier, INCOTERM_OF_TYPE, type DhlExpressSettings } from '../../../src/carriers/dhl-express';
import { createOutboundHttp } from '../../../src/http/outbound';
import { startMyDhlDouble, type MyDhlDouble } from '../../support/carriers/mydhl-double';
import { mydhlResponses, type MyDhlTrackingEvent } from '../../support/carriers/mydhl.schemas';
import { failure } from '../../support/failure';
import { readPdf } from '../../support/pdf-tools';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The DHL Express adapter against the MyDHL test double, which validates every request with JSON schemas
 * written from the carrier's OpenAPI document: a request that breaks the contract fails these tests.
 */
let dhl: MyDhlDouble;
const http = createOutboundHttp({ allowPrivate: true });
const NOW = new Date('2026-11-24T09:30:00Z');

beforeAll(async () => {
  dhl = await startMyDhlDouble({ now: () => NOW });
});
beforeEach(() => dhl.reset());
afterAll(async () => {
  await http.close();
  await dhl.close();
});

const carrierOptions = () => ({
  providerId: 1002,
  name: 'DHL Express',
  logoUrl: 'http://consignflow.test/api/v1/providers/1002/logo.svg',
  credentials: { username: dhl.username, password: dhl.password, account_number: '123456789' },
  http,
  now: () => NOW,
});
const carrier = (overrides: { password?: string; labelFormat?: 'pdf' | 'zpl'; paperlessTrade?: boolean } = {}) =>
  new DhlExpressCarrier({
    providerId: 1002,
    name: 'DHL Express',
    logoUrl: 'http://consignflow.test/api/v1/providers/1002/logo.svg',
    credentials: { username: dhl.username, password: overrides.password ?? dhl.password, account_number: '123456789' },
    settings: { base_url: dhl.baseUrl, ...(overrides.paperlessTrade !== undefined && { paperless_trade: overrides.paperlessTrade }) },
    http,
    now: () => NOW,
  });

const party = (country: string, city: string, name: string) => ({
  name,
  country,
  city,
  postal_code: '34710',
  address: 'Caferağa Mah. Moda Cad. No:12 Kadıköy',
  phone_number: '+905551112233',
});

function request(kind: 'international' | 'domestic', overrides: Partial<BookingRequest> = {}): BookingRequest {
  const toCountry = kind === 'international' ? 'DE' : 'TR';
  return {
    bookingKey: '5f0c6a2e-8a51-4c1e-9a37-0f3d2b7c9e11',
    shipment: { fromCountry: 'TR', toCountry, weightKg: 2, desi: 3, packageCount: 1 },
    serviceBarcode: 'CF00000000426',
    reference: 'SHOP-1001',
    labelFormat: 'pdf',
    draft: {
      reference_no: 'SHOP-1001',
      invoice_number: 'INV-2026-1001',
      incoterms_type: 2,
      consignor: party('TR', 'İstanbul', 'Anadolu Butik'),
      consignee: { ...party(toCountry, kind === 'international' ? 'Berlin' : 'Ankara', 'Jana Schmidt'), postal_code: '10115' },
      packages: [
        {
          package_type: 1,
          weight: 2,
          length: 30,
          width: 20,
          height: 15,
          items: [
            { description: 'Kilim yastık kılıfı', gtip: '630493000000', origin: 'TR', currency_code: 'EUR', unit_price: 24.5, quantity: 2 },
            { description: 'Türk kahvesi 250 g', gtip: '090121000000', origin: 'TR', currency_code: 'EUR', unit_price: 8, quantity: 3 },
          ],
        },
      ],
    },
    ...overrides,
  };
}

const shipmentRequests = () => dhl.requests.filter((r) => r.operation === 'shipments.create');

describe('DhlExpressCarrier', () => {
  it('books an international shipment within the contract, with the customs data of our items, and keeps the label', async () => {
    const booking = await carrier().book(request('international'));
    const [sent] = shipmentRequests();
    expect(sent.validationErrors).toEqual([]);
    expect(sent.status).toBe(201);
    expect(sent.headers['x-version']).toBe('3.1.0');
    // The charges DHL answers (getRateEstimates) are the consignment's cost: EXPRESS WORLDWIDE, 35 + 9.5 × 2 kg.
    expect(booking.cost).toMatchObject({ baseCost: 54, currency: 'EUR' });
    const body = sent.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.productCode).toBe('P');
    // The shipper's local time (Istanbul, UTC+3) with its offset, ten minutes ahead (the document advises against "now").
    expect(body.plannedShippingDateAndTime).toBe('2026-11-24T12:40:00 GMT+03:00');
    expect(body.content).toMatchObject({ isCustomsDeclarable: true, incoterm: 'DDU', declaredValue: 73, declaredValueCurrency: 'EUR' });
    // Our items as the contract's line items: made in Turkey, counted in pieces, 1 kg each (the package's weight shared out).
    const lineItem = (number: number, description: string, price: number, quantity: number, hsCode: string) => ({
      number,
      description,
      price,
      quantity: { value: quantity, unitOfMeasurement: 'PCS' },
      commodityCodes: [{ typeCode: 'outbound', value: hsCode }],
      manufacturerCountry: 'TR',
      weight: { netValue: 1, grossValue: 1 },
    });
    expect(body.content.exportDeclaration.lineItems).toEqual([
      lineItem(1, 'Kilim yastık kılıfı', 24.5, 2, '630493000000'),
      lineItem(2, 'Türk kahvesi 250 g', 8, 3, '090121000000'),
    ]);
    expect(body.content.exportDeclaration.invoice).toEqual({ number: 'INV-2026-1001', date: '2026-11-24' });
    expect(booking.trackingCode).toMatch(/^\d{10}$/);
    expect(booking.carrierReference).toBe(booking.trackingCode);
    expect(booking.pickupBooked).toBe(false);
    expect(body.pickup).toEqual({ isRequested: false });
    expect(booking.label?.contentType).toBe('application/pdf');
    expect(booking.label!.content.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('sends the proforma invoice with the booking under Paperless Trade (service WY, image PNV) when the account has it, and only abroad', async () => {
    const asked: string[] = [];
    const customsDocument = async (kind: 'cn22' | 'cn23' | 'proforma') => {
      asked.push(kind);
      return Buffer.from('%PDF-1.7 proforma');
    };
    await carrier({ paperlessTrade: true }).book(request('international', { customsDocument }));
    const [sent] = shipmentRequests();
    expect(sent.validationErrors).toEqual([]);
    const body = sent.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(asked).toEqual(['proforma']);
    expect(body.valueAddedServices).toEqual([{ serviceCode: 'WY' }]);
    expect(body.documentImages).toEqual([{ typeCode: 'PNV', imageFormat: 'PDF', content: Buffer.from('%PDF-1.7 proforma').toString('base64') }]);

    // Without the account setting, or at home, no document is made or sent.
    dhl.reset();
    await carrier().book(request('international', { customsDocument }));
    await carrier({ paperlessTrade: true }).book(request('domestic', { customsDocument }));
    expect(asked).toEqual(['proforma']);
    for (const r of shipmentRequests()) {
      expect((r.body as Record<string, unknown>).valueAddedServices).toBeUndefined();
      expect((r.body as Record<string, unknown>).documentImages).toBeUndefined();
    }
  });

  it('books a domestic shipment with the domestic product, no customs declaration, and a ZPL label when asked', async () => {
    const booking = await carrier().book(request('domestic', { labelFormat: 'zpl' }));
    const [sent] = shipmentRequests();
    expect(sent.validationErrors).toEqual([]);
    const body = sent.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.productCode).toBe('N');
    expect(body.content.isCustomsDeclarable).toBe(false);
    expect(body.content.exportDeclaration).toBeUndefined();
    expect(booking.label?.contentType).toBe('application/zpl');
    expect(booking.label!.content.toString()).toMatch(/^\^XA/);
  });

  it('makes labels in the account’s label_format when it has one, whatever processing asked', async () => {
    const zplAccount = new DhlExpressCarrier({ ...carrierOptions(), settings: { base_url: dhl.baseUrl, label_format: 'zpl' } });
    const booking = await zplAccount.book(request('international', { labelFormat: 'pdf' }));
    const [sent] = shipmentRequests();
    expect(sent.validationErrors).toEqual([]);
    expect((sent.body as { outputImageProperties: { encodingFormat: string } }).outputImageProperties.encodingFormat).toBe('zpl');
    expect(booking.label?.contentType).toBe('application/zpl');
  });

  it('maps incoterms_type onto the contract’s incoterms, and refuses one it has no incoterm for', async () => {
    for (const incoterm of Object.values(INCOTERM_OF_TYPE)) expect(['EXW', 'FCA', 'CPT', 'CIP', 'DPU', 'DAP', 'DDP', 'DDU']).toContain(incoterm);
    const ddp = request('international');
    ddp.draft = { ...ddp.draft, incoterms_type: 3 };
    await carrier().book(ddp);
    expect((shipmentRequests()[0].body as { content: { incoterm: string } }).content.incoterm).toBe('DDP');
    const unknown = request('international');
    unknown.draft = { ...unknown.draft, incoterms_type: 42 };
    expect(await failure(carrier().book(unknown))).toBeInstanceOf(CarrierRefusedError);
  });

  it('maps the carrier’s errors: credentials and business refusals are final, 5xx and 429 are retried', async () => {
    expect(await failure(carrier({ password: 'wrong' }).book(request('international')))).toMatchObject({
      name: 'CarrierRefusedError',
      reason: expect.stringContaining('credentials'),
    });
    dhl.failNext({ kind: 'refusal', preset: 'serviceNotAvailableForRoute' });
    expect(await failure(carrier().book(request('international')))).toMatchObject({ reason: expect.stringContaining('7008') });
    dhl.failNext({ kind: 'status', status: 503 });
    expect(await failure(carrier().book(request('international')))).toBeInstanceOf(RemoteUnavailableError);
    dhl.failNext({ kind: 'custom', status: 429, body: { title: 'Too many requests' }, headers: { 'retry-after': '7' } });
    const busy = await failure(carrier().book(request('international')));
    expect(busy).toBeInstanceOf(CarrierBusyError);
    expect(busy).toMatchObject({ retryAfterMs: 7000 });
  });

  it('refuses an address that does not fit the contract’s three lines of 45 characters', async () => {
    const long = request('international');
    long.draft = { ...long.draft, consignee: { ...long.draft.consignee, address: 'Uzun '.repeat(40) } };
    expect(await failure(carrier().book(long))).toMatchObject({ reason: expect.stringContaining('consignee.address') });
    expect(shipmentRequests()).toHaveLength(0);
  });

  it('rates through POST /rates: the price of the product booking would use, none when it is not offered', async () => {
    const parties = { from: party('TR', 'İstanbul', 'A'), to: party('DE', 'Berlin', 'B') };
    const quote = await carrier().quote(request('international').shipment, parties);
    const sent = dhl.requests.find((r) => r.operation === 'rates.post')!;
    expect(sent.validationErrors).toEqual([]);
    // EXPRESS WORLDWIDE (P) is what booking uses, although ECONOMY SELECT is cheaper.
    expect(quote).toMatchObject({ providerId: 1002, serviceName: 'EXPRESS WORLDWIDE', currency: 'EUR', transitDays: 2 });
    const economy = new DhlExpressCarrier({ ...carrierOptions(), settings: { base_url: dhl.baseUrl, product_international: 'W' } });
    expect(await economy.quote(request('international').shipment, parties)).toMatchObject({ serviceName: 'ECONOMY SELECT', transitDays: 4 });
    const unknown = new DhlExpressCarrier({ ...carrierOptions(), settings: { base_url: dhl.baseUrl, product_international: 'Z' } });
    expect(await unknown.quote(request('international').shipment, parties)).toBeNull();
  });

  it('tracks through the shipment tracking operation; cancels before pickup, refuses in transit (the contract has no cancel)', async () => {
    const booking = await carrier().book(request('international'));
    dhl.setTracking(booking.trackingCode, 'delivered');
    const events = await carrier().track({ bookingKey: 'k', trackingCode: booking.trackingCode, carrierReference: booking.carrierReference });
    expect(events.map((e) => e.event)).toContain('PICKED_UP');
    expect(events.at(-1)?.event).toBe('DELIVERED');
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    expect(await carrier().cancel({ bookingKey: 'k', trackingCode: booking.trackingCode, inTransit: false })).toEqual({ accepted: true });
    expect(await carrier().cancel({ bookingKey: 'k', trackingCode: booking.trackingCode, inTransit: true })).toMatchObject({ accepted: false });
  });
});

/** Three pieces of different sizes (the first, 50 × 40 × 30 cm, weighs less than its volume: 12 kg volumetric). */
function threePieces(kind: 'international' | 'domestic' = 'international', overrides: Partial<BookingRequest> = {}): BookingRequest {
  const base = request(kind, overrides);
  const item = { description: 'Kilim yastık kılıfı', gtip: '630493000000', origin: 'TR', currency_code: 'EUR', unit_price: 24.5, quantity: 1 };
  return {
    ...base,
    shipment: { ...base.shipment, weightKg: 6, packageCount: 3 },
    draft: {
      ...base.draft,
      packages: [
        { package_type: 1, weight: 1, length: 50, width: 40, height: 30, items: [item] },
        { package_type: 1, weight: 2, length: 20, width: 20, height: 20, items: [item] },
        { package_type: 1, weight: 3, items: [item] },
      ],
    },
  };
}

/** A carrier on another double (one started with other options). */
const carrierOn = (double: MyDhlDouble, settings: Partial<DhlExpressSettings> = {}) =>
  new DhlExpressCarrier({
    ...carrierOptions(),
    credentials: { username: double.username, password: double.password, account_number: '123456789' },
    settings: { base_url: double.baseUrl, ...settings },
  });

describe('DhlExpressCarrier: every label document of a multi-piece shipment', () => {
  let perPiece: MyDhlDouble;
  beforeAll(async () => {
    // One label document per piece, answered last piece first: only packageReferenceNumber tells their order.
    perPiece = await startMyDhlDouble({ now: () => NOW, labelPerPiece: 'reversed' });
  });
  beforeEach(() => perPiece.reset());
  afterAll(async () => {
    await perPiece.close();
  });

  it('merges one PDF label per piece into one label, in piece order, with the waybill document after them', async () => {
    const booking = await carrierOn(perPiece).book(threePieces());
    const [sent] = perPiece.requests.filter((r) => r.operation === 'shipments.create');
    expect(sent.validationErrors).toEqual([]);
    expect((sent.body as Json).outputImageProperties.imageOptions).toEqual([{ typeCode: 'label' }, { typeCode: 'waybillDoc', isRequested: true }]);
    const pdf = readPdf(booking.label!.content);
    expect(booking.label!.contentType).toBe('application/pdf');
    expect(pdf.pages).toBe(4);
    expect(pdf.text[0]).toContain('PIECE 1/3');
    expect(pdf.text[1]).toContain('PIECE 2/3');
    expect(pdf.text[2]).toContain('PIECE 3/3');
    expect(pdf.text[3]).toContain(`WAYBILL DOC ${booking.trackingCode}`);
  });

  it('concatenates one ZPL label per piece, in piece order, then the waybill document', async () => {
    const booking = await carrierOn(perPiece, { label_format: 'zpl' }).book(threePieces());
    expect(booking.label!.contentType).toBe('application/zpl');
    const zpl = booking.label!.content.toString('utf8');
    const labels = zpl.match(/\^XA[\s\S]*?\^XZ/g)!;
    expect(labels).toHaveLength(4);
    expect(labels[0]).toContain('1/3');
    expect(labels[1]).toContain('2/3');
    expect(labels[2]).toContain('3/3');
    expect(labels[3]).toContain(`WAYBILL DOC ${booking.trackingCode}`);
  });

  it('keeps the one label document DHL answers by default, whole, followed by the waybill document', async () => {
    const booking = await carrier().book(threePieces());
    const pdf = readPdf(booking.label!.content);
    expect(pdf.pages).toBe(2);
    expect(pdf.text[0]).toMatch(/PIECE 1\/3[\s\S]*PIECE 2\/3[\s\S]*PIECE 3\/3/);
    expect(pdf.text[1]).toContain('WAYBILL DOC');
  });
});

describe('DhlExpressCarrier: the contract’s rules, before any call', () => {
  it('sends weights and dimensions in the contract’s steps of 0.001, and cuts what may be cut (a description, an address over three lines on word boundaries)', async () => {
    const req = request('international');
    const address = 'Caferağa Mahallesi Moda Caddesi Numara 12 Daire 4 Kadıköy İstanbul Türkiye Avrupa Yakası Karşısı';
    const description = 'El dokuması yün kilim yastık kılıfı, doğal boyalarla renklendirilmiş, 45 × 45 cm';
    req.draft = {
      ...req.draft,
      consignor: { ...req.draft.consignor, address },
      packages: [
        {
          ...req.draft.packages![0],
          weight: 1.23456,
          length: 30.00041,
          width: 20.2,
          height: 15.9999,
          items: [{ ...req.draft.packages![0].items![0], description }],
        },
      ],
    };
    await carrier().book(req);
    const [sent] = shipmentRequests();
    expect(sent.validationErrors).toEqual([]);
    const body = sent.body as Json;
    expect(body.content.packages[0]).toMatchObject({ weight: 1.235, dimensions: { length: 30, width: 20.2, height: 16 } });
    const postal = body.customerDetails.shipperDetails.postalAddress;
    const lines = [postal.addressLine1, postal.addressLine2, postal.addressLine3];
    expect(lines.join(' ')).toBe(address);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(45);
    expect(body.content.description).toBe(description.slice(0, 70).trim());
  });

  it('refuses what may not be cut with a CarrierInputError naming every draft field, and sends nothing', async () => {
    const req = request('international');
    req.draft = {
      ...req.draft,
      invoice_number: 'INV-'.padEnd(40, '0'),
      consignor: { ...req.draft.consignor, email: `${'a'.repeat(64)}@example.com` },
      consignee: { ...req.draft.consignee, postal_code: '1011 5000 0000 0', phone_number: '', city: 'Berlin'.padEnd(50, '-') },
    };
    const error = await failure(carrier().book(req));
    expect(error).toBeInstanceOf(CarrierInputError);
    expect((error as CarrierInputError).issues.map((i) => i.field).sort()).toEqual([
      'consignee.city',
      'consignee.phone_number',
      'consignee.postal_code',
      'consignor.email',
      'invoice_number',
    ]);
    expect(dhl.requests).toHaveLength(0);
  });

  it('sends the state or province code (provinceCode) where DHL wants one, never empty, and refuses a US or Canadian party without one', async () => {
    const us = request('international');
    us.shipment = { ...us.shipment, toCountry: 'US' };
    us.draft = {
      ...us.draft,
      consignee: { ...us.draft.consignee, country: 'US', city: 'New York', postal_code: '10001', state: 'New York', state_code: 'ny' },
    };
    await carrier().book(us);
    const [sent] = shipmentRequests();
    expect(sent.validationErrors).toEqual([]);
    const body = sent.body as Json;
    expect(body.customerDetails.receiverDetails.postalAddress).toMatchObject({ countryCode: 'US', provinceCode: 'NY', countyName: 'New York' });
    // Turkey: no province code (our list), the state as the county only when there is one.
    expect(body.customerDetails.shipperDetails.postalAddress.provinceCode).toBeUndefined();

    const canada = request('international');
    canada.shipment = { ...canada.shipment, toCountry: 'CA' };
    canada.draft = { ...canada.draft, consignee: { ...canada.draft.consignee, country: 'CA', city: 'Toronto', postal_code: 'M5V 2T6', state: 'Ontario' } };
    const error = await failure(carrier().book(canada));
    expect(error).toBeInstanceOf(CarrierInputError);
    expect((error as CarrierInputError).issues).toEqual([{ field: 'consignee.state_code', reason: expect.stringContaining('CA') }]);
    expect(shipmentRequests()).toHaveLength(1);
  });

  it('gives the customer DHL’s public tracking page, not the API’s tracking URL (which needs the account’s credentials)', async () => {
    const booking = await carrier().book(request('international'));
    expect(booking.trackingUrl).toBe(`https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${booking.trackingCode}`);
  });
});

describe('DhlExpressCarrier: the shipper’s local time', () => {
  it('plans the shipment in the shipper country’s zone, or the account’s time_zone, for bookings and rates alike', async () => {
    const us = request('domestic');
    us.shipment = { ...us.shipment, fromCountry: 'US', toCountry: 'US' };
    us.draft = {
      ...us.draft,
      consignor: { ...us.draft.consignor, country: 'US', city: 'Los Angeles', postal_code: '90001', state_code: 'CA' },
      consignee: { ...us.draft.consignee, country: 'US', city: 'Seattle', postal_code: '98101', state_code: 'WA' },
    };
    const pacific = new DhlExpressCarrier({ ...carrierOptions(), settings: { base_url: dhl.baseUrl, time_zone: 'America/Los_Angeles' } });
    await pacific.book(us);
    await pacific.quote(us.shipment, { from: us.draft.consignor!, to: us.draft.consignee! });
    // Without the setting: the country's most populous zone (New York for the US).
    await carrier().quote(us.shipment, { from: us.draft.consignor!, to: us.draft.consignee! });
    const [booked, rated, byCountry] = dhl.requests;
    for (const r of dhl.requests) expect(r.validationErrors).toEqual([]);
    expect((booked.body as Json).plannedShippingDateAndTime).toBe('2026-11-24T01:40:00 GMT-08:00');
    expect((rated.body as Json).plannedShippingDateAndTime).toBe('2026-11-24T01:40:00 GMT-08:00');
    expect((byCountry.body as Json).plannedShippingDateAndTime).toBe('2026-11-24T04:40:00 GMT-05:00');
  });
});

describe('DhlExpressCarrier: rates', () => {
  const parties = { from: party('TR', 'İstanbul', 'A'), to: party('DE', 'Berlin', 'B') };

  it('rates one package per piece with its dimensions, so the volumetric weight counts', async () => {
    const spec = {
      fromCountry: 'TR',
      toCountry: 'DE',
      weightKg: 6,
      desi: 0,
      packageCount: 3,
      packages: [{ weightKg: 1, lengthCm: 50, widthCm: 40, heightCm: 30 }, { weightKg: 2, lengthCm: 20, widthCm: 20, heightCm: 20 }, { weightKg: 3.00049 }],
    };
    const quote = await carrier().quote(spec, parties);
    const sent = dhl.requests.find((r) => r.operation === 'rates.post')!;
    expect(sent.validationErrors).toEqual([]);
    expect((sent.body as Json).packages).toEqual([
      { weight: 1, dimensions: { length: 50, width: 40, height: 30 } },
      { weight: 2, dimensions: { length: 20, width: 20, height: 20 } },
      { weight: 3 },
    ]);
    // EXPRESS WORLDWIDE: 35 + 9.5 × max(6 kg, 12 + 1.6 kg volumetric) = 164.2
    expect(quote).toMatchObject({ baseCost: 164.2, currency: 'EUR' });
  });

  it('passes DHL’s refusal of a rate request on with its detail (not a silent “no quote”); a product DHL does not offer is null', async () => {
    dhl.failNext({ kind: 'refusal', preset: 'accountInvalid' }, { operation: 'rates.post' });
    const refused = await failure(carrier().quote(request('international').shipment, parties));
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).reason).toContain('The account number is not found or invalid');
    const unknown = new DhlExpressCarrier({ ...carrierOptions(), settings: { base_url: dhl.baseUrl, product_international: 'Z' } });
    expect(await unknown.quote(request('international').shipment, parties)).toBeNull();
  });
});

/** A DHL checkpoint at Dubai, at the local time and offset given. */
const at = (date: string, time: string, GMTOffset: string, typeCode: string, description = typeCode): MyDhlTrackingEvent => ({
  date,
  time,
  GMTOffset,
  typeCode,
  description,
  serviceArea: [{ code: 'DXB', description: 'DUBAI-AE' }],
});

describe('DhlExpressCarrier: tracking', () => {
  it('reads each checkpoint at its own GMT offset and answers them in time order, with ids stable across polls', async () => {
    const booking = await carrier().book(request('international'));
    // Listed newest first; in local times, 10:00 Dubai (+04:00, 06:00 UTC) comes before 08:30 Frankfurt (+01:00, 07:30 UTC).
    dhl.setTracking(booking.trackingCode, [
      at('2026-11-25', '08:30:00', '+01:00', 'AF', 'Arrived at DHL Sort Facility - FRANKFURT-DE'),
      at('2026-11-25', '10:00:00', '+04:00', 'DF', 'Shipment has departed from a DHL facility - DUBAI-AE'),
      at('2026-11-24', '16:00:00', '+03:00', 'PU', 'Shipment picked up'),
    ]);
    const ref = { bookingKey: 'k', trackingCode: booking.trackingCode, carrierReference: booking.carrierReference };
    const events = await carrier().track(ref);
    const asked = dhl.requests.filter((r) => r.operation === 'tracking.single').at(-1)!;
    expect(asked.query.requestGMTOffsetPerEvent).toBe('true');
    expect(events.map((e) => [e.event, e.occurredAt.toISOString()])).toEqual([
      ['PICKED_UP', '2026-11-24T13:00:00.000Z'],
      ['IN_TRANSIT', '2026-11-25T06:00:00.000Z'],
      ['IN_TRANSIT', '2026-11-25T07:30:00.000Z'],
    ]);
    expect((await carrier().track(ref)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
  });

  it('maps DHL’s checkpoint codes (status list) onto our events; informational ones are left out', async () => {
    const booking = await carrier().book(request('international'));
    const codes = ['PU', 'TP', 'CC', 'BA', 'RD', 'ND', 'OH', 'HP', 'PD', 'DD', 'RT', 'OK', 'AD', 'BN', 'RR', 'SC'];
    dhl.setTracking(
      booking.trackingCode,
      codes.map((code, i) => at('2026-11-26', `10:${String(i).padStart(2, '0')}:00`, '+04:00', code)),
    );
    const events = await carrier().track({ bookingKey: 'k', trackingCode: booking.trackingCode });
    expect(Object.fromEntries(events.map((e) => [e.message, e.event]))).toEqual({
      PU: 'PICKED_UP',
      TP: 'IN_TRANSIT',
      CC: 'OUT_FOR_DELIVERY',
      BA: 'EXCEPTION',
      RD: 'EXCEPTION',
      ND: 'EXCEPTION',
      OH: 'EXCEPTION',
      HP: 'EXCEPTION',
      PD: 'EXCEPTION',
      DD: 'DELIVERED',
      RT: 'RETURNED',
      OK: 'DELIVERED',
    });
  });
});

describe('DhlExpressCarrier: batch tracking (trackMany)', () => {
  const ref = (trackingCode: string) => ({ bookingKey: `key-${trackingCode}`, trackingCode });
  const multi = () => dhl.requests.filter((r) => r.operation === 'tracking.multi');
  const single = () => dhl.requests.filter((r) => r.operation === 'tracking.single');
  const [FIRST, SECOND, UNKNOWN] = ['1234567890', '2345678901', '3456789012'];
  const journey = [
    at('2026-11-25', '08:30:00', '+01:00', 'AF', 'Arrived at DHL Sort Facility - FRANKFURT-DE'),
    at('2026-11-25', '10:00:00', '+04:00', 'DF', 'Shipment has departed from a DHL facility - DUBAI-AE'),
    at('2026-11-24', '16:00:00', '+03:00', 'PU', 'Shipment picked up'),
  ];

  it('limits a batch to the 200 waybills the contract allows, with no re-ask limit of its own', () => {
    expect(carrier().trackingLimits).toEqual({ batchSize: 200, minReaskMs: 0 });
  });

  it('names every waybill in one GET /tracking (explode form) and answers each with what track answers', async () => {
    dhl.setTracking(FIRST, journey);
    dhl.setTracking(SECOND, [at('2026-11-24', '16:00:00', '+03:00', 'PU'), at('2026-11-26', '09:15:00', '+01:00', 'OK')]);
    const shipments = [FIRST, SECOND, UNKNOWN].map(ref);
    const answers = await carrier().trackMany(shipments);

    expect(multi()).toHaveLength(1);
    const [asked] = multi();
    expect(asked.url).toContain(`/tracking?shipmentTrackingNumber=${FIRST}&shipmentTrackingNumber=${SECOND}&shipmentTrackingNumber=${UNKNOWN}&`);
    expect(asked.query).toEqual({ shipmentTrackingNumber: [FIRST, SECOND, UNKNOWN], trackingView: 'all-checkpoints', levelOfDetail: 'shipment' });
    expect(asked.validationErrors).toEqual([]);
    // GET /tracking has no requestGMTOffsetPerEvent: the two with checkpoints are read again at their own offsets.
    expect(single().map((r) => r.path)).toEqual([`/shipments/${FIRST}/tracking`, `/shipments/${SECOND}/tracking`]);

    expect(answers.map((a) => a.shipment)).toEqual(shipments);
    expect(answers[2]).toEqual({ shipment: shipments[2], events: [] });
    expect(answers[0]).toEqual({ shipment: shipments[0], events: await carrier().track(shipments[0]) });
    expect(answers[1]).toEqual({ shipment: shipments[1], events: await carrier().track(shipments[1]) });
    expect((answers[0] as { events: { occurredAt: Date }[] }).events.map((e) => e.occurredAt.toISOString())).toEqual([
      '2026-11-24T13:00:00.000Z',
      '2026-11-25T06:00:00.000Z',
      '2026-11-25T07:30:00.000Z',
    ]);
  });

  it('asks again only about the shipments whose checkpoints changed since what is known (the poller passes it)', async () => {
    dhl.setTracking(FIRST, journey);
    dhl.setTracking(SECOND, journey.slice(0, 2));
    const [first, second] = await carrier().trackMany([FIRST, SECOND].map(ref));
    const newest = (answer: typeof first) => ('events' in answer ? answer.events.at(-1)!.eventId : '');
    const known = [
      { ...ref(FIRST), known: { newestEventId: newest(first), count: 3 } },
      { ...ref(SECOND), known: { newestEventId: newest(second), count: 2 } },
    ];
    // A late scan of the second, dated before its newest checkpoint: the count tells it changed.
    dhl.setTracking(SECOND, [...journey.slice(0, 2), at('2026-11-24', '18:00:00', '+03:00', 'PL', 'Processed')]);
    const before = dhl.requests.length;
    const answers = await carrier().trackMany(known);
    const asked = dhl.requests.slice(before);
    expect(asked.filter((r) => r.operation === 'tracking.multi')).toHaveLength(1);
    expect(asked.filter((r) => r.operation === 'tracking.single').map((r) => r.path)).toEqual([`/shipments/${SECOND}/tracking`]);
    expect(answers[0]).toEqual({ shipment: known[0], events: [] });
    expect('events' in answers[1] && answers[1].events).toHaveLength(3);
  });

  it('is one request when the answer needs nothing more: checkpoints that carry their offset, or none that move a consignment', async () => {
    // As DHL would answer if it gave offsets on GET /tracking; the second shipment has only an informational checkpoint.
    dhl.failNext(
      {
        kind: 'custom',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: mydhlResponses.tracking([
          mydhlResponses.trackedShipment({
            shipmentTrackingNumber: FIRST,
            events: journey,
            fromCountry: 'TR',
            toCountry: 'DE',
            shippedAt: '2026-11-24T13:00:00',
          }),
          mydhlResponses.trackedShipment({
            shipmentTrackingNumber: SECOND,
            events: [{ ...at('2026-11-24', '12:00:00', '+03:00', 'BN', 'Customs broker notified'), GMTOffset: undefined }],
            fromCountry: 'TR',
            toCountry: 'DE',
            shippedAt: '2026-11-24T13:00:00',
          }),
        ]),
      },
      { operation: 'tracking.multi' },
    );
    const answers = await carrier().trackMany([FIRST, SECOND, UNKNOWN].map(ref));
    expect(dhl.requests).toHaveLength(1);
    expect(answers.map((a) => ('events' in a ? a.events.map((e) => [e.event, e.occurredAt.toISOString()]) : a.error))).toEqual([
      [
        ['PICKED_UP', '2026-11-24T13:00:00.000Z'],
        ['IN_TRANSIT', '2026-11-25T06:00:00.000Z'],
        ['IN_TRANSIT', '2026-11-25T07:30:00.000Z'],
      ],
      [],
      [],
    ]);
  });

  it('answers no events for each shipment when DHL knows none of them (404 for the whole request)', async () => {
    const shipments = [FIRST, SECOND, UNKNOWN].map(ref);
    expect(await carrier().trackMany(shipments)).toEqual(shipments.map((shipment) => ({ shipment, events: [] })));
    expect(dhl.requests.map((r) => [r.operation, r.status])).toEqual([['tracking.multi', 404]]);
  });

  it('throws CarrierBusyError when DHL answers 429 with Retry-After', async () => {
    dhl.failNext({ kind: 'custom', status: 429, body: { title: 'Too many requests' }, headers: { 'retry-after': '7' } }, { operation: 'tracking.multi' });
    const busy = await failure(carrier().trackMany([FIRST, UNKNOWN].map(ref)));
    expect(busy).toBeInstanceOf(CarrierBusyError);
    expect(busy).toMatchObject({ retryAfterMs: 7000 });
  });

  it('answers a refusal of one shipment’s own call for that shipment only', async () => {
    dhl.setTracking(FIRST, journey);
    dhl.setTracking(SECOND, journey);
    dhl.failNext({ kind: 'refusal', status: 400, detail: 'Wrong input parameters' }, { operation: 'tracking.single' });
    const answers = await carrier().trackMany([FIRST, SECOND].map(ref));
    expect(answers[0]).toEqual({ shipment: ref(FIRST), error: 'Wrong input parameters' });
    expect(answers[1]).toMatchObject({ shipment: ref(SECOND), events: [{ event: 'PICKED_UP' }, { event: 'IN_TRANSIT' }, { event: 'IN_TRANSIT' }] });
  });

  it('splits more than 200 waybills into requests of at most 200, each waybill asked once', async () => {
    const codes = Array.from({ length: 201 }, (_, i) => String(7000000000 + i));
    const answers = await carrier().trackMany([...codes, codes[0]].map(ref));
    expect(multi().map((r) => [r.query.shipmentTrackingNumber].flat().length)).toEqual([200, 1]);
    expect(multi().every((r) => r.validationErrors.length === 0)).toBe(true);
    expect(answers).toHaveLength(202);
    expect(answers.every((a) => 'events' in a && a.events.length === 0)).toBe(true);
  });
});

describe('DhlExpressCarrier: exactly once (the booking activity’s look-up)', () => {
  const KEY = '5f0c6a2e8a514c1e9a370f3d2b7c9e11';

  it('sends the consignment uuid without dashes as the shipment’s CU reference, and keeps Message-Reference', async () => {
    const req = request('international');
    expect(carrier().sentKey(req)).toBe(KEY);
    await carrier().book(req);
    const [sent] = shipmentRequests();
    expect((sent.body as Json).customerReferences).toEqual([{ value: KEY, typeCode: 'CU' }]);
    expect(sent.headers['message-reference']).toBe(KEY);
    // Our reference stays on every piece.
    expect((sent.body as Json).content.packages[0].customerReferences).toEqual([{ value: 'SHOP-1001', typeCode: 'CU' }]);
  });

  it('finds nothing before any booking (DHL answers 404 by reference)', async () => {
    expect(await carrier().findBooking(request('international'))).toEqual({ state: 'none' });
    const [asked] = dhl.requests;
    expect(asked).toMatchObject({ operation: 'tracking.multi', status: 404, validationErrors: [] });
    expect(asked.query).toMatchObject({
      shipmentReference: KEY,
      shipmentReferenceType: 'CU',
      shipperAccountNumber: '123456789',
      dateRangeFrom: '2026-10-25',
      dateRangeTo: '2026-12-04',
    });
  });

  it('reports a shipment DHL made although the connection was cut before its answer (201, then dropped) as unusable, with its waybill', async () => {
    dhl.failNext({ kind: 'applyThenDrop' }, { operation: 'shipments.create' });
    const lost = await failure(carrier().book(request('international')));
    expect(lost).toBeInstanceOf(RemoteUnavailableError);
    const [awb] = [...dhl.shipments.keys()];
    expect(awb).toMatch(/^\d{10}$/);
    expect(await carrier().findBooking(request('international'))).toEqual({
      state: 'unusable',
      trackingCodes: [awb],
      reason: expect.stringContaining('label'),
    });
  });

  it('throws the transient error of an HTTP 500 (not a refusal), and finds the booking the 500 may have made', async () => {
    dhl.failNext({ kind: 'applyThenStatus', status: 500 }, { operation: 'shipments.create' });
    const failed = await failure(carrier().book(request('international')));
    expect(failed).toBeInstanceOf(RemoteUnavailableError);
    const [awb] = [...dhl.shipments.keys()];
    expect(await carrier().findBooking(request('international'))).toMatchObject({ state: 'unusable', trackingCodes: [awb] });
  });
});

describe('DhlExpressCarrier: pickups and cancelling', () => {
  const pickupAccount = () =>
    new DhlExpressCarrier({
      ...carrierOptions(),
      settings: { base_url: dhl.baseUrl, pickup: { requested: true, close_time: '18:00', location: 'reception' } },
    });

  it('books a courier pickup when the account asks, keeps its dispatch confirmation number, and cancel cancels the pickup at DHL (without one, cancel is ours alone)', async () => {
    const booking = await pickupAccount().book(request('international'));
    const [sent] = shipmentRequests();
    expect((sent.body as Json).pickup).toEqual({ isRequested: true, closeTime: '18:00', location: 'reception' });
    const dcn = dhl.shipments.get(booking.trackingCode)!.dispatchConfirmationNumber!;
    expect(booking).toMatchObject({ pickupBooked: true, carrierReference: dcn });

    const ref = { bookingKey: 'k', trackingCode: booking.trackingCode, carrierReference: booking.carrierReference };
    expect(await pickupAccount().cancel({ ...ref, inTransit: false })).toEqual({ accepted: true });
    const cancelled = dhl.requests.find((r) => r.operation === 'pickups.cancel')!;
    expect(cancelled).toMatchObject({ method: 'DELETE', path: `/pickups/${dcn}`, status: 200, validationErrors: [] });
    expect(cancelled.query).toMatchObject({ requestorName: 'DHL Express', reason: expect.stringContaining(booking.trackingCode) });
    // Tracking goes by the waybill.
    await pickupAccount().track(ref);
    expect(dhl.requests.at(-1)!.path).toBe(`/shipments/${booking.trackingCode}/tracking`);

    // DHL's refusal (already cancelled or completed) is passed on.
    expect(await pickupAccount().cancel({ ...ref, inTransit: false })).toEqual({
      accepted: false,
      reason: expect.stringContaining('Pickup already cancelled or completed'),
    });

    // Without a pickup, cancelling before transit is ours alone: nothing is sent (the contract has no shipment void).
    const dropOff = await carrier().book(request('international'));
    dhl.requests.length = 0;
    expect(
      await carrier().cancel({ bookingKey: 'k', trackingCode: dropOff.trackingCode, carrierReference: dropOff.carrierReference, inTransit: false }),
    ).toEqual({ accepted: true });
    expect(dhl.requests).toHaveLength(0);
  });
});
