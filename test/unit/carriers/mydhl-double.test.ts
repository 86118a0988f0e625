/**
 * The MyDHL API test double must be able to fail a future `dhl_express` adapter: it accepts what the OpenAPI contract
 * accepts, refuses what it refuses (with the contract's error body and the offending JSON path) and can simulate
 * outages. See test/support/carriers/MYDHL-CONTRACT.md.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import Ajv from 'ajv';
import { startMyDhlDouble, type MyDhlDouble } from '../../support/carriers/mydhl-double';
import { MYDHL_CONTRACT, MYDHL_TEST_WAYBILLS, mydhlResponses, trackingResponseSchema } from '../../support/carriers/mydhl.schemas';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dhl: MyDhlDouble;

beforeAll(async () => {
  dhl = await startMyDhlDouble();
});
afterAll(async () => {
  await dhl.close();
});
beforeEach(() => dhl.reset());

const headers = (extra: Record<string, string> = {}) => ({
  Authorization: dhl.authorization,
  'Content-Type': 'application/json',
  Accept: 'application/json',
  'x-version': MYDHL_CONTRACT.xVersionDefault,
  'Message-Reference': 'd0e7832e-5c98-11ea-bc55-0242ac13',
  'Plugin-Name': 'consignflow',
  ...extra,
});

async function call(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}) {
  const res = await fetch(`${dhl.baseUrl}${path}`, {
    method,
    headers: headers(extraHeaders),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Json };
}

/** A dutiable TR → DE shipment with two customs line items carrying Turkish GTIP codes (12 digits) as outbound commodity codes. */
function trToDe(): Json {
  return {
    plannedShippingDateAndTime: '2025-03-17T14:00:00 GMT+03:00',
    pickup: { isRequested: false },
    productCode: 'P',
    localProductCode: 'P',
    getRateEstimates: false,
    accounts: [{ typeCode: 'shipper', number: '123456789' }],
    outputImageProperties: {
      printerDPI: 300,
      encodingFormat: 'pdf',
      imageOptions: [
        { typeCode: 'label', templateName: 'ECOM26_84_001' },
        { typeCode: 'invoice', templateName: 'COMMERCIAL_INVOICE_P_10', isRequested: true, invoiceType: 'commercial' },
      ],
    },
    customerReferences: [{ value: 'CF-2025-000123', typeCode: 'CU' }],
    customerDetails: {
      shipperDetails: {
        postalAddress: {
          postalCode: '34394',
          cityName: 'Istanbul',
          countryCode: 'TR',
          addressLine1: 'Esentepe Mah. Buyukdere Cad. No:185',
          countyName: 'Sisli',
        },
        contactInformation: { phone: '+902121234567', companyName: 'Anadolu Tekstil A.S.', fullName: 'Ayse Yilmaz', email: 'ayse@example.com.tr' },
        registrationNumbers: [{ typeCode: 'VAT', number: 'TR1234567890', issuerCountryCode: 'TR' }],
        typeCode: 'business',
      },
      receiverDetails: {
        postalAddress: { postalCode: '10115', cityName: 'Berlin', countryCode: 'DE', addressLine1: 'Invalidenstrasse 116' },
        contactInformation: { phone: '+49301234567', companyName: 'Berliner Mode GmbH', fullName: 'Jonas Becker' },
        typeCode: 'business',
      },
    },
    content: {
      packages: [{ typeCode: '2BP', weight: 2.5, dimensions: { length: 40, width: 30, height: 10 }, customerReferences: [{ value: 'PKG-1', typeCode: 'CU' }] }],
      isCustomsDeclarable: true,
      declaredValue: 180,
      declaredValueCurrency: 'EUR',
      description: 'Cotton T-shirts and towels',
      incoterm: 'DAP',
      unitOfMeasurement: 'metric',
      exportDeclaration: {
        lineItems: [
          {
            number: 1,
            description: 'Knitted cotton T-shirt',
            price: 12.5,
            quantity: { value: 8, unitOfMeasurement: 'PCS' },
            commodityCodes: [
              { typeCode: 'outbound', value: '610910000011' },
              { typeCode: 'inbound', value: '61091000' },
            ],
            exportReasonType: 'commercial_purpose_or_sale',
            manufacturerCountry: 'TR',
            weight: { netValue: 1.6, grossValue: 1.8 },
          },
          {
            number: 2,
            description: 'Cotton terry towel',
            price: 20,
            quantity: { value: 4, unitOfMeasurement: 'PCS' },
            commodityCodes: [{ typeCode: 'outbound', value: '630260000000' }],
            exportReasonType: 'commercial_purpose_or_sale',
            manufacturerCountry: 'TR',
            weight: { netValue: 0.6, grossValue: 0.7 },
          },
        ],
        invoice: { number: 'INV-2025-0042', date: '2025-03-17' },
        exportReasonType: 'commercial_purpose_or_sale',
      },
    },
  };
}

