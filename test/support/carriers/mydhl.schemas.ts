/**
 * JSON Schemas (draft-07, as ajv 8 compiles by default) for the requests of the DHL Express MyDHL API, written by hand
 * from the vendor's OpenAPI 3.0 document, plus builders of contract-shaped response bodies.
 *
 * Source (the contract): repository `karrioapi/karrio`, file
 * `modules/connectors/mydhl/vendors/dpdhl-express-api-3.1.1_swagger.yaml` — "DHL Express APIs (MyDHL API)",
 * info.version 3.1.1, x-release-date 2025-11-02. Every schema below names the `components/schemas/...` or
 * `components/parameters/...` entry it was taken from. Constraints are copied as written (required, enum, min/maxLength,
 * min/maxItems, minimum/maximum, multipleOf, pattern, format, additionalProperties: false); `example` and long
 * `description` texts are left out. Where the document contradicts itself, the comment says so and which side we took.
 *
 * Rules that the document states only in prose (descriptions, error examples) are NOT in these schemas: they are
 * checked separately by the double (see `mydhl-double.ts`, "documented rules") so a schema failure always means
 * "the OpenAPI schema says no".
 */
import type { SchemaObject } from 'ajv';

export const MYDHL_CONTRACT = {
  repo: 'karrioapi/karrio',
  path: 'modules/connectors/mydhl/vendors/dpdhl-express-api-3.1.1_swagger.yaml',
  title: 'DHL Express APIs (MyDHL API)',
  version: '3.1.1',
  /** `servers` of the document. */
  servers: {
    mock: 'https://api-mock.dhl.com/mydhlapi',
    test: 'https://express.api.dhl.com/mydhlapi/test',
    production: 'https://express.api.dhl.com/mydhlapi',
  },
  /** `components/parameters/xVersionHeader`: required, default 3.1.0 ("Interface version - do not change this field value"). */
  xVersionDefault: '3.1.0',
} as const;

/**
 * Every method + path the document defines (`paths`), relative to a server URL. There is no operation that cancels,
 * voids or deletes a shipment: the only DELETE is the pickup cancellation `DELETE /pickups/{dispatchConfirmationNumber}`.
 */
export const MYDHL_DOCUMENTED_OPERATIONS: ReadonlyArray<{ method: string; path: string; operationId: string }> = [
  { method: 'DELETE', path: '/pickups/{dispatchConfirmationNumber}', operationId: 'exp-api-pickups-cancel' },
  { method: 'PATCH', path: '/pickups/{dispatchConfirmationNumber}', operationId: 'exp-api-pickups-update' },
  { method: 'POST', path: '/pickups', operationId: 'exp-api-pickups' },
  { method: 'GET', path: '/identifiers', operationId: 'exp-api-identifiers' },
  { method: 'GET', path: '/address-validate', operationId: 'exp-api-address-validate' },
  { method: 'GET', path: '/rates', operationId: 'exp-api-rates' },
  { method: 'POST', path: '/rates', operationId: 'exp-api-rates-many' },
  { method: 'POST', path: '/landed-cost', operationId: 'exp-api-landed-cost' },
  { method: 'GET', path: '/products', operationId: 'exp-api-products' },
  { method: 'GET', path: '/shipments/{shipmentTrackingNumber}/tracking', operationId: 'exp-api-shipments-tracking' },
  { method: 'GET', path: '/tracking', operationId: 'exp-api-shipments-tracking-multi' },
  { method: 'GET', path: '/shipments/{shipmentTrackingNumber}/proof-of-delivery', operationId: 'exp-api-shipments-epod' },
  { method: 'PATCH', path: '/shipments/{shipmentTrackingNumber}/upload-image', operationId: 'exp-api-shipments-img-upload' },
  { method: 'POST', path: '/shipments', operationId: 'exp-api-shipments' },
  { method: 'PATCH', path: '/shipments/{shipmentTrackingNumber}/upload-invoice-data', operationId: 'exp-api-shipments-invoice-data-awb' },
  { method: 'POST', path: '/invoices/upload-invoice-data', operationId: 'exp-api-shipments-invoice-data' },
  { method: 'GET', path: '/shipments/{shipmentTrackingNumber}/get-image', operationId: 'exp-api-shipments-documentimage' },
  { method: 'PATCH', path: '/shipments/{shipmentTrackingNumber}/add-piece', operationId: 'exp-api-shipments-add-piece' },
  { method: 'GET', path: '/servicepoints', operationId: 'exp-api-servicepoints' },
  { method: 'GET', path: '/reference-data', operationId: 'exp-api-reference-data' },
  { method: 'POST', path: '/early-shipment-screening', operationId: 'exp-api-earlyshipmentscreening' },
];

/** The waybills the document says are loaded in the test environment for tracking (paths `/shipments/{n}/tracking` and `/tracking`). */
export const MYDHL_TEST_WAYBILLS: readonly string[] = [
  '9356579890',
  '4818240420',
  '5584773180',
  '5786694550',
  '2449648740',
  '5980622760',
  '5980622970',
  '5980623180',
  '5980770460',
  '6781059250',
  '9077880070',
  '5786694760',
  '7957673080',
  '5786696720',
  '8066924740',
];

// ---------------------------------------------------------------------------------------------------------------
// Enumerations (copied verbatim; the document repeats most of them inline in several schemas)
// ---------------------------------------------------------------------------------------------------------------

