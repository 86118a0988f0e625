import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CarrierBusyError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import { DhlExpressCarrier, INCOTERM_OF_TYPE } from '../../../src/carriers/dhl-express';
import { createOutboundHttp } from '../../../src/http/outbound';
import { startMyDhlDouble, type MyDhlDouble } from '../../support/carriers/mydhl-double';
import { failure } from '../../support/failure';

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

const party = (country: string, city: string, name: string) => ({ name, country, city, postal_code: '34710', address: 'Caferağa Mah. Moda Cad. No:12 Kadıköy', phone_number: '+905551112233' });

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
    expect(body.plannedShippingDateAndTime).toBe('2026-11-24T09:30:00 GMT+00:00');
    expect(body.content).toMatchObject({ isCustomsDeclarable: true, incoterm: 'DDU', declaredValue: 73, declaredValueCurrency: 'EUR' });
    expect(body.content.exportDeclaration.lineItems).toEqual([
      { number: 1, description: 'Kilim yastık kılıfı', price: 24.5, quantity: { value: 2, unitOfMeasurement: 'PCS' }, commodityCodes: [{ typeCode: 'outbound', value: '630493000000' }], manufacturerCountry: 'TR', weight: { netValue: 1, grossValue: 1 } },
      { number: 2, description: 'Türk kahvesi 250 g', price: 8, quantity: { value: 3, unitOfMeasurement: 'PCS' }, commodityCodes: [{ typeCode: 'outbound', value: '090121000000' }], manufacturerCountry: 'TR', weight: { netValue: 1, grossValue: 1 } },
    ]);
    expect(body.content.exportDeclaration.invoice).toEqual({ number: 'INV-2026-1001', date: '2026-11-24' });
    expect(booking.trackingCode).toMatch(/^\d{10}$/);
    expect(booking.carrierReference).toBe(booking.trackingCode);
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
    expect(await failure(carrier({ password: 'wrong' }).book(request('international')))).toMatchObject({ name: 'CarrierRefusedError', reason: expect.stringContaining('credentials') });
    dhl.failNext({ kind: 'refusal', preset: 'serviceNotAvailableForRoute' });
    expect(await failure(carrier().book(request('international')))).toMatchObject({ reason: expect.stringContaining('7008') });
    dhl.failNext({ kind: 'status', status: 503 });
    expect(await failure(carrier().book(request('international')))).toBeInstanceOf(RemoteUnavailableError);
    dhl.failNext({ kind: 'custom', status: 429, body: { title: 'Too many requests' }, headers: { 'retry-after': '7' } });
    expect(await failure(carrier().book(request('international')))).toMatchObject({ name: 'CarrierBusyError', retryAfterMs: 7000 });
    expect(CarrierBusyError).toBeDefined();
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