/** Checks that a base64 PDF is a real PDF: header, trailer and every xref offset pointing at its `N 0 obj`. */
function expectValidPdf(base64: string) {
  const pdf = Buffer.from(base64, 'base64').toString('latin1');
  expect(pdf.startsWith('%PDF-1.')).toBe(true);
  expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(pdf)?.[1]);
  expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
  const entries = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  expect(entries.length).toBeGreaterThan(0);
  entries.forEach((offset, i) => expect(pdf.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`));
  return pdf;
}

describe('MyDHL double: POST /shipments', () => {
  it('creates a TR → DE dutiable shipment with GTIP commodity codes: 201, AWB, piece IDs and a real PDF label', async () => {
    const res = await call('POST', '/shipments', trToDe());

    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/shipments/${res.body.shipmentTrackingNumber}`);
    expect(res.headers.get('message-reference')).toBe('d0e7832e-5c98-11ea-bc55-0242ac13');
    expect(res.body.shipmentTrackingNumber).toMatch(/^\d{10}$/);
    expect(res.body.trackingUrl).toBe(`${dhl.baseUrl}/shipments/${res.body.shipmentTrackingNumber}/tracking`);
    expect(res.body.packages).toEqual([
      { referenceNumber: 1, trackingNumber: expect.stringMatching(/^JD\d{18}$/), trackingUrl: expect.stringContaining('?pieceTrackingNumber=JD') },
    ]);
    const [label, invoice] = res.body.documents;
    expect(label).toMatchObject({ typeCode: 'label', imageFormat: 'PDF' });
    expect(expectValidPdf(label.content)).toContain(res.body.shipmentTrackingNumber);
    expect(invoice).toMatchObject({ typeCode: 'invoice', imageFormat: 'PDF' });
    expectValidPdf(invoice.content);

    const [recorded] = dhl.requests;
    expect(recorded).toMatchObject({ method: 'POST', path: '/shipments', operation: 'shipments.create', auth: 'ok', validationErrors: [], status: 201 });
    expect((recorded.body as Json).content.exportDeclaration.lineItems[0].commodityCodes[0]).toEqual({ typeCode: 'outbound', value: '610910000011' });
    expect(dhl.shipments.get(res.body.shipmentTrackingNumber)).toMatchObject({ fromCountry: 'TR', toCountry: 'DE', productCode: 'P' });
  });

  it('answers ZPL when outputImageProperties.encodingFormat is zpl', async () => {
    const body = trToDe();
    body.outputImageProperties = { encodingFormat: 'zpl', imageOptions: [{ typeCode: 'label', templateName: 'ECOM26_84_001' }] };
    body.content.packages.push({ weight: 1.2, dimensions: { length: 20, width: 20, height: 20 } });

    const res = await call('POST', '/shipments', body);

    expect(res.status).toBe(201);
    expect(res.body.documents).toHaveLength(1);
    expect(res.body.documents[0]).toMatchObject({ typeCode: 'label', imageFormat: 'ZPL' });
    const zpl = Buffer.from(res.body.documents[0].content, 'base64').toString('utf8');
    expect(zpl.match(/\^XA[\s\S]*?\^XZ/g)).toHaveLength(2);
    expect(zpl).toContain(res.body.shipmentTrackingNumber);
  });

  it('books a pickup when pickup.isRequested, and only the pickup can be cancelled (the contract has no shipment cancel)', async () => {
    const body = trToDe();
    body.pickup = { isRequested: true, closeTime: '18:00', location: 'reception' };
    const created = await call('POST', '/shipments', body);
    const dcn = created.body.dispatchConfirmationNumber;
    expect(dcn).toMatch(/^IST\d{12}$/);
    expect(created.body.cancelPickupUrl).toBe(`${dhl.baseUrl}/pickups/${dcn}`);

    const voidShipment = await call('DELETE', `/shipments/${created.body.shipmentTrackingNumber}`);
    expect(voidShipment.status).toBe(404);
    expect(voidShipment.body.detail).toContain('not an operation of the MyDHL API 3.1.1 contract');

    expect((await call('DELETE', `/pickups/${dcn}`)).status).toBe(400); // requestorName and reason are required
    const cancel = await call('DELETE', `/pickups/${dcn}?requestorName=Ayse%20Yilmaz&reason=not%20needed`);
    expect(cancel.status).toBe(200);
    const again = await call('DELETE', `/pickups/${dcn}?requestorName=Ayse%20Yilmaz&reason=not%20needed`);
    expect(again.status).toBe(400);
    expect((await call('DELETE', '/pickups/PRG999126012345?requestorName=A&reason=B')).body).toMatchObject({ status: '404', title: 'Pickup not found' });
  });

  describe('refuses what the contract refuses, with the offending path in additionalDetails', () => {
    async function expectValidationError(body: Json, expected: string) {
      const res = await call('POST', '/shipments', body);
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body).toMatchObject({ title: 'Validation error', message: 'Unprocessable Entity', status: '422', instance: '/expressapi/shipments' });
      expect(Object.keys(res.body).every((k) => ['instance', 'detail', 'title', 'message', 'additionalDetails', 'status'].includes(k))).toBe(true);
      expect(res.body.additionalDetails).toContain(expected);
      expect(dhl.shipments.size).toBe(0);
      expect(dhl.requests.at(-1)?.validationErrors).toContain(expected);
      return res.body;
    }

    it('a missing receiverDetails.postalAddress.countryCode', async () => {
      const body = trToDe();
      delete body.customerDetails.receiverDetails.postalAddress.countryCode;
      const error = await expectValidationError(body, '#/customerDetails/receiverDetails/postalAddress: required key [countryCode] not found');
      expect(error.detail).toBe('#/customerDetails/receiverDetails/postalAddress: required key [countryCode] not found');
    });

    it("incoterm 'XXX'", async () => {
      const body = trToDe();
      body.content.incoterm = 'XXX';
      await expectValidationError(body, '#/content/incoterm: XXX is not a valid enum value');
    });

    it("encodingFormat 'gif'", async () => {
      const body = trToDe();
      body.outputImageProperties.encodingFormat = 'gif';
      await expectValidationError(body, '#/outputImageProperties/encodingFormat: gif is not a valid enum value');
    });

    it('an addressLine1 longer than 45 characters', async () => {
      const body = trToDe();
      body.customerDetails.shipperDetails.postalAddress.addressLine1 = 'Esentepe Mahallesi Buyukdere Caddesi No:185 Kat 7';
      await expectValidationError(body, '#/customerDetails/shipperDetails/postalAddress/addressLine1: expected maxLength: 45, actual: 49');
    });

    it('lists every problem at once, including unknown keys and bad commodity code types', async () => {
      const body = trToDe();
      delete body.pickup.isRequested;
      body.content.exportDeclaration.lineItems[0].commodityCodes[0].typeCode = 'gtip';
      body.content.exportDeclaration.lineItems[1].exportControlClassificationNumber = 'US123456789';
      body.content.exportDeclaration.lineItems[1].quantity.unitOfMeasurement = 'PIECES';
      body.accounts[0].typeCode = 'sender';
      const error = await expectValidationError(body, '#/pickup: required key [isRequested] not found');
      expect(error.detail).toBe('Multiple problems found, see Additional Details');
      expect(error.additionalDetails).toEqual(
        expect.arrayContaining([
          '#/content/exportDeclaration/lineItems/0/commodityCodes/0/typeCode: gtip is not a valid enum value',
          '#/content/exportDeclaration/lineItems/1: extraneous key [exportControlClassificationNumber] is not permitted',
          '#/content/exportDeclaration/lineItems/1/quantity/unitOfMeasurement: PIECES is not a valid enum value',
          '#/accounts/0/typeCode: sender is not a valid enum value',
        ]),
      );
    });

    it('wrong types, numeric bounds and the invoice date format', async () => {
      const body = trToDe();
      body.content.packages[0].weight = 0;
      body.content.exportDeclaration.lineItems[0].quantity.value = '8';
      body.content.exportDeclaration.invoice.date = '17.03.2025';
      const error = await expectValidationError(body, '#/content/packages/0/weight: 0 is not greater or equal to 0.001');
      expect(error.additionalDetails).toEqual(
        expect.arrayContaining([
          '#/content/exportDeclaration/lineItems/0/quantity/value: expected type: Integer, found: String',
          '#/content/exportDeclaration/invoice/date: [17.03.2025] is not a valid date',
        ]),
      );
    });
  });

  it('refuses rules the document states in prose with 400: the 998 timestamp format and the export declaration of a dutiable shipment', async () => {
    const badTime = trToDe();
    badTime.plannedShippingDateAndTime = '2025-03-17 14:00';
    const time = await call('POST', '/shipments', badTime);
    expect(time.status).toBe(400);
    expect(time.body.detail).toBe("998: ShipTimeStamp is not well formatted.(Expected Sample Format : '2010-02-11T17:10:09 GMT+01:00')");
    expect(time.body.additionalDetails[0]).toMatch(/^#\/plannedShippingDateAndTime: /);

    const noDeclaration = trToDe();
    delete noDeclaration.content.exportDeclaration;
    const declaration = await call('POST', '/shipments', noDeclaration);
    expect(declaration.status).toBe(400);
    expect(declaration.body.additionalDetails).toEqual(['#/content: required key [exportDeclaration] not found (content.isCustomsDeclarable is true)']);
  });

  it('401 for wrong or missing HTTP Basic credentials, 400 without the required x-version header', async () => {
    const wrong = await call('POST', '/shipments', trToDe(), { Authorization: `Basic ${Buffer.from(`${dhl.username}:nope`).toString('base64')}` });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ status: '401', title: 'Unauthorized', detail: 'Invalid credentials' });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);

    const res = await fetch(`${dhl.baseUrl}/shipments`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'x-version': '3.1.0' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(dhl.requests.map((r) => r.auth)).toEqual(['invalid', 'missing']);

    const noVersion = await fetch(`${dhl.baseUrl}/shipments`, {
      method: 'POST',
      headers: { Authorization: dhl.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify(trToDe()),
    });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ title: 'Missing parameters', detail: 'Missing mandatory parameters: x-version' });

    const longReference = await call('POST', '/shipments', trToDe(), { 'Message-Reference': 'x'.repeat(37) });
    expect(longReference.status).toBe(400);
    expect(longReference.body.additionalDetails).toEqual(['#/message-reference: expected maxLength: 36, actual: 37']);
    expect(dhl.shipments.size).toBe(0);
  });
});