/** CreateShipmentRequest.content.incoterm (also ExportDeclaration.incoterm). */
export const INCOTERMS = ['EXW', 'FCA', 'CPT', 'CIP', 'DPU', 'DAP', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF', 'DAF', 'DAT', 'DDU', 'DEQ', 'DES'] as const;
/** Every `unitOfMeasurement` of a shipment / rate request. */
export const UNITS_OF_MEASUREMENT = ['metric', 'imperial'] as const;
/** CreateShipmentRequest.outputImageProperties.encodingFormat (default pdf). */
export const ENCODING_FORMATS = ['pdf', 'zpl', 'lp2', 'epl'] as const;
/** supermodelIoLogisticsExpressAccount.typeCode. */
export const ACCOUNT_TYPE_CODES = ['shipper', 'payer', 'duties-taxes'] as const;
/** outputImageProperties.imageOptions[].typeCode. */
export const IMAGE_OPTION_TYPE_CODES = ['label', 'waybillDoc', 'invoice', 'qr-code', 'shipmentReceipt'] as const;
/** exportDeclaration.lineItems[].commodityCodes[].typeCode. */
export const COMMODITY_CODE_TYPES = ['outbound', 'inbound'] as const;
/** exportDeclaration.exportReasonType and lineItems[].exportReasonType. */
export const EXPORT_REASON_TYPES = [
  'permanent',
  'temporary',
  'return',
  'used_exhibition_goods_to_origin',
  'intercompany_use',
  'commercial_purpose_or_sale',
  'personal_belongings_or_personal_use',
  'sample',
  'gift',
  'return_to_origin',
  'warranty_replacement',
  'diplomatic_goods',
  'defence_material',
] as const;
/**
 * lineItems[].quantity.unitOfMeasurement. The document writes `- NO` unquoted (a YAML 1.1 parser reads it as `false`);
 * its description says "NO Number", so the string 'NO' is what we enforce.
 */
export const QUANTITY_UNITS = [
  'BOX',
  '2GM',
  'M3',
  'DPR',
  'DOZ',
  'PCS',
  'GM',
  'GRS',
  'KG',
  'M',
  '3GM',
  'X',
  'NO',
  'PRS',
  'CM2',
  '2M2',
  '3M2',
  'M2',
  '4M2',
  'CM',
  'CONE',
  'CT',
  'EA',
  'LBS',
  'RILL',
  'ROLL',
  'SET',
  'TU',
  'KM',
  'IN',
  'FT',
  'YD',
  'MI',
  'LTR',
  'MMQ',
  'CM3',
  'DMQ',
  'MLT',
  'CLT',
  'DLT',
  'INQ',
  'FT3',
  'YD3',
  'GLI',
  'GLL',
  'PT',
  'PTI',
  'QTI',
  'PTL',
  'QTL',
  'PTD',
  'OZI',
  'J57',
  'NM3',
  'SM3',
  'TNE',
  'LB',
  'ONZ',
  'CEL',
] as const;
/** supermodelIoLogisticsExpressPackage.typeCode / PackageRR.typeCode (DHL packaging). */
export const PACKAGE_TYPE_CODES = [
  '1CE',
  '2BC',
  '2BP',
  '2BX',
  '3BX',
  '4BX',
  '5BX',
  '6BX',
  '7BX',
  '8BX',
  'CE1',
  'TBL',
  'TBS',
  'WB1',
  'WB2',
  'WB3',
  'WB6',
  'XPD',
] as const;
/** customerDetails.*Details.typeCode (business party type). */
export const BUSINESS_PARTY_TYPES = ['business', 'direct_consumer', 'government', 'other', 'private', 'reseller'] as const;
/** supermodelIoLogisticsExpressReference.typeCode and PackageReference.typeCode (default CU). */
export const REFERENCE_TYPE_CODES = ['AAO', 'CU', 'FF', 'FN', 'IBC', 'LLR', 'OBC', 'PRN', 'ACP', 'ACS', 'ACR', 'CDN', 'STD', 'CO'] as const;
/** supermodelIoLogisticsExpressRegistrationNumbers.typeCode. */
export const REGISTRATION_TYPE_CODES = [
  'VAT',
  'EIN',
  'GST',
  'SSN',
  'EOR',
  'DUN',
  'FED',
  'STA',
  'CNP',
  'IE',
  'INN',
  'KPP',
  'OGR',
  'OKP',
  'MRN',
  'SDT',
  'FTZ',
  'DAN',
  'TAN',
  'DTF',
  'RGP',
  'DLI',
  'NID',
  'PAS',
  'MID',
  'IMS',
  'EIC',
  'FTN',
  'CIC',
  'PEP',
] as const;
/** Customs document type codes (lineItems[].customsDocuments and exportDeclaration.customsDocuments; the document lists CHA twice). */
const CUSTOMS_DOCUMENT_TYPES = [
  '972',
  'AHC',
  'ALC',
  'ATA',
  'ATR',
  'BEX',
  'CHA',
  'CHD',
  'CHP',
  'CIT',
  'CIV',
  'CI2',
  'COO',
  'CPA',
  'CRL',
  'CSD',
  'DEX',
  'DGD',
  'DLI',
  'DOV',
  'ELP',
  'EU1',
  'EU2',
  'EUS',
  'EXL',
  'FMA',
  'HLC',
  'HWB',
  'INV',
  'IPA',
  'JLC',
  'LIC',
  'LNP',
  'NID',
  'PAS',
  'PFI',
  'PHY',
  'PLI',
  'POA',
  'PCH',
  'ROD',
  'T2M',
  'TAD',
  'TCS',
  'VET',
  'VEX',
  'ORD',
  'OEI',
  'RGR',
  'CP2',
];
/** lineItems[].customerReferences[].typeCode. */
const LINE_ITEM_REFERENCE_TYPES = [
  'AFE',
  'BRD',
  'DGC',
  'AAJ',
  'INB',
  'MAK',
  'ALX',
  'PAN',
  'PON',
  'ABW',
  'SE',
  'SON',
  'OID',
  'DTC',
  'DTM',
  'DTQ',
  'DTR',
  'ITR',
  'MID',
  'OED',
  'OET',
  'OOR',
  'SME',
  'USM',
  'AAM',
  'CFR',
  'DOM',
  'FOR',
  'USG',
  'MAT',
  'NLR',
  'DDS',
  'ARN',
  'OP',
  'OSC',
  'TAR',
  'TCO',
  'AEI',
  'EXN',
  'AFK',
  'AEA',
  'PTA',
];
/** exportDeclaration.invoice.customerReferences[].typeCode. */
const INVOICE_REFERENCE_TYPES = [
  'ACL',
  'CID',
  'CN',
  'CU',
  'ITN',
  'UCN',
  'MRN',
  'OID',
  'PON',
  'RMA',
  'AAM',
  'ABT',
  'ADA',
  'AES',
  'AFD',
  'ANT',
  'BKN',
  'BOL',
  'CDN',
  'COD',
  'DSC',
  'FF',
  'FN',
  'FTR',
  'HWB',
  'IBC',
  'IPP',
  'LLR',
  'MAB',
  'MWB',
  'OBC',
  'PD',
  'PRN',
  'RTL',
  'SID',
  'SS',
  'SWN',
  'TAR',
  'TCO',
  'PX',
  'PTA',
];
/** Tracking query parameter `trackingView` (components/parameters/trackingView, default all-checkpoints). */
export const TRACKING_VIEWS = [
  'all-checkpoints',
  'all-checkpoints-with-remarks',
  'last-checkpoint',
  'shipment-details-only',
  'advance-shipment',
  'bbx-children',
] as const;
/** Tracking query parameter `levelOfDetail` (components/parameters/trackingLevelOfDetail, default shipment). */
export const TRACKING_LEVELS_OF_DETAIL = ['shipment', 'piece', 'all'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Shared building blocks
// ---------------------------------------------------------------------------------------------------------------

const str = (minLength: number | undefined, maxLength: number | undefined, extra: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  ...(minLength === undefined ? {} : { minLength }),
  ...(maxLength === undefined ? {} : { maxLength }),
  ...extra,
});
const num = (minimum: number | undefined, maximum: number | undefined, multipleOf?: number): SchemaObject => ({
  type: 'number',
  ...(minimum === undefined ? {} : { minimum }),
  ...(maximum === undefined ? {} : { maximum }),
  ...(multipleOf === undefined ? {} : { multipleOf }),
});
const bool: SchemaObject = { type: 'boolean' };
const enumOf = (values: readonly (string | number)[], extra: SchemaObject = {}): SchemaObject => ({
  type: typeof values[0] === 'number' ? 'number' : 'string',
  enum: [...new Set(values)],
  ...extra,
});
const obj = (properties: Record<string, SchemaObject>, required: string[] = [], extra: SchemaObject = {}): SchemaObject => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
  ...extra,
});
const arr = (items: SchemaObject, extra: SchemaObject = {}): SchemaObject => ({ type: 'array', items, ...extra });
/** The `{typeCode, value}` objects of many lists (minProperties 1, both required). */
const typeCodeValue = (typeCodes: readonly string[], valueMax: number, typeCodeLen?: [number, number], extra: SchemaObject = {}): SchemaObject =>
  obj(
    {
      typeCode: enumOf(typeCodes, typeCodeLen ? { minLength: typeCodeLen[0], maxLength: typeCodeLen[1] } : {}),
      value: str(1, valueMax),
    },
    ['typeCode', 'value'],
    { minProperties: 1, ...extra },
  );

/** components/schemas/supermodelIoLogisticsExpressAccount */
export const accountSchema: SchemaObject = obj(
  {
    typeCode: enumOf(ACCOUNT_TYPE_CODES, { minLength: 1, maxLength: 15 }),
    number: str(1, 12),
  },
  ['typeCode', 'number'],
  { minProperties: 1 },
);

/** components/schemas/supermodelIoLogisticsExpressAddressCreateShipmentRequest */
export const addressCreateShipmentRequestSchema: SchemaObject = obj(
  {
    postalCode: str(0, 12),
    cityName: str(1, 45),
    countryCode: str(2, 2),
    provinceCode: str(2, 35),
    addressLine1: str(1, 45),
    addressLine2: str(1, 45),
    addressLine3: str(1, 45),
    countyName: str(1, 45),
    provinceName: str(1, 35),
    countryName: str(1, 35),
  },
  ['postalCode', 'cityName', 'countryCode', 'addressLine1'],
);

/** components/schemas/supermodelIoLogisticsExpressAddressRatesRequest ("Address definition for /rates, /products, /landed-cost") */
export const addressRatesRequestSchema: SchemaObject = obj(
  {
    postalCode: str(0, 12),
    cityName: str(1, 45),
    countryCode: str(2, 2),
    provinceCode: str(2, 35),
    addressLine1: str(1, 45),
    addressLine2: str(1, 45),
    addressLine3: str(1, 45),
    countyName: str(1, 45),
  },
  ['postalCode', 'cityName', 'countryCode'],
);

/** components/schemas/supermodelIoLogisticsExpressContact (ContactBuyer has the same constraints). */
export const contactSchema: SchemaObject = obj(
  {
    email: str(1, 70),
    phone: str(1, 70),
    mobilePhone: str(1, 70),
    companyName: str(1, 100),
    fullName: str(1, 255),
  },
  ['phone', 'companyName', 'fullName'],
);

/** components/schemas/supermodelIoLogisticsExpressRegistrationNumbers */
export const registrationNumberSchema: SchemaObject = obj(
  {
    typeCode: enumOf(REGISTRATION_TYPE_CODES, { minLength: 1, maxLength: 3 }),
    number: str(1, 35),
    issuerCountryCode: str(2, 2),
  },
  ['typeCode', 'number', 'issuerCountryCode'],
);

/** components/schemas/supermodelIoLogisticsExpressBankDetails */
export const bankDetailsSchema: SchemaObject = arr(
  obj({ name: str(undefined, 60), settlementLocalCurrency: str(undefined, undefined), settlementForeignCurrency: str(undefined, undefined) }, [], {
    minProperties: 1,
  }),
  { maxItems: 1, uniqueItems: true },
);

/** components/schemas/supermodelIoLogisticsExpressReference */
export const referenceSchema: SchemaObject = obj({ value: str(1, 35), typeCode: enumOf(REFERENCE_TYPE_CODES, { minLength: 2, maxLength: 3 }) }, ['value'], {
  minProperties: 1,
});

/** components/schemas/supermodelIoLogisticsExpressPackageReference (same shape as Reference). */
const packageReferenceSchema: SchemaObject = referenceSchema;

/** components/schemas/supermodelIoLogisticsExpressIdentifier */
export const identifierSchema: SchemaObject = obj(
  {
    typeCode: enumOf(['parentId', 'shipmentId', 'pieceId']),
    value: str(1, 35),
    dataIdentifier: str(1, 4),
  },
  ['typeCode', 'value'],
  { minProperties: 1 },
);

/**
 * components/schemas/supermodelIoLogisticsExpressValueAddedServices ("for /shipments"). The dangerousGoods item carries
 * `anyOf: [{ not: {required: [dryIceTotalNetWeight, unCodes]}, oneOf: [{required: [dryIceTotalNetWeight]}, {required: [unCodes]}] }]`:
 * read literally, an entry must carry exactly one of the two. Copied as written.
 */
export const valueAddedServiceSchema: SchemaObject = obj(
  {
    serviceCode: str(1, 6),
    value: num(0, 999999999999999, 0.001),
    currency: str(3, 3),
    method: str(undefined, undefined),
    dangerousGoods: arr(
      obj(
        {
          contentId: str(1, 5),
          dryIceTotalNetWeight: { type: 'number', multipleOf: 0.001 },
          customDescription: str(undefined, 200),
          unCodes: arr(str(1, 10), { minItems: 1, maxItems: 10 }),
        },
        ['contentId'],
        {
          minProperties: 1,
          anyOf: [
            {
              type: 'object',
              not: { type: 'object', required: ['dryIceTotalNetWeight', 'unCodes'] },
              oneOf: [
                { type: 'object', required: ['dryIceTotalNetWeight'] },
                { type: 'object', required: ['unCodes'] },
              ],
            },
          ],
        },
      ),
      { maxItems: 1 },
    ),
  },
  ['serviceCode'],
  { minProperties: 1 },
);

/** components/schemas/supermodelIoLogisticsExpressValueAddedServicesRates ("for /rates, /products, /landed-cost") */
export const valueAddedServiceRatesSchema: SchemaObject = obj(
  {
    serviceCode: str(1, 6),
    localServiceCode: str(1, 3),
    value: num(0, 999999999999999, 0.001),
    currency: str(3, 3),
    method: enumOf(['cash']),
  },
  ['serviceCode'],
  { minProperties: 1 },
);

/** `dimensions` of supermodelIoLogisticsExpressPackage and PackageRR. */
const dimensionsSchema: SchemaObject = obj({ length: num(0.001, 9999999, 0.001), width: num(0.001, 9999999, 0.001), height: num(0.001, 9999999, 0.001) }, [
  'length',
  'width',
  'height',
]);

/** components/schemas/supermodelIoLogisticsExpressPackage ("Package definition for /shipments") */
export const packageSchema: SchemaObject = obj(
  {
    typeCode: enumOf(PACKAGE_TYPE_CODES, { minLength: 2, maxLength: 3 }),
    weight: num(0.001, 999999999999, 0.001),
    dimensions: dimensionsSchema,
    customerReferences: arr(packageReferenceSchema, { minItems: 1, maxItems: 99 }),
    identifiers: arr(identifierSchema, { maxItems: 3, uniqueItems: true }),
    description: str(1, 70),
    labelBarcodes: arr(
      obj(
        {
          position: enumOf(['left', 'right']),
          symbologyCode: enumOf(['93', '39', '128']),
          content: str(undefined, undefined),
          textBelowBarcode: str(undefined, undefined),
        },
        ['position', 'symbologyCode', 'content', 'textBelowBarcode'],
        { minProperties: 1 },
      ),
      { maxItems: 2 },
    ),
    labelText: arr(
      obj(
        {
          position: enumOf(['left1', 'left2', 'left3', 'right1', 'right2', 'right3']),
          caption: str(undefined, 20),
          value: str(undefined, 40),
        },
        ['position', 'caption', 'value'],
        { minProperties: 1 },
      ),
      { maxItems: 6 },
    ),
    labelDescription: str(1, 80),
    referenceNumber: num(1, 999),
  },
  ['weight'],
  { minProperties: 1 },
);

/** components/schemas/supermodelIoLogisticsExpressPackageRR ("Package definition for /rates, /products, /landed-cost") */
export const packageRatesSchema: SchemaObject = obj(
  {
    typeCode: enumOf(PACKAGE_TYPE_CODES, { minLength: 3, maxLength: 3 }),
    weight: num(0.001, 999999999999, 0.001),
    dimensions: dimensionsSchema,
  },
  ['weight'],
);

/** A `customerDetails.<role>Details` party of CreateShipmentRequest (postalAddress + contactInformation required). */
const party = (contact: SchemaObject, opts: { bankDetails?: SchemaObject; typeCode?: SchemaObject } = {}): SchemaObject =>
  obj(
    {
      postalAddress: addressCreateShipmentRequestSchema,
      contactInformation: contact,
      registrationNumbers: arr(registrationNumberSchema, { maxItems: 50 }),
      bankDetails: opts.bankDetails ?? bankDetailsSchema,
      typeCode: opts.typeCode ?? enumOf(BUSINESS_PARTY_TYPES),
    },
    ['postalAddress', 'contactInformation'],
  );
/**
 * manufacturerDetails, ultimateConsigneeDetails and brokerDetails of CreateShipmentRequest: the document points their
 * `bankDetails` at supermodelIoLogisticsExpressRegistrationNumbers (not BankDetails) and leaves `typeCode` a free string.
 * Copied as written.
 */
const oddParty = party(contactSchema, { bankDetails: registrationNumberSchema, typeCode: { type: 'string' } });

/** `content.exportDeclaration.lineItems[]` of supermodelIoLogisticsExpressCreateShipmentRequest. */
export const lineItemSchema: SchemaObject = obj(
  {
    number: { type: 'integer', minimum: 1, maximum: 999 },
    description: str(1, 512),
    price: num(0, 999999999999999, 0.001),
    quantity: obj(
      {
        value: { type: 'integer', minimum: 1, maximum: 1000000000 },
        unitOfMeasurement: enumOf(QUANTITY_UNITS, { maxLength: 8 }),
      },
      ['value', 'unitOfMeasurement'],
    ),
    commodityCodes: arr(obj({ typeCode: enumOf(COMMODITY_CODE_TYPES), value: str(2, 18) }, ['typeCode', 'value'], { minProperties: 1 }), {
      maxItems: 2,
      uniqueItems: true,
    }),
    exportReasonType: enumOf(EXPORT_REASON_TYPES),
    manufacturerCountry: str(2, 2),
    weight: obj({ netValue: num(0, 999999999999, 0.001), grossValue: num(0, 999999999999, 0.001) }),
    isTaxesPaid: bool,
    additionalInformation: arr({ type: 'string' }, { minItems: 1, maxItems: 8 }),
    customerReferences: arr(typeCodeValue(LINE_ITEM_REFERENCE_TYPES, 35, [1, 3], { maxProperties: 100 }), { maxItems: 100, uniqueItems: true }),
    customsDocuments: arr(typeCodeValue(CUSTOMS_DOCUMENT_TYPES, 35, [1, 3], { maxProperties: 50 }), { maxItems: 50, uniqueItems: true }),
    preCalculatedLineItemTotalValue: num(0, 999999999999999),
  },
  ['number', 'description', 'price', 'quantity', 'manufacturerCountry', 'weight'],
  { minProperties: 1 },
);