describe('MyDHL double: rates', () => {
  it('POST /rates answers products with totalPrice and deliveryCapabilities', async () => {
    const res = await call('POST', '/rates', {
      customerDetails: {
        shipperDetails: { postalCode: '34394', cityName: 'Istanbul', countryCode: 'TR' },
        receiverDetails: { postalCode: '10115', cityName: 'Berlin', countryCode: 'DE' },
      },
      accounts: [{ typeCode: 'shipper', number: '123456789' }],
      plannedShippingDateAndTime: '2025-03-17T14:00:00GMT+03:00',
      unitOfMeasurement: 'metric',
      isCustomsDeclarable: true,
      monetaryAmount: [{ typeCode: 'declaredValue', value: 180, currency: 'EUR' }],
      packages: [{ weight: 2.5, dimensions: { length: 40, width: 30, height: 10 } }],
    });

    expect(res.status).toBe(200);
    expect(res.body.products.map((p: Json) => [p.productCode, p.productName])).toEqual([
      ['P', 'EXPRESS WORLDWIDE'],
      ['W', 'ECONOMY SELECT'],
    ]);
    const [express] = res.body.products;
    expect(express.weight).toEqual({ volumetric: 2.4, provided: 2.5, unitOfMeasurement: 'metric' });
    expect(express.totalPrice[0]).toEqual({ currencyType: 'BILLC', priceCurrency: 'EUR', price: 35 + 9.5 * 2.5 });
    expect(express.deliveryCapabilities).toMatchObject({ estimatedDeliveryDateAndTime: '2025-03-19T23:59:00', totalTransitDays: 2 });
  });

  it('POST /rates validates its body like /shipments (422) and filters by productCode', async () => {
    const invalid = await call('POST', '/rates', { customerDetails: { shipperDetails: { cityName: 'Istanbul', countryCode: 'TUR' } }, packages: [] });
    expect(invalid.status).toBe(422);
    expect(invalid.body.additionalDetails).toEqual(
      expect.arrayContaining([
        '#: required key [plannedShippingDateAndTime] not found',
        '#/customerDetails: required key [receiverDetails] not found',
        '#/customerDetails/shipperDetails: required key [postalCode] not found',
        '#/customerDetails/shipperDetails/countryCode: expected maxLength: 2, actual: 3',
        '#/packages: expected minimum item count: 1, found: 0',
      ]),
    );

    const filtered = await call('POST', '/rates', {
      customerDetails: {
        shipperDetails: { postalCode: '', cityName: 'Istanbul', countryCode: 'TR' },
        receiverDetails: { postalCode: '10115', cityName: 'Berlin', countryCode: 'DE' },
      },
      productCode: 'W',
      plannedShippingDateAndTime: '2025-03-17T14:00:00 GMT+03:00',
      unitOfMeasurement: 'metric',
      isCustomsDeclarable: true,
      packages: [{ weight: 1 }],
    });
    expect(filtered.body.products.map((p: Json) => p.productCode)).toEqual(['W']);
  });

  it('GET /rates takes the one-piece query and reports missing or malformed parameters', async () => {
    const query =
      'accountNumber=123456789&originCountryCode=TR&originCityName=Istanbul&destinationCountryCode=TR&destinationCityName=Ankara' +
      '&weight=5&length=15&width=10&height=5&plannedShippingDate=2025-03-17&isCustomsDeclarable=false&unitOfMeasurement=metric';
    const ok = await call('GET', `/rates?${query}`);
    expect(ok.status).toBe(200);
    expect(ok.body.products).toEqual([expect.objectContaining({ productCode: 'N', productName: 'EXPRESS DOMESTIC' })]);

    const missing = await call('GET', '/rates?originCountryCode=TR&weight=5');
    expect(missing.status).toBe(400);
    expect(missing.body.title).toBe('Missing parameters');
    expect(missing.body.detail).toMatch(/^Missing mandatory parameters: accountNumber, originCityName, destinationCountryCode/);

    const malformed = await call('GET', `/rates?${query.replace('weight=5', 'weight=five').replace('metric', 'si')}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ title: 'Wrong format', message: 'Bad request' });
    expect(malformed.body.detail).toContain('weight (type)');
    expect(malformed.body.detail).toContain('unitOfMeasurement (enum=["metric","imperial"])');
  });
});

describe('MyDHL double: tracking', () => {
  it('tracks a shipment it created, then its delivery once set, by path and by query', async () => {
    const created = await call('POST', '/shipments', trToDe());
    const awb = created.body.shipmentTrackingNumber;

    const inTransit = await call('GET', `/shipments/${awb}/tracking`);
    expect(inTransit.status).toBe(200);
    expect(inTransit.headers.get('content-language')).toBe('eng');
    const [shipment] = inTransit.body.shipments;
    expect(shipment).toMatchObject({ shipmentTrackingNumber: awb, status: 'Success', productCode: 'P', numberOfPieces: 1 });
    expect(shipment.events.map((e: Json) => e.typeCode)).toEqual(['PU', 'AF', 'PL', 'DF']);
    expect(shipment.events[0]).toEqual({
      date: '2025-03-17',
      time: '13:56:21',
      typeCode: 'PU',
      description: 'Shipment picked up',
      serviceArea: [{ code: 'IST', description: 'ISTANBUL-TR' }],
    });

    dhl.setTracking(awb, 'delivered');
    const delivered = await call('GET', `/tracking?shipmentTrackingNumber=${awb}&shipmentTrackingNumber=${MYDHL_TEST_WAYBILLS[0]}&levelOfDetail=all`);
    expect(delivered.status).toBe(200);
    expect(delivered.body.shipments.map((s: Json) => s.shipmentTrackingNumber)).toEqual([awb, MYDHL_TEST_WAYBILLS[0]]);
    expect(delivered.body.shipments[0].events.at(-1)).toMatchObject({ typeCode: 'OK', serviceArea: [{ code: 'FRA', description: 'FRANKFURT-DE' }] });
    expect(delivered.body.shipments[0].pieces[0].trackingNumber).toBe(created.body.packages[0].trackingNumber);

    const byPiece = await call('GET', `/tracking?pieceTrackingNumber=${created.body.packages[0].trackingNumber}&trackingView=last-checkpoint`);
    expect(byPiece.body.shipments[0].events).toHaveLength(1);

    const byReference = await call('GET', '/tracking?shipmentReference=CF-2025-000123&shipperAccountNumber=123456789');
    expect(byReference.body.shipments[0].shipmentTrackingNumber).toBe(awb);
  });

  it('404 "No data found" for unknown numbers, 400 for the documented parameter errors', async () => {
    const unknown = await call('GET', '/shipments/1251820953/tracking?trackingView=all-checkpoints&levelOfDetail=shipment');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      instance: '/expressapi/shipments/1251820953/tracking?trackingView=all-checkpoints&levelOfDetail=shipment',
      detail: 'No data found',
      title: 'Not data found',
      message: 'Not data found',
      status: '404',
    });

    const badView = await call('GET', '/shipments/1251820953/tracking?trackingView=shipment-details');
    expect(badView.status).toBe(400);
    expect(badView.body.title).toBe('Wrong format');

    const noAccount = await call('GET', '/tracking?shipmentReference=ShipReferenceRCS03');
    expect(noAccount.body).toMatchObject({ status: '400', title: 'Missing parameters', detail: 'Missing mandatory parameters: shipperAccountNumber' });

    const tooMany = await call('GET', `/tracking?${Array.from({ length: 201 }, (_, i) => `shipmentTrackingNumber=${1000000000 + i}`).join('&')}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.additionalDetails).toEqual(['#/shipmentTrackingNumber: expected maximum item count: 200, found: 201']);
  });

  it("builds bodies the document's TrackingResponse schema accepts (unlike its own example, whose events carry `remarks`)", () => {
    const ajv = new Ajv({ allErrors: true, strict: true, multipleOfPrecision: 9 });
    const check = ajv.compile(trackingResponseSchema);
    const events = mydhlResponses.trackingEvents({ fromCountry: 'TR', toCountry: 'DE', shippedOn: '2025-03-17', upTo: 'delivered' });
    const body = mydhlResponses.tracking([
      mydhlResponses.trackedShipment({
        shipmentTrackingNumber: '5800000001',
        events,
        fromCountry: 'TR',
        toCountry: 'DE',
        shippedAt: '2025-03-17T14:00:00',
        withPieces: true,
      }),
    ]);
    expect(check(body)).toBe(true);

    const [first, ...rest] = events;
    const documentExample = {
      shipments: [{ ...body.shipments[0], events: [{ ...first, remarks: [{ value: 'The shipment is on its way to the destination.' }] }, ...rest] }],
    };
    expect(check(documentExample)).toBe(false);
    expect(check.errors?.[0]).toMatchObject({ keyword: 'additionalProperties', params: { additionalProperty: 'remarks' } });
  });
});