/** `content.exportDeclaration.invoice` of supermodelIoLogisticsExpressCreateShipmentRequest. */
export const invoiceSchema: SchemaObject = obj(
  {
    number: str(1, 35),
    date: str(1, 35, { format: 'date' }),
    signatureName: str(undefined, 35),
    signatureTitle: str(undefined, 35),
    signatureImage: str(undefined, 1048576),
    instructions: arr(str(1, 300), { minItems: 1, maxItems: 1 }),
    customerDataTextEntries: arr(str(0, 45), { minItems: 1, maxItems: 6 }),
    totalNetWeight: num(0, 999999999999, 0.001),
    totalGrossWeight: num(0, 999999999999, 0.001),
    customerReferences: arr(typeCodeValue(INVOICE_REFERENCE_TYPES, 35, [2, 3], { maxProperties: 100 }), { maxItems: 100, uniqueItems: true }),
    termsOfPayment: { type: 'string' },
    indicativeCustomsValues: obj(
      {
        importCustomsDutyValue: num(0, 999999999999999),
        importTaxesValue: num(0, 999999999999999),
        totalWithImportDutiesAndTaxes: num(0, 999999999999999),
      },
      [],
      { minProperties: 1 },
    ),
    preCalculatedTotalValues: obj(
      { preCalculatedTotalGoodsValue: num(0, 999999999999999), preCalculatedTotalInvoiceValue: num(0, 999999999999999) },
      ['preCalculatedTotalGoodsValue', 'preCalculatedTotalInvoiceValue'],
      { minProperties: 1 },
    ),
  },
  ['number', 'date'],
  { minProperties: 1 },
);

/** `content.exportDeclaration` of supermodelIoLogisticsExpressCreateShipmentRequest (only lineItems is required here). */
export const exportDeclarationSchema: SchemaObject = obj(
  {
    lineItems: arr(lineItemSchema, { minItems: 1, maxItems: 999 }),
    invoice: invoiceSchema,
    remarks: arr(obj({ value: { type: 'string' } }, ['value'], { minProperties: 1 }), { maxItems: 3 }),
    additionalCharges: arr(
      obj(
        {
          value: num(0.001, 999999999999999, 0.001),
          caption: { type: 'string' },
          typeCode: enumOf([
            'admin',
            'delivery',
            'documentation',
            'expedite',
            'export',
            'freight',
            'fuel_surcharge',
            'logistic',
            'other',
            'packaging',
            'pickup',
            'handling',
            'vat',
            'insurance',
            'reverse_charge',
          ]),
        },
        ['value', 'typeCode'],
        { minProperties: 1 },
      ),
      { maxItems: 5 },
    ),
    destinationPortName: { type: 'string' },
    placeOfIncoterm: str(1, 256),
    payerVATNumber: { type: 'string' },
    recipientReference: { type: 'string' },
    exporter: obj({ id: { type: 'string' }, code: { type: 'string' } }, [], { minProperties: 1 }),
    packageMarks: { type: 'string' },
    declarationNotes: arr(obj({ value: str(undefined, 700) }, ['value'], { minProperties: 1 }), { maxItems: 3 }),
    exportReference: str(0, 40),
    exportReason: str(1, 30),
    exportReasonType: enumOf(EXPORT_REASON_TYPES),
    licenses: arr(obj({ typeCode: enumOf(['export', 'import']), value: str(undefined, 16) }, ['typeCode', 'value'], { minProperties: 1 }), {
      maxItems: 2,
      uniqueItems: true,
    }),
    shipmentType: enumOf(['personal', 'commercial']),
    customsDocuments: arr(typeCodeValue(CUSTOMS_DOCUMENT_TYPES, 35, [1, 3], { maxProperties: 50 }), { maxItems: 50, uniqueItems: true }),
  },
  ['lineItems'],
);

/** `outputImageProperties` of supermodelIoLogisticsExpressCreateShipmentRequest (the document's `allOf: [{}, {}, ...]` is a no-op and left out). */
export const outputImagePropertiesSchema: SchemaObject = obj(
  {
    printerDPI: enumOf([200, 300]),
    customerBarcodes: arr(
      obj({ content: str(1, 25), textBelowBarcode: { type: 'string' }, symbologyCode: enumOf(['93', '39', '128']) }, ['content', 'symbologyCode'], {
        minProperties: 1,
      }),
      { maxItems: 1 },
    ),
    customerLogos: arr(
      obj({ fileFormat: enumOf(['PNG', 'GIF', 'JPEG', 'JPG']), content: str(undefined, 1048576) }, ['fileFormat', 'content'], { minProperties: 1 }),
      {
        maxItems: 1,
      },
    ),
    encodingFormat: enumOf(ENCODING_FORMATS),
    imageOptions: arr(
      obj(
        {
          typeCode: enumOf(IMAGE_OPTION_TYPE_CODES),
          templateName: str(undefined, 25),
          isRequested: bool,
          hideAccountNumber: bool,
          numberOfCopies: num(1, 2),
          invoiceType: enumOf(['commercial', 'proforma', 'returns']),
          languageCode: str(3, 3),
          languageCountryCode: str(2, 2),
          languageScriptCode: str(4, 4),
          encodingFormat: enumOf(['png']),
          renderDHLLogo: bool,
          fitLabelsToA4: bool,
          labelFreeText: str(undefined, 150),
          labelCustomerDataText: str(1, 250),
          shipmentReceiptCustomerDataText: str(1, 700),
        },
        ['typeCode'],
        { minProperties: 1 },
      ),
      { maxItems: 20, uniqueItems: true },
    ),
    splitTransportAndWaybillDocLabels: bool,
    allDocumentsInOneImage: bool,
    splitDocumentsByPages: bool,
    splitInvoiceAndReceipt: bool,
    receiptAndLabelsInOneImage: bool,
  },
  [],
  { minProperties: 1 },
);

/** components/schemas/supermodelIoLogisticsExpressDocumentImages */
export const documentImagesSchema: SchemaObject = arr(
  obj(
    {
      typeCode: enumOf(['INV', 'PNV', 'COO', 'CIN', 'DCL', 'AWB', 'NAF']),
      imageFormat: enumOf(['PDF', 'PNG', 'GIF', 'TIFF', 'JPEG']),
      content: { type: 'string' },
    },
    ['content'],
    { minProperties: 1 },
  ),
  { minItems: 1, maxItems: 999 },
);

/** The pickup party objects of CreateShipmentRequest.pickup (pickupDetails, pickupRequestorDetails). */
const pickupParty = party(contactSchema);

/** components/schemas/supermodelIoLogisticsExpressCreateShipmentRequest — body of `POST /shipments`. */
export const createShipmentRequestSchema: SchemaObject = obj(
  {
    plannedShippingDateAndTime: str(1, 29),
    pickup: obj(
      {
        isRequested: bool,
        closeTime: str(undefined, 5, { pattern: '([0-1][0-9]|2[0-3]):([0-5][0-9])' }),
        location: str(undefined, 80),
        specialInstructions: arr(obj({ value: str(undefined, 80), typeCode: str(2, 3) }, ['value'], { minProperties: 1, maxProperties: 4 }), { maxItems: 4 }),
        pickupDetails: pickupParty,
        pickupRequestorDetails: pickupParty,
      },
      ['isRequested'],
    ),
    productCode: str(1, 6),
    localProductCode: str(1, 3),
    getRateEstimates: bool,
    accounts: arr(accountSchema, { minItems: 1, maxItems: 3 }),
    valueAddedServices: arr(valueAddedServiceSchema, { maxItems: 99 }),
    outputImageProperties: outputImagePropertiesSchema,
    customerReferences: arr(referenceSchema, { maxItems: 999 }),
    identifiers: arr(identifierSchema, { maxItems: 5, uniqueItems: true }),
    customerDetails: obj(
      {
        shipperDetails: party(contactSchema),
        receiverDetails: party(contactSchema),
        buyerDetails: party(contactSchema), // supermodelIoLogisticsExpressContactBuyer: same constraints as Contact
        importerDetails: party(contactSchema),
        exporterDetails: party(contactSchema),
        sellerDetails: party(contactSchema),
        payerDetails: party(contactSchema),
        manufacturerDetails: oddParty,
        ultimateConsigneeDetails: oddParty,
        brokerDetails: oddParty,
      },
      ['shipperDetails', 'receiverDetails'],
    ),
    content: obj(
      {
        packages: arr(packageSchema, { minItems: 1, maxItems: 999 }),
        areMorePackagesToBeAddedLater: bool,
        isCustomsDeclarable: bool,
        declaredValue: num(0, 999999999999999, 0.001),
        declaredValueCurrency: str(3, 3),
        exportDeclaration: exportDeclarationSchema,
        description: str(1, 70, { pattern: '^[^\\s]' }),
        USFilingTypeValue: str(1, 20),
        incoterm: enumOf(INCOTERMS),
        unitOfMeasurement: enumOf(UNITS_OF_MEASUREMENT),
      },
      ['packages', 'isCustomsDeclarable', 'description', 'incoterm', 'unitOfMeasurement'],
    ),
    documentImages: documentImagesSchema,
    onDemandDelivery: obj(
      {
        deliveryOption: enumOf(['servicepoint', 'neighbour', 'signatureRelease']),
        location: str(1, 15),
        specialInstructions: str(1, 110),
        gateCode: str(1, 10),
        whereToLeave: enumOf(['concierge', 'neighbour']),
        neighbourName: str(1, 20),
        neighbourHouseNumber: str(1, 20),
        authorizerName: str(1, 20),
        servicePointId: str(1, 6),
        requestedDeliveryDate: str(1, 29),
      },
      ['deliveryOption'],
    ),
    requestOndemandDeliveryURL: bool,
    shipmentNotification: arr(
      obj(
        {
          typeCode: enumOf(['email']),
          receiverId: str(1, 50),
          languageCode: str(3, 3),
          languageCountryCode: str(2, 2),
          bespokeMessage: str(undefined, 250),
        },
        ['typeCode', 'receiverId'],
        { minProperties: 1 },
      ),
      { maxItems: 5 },
    ),
    prepaidCharges: arr(
      obj(
        { typeCode: enumOf(['freight']), currency: str(3, 3), value: num(0.01, 9999999999, 0.01), method: enumOf(['cash']) },
        ['typeCode', 'currency', 'value', 'method'],
        { minProperties: 1 },
      ),
      { maxItems: 1 },
    ),
    getTransliteratedResponse: bool,
    estimatedDeliveryDate: obj({ isRequested: bool, typeCode: enumOf(['QDDC', 'QDDF'], { maxLength: 4 }) }, ['isRequested']),
    getAdditionalInformation: arr(
      obj({ typeCode: enumOf(['pickupDetails', 'optionalShipmentData', 'barcodeInformation', 'linkLabelsByPieces']), isRequested: bool }, ['isRequested']),
      { maxItems: 5 },
    ),
    parentShipment: obj({ productCode: str(1, 1), packagesCount: { type: 'number', minimum: 1, multipleOf: 1 } }),
  },
  ['plannedShippingDateAndTime', 'pickup', 'productCode', 'accounts', 'customerDetails', 'content'],
);

/** components/schemas/supermodelIoLogisticsExpressRateRequest — body of `POST /rates` ("Retrieve Rates for Multi-piece Shipments"). */
export const rateRequestSchema: SchemaObject = obj(
  {
    customerDetails: obj({ shipperDetails: addressRatesRequestSchema, receiverDetails: addressRatesRequestSchema }, ['shipperDetails', 'receiverDetails']),
    accounts: arr(accountSchema, { maxItems: 2 }),
    productCode: str(1, 6),
    localProductCode: str(1, 3),
    valueAddedServices: arr(valueAddedServiceRatesSchema, { maxItems: 99 }),
    productsAndServices: arr(
      obj({ productCode: str(1, 6), localProductCode: str(1, 3), valueAddedServices: arr(valueAddedServiceRatesSchema, { maxItems: 99 }) }, ['productCode'], {
        minProperties: 1,
        maxProperties: 99,
      }),
    ),
    payerCountryCode: str(2, 2),
    plannedShippingDateAndTime: str(1, 29),
    unitOfMeasurement: enumOf(UNITS_OF_MEASUREMENT),
    isCustomsDeclarable: bool,
    monetaryAmount: arr(
      obj(
        { typeCode: enumOf(['declaredValue', 'insuredValue']), value: { type: 'number', maximum: 999999999999999, multipleOf: 0.001 }, currency: str(3, 3) },
        ['typeCode', 'value', 'currency'],
        { minProperties: 1 },
      ),
    ),
    requestAllValueAddedServices: bool,
    estimatedDeliveryDate: obj({ isRequested: bool, typeCode: enumOf(['QDDC', 'QDDF'], { maxLength: 4 }) }),
    getAdditionalInformation: arr(
      obj({ typeCode: enumOf(['allValueAddedServices', 'allValueAddedServicesAndRuleGroups', 'sortCodes']), isRequested: bool }, ['isRequested']),
      { maxItems: 3 },
    ),
    returnStandardProductsOnly: bool,
    nextBusinessDay: bool,
    productTypeCode: enumOf(['all', 'dayDefinite', 'timeDefinite']),
    packages: arr(packageRatesSchema, { minItems: 1, maxItems: 999 }),
  },
  ['customerDetails', 'plannedShippingDateAndTime', 'unitOfMeasurement', 'isCustomsDeclarable', 'packages'],
);

// ---------------------------------------------------------------------------------------------------------------
// Query parameters and headers (components/parameters). Query values arrive as strings: the double validates them
// with type coercion ("5" → 5, "true" → true, one value → [value] for arrays). Unknown parameters are ignored.
// ---------------------------------------------------------------------------------------------------------------

/** components/parameters/shpStrictValidation (query `strictValidation`, boolean, default false). */
const strictValidationParam: SchemaObject = bool;

/** Query of `GET /rates` (operationId exp-api-rates, "Retrieve Rates for a one piece Shipment"). */
export const ratesQuerySchema: SchemaObject = {
  type: 'object',
  properties: {
    accountNumber: { type: 'string' }, // accountNumber
    originCountryCode: { type: 'string' }, // originCountryCode
    originPostalCode: { type: 'string' },
    originCityName: { type: 'string' },
    destinationCountryCode: { type: 'string' },
    destinationPostalCode: { type: 'string' },
    destinationCityName: { type: 'string' },
    weight: num(0, 999999999999, 0.001), // components/parameters/weight
    length: num(1, 9999999999, 0.001), // length / width / height are all `required: true`
    width: num(1, 9999999999, 0.001),
    height: num(1, 9999999999, 0.001),
    plannedShippingDate: { type: 'string' }, // e.g. '2020-02-26'
    isCustomsDeclarable: { type: 'boolean', enum: [true, false] },
    unitOfMeasurement: enumOf(UNITS_OF_MEASUREMENT), // components/parameters/unitOfMeasure
    nextBusinessDay: { type: 'boolean', enum: [true, false] },
    strictValidation: strictValidationParam,
    getAllValueAddedServices: bool,
    requestEstimatedDeliveryDate: bool,
    estimatedDeliveryDateType: enumOf(['QDDC', 'QDDF']),
  },
  required: [
    'accountNumber',
    'originCountryCode',
    'originCityName',
    'destinationCountryCode',
    'destinationCityName',
    'weight',
    'length',
    'width',
    'height',
    'plannedShippingDate',
    'isCustomsDeclarable',
    'unitOfMeasurement',
  ],
};

/** Query of `POST /rates` (exp-api-rates-many). */
export const ratesPostQuerySchema: SchemaObject = { type: 'object', properties: { strictValidation: strictValidationParam } };

/** Query of `POST /shipments` (exp-api-shipments): shpStrictValidation, bypassPLTError, validateDataOnly. */
export const createShipmentQuerySchema: SchemaObject = {
  type: 'object',
  properties: { strictValidation: strictValidationParam, bypassPLTError: bool, validateDataOnly: bool },
};

const trackingCommonQuery: Record<string, SchemaObject> = {
  trackingView: enumOf(TRACKING_VIEWS), // components/parameters/trackingView
  levelOfDetail: enumOf(TRACKING_LEVELS_OF_DETAIL), // components/parameters/trackingLevelOfDetail
  requestControlledAccessDataCodes: { type: 'boolean', enum: [true, false] },
};