describe('MyDHL double: fault switches', () => {
  it('answers 503 (with Retry-After) for the next request only, then recovers', async () => {
    dhl.failNext({ kind: 'status', status: 503, retryAfterSeconds: 2 });
    const down = await call('POST', '/shipments', trToDe());
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    expect(down.body).toMatchObject({ status: '503', title: 'Service Unavailable' });
    expect((await call('POST', '/shipments', trToDe())).status).toBe(201);
    expect(dhl.requests.map((r) => [r.status, r.fault])).toEqual([
      [503, 'status'],
      [201, undefined],
    ]);
  });

  it('limits a fault to one operation and N requests (500 with the documented 999 detail)', async () => {
    dhl.failNext({ kind: 'status', status: 500 }, { operation: 'shipments.create', times: 2 });
    expect((await call('GET', `/shipments/${MYDHL_TEST_WAYBILLS[1]}/tracking`)).status).toBe(200);
    const first = await call('POST', '/shipments', trToDe());
    expect(first.body).toMatchObject({ status: '500', title: 'Internal Server Error', detail: expect.stringMatching(/^999: Process failure occurred/) });
    expect((await call('POST', '/shipments', trToDe())).status).toBe(500);
    expect((await call('POST', '/shipments', trToDe())).status).toBe(201);
  });

  it('hangs (the client times out) and drops connections', async () => {
    dhl.failNext({ kind: 'hang' });
    await expect(
      fetch(`${dhl.baseUrl}/shipments`, { method: 'POST', headers: headers(), body: JSON.stringify(trToDe()), signal: AbortSignal.timeout(150) }),
    ).rejects.toThrow();
    dhl.failNext({ kind: 'drop' });
    await expect(fetch(`${dhl.baseUrl}/shipments`, { method: 'POST', headers: headers(), body: JSON.stringify(trToDe()) })).rejects.toThrow();
    expect(dhl.requests.map((r) => [r.fault, r.status])).toEqual([
      ['hang', undefined],
      ['drop', undefined],
    ]);
    expect((await call('POST', '/shipments', trToDe())).status).toBe(201);
  });

  it('refuses a valid request with a documented business error, but only after auth and validation pass', async () => {
    dhl.failNext({ kind: 'refusal', preset: 'serviceNotAvailableForRoute' });
    const invalid = trToDe();
    invalid.content.incoterm = 'XXX';
    expect((await call('POST', '/shipments', invalid)).status).toBe(422);
    const refused = await call('POST', '/shipments', trToDe());
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: '400', title: 'Bad request', message: 'Bad request' });
    expect(refused.body.detail).toMatch(/^7008: .* is not available between this origin and destination/);
    expect(dhl.shipments.size).toBe(0);
  });

  it('answers a custom body', async () => {
    dhl.failNext({ kind: 'custom', status: 502, body: '<html>Bad Gateway</html>', headers: { 'Content-Type': 'text/html' } });
    const res = await fetch(`${dhl.baseUrl}/rates?x=1`, { headers: headers() });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(await res.text()).toBe('<html>Bad Gateway</html>');
  });

  it('answers 501 for documented operations it does not emulate', async () => {
    const res = await call('GET', '/products?accountNumber=1');
    expect(res.status).toBe(501);
    expect(res.body.detail).toContain('exp-api-products');
  });
});