/** Query of `GET /shipments/{shipmentTrackingNumber}/tracking` (exp-api-shipments-tracking). */
export const trackingSingleQuerySchema: SchemaObject = {
  type: 'object',
  properties: { ...trackingCommonQuery, requestGMTOffsetPerEvent: { type: 'boolean', enum: [true, false] } },
};

/** Query of `GET /tracking` (exp-api-shipments-tracking-multi). No parameter is `required: true`. */
export const trackingMultiQuerySchema: SchemaObject = {
  type: 'object',
  properties: {
    shipmentTrackingNumber: arr({ type: 'string' }, { maxItems: 200 }), // shipmentTrackingNumberMulti (explode: true)
    pieceTrackingNumber: arr({ type: 'string' }, { maxItems: 200 }), // pieceId (explode: true)
    shipmentReference: { type: 'string' }, // trackShipmentReference
    shipmentReferenceType: { type: 'string' }, // trackShipmentReferenceType
    shipperAccountNumber: { type: 'string' }, // trackShipperAccountNumber
    dateRangeFrom: { type: 'string' }, // trackDateFrom
    dateRangeTo: { type: 'string' }, // trackDateTo
    ...trackingCommonQuery,
  },
};

/** Query of `DELETE /pickups/{dispatchConfirmationNumber}` (exp-api-pickups-cancel): requestorName and reason are required. */
export const pickupCancelQuerySchema: SchemaObject = {
  type: 'object',
  properties: { requestorName: { type: 'string' }, reason: { type: 'string' } },
  required: ['requestorName', 'reason'],
};

/**
 * The headers every operation above lists (Node lower-cases header names). Only `x-version` is `required: true`
 * (components/parameters/xVersionHeader, default 3.1.0); Message-Reference (1..36 chars), Message-Reference-Date and the
 * 3PV headers (Plugin-Name ≤ 20, Plugin-Version ≤ 15, Shipping-System-Platform-Name ≤ 20, Shipping-System-Platform-Version ≤ 15,
 * Webstore-Platform-Name ≤ 20, Webstore-Platform-Version ≤ 15) are optional.
 */
export const commonHeadersSchema = (requireVersion: boolean): SchemaObject => ({
  type: 'object',
  properties: {
    'x-version': { type: 'string' },
    'message-reference': str(1, 36),
    'message-reference-date': { type: 'string' },
    'plugin-name': str(undefined, 20),
    'plugin-version': str(undefined, 15),
    'shipping-system-platform-name': str(undefined, 20),
    'shipping-system-platform-version': str(undefined, 15),
    'webstore-platform-name': str(undefined, 20),
    'webstore-platform-version': str(undefined, 15),
    'accept-language': { type: 'string' }, // acceptLanguageHeader (tracking operations only), default eng
  },
  ...(requireVersion ? { required: ['x-version'] } : {}),
});

/**
 * Prose rule, not schema: the description of plannedShippingDateAndTime ("YYYY-MM-DD" + "T" + "HH:MM:SS" + GMT offset,
 * e.g. `2025-01-18T17:00:00 GMT+01:00`) and the 400 example "998: ShipTimeStamp is not well formatted.(Expected Sample
 * Format : '2010-02-11T17:10:09 GMT+01:00')". The document's own examples write it with and without the space before GMT.
 */
export const PLANNED_SHIPPING_TIMESTAMP = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d ?GMT[+-]\d{2}:\d{2}$/;

// ---------------------------------------------------------------------------------------------------------------
// Response schemas (the double checks every body it builds against these before sending it). Top levels are complete;
// deep structures the double never emits (price breakdowns, rule groups, barcodes, shipmentDetails) are typed loosely.
// ---------------------------------------------------------------------------------------------------------------

const looseArray: SchemaObject = { type: 'array', items: { type: 'object' } };
const anyString: SchemaObject = { type: 'string' };
const anyNumber: SchemaObject = { type: 'number' };

/** components/schemas/supermodelIoLogisticsExpressErrorResponse */
export const errorResponseSchema: SchemaObject = obj({
  instance: anyString,
  detail: anyString,
  title: anyString,
  message: anyString,
  additionalDetails: arr(anyString),
  status: anyString,
});

/** components/schemas/supermodelIoLogisticsExpressRates (response of GET and POST /rates) */
export const ratesResponseSchema: SchemaObject = obj(
  {
    products: arr(
      obj(
        {
          productName: anyString,
          productCode: anyString,
          localProductCode: anyString,
          localProductCountryCode: anyString,
          networkTypeCode: anyString,
          isCustomerAgreement: bool,
          weight: obj({ volumetric: anyNumber, provided: anyNumber, unitOfMeasurement: anyString }),
          totalPrice: arr(obj({ currencyType: anyString, priceCurrency: anyString, price: anyNumber }, ['price'])),
          totalPriceBreakdown: looseArray,
          detailedPriceBreakdown: looseArray,
          serviceCodeMutuallyExclusiveGroups: looseArray,
          serviceCodeDependencyRuleGroups: looseArray,
          pickupCapabilities: obj({
            nextBusinessDay: bool,
            localCutoffDateAndTime: anyString,
            pickupEarliest: anyString,
            pickupLatest: anyString,
            pickupCutoffSameDayOutboundProcessing: anyString,
            originServiceAreaCode: anyString,
            originFacilityAreaCode: anyString,
            pickupAdditionalDays: anyNumber,
            pickupDayOfWeek: anyNumber,
          }),
          deliveryCapabilities: obj({
            deliveryTypeCode: anyString,
            estimatedDeliveryDateAndTime: anyString,
            destinationServiceAreaCode: anyString,
            destinationFacilityAreaCode: anyString,
            deliveryAdditionalDays: anyNumber,
            deliveryDayOfWeek: anyNumber,
            totalTransitDays: anyNumber,
          }),
          items: looseArray,
          pricingDate: anyString,
        },
        ['weight', 'totalPrice'],
      ),
    ),
    exchangeRates: arr(
      obj({ currentExchangeRate: anyNumber, currency: anyString, baseCurrency: anyString }, ['currentExchangeRate', 'currency', 'baseCurrency']),
    ),
    warnings: arr(anyString),
  },
  ['products'],
);

const shipmentDocument = (extra: Record<string, SchemaObject> = {}) =>
  obj({ imageFormat: anyString, content: anyString, typeCode: anyString, ...extra }, ['imageFormat', 'content', 'typeCode']);

/** components/schemas/supermodelIoLogisticsExpressCreateShipmentResponse (response of POST /shipments) */
export const createShipmentResponseSchema: SchemaObject = obj({
  url: anyString,
  shipmentTrackingNumber: anyString,
  cancelPickupUrl: anyString,
  trackingUrl: anyString,
  dispatchConfirmationNumber: anyString,
  packages: arr(
    obj(
      {
        referenceNumber: num(1, 999),
        trackingNumber: str(1, undefined),
        trackingUrl: anyString,
        volumetricWeight: anyNumber,
        documents: arr(shipmentDocument()),
      },
      ['trackingNumber'],
    ),
    { maxItems: 999 },
  ),
  documents: arr(shipmentDocument({ packageReferenceNumber: num(1, 999) })),
  onDemandDeliveryURL: anyString,
  shipmentDetails: looseArray,
  shipmentCharges: arr(
    obj({ currencyType: anyString, priceCurrency: anyString, price: anyNumber, serviceBreakdown: looseArray }, ['currencyType', 'priceCurrency', 'price']),
  ),
  barcodeInfo: { type: 'object' },
  estimatedDeliveryDate: obj({ estimatedDeliveryDate: anyString, estimatedDeliveryType: anyString }),
  warnings: arr(anyString),
});

const trackingEventSchema = obj({
  date: anyString,
  time: anyString,
  GMTOffset: anyString,
  typeCode: anyString,
  description: anyString,
  serviceArea: arr(obj({ code: anyString, description: anyString })),
  signedBy: anyString,
});
const trackingPostalAddress = obj({ cityName: anyString, countyName: anyString, postalCode: anyString, provinceCode: anyString, countryCode: anyString });
const trackingDimensions = obj({ length: num(1, 9999999, 0.01), width: num(1, 9999999, 0.01), height: num(1, 9999999, 0.01) });

/** components/schemas/supermodelIoLogisticsExpressTrackingResponse (response of both tracking operations) */
export const trackingResponseSchema: SchemaObject = obj({
  shipments: arr(
    obj(
      {
        shipmentTrackingNumber: anyString,
        status: anyString,
        shipmentTimestamp: anyString,
        productCode: str(1, 1),
        description: anyString,
        shipperDetails: obj({
          name: anyString,
          postalAddress: trackingPostalAddress,
          serviceArea: arr(obj({ code: anyString, description: anyString, outboundSortCode: anyString })),
        }),
        receiverDetails: obj({
          name: anyString,
          postalAddress: trackingPostalAddress,
          serviceArea: arr(obj({ code: anyString, description: anyString, facilityCode: anyString, inboundSortCode: anyString })),
        }),
        totalWeight: anyNumber,
        unitOfMeasurements: anyString,
        shipperReferences: arr(referenceSchema, { maxItems: 999 }),
        events: arr(trackingEventSchema),
        numberOfPieces: anyNumber,
        pieces: arr(
          obj(
            {
              number: anyNumber,
              typeCode: anyString,
              shipmentTrackingNumber: anyString,
              trackingNumber: anyString,
              description: anyString,
              weight: num(0.001, 999999999999, 0.001),
              dimensionalWeight: num(0.001, 999999999999, 0.001),
              actualWeight: num(0.001, 999999999999, 0.001),
              dimensions: trackingDimensions,
              // required here, yet the document's own tracking example sends `actualDimensions: {}`
              actualDimensions: { ...trackingDimensions, required: ['length', 'width', 'height'] },
              unitOfMeasurements: anyString,
              shipperReferences: arr(referenceSchema, { maxItems: 999 }),
              events: arr(trackingEventSchema),
            },
            ['events'],
          ),
        ),
        estimatedDeliveryDate: anyString,
        childrenShipmentIdentificationNumbers: arr(anyString),
        controlledAccessDataCodes: arr(anyString),
      },
      ['events'],
    ),
  ),
});

// ---------------------------------------------------------------------------------------------------------------
// Response bodies
// ---------------------------------------------------------------------------------------------------------------

/** components/schemas/supermodelIoLogisticsExpressErrorResponse (additionalProperties: false; `status` is a string). */
export interface MyDhlErrorBody {
  instance?: string;
  detail?: string;
  title?: string;
  message?: string;
  additionalDetails?: string[];
  status?: string;
}

export interface MyDhlTrackingEvent {
  date: string;
  time: string;
  GMTOffset?: string;
  typeCode: string;
  description: string;
  serviceArea: { code: string; description: string }[];
  signedBy?: string;
}

export interface MyDhlPrice {
  currencyType: string;
  priceCurrency: string;
  price: number;
}

export interface MyDhlRateProduct {
  productName: string;
  productCode: string;
  localProductCode?: string;
  localProductCountryCode?: string;
  networkTypeCode?: string;
  isCustomerAgreement?: boolean;
  weight: { volumetric: number; provided: number; unitOfMeasurement: string };
  totalPrice: MyDhlPrice[];
  deliveryCapabilities?: {
    deliveryTypeCode?: string;
    estimatedDeliveryDateAndTime: string;
    destinationServiceAreaCode?: string;
    destinationFacilityAreaCode?: string;
    deliveryAdditionalDays?: number;
    deliveryDayOfWeek?: number;
    totalTransitDays: number;
  };
  pickupCapabilities?: { nextBusinessDay?: boolean; localCutoffDateAndTime?: string; originServiceAreaCode?: string };
  pricingDate?: string;
}

export interface MyDhlShipmentDocument {
  imageFormat: string;
  content: string;
  typeCode: string;
  packageReferenceNumber?: number;
}

export interface MyDhlCreatedShipmentBody {
  url?: string;
  shipmentTrackingNumber: string;
  cancelPickupUrl?: string;
  trackingUrl: string;
  dispatchConfirmationNumber?: string;
  packages: { referenceNumber: number; trackingNumber: string; trackingUrl: string }[];
  documents: MyDhlShipmentDocument[];
  shipmentCharges?: { currencyType: string; priceCurrency: string; price: number }[];
  estimatedDeliveryDate?: { estimatedDeliveryDate: string; estimatedDeliveryType: string };
  warnings?: string[];
}

export interface MyDhlTrackedShipment {
  shipmentTrackingNumber: string;
  status: string;
  shipmentTimestamp: string;
  productCode: string;
  description: string;
  shipperDetails: {
    name: string;
    postalAddress: { cityName: string; postalCode: string; countryCode: string };
    serviceArea: { code: string; description: string }[];
  };
  receiverDetails: {
    name: string;
    postalAddress: { cityName: string; postalCode: string; countryCode: string };
    serviceArea: { code: string; description: string }[];
  };
  totalWeight: number;
  unitOfMeasurements: string;
  events: MyDhlTrackingEvent[];
  numberOfPieces: number;
  pieces?: {
    number: number;
    typeCode: string;
    shipmentTrackingNumber: string;
    trackingNumber: string;
    weight: number;
    unitOfMeasurements: string;
    events: MyDhlTrackingEvent[];
  }[];
  estimatedDeliveryDate?: string;
}

/** DHL service areas used in made-up responses (code + "CITY-CC" description as in the document's examples). */
const SERVICE_AREAS: Record<string, { code: string; description: string }> = {
  TR: { code: 'IST', description: 'ISTANBUL-TR' },
  DE: { code: 'FRA', description: 'FRANKFURT-DE' },
  GB: { code: 'LON', description: 'LONDON-GB' },
  US: { code: 'NYC', description: 'NEW YORK-US' },
  FR: { code: 'PAR', description: 'PARIS-FR' },
  NL: { code: 'AMS', description: 'AMSTERDAM-NL' },
  AU: { code: 'SYD', description: 'SYDNEY-AU' },
  NZ: { code: 'AKL', description: 'AUCKLAND-NZ' },
  CZ: { code: 'PRG', description: 'PRAGUE-CZ' },
};
export const serviceAreaOf = (countryCode: string) =>
  SERVICE_AREAS[countryCode.toUpperCase()] ?? {
    code: `${countryCode.toUpperCase()}X`,
    description: `${countryCode.toUpperCase()} GATEWAY-${countryCode.toUpperCase()}`,
  };

/**
 * The GMT offset of a made-up checkpoint at a country's service area (`events[].GMTOffset`, e.g. '+09:00' in the
 * document's example; sent only with `requestGMTOffsetPerEvent=true`). Standard time; '+00:00' for others.
 */