describe('MyDHL double: documents per piece, lost answers, event offsets, references', () => {
  it('answers one label document per piece with its packageReferenceNumber when asked (labelPerPiece), and the waybill document in the label’s format', async () => {
    const perPiece = await startMyDhlDouble({ labelPerPiece: 'reversed' });
    try {
      const body = trToDe();
      body.content.packages.push({ weight: 1.2, dimensions: { length: 20, width: 20, height: 20 } });
      body.outputImageProperties = { encodingFormat: 'pdf', imageOptions: [{ typeCode: 'label' }, { typeCode: 'waybillDoc', isRequested: true }] };
      const res = await fetch(`${perPiece.baseUrl}/shipments`, {
        method: 'POST',
        headers: { ...headers(), Authorization: perPiece.authorization },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      const created = (await res.json()) as Json;
      expect(created.documents.map((d: Json) => [d.typeCode, d.packageReferenceNumber])).toEqual([
        ['label', 2],
        ['label', 1],
        ['waybillDoc', undefined],
      ]);
      expect(expectValidPdf(created.documents[0].content)).toContain(`PIECE 2/2 ${created.packages[1].trackingNumber}`);
      expect(expectValidPdf(created.documents[1].content)).not.toContain('PIECE 2/2');
    } finally {
      await perPiece.close();
    }

    const zpl = trToDe();
    zpl.outputImageProperties = { encodingFormat: 'zpl', imageOptions: [{ typeCode: 'label' }, { typeCode: 'waybillDoc', isRequested: true }] };
    const res = await call('POST', '/shipments', zpl);
    const waybill = res.body.documents.find((d: Json) => d.typeCode === 'waybillDoc');
    expect(waybill.imageFormat).toBe('ZPL');
    expect(Buffer.from(waybill.content, 'base64').toString('utf8')).toMatch(/^\^XA[\s\S]*WAYBILL DOC \d{10}[\s\S]*\^XZ$/);
  });

  it('applyThenDrop creates the shipment, then cuts the connection without an answer; the shipment is found by its reference at once', async () => {
    dhl.failNext({ kind: 'applyThenDrop' }, { operation: 'shipments.create' });
    await expect(
      fetch(`${dhl.baseUrl}/shipments`, { method: 'POST', headers: headers(), body: JSON.stringify(trToDe()), signal: AbortSignal.timeout(5_000) }),
    ).rejects.toThrow();
    expect(dhl.requests[0]).toMatchObject({ operation: 'shipments.create', fault: 'applyThenDrop', validationErrors: [] });
    expect(dhl.requests[0].status).toBeUndefined();
    const [awb] = [...dhl.shipments.keys()];
    expect(awb).toMatch(/^\d{10}$/);
    const found = await call(
      'GET',
      '/tracking?shipmentReference=CF-2025-000123&shipmentReferenceType=CU&shipperAccountNumber=123456789&trackingView=shipment-details-only',
    );
    expect(found.status).toBe(200);
    expect(found.body.shipments.map((s: Json) => [s.shipmentTrackingNumber, s.events])).toEqual([[awb, []]]);
  });

  it('applyThenStatus creates the shipment, then answers the status (a 500 that booked)', async () => {
    dhl.failNext({ kind: 'applyThenStatus', status: 500 }, { operation: 'shipments.create' });
    const res = await call('POST', '/shipments', trToDe());
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ status: '500', detail: expect.stringMatching(/^999: Process failure occurred/) });
    expect(dhl.shipments.size).toBe(1);
  });

  it('finds a reference only with its type, under the account and within the date range asked', async () => {
    await call('POST', '/shipments', trToDe()); // planned 2025-03-17, reference CF-2025-000123 (CU)
    const find = (query: string) => call('GET', `/tracking?shipmentReference=CF-2025-000123&shipperAccountNumber=123456789&${query}`);
    expect((await find('shipmentReferenceType=CU&dateRangeFrom=2025-03-01&dateRangeTo=2025-03-31')).status).toBe(200);
    expect((await find('shipmentReferenceType=AAO')).status).toBe(404);
    expect((await find('dateRangeFrom=2025-04-01&dateRangeTo=2025-04-30')).status).toBe(404);
    expect((await call('GET', '/tracking?shipmentReference=CF-2025-000123&shipperAccountNumber=999999999')).status).toBe(404);
  });

  it('gives each checkpoint its GMT offset only when asked with requestGMTOffsetPerEvent', async () => {
    const created = await call('POST', '/shipments', trToDe());
    const awb = created.body.shipmentTrackingNumber;
    const plain = await call('GET', `/shipments/${awb}/tracking`);
    expect(plain.body.shipments[0].events.every((e: Json) => e.GMTOffset === undefined)).toBe(true);
    dhl.setTracking(awb, 'delivered');
    const withOffsets = await call('GET', `/shipments/${awb}/tracking?requestGMTOffsetPerEvent=true`);
    expect(withOffsets.status).toBe(200);
    const events = withOffsets.body.shipments[0].events as Json[];
    expect(events[0]).toMatchObject({ typeCode: 'PU', GMTOffset: '+03:00' });
    expect(events.at(-1)).toMatchObject({ typeCode: 'OK', GMTOffset: '+01:00' });
  });
});