const GMT_OFFSETS: Record<string, string> = {
  TR: '+03:00',
  DE: '+01:00',
  GB: '+00:00',
  US: '-05:00',
  FR: '+01:00',
  NL: '+01:00',
  AU: '+10:00',
  NZ: '+12:00',
  CZ: '+01:00',
  AE: '+04:00',
};
export const gmtOffsetOf = (countryCode: string) => GMT_OFFSETS[countryCode.toUpperCase()] ?? '+00:00';

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Builders of contract-shaped bodies. Everything they produce validates against the document's response schemas. */
export const mydhlResponses = {
  /**
   * supermodelIoLogisticsExpressErrorResponse. The document's 500 examples carry `code` instead of `status`, which its own schema forbids; we always
   * send `status`.
   */
  error(body: MyDhlErrorBody): MyDhlErrorBody {
    const out: MyDhlErrorBody = {};
    for (const key of ['instance', 'detail', 'title', 'message', 'additionalDetails', 'status'] as const) {
      if (body[key] !== undefined) (out as Record<string, unknown>)[key] = body[key];
    }
    return out;
  },

  /** One product of supermodelIoLogisticsExpressRates (`weight` and `totalPrice` are its required keys). */
  rateProduct(input: {
    productCode: string;
    productName: string;
    price: number;
    currency?: string;
    plannedShippingDate: string;
    transitDays: number;
    originCountryCode: string;
    destinationCountryCode: string;
    providedWeight: number;
    volumetricWeight: number;
    unitOfMeasurement?: string;
  }): MyDhlRateProduct {
    const currency = input.currency ?? 'EUR';
    const delivery = addDays(input.plannedShippingDate, input.transitDays);
    const dest = serviceAreaOf(input.destinationCountryCode);
    return {
      productName: input.productName,
      productCode: input.productCode,
      localProductCode: input.productCode,
      localProductCountryCode: input.originCountryCode,
      networkTypeCode: 'TD',
      isCustomerAgreement: false,
      weight: { volumetric: input.volumetricWeight, provided: input.providedWeight, unitOfMeasurement: input.unitOfMeasurement ?? 'metric' },
      totalPrice: [
        { currencyType: 'BILLC', priceCurrency: currency, price: round2(input.price) },
        { currencyType: 'PULCL', priceCurrency: currency, price: round2(input.price * 1.08) },
      ],
      pickupCapabilities: {
        nextBusinessDay: false,
        localCutoffDateAndTime: `${input.plannedShippingDate.slice(0, 10)}T17:00:00`,
        originServiceAreaCode: serviceAreaOf(input.originCountryCode).code,
      },
      deliveryCapabilities: {
        deliveryTypeCode: 'QDDC',
        estimatedDeliveryDateAndTime: `${delivery}T23:59:00`,
        destinationServiceAreaCode: dest.code,
        destinationFacilityAreaCode: dest.code,
        deliveryAdditionalDays: 0,
        deliveryDayOfWeek: ((new Date(`${delivery}T00:00:00Z`).getUTCDay() + 6) % 7) + 1,
        totalTransitDays: input.transitDays,
      },
      pricingDate: input.plannedShippingDate.slice(0, 10),
    };
  },

  /** supermodelIoLogisticsExpressRates (`products` required). */
  rates(products: MyDhlRateProduct[], warnings?: string[]): { products: MyDhlRateProduct[]; warnings?: string[] } {
    return warnings?.length ? { products, warnings } : { products };
  },

  /** supermodelIoLogisticsExpressCreateShipmentResponse. */
  shipment(input: {
    baseUrl: string;
    shipmentTrackingNumber: string;
    pieceTrackingNumbers: string[];
    documents: MyDhlShipmentDocument[];
    dispatchConfirmationNumber?: string;
    shipmentCharges?: { currencyType: string; priceCurrency: string; price: number }[];
    estimatedDeliveryDate?: { estimatedDeliveryDate: string; estimatedDeliveryType: string };
  }): MyDhlCreatedShipmentBody {
    const trackingUrl = `${input.baseUrl}/shipments/${input.shipmentTrackingNumber}/tracking`;
    return {
      url: `${input.baseUrl}/shipments`,
      shipmentTrackingNumber: input.shipmentTrackingNumber,
      ...(input.dispatchConfirmationNumber
        ? { cancelPickupUrl: `${input.baseUrl}/pickups/${input.dispatchConfirmationNumber}`, dispatchConfirmationNumber: input.dispatchConfirmationNumber }
        : {}),
      trackingUrl,
      packages: input.pieceTrackingNumbers.map((trackingNumber, i) => ({
        referenceNumber: i + 1,
        trackingNumber,
        trackingUrl: `${trackingUrl}?pieceTrackingNumber=${trackingNumber}`,
      })),
      documents: input.documents,
      ...(input.shipmentCharges ? { shipmentCharges: input.shipmentCharges } : {}),
      ...(input.estimatedDeliveryDate ? { estimatedDeliveryDate: input.estimatedDeliveryDate } : {}),
    };
  },

  /**
   * The checkpoints of a DHL Express journey (typeCodes and wording from the document's tracking example: PU, AF, PL,
   * DF, CR, AR, WC, OK). `upTo` cuts the journey: 'picked-up' (PU), 'in-transit' (up to the first DF) or 'delivered'.
   * Each carries its place's `GMTOffset`; the double drops it unless the request asks with `requestGMTOffsetPerEvent`.
   * The example's `remarks` on events are left out: the document's own TrackingResponse schema forbids them
   * (events items have additionalProperties: false).
   */
  trackingEvents(input: {
    fromCountry: string;
    toCountry: string;
    shippedOn: string;
    upTo?: 'picked-up' | 'in-transit' | 'delivered';
    signedBy?: string;
  }): MyDhlTrackingEvent[] {
    const o = serviceAreaOf(input.fromCountry);
    const d = serviceAreaOf(input.toCountry);
    // Each checkpoint's local time at its place (origin events at the origin's offset, the others at the destination's).
    const [oz, dz] = [gmtOffsetOf(input.fromCountry), gmtOffsetOf(input.toCountry)];
    const day0 = input.shippedOn.slice(0, 10);
    const day1 = addDays(day0, 1);
    const all: MyDhlTrackingEvent[] = [
      { date: day0, time: '13:56:21', GMTOffset: oz, typeCode: 'PU', description: 'Shipment picked up', serviceArea: [o] },
      { date: day0, time: '18:47:01', GMTOffset: oz, typeCode: 'AF', description: `Arrived at DHL Sort Facility - ${o.description}`, serviceArea: [o] },
      { date: day0, time: '19:40:02', GMTOffset: oz, typeCode: 'PL', description: `Processed at- ${o.description}`, serviceArea: [o] },
      {
        date: day0,
        time: '21:28:58',
        GMTOffset: oz,
        typeCode: 'DF',
        description: `Shipment has departed from a DHL facility- ${o.description}`,
        serviceArea: [o],
      },
      { date: day1, time: '04:09:01', GMTOffset: dz, typeCode: 'AF', description: `Arrived at DHL Sort Facility - ${d.description}`, serviceArea: [d] },
      { date: day1, time: '04:18:00', GMTOffset: dz, typeCode: 'CR', description: `Clearance processing complete at- ${d.description}`, serviceArea: [d] },
      { date: day1, time: '09:50:00', GMTOffset: dz, typeCode: 'AR', description: `Arrived at DHL Delivery Facility - ${d.description}`, serviceArea: [d] },
      { date: day1, time: '10:50:14', GMTOffset: dz, typeCode: 'WC', description: 'Shipment is out with courier for delivery', serviceArea: [d] },
      {
        date: day1,
        time: '11:59:23',
        GMTOffset: dz,
        typeCode: 'OK',
        description: `Delivered : ${input.signedBy ?? 'A RECEIVER'}`,
        serviceArea: [d],
        signedBy: '',
      },
    ];
    const upTo = input.upTo ?? 'in-transit';
    return upTo === 'picked-up' ? all.slice(0, 1) : upTo === 'in-transit' ? all.slice(0, 4) : all;
  },

  /** One shipment of supermodelIoLogisticsExpressTrackingResponse (`events` is its required key). */
  trackedShipment(input: {
    shipmentTrackingNumber: string;
    events: MyDhlTrackingEvent[];
    productCode?: string;
    description?: string;
    fromCountry: string;
    toCountry: string;
    shippedAt: string;
    totalWeight?: number;
    pieceTrackingNumbers?: string[];
    withPieces?: boolean;
  }): MyDhlTrackedShipment {
    const pieces = input.pieceTrackingNumbers ?? [`JD01460000${input.shipmentTrackingNumber}`];
    const weight = input.totalWeight ?? 1;
    const last = input.events.at(-1);
    return {
      shipmentTrackingNumber: input.shipmentTrackingNumber,
      status: 'Success',
      shipmentTimestamp: input.shippedAt.slice(0, 19),
      productCode: (input.productCode ?? 'P').slice(0, 1), // TrackingResponse.productCode has maxLength 1
      description: input.description ?? 'Shipment',
      // Names, cities and postal codes "may be intentionally left empty" (GDPR), as in the document's example.
      shipperDetails: {
        name: '',
        postalAddress: { cityName: '', postalCode: '', countryCode: input.fromCountry },
        serviceArea: [serviceAreaOf(input.fromCountry)],
      },
      receiverDetails: {
        name: '',
        postalAddress: { cityName: '', postalCode: '', countryCode: input.toCountry },
        serviceArea: [serviceAreaOf(input.toCountry)],
      },
      totalWeight: weight,
      unitOfMeasurements: 'metric',
      events: input.events,
      numberOfPieces: pieces.length,
      ...(input.withPieces
        ? {
            pieces: pieces.map((trackingNumber, i) => ({
              number: i + 1,
              typeCode: 'PIECE',
              shipmentTrackingNumber: input.shipmentTrackingNumber,
              trackingNumber,
              weight: Math.max(0.001, round2(weight / pieces.length)),
              unitOfMeasurements: 'metric',
              events: input.events,
            })),
          }
        : {}),
      ...(last?.typeCode === 'OK' ? {} : { estimatedDeliveryDate: `${addDays(input.shippedAt, 2)}T23:59:00` }),
    };
  },

  /** supermodelIoLogisticsExpressTrackingResponse. */
  tracking(shipments: MyDhlTrackedShipment[]): { shipments: MyDhlTrackedShipment[] } {
    return { shipments };
  },
};
