/**
 * A contract-faithful test double of the DHL Express MyDHL API (OpenAPI 3.1.1, see MYDHL-CONTRACT.md): a node:http
 * server on 127.0.0.1 that serves, under a base path like the test server's (`/mydhlapi/test`),
 *
 *   GET  /rates                                   exp-api-rates              (one piece, query parameters)
 *   POST /rates                                   exp-api-rates-many         (RateRequest body)
 *   POST /shipments                               exp-api-shipments          (CreateShipmentRequest body)
 *   GET  /shipments/{shipmentTrackingNumber}/tracking   exp-api-shipments-tracking
 *   GET  /tracking                                exp-api-shipments-tracking-multi
 *   DELETE /pickups/{dispatchConfirmationNumber}  exp-api-pickups-cancel     (the only cancellation the contract has)
 *
 * Every request is recorded, checked for HTTP Basic credentials (401 otherwise), and validated with ajv against the
 * schemas of `mydhl.schemas.ts`: headers and query parameters → 400 ("Missing parameters" / "Wrong format", as the
 * document's GET examples), body → 422 "Validation error" (as the document's POST /shipments example), each failure
 * listed in `additionalDetails` as `#/json/pointer: message`. Rules the document states only in prose are checked
 * afterwards → 400 "Bad request". Other operations of the document answer 501; paths it does not define answer 404.
 *
 * Fault switches (`failNext`) make the next N requests answer 5xx, hang, drop the connection, refuse (business error
 * after auth and validation pass), answer a custom body, or perform the operation and then lose or spoil its answer
 * (`applyThenDrop`, `applyThenStatus`: the booking a client never hears of).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import Ajv, { type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { textPdf } from './text-pdf';
import {
  MYDHL_DOCUMENTED_OPERATIONS,
  MYDHL_TEST_WAYBILLS,
  PLANNED_SHIPPING_TIMESTAMP,
  addDays,
  commonHeadersSchema,
  createShipmentQuerySchema,
  createShipmentRequestSchema,
  createShipmentResponseSchema,
  errorResponseSchema,
  mydhlResponses,
  pickupCancelQuerySchema,
  rateRequestSchema,
  ratesPostQuerySchema,
  ratesQuerySchema,
  ratesResponseSchema,
  serviceAreaOf,
  trackingMultiQuerySchema,
  trackingResponseSchema,
  trackingSingleQuerySchema,
  type MyDhlErrorBody,
  type MyDhlRateProduct,
  type MyDhlShipmentDocument,
  type MyDhlTrackingEvent,
} from './mydhl.schemas';
import { DoubleServer, FaultQueue } from '../double-server';

export type MyDhlOperation = 'rates.get' | 'rates.post' | 'shipments.create' | 'tracking.single' | 'tracking.multi' | 'pickups.cancel';

export interface RecordedRequest {
  method: string;
  /** raw request target, e.g. `/mydhlapi/test/tracking?shipmentTrackingNumber=1` */
  url: string;
  /** path below the base path, e.g. `/tracking` */
  path: string;
  /** the emulated operation, or null (other documented operation, unknown path, outside the base path) */
  operation: MyDhlOperation | null;
  query: Record<string, string | string[]>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** parsed JSON body (undefined when empty or not JSON) */
  body: unknown;
  auth: 'ok' | 'missing' | 'invalid';
  /** every contract violation found, as `#/pointer: message` (empty when the request was valid) */
  validationErrors: string[];
  /** HTTP status answered; undefined while hanging or after a dropped connection */
  status?: number;
  /** the fault switch that answered this request, if any */
  fault?: MyDhlFault['kind'];
}

/** Business refusals with the wording of the document's own error examples. */
export const MYDHL_REFUSALS = {
  /** GET/POST /rates 400 example */
  accountInvalid: { status: 400, title: 'Bad request', detail: 'The account number is not found or invalid. Please check the account number and retry.' },
  /** POST /shipments 400 example: a service not available between origin and destination */
  serviceNotAvailableForRoute: {
    status: 400,
    title: 'Bad request',
    detail:
      "7008: The requested Special Service Code  #/valueAddedServices/0/serviceCode 'xx' is not available between this origin and destination. Please validate the products and services combination (via the /rates or /products service) or contact our customer service.",
  },
  /** POST /pickups 400 example */
  accountNotAllowed: {
    status: 400,
    title: 'Bad request',
    detail: '8003: Account not allowed for this service. Please contact your DHL Express representative.',
  },
  /** every operation's 500 example (the document writes `code: '500'`; we send `status`) */
  processFailure: {
    status: 500,
    title: 'Internal Server Error',
    detail: '999: Process failure occurred. Process ID associated for that transaction (1234567890)',
  },
} as const;

export type MyDhlFault =
  /** answer with this status (500, 502, 503, 504 ...) and an ErrorResponse body; optional Retry-After */
  | { kind: 'status'; status: number; detail?: string; retryAfterSeconds?: number }
  /** read the request and never answer (until close()): for client timeouts */
  | { kind: 'hang' }
  /** destroy the connection without an answer */
  | { kind: 'drop' }
  /** a business refusal, answered only once auth and validation pass (default 400, or a preset of MYDHL_REFUSALS) */
  | { kind: 'refusal'; preset?: keyof typeof MYDHL_REFUSALS; status?: number; title?: string; detail?: string }
  /** any status, body (object → JSON, string → as is) and headers */
  | { kind: 'custom'; status: number; body?: unknown; headers?: Record<string, string> }
  /** once auth and validation pass, perform the operation (a shipment is created), then destroy the socket without answering */
  | { kind: 'applyThenDrop' }
  /** once auth and validation pass, perform the operation, then answer this status (e.g. 500) with an ErrorResponse body */
  | { kind: 'applyThenStatus'; status: number; detail?: string };

/** Faults that act only once auth and validation pass (the others act before anything is checked). */
const AFTER_VALIDATION: ReadonlySet<MyDhlFault['kind']> = new Set(['refusal', 'applyThenDrop', 'applyThenStatus']);

export interface MyDhlDoubleOptions {
  /** HTTP Basic credentials the double accepts (defaults: `mydhl-test-user` / `mydhl-test-password`) */
  username?: string;
  password?: string;
  /** path prefix of every operation, like the test server's `/mydhlapi/test` (default) */
  basePath?: string;
  /** `x-version` is `required: true` in the document; set false to accept requests without it (default true) */
  requireVersionHeader?: boolean;
  /** tracking answers: the documented test waybills + shipments created here + setTracking() ('known', default), or any number ('any') */
  trackable?: 'known' | 'any';
  /** check "not in the past or more than 10 days in the future" of plannedShippingDateAndTime against now() (default false) */
  enforceShippingDateWindow?: boolean;
  now?: () => Date;
  /** currency of every price (default EUR) */
  currency?: string;
  /** the products /rates may offer (default: DEFAULT_PRODUCTS) */
  products?: DoubleProduct[];
  /** loopback port to listen on (default: any free one) */
  port?: number;
  /**
   * One `label` document per piece, each with its `packageReferenceNumber` (as the contract allows: "linkLabelsByPieces",
   * `documents[].packageReferenceNumber`), instead of one label document for the shipment. 'reversed' answers them last
   * piece first (the contract promises no order). Default false.
   */
  labelPerPiece?: boolean | 'reversed';
}

export interface DoubleProduct {
  productCode: string;
  productName: string;
  /** which journeys it serves */
  scope: 'domestic' | 'international-documents' | 'international-goods';
  transitDays: number;
  basePrice: number;
  pricePerKg: number;
}

/** Codes and names from the document (rates/shipment examples use P; reference data lists D, N, W with these names). */
export const DEFAULT_PRODUCTS: DoubleProduct[] = [
  { productCode: 'P', productName: 'EXPRESS WORLDWIDE', scope: 'international-goods', transitDays: 2, basePrice: 35, pricePerKg: 9.5 },
  { productCode: 'W', productName: 'ECONOMY SELECT', scope: 'international-goods', transitDays: 4, basePrice: 25, pricePerKg: 6 },
  { productCode: 'D', productName: 'EXPRESS WORLDWIDE', scope: 'international-documents', transitDays: 2, basePrice: 30, pricePerKg: 8 },
  { productCode: 'N', productName: 'EXPRESS DOMESTIC', scope: 'domestic', transitDays: 1, basePrice: 12, pricePerKg: 2.5 },
];

export interface CreatedShipment {
  shipmentTrackingNumber: string;
  pieceTrackingNumbers: string[];
  productCode: string;
  fromCountry: string;
  toCountry: string;
  shippedOn: string;
  totalWeight: number;
  description: string;
  dispatchConfirmationNumber?: string;
  request: Record<string, unknown>;
}

export interface MyDhlDouble {
  /** e.g. `http://127.0.0.1:40123/mydhlapi/test` — what an adapter would use instead of the test server URL */
  baseUrl: string;
  origin: string;
  basePath: string;
  username: string;
  password: string;
  /** `Basic base64(username:password)` */
  authorization: string;
  requests: RecordedRequest[];
  shipments: Map<string, CreatedShipment>;
  /** queue `fault` for the next `times` (default 1) requests, optionally only those of one operation */
  failNext(fault: MyDhlFault, options?: { times?: number; operation?: MyDhlOperation }): void;
  clearFaults(): void;
  /** what tracking answers for a number: a stage of the made-up journey or explicit events */
  setTracking(shipmentTrackingNumber: string, events: 'picked-up' | 'in-transit' | 'delivered' | MyDhlTrackingEvent[]): void;
  /** forget requests, faults, shipments and tracking overrides */
  reset(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------------

/** strict (unknown keywords and type mismatches are schema bugs), except strictRequired: the document's dangerousGoods rule
 * requires keys inside `not`/`oneOf` subschemas that declare no properties of their own. */
const ajvOptions = { allErrors: true, verbose: true, strict: true, strictRequired: false, multipleOfPrecision: 9 } as const;
const bodyAjv = addFormats(new Ajv(ajvOptions));
/** Query strings: "5" → 5, "true" → true, a single value → [value] where the schema wants an array. */
const queryAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: 'array' }));

const compiled = new WeakMap<Ajv, WeakMap<SchemaObject, ValidateFunction>>();
function validatorFor(ajv: Ajv, schema: SchemaObject): ValidateFunction {
  let cache = compiled.get(ajv);
  if (!cache) compiled.set(ajv, (cache = new WeakMap()));
  let fn = cache.get(schema);
  if (!fn) cache.set(schema, (fn = ajv.compile(schema)));
  return fn;
}

const typeName = (v: unknown) =>
  v === null
    ? 'Null'
    : Array.isArray(v)
      ? 'JSONArray'
      : typeof v === 'object'
        ? 'JSONObject'
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? 'Integer'
            : 'BigDecimal'
          : typeof v === 'boolean'
            ? 'Boolean'
            : 'String';
const cap = (s: unknown) => String(s).charAt(0).toUpperCase() + String(s).slice(1);
const sizeOf = (v: unknown) => (typeof v === 'string' || Array.isArray(v) ? v.length : v && typeof v === 'object' ? Object.keys(v).length : 0);

/** An ajv error in the wording of the document's examples (everit-json-schema: `#/location: expected maxLength: 80, actual: 85`). */
export function formatSchemaError(e: ErrorObject): string {
  const at = `#${e.instancePath}`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${at}: required key [${String(p.missingProperty)}] not found`;
    case 'additionalProperties':
      return `${at}: extraneous key [${String(p.additionalProperty)}] is not permitted`;
    case 'maxLength':
      return `${at}: expected maxLength: ${String(p.limit)}, actual: ${sizeOf(e.data)}`;
    case 'minLength':
      return `${at}: expected minLength: ${String(p.limit)}, actual: ${sizeOf(e.data)}`;
    case 'enum':
      return `${at}: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)} is not a valid enum value`;
    case 'type':
      return `${at}: expected type: ${cap(p.type)}, found: ${typeName(e.data)}`;
    case 'maxItems':
      return `${at}: expected maximum item count: ${String(p.limit)}, found: ${sizeOf(e.data)}`;
    case 'minItems':
      return `${at}: expected minimum item count: ${String(p.limit)}, found: ${sizeOf(e.data)}`;
    case 'minimum':
      return `${at}: ${String(e.data)} is not greater or equal to ${String(p.limit)}`;
    case 'maximum':
      return `${at}: ${String(e.data)} is not less or equal to ${String(p.limit)}`;
    case 'multipleOf':
      return `${at}: ${String(e.data)} is not a multiple of ${String(p.multipleOf)}`;
    case 'pattern':
      return `${at}: string [${String(e.data)}] does not match pattern ${String(p.pattern)}`;
    case 'format':
      return `${at}: [${String(e.data)}] is not a valid ${String(p.format)}`;
    case 'uniqueItems':
      return `${at}: array items are not unique`;
    case 'minProperties':
      return `${at}: minimum size: [${String(p.limit)}], found: [${sizeOf(e.data)}]`;
    case 'maxProperties':
      return `${at}: maximum size: [${String(p.limit)}], found: [${sizeOf(e.data)}]`;
    default:
      return `${at}: ${e.message ?? e.keyword}`;
  }
}

function validate(ajv: Ajv, schema: SchemaObject, data: unknown): ErrorObject[] {
  const fn = validatorFor(ajv, schema);
  return fn(data) ? [] : [...(fn.errors ?? [])];
}

// ---------------------------------------------------------------------------------------------------------------
// Documents: a real (tiny) PDF and ZPL
// ---------------------------------------------------------------------------------------------------------------

/** A one-page PDF with these text lines. */
export const minimalPdf = (lines: string[]): Buffer => textPdf([lines]);

/** One ZPL II label (^XA...^XZ) per piece (of `only`, when given: the labels of some pieces). */
export function zplLabels(awb: string, pieces: string[], from: string, to: string, productCode: string, only: string[] = pieces): string {
  return pieces
    .map((piece, i) => ({ piece, i }))
    .filter(({ piece }) => only.includes(piece))
    .map(
      ({ piece, i }) =>
        `^XA^CI28^FO30,30^A0N,40,40^FDDHL EXPRESS ${productCode}^FS^FO30,90^A0N,28,28^FD${from} -> ${to}  ${i + 1}/${pieces.length}^FS` +
        `^FO30,140^BY3^BCN,120,Y,N,N^FD${awb}^FS^FO30,320^BY2^BCN,100,Y,N,N^FD${piece}^FS^XZ`,
    )
    .join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------------------------

interface Route {
  method: string;
  pattern: RegExp;
  operation: MyDhlOperation;
}
const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/rates$/, operation: 'rates.get' },
  { method: 'POST', pattern: /^\/rates$/, operation: 'rates.post' },
  { method: 'POST', pattern: /^\/shipments$/, operation: 'shipments.create' },
  { method: 'GET', pattern: /^\/shipments\/([^/]+)\/tracking$/, operation: 'tracking.single' },
  { method: 'GET', pattern: /^\/tracking$/, operation: 'tracking.multi' },
  { method: 'DELETE', pattern: /^\/pickups\/([^/]+)$/, operation: 'pickups.cancel' },
];
const DOCUMENTED = MYDHL_DOCUMENTED_OPERATIONS.map((op) => ({
  ...op,
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** the document's response schema the body must satisfy (checked before sending; custom faults have none) */
    readonly schema?: SchemaObject,
  ) {}
}

const errorReply = (status: number, body: MyDhlErrorBody, headers: Record<string, string> = {}) =>
  new Reply(status, mydhlResponses.error({ ...body, status: String(status) }), headers, errorResponseSchema);

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export async function startMyDhlDouble(options: MyDhlDoubleOptions = {}): Promise<MyDhlDouble> {
  const username = options.username ?? 'mydhl-test-user';
  const password = options.password ?? 'mydhl-test-password';
  const basePath = (options.basePath ?? '/mydhlapi/test').replace(/\/+$/, '');
  const requireVersion = options.requireVersionHeader ?? true;
  const now = options.now ?? (() => new Date());
  const currency = options.currency ?? 'EUR';
  const products = options.products ?? DEFAULT_PRODUCTS;
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const headersSchema = commonHeadersSchema(requireVersion);

  const requests: RecordedRequest[] = [];
  const shipments = new Map<string, CreatedShipment>();
  const pickups = new Map<string, 'booked' | 'cancelled'>();
  const trackingOverrides = new Map<string, 'picked-up' | 'in-transit' | 'delivered' | MyDhlTrackingEvent[]>();
  const faults = new FaultQueue<MyDhlFault, MyDhlOperation>();
  let awbCounter = 0;
  const awbBase = Math.floor(Math.random() * 1e8);
  let baseUrl = '';

  // ---- operations ----------------------------------------------------------------------------------------------

  function chooseProducts(input: {
    from: string;
    to: string;
    customsDeclarable: boolean;
    providedWeight: number;
    volumetricWeight: number;
    shipDate: string;
    unitOfMeasurement: string;
    onlyCodes?: string[];
  }): MyDhlRateProduct[] {
    const scope = input.from === input.to ? 'domestic' : input.customsDeclarable ? 'international-goods' : 'international-documents';
    const chargeable = Math.max(input.providedWeight, input.volumetricWeight);
    return products
      .filter((p) => p.scope === scope && (!input.onlyCodes?.length || input.onlyCodes.includes(p.productCode)))
      .map((p) =>
        mydhlResponses.rateProduct({
          productCode: p.productCode,
          productName: p.productName,
          price: p.basePrice + p.pricePerKg * chargeable,
          currency,
          plannedShippingDate: input.shipDate,
          transitDays: p.transitDays,
          originCountryCode: input.from,
          destinationCountryCode: input.to,
          providedWeight: input.providedWeight,
          volumetricWeight: input.volumetricWeight,
          unitOfMeasurement: input.unitOfMeasurement,
        }),
      );
  }

  /** Volumetric weight of one piece: cm³/5000 (metric) or in³/139 (imperial). */
  const volumetric = (dims: Record<string, unknown>, unit: string) => {
    const v = Number(dims.length ?? 0) * Number(dims.width ?? 0) * Number(dims.height ?? 0);
    return Math.round((v / (unit === 'imperial' ? 139 : 5000)) * 1000) / 1000;
  };

  const ratesReply = (body: unknown) => new Reply(200, body, {}, ratesResponseSchema);

  function ratesPost(body: Record<string, unknown>): Reply {
    const cd = asRecord(body.customerDetails);
    const unit = String(body.unitOfMeasurement);
    const pkgs = asArray(body.packages).map(asRecord);
    const onlyCodes = [
      ...(typeof body.productCode === 'string' ? [body.productCode] : []),
      ...asArray(body.productsAndServices).map((p) => String(asRecord(p).productCode)),
    ];
    return ratesReply(
      mydhlResponses.rates(
        chooseProducts({
          from: String(asRecord(cd.shipperDetails).countryCode).toUpperCase(),
          to: String(asRecord(cd.receiverDetails).countryCode).toUpperCase(),
          customsDeclarable: body.isCustomsDeclarable === true,
          providedWeight: pkgs.reduce((s, p) => s + Number(p.weight), 0),
          volumetricWeight: pkgs.reduce((s, p) => s + volumetric(asRecord(p.dimensions), unit), 0),
          shipDate: String(body.plannedShippingDateAndTime).slice(0, 10),
          unitOfMeasurement: unit,
          onlyCodes,
        }),
      ),
    );
  }

  function ratesGet(q: Record<string, unknown>): Reply {
    const unit = String(q.unitOfMeasurement);
    return ratesReply(
      mydhlResponses.rates(
        chooseProducts({
          from: String(q.originCountryCode).toUpperCase(),
          to: String(q.destinationCountryCode).toUpperCase(),
          customsDeclarable: q.isCustomsDeclarable === true,
          providedWeight: Number(q.weight),
          volumetricWeight: volumetric(q, unit),
          shipDate: String(q.plannedShippingDate).slice(0, 10),
          unitOfMeasurement: unit,
        }),
      ),
    );
  }

  /** The query flags (strictValidation, bypassPLTError, validateDataOnly) are validated and recorded, not emulated. */
  function createShipment(body: Record<string, unknown>): Reply {
    const cd = asRecord(body.customerDetails);
    const from = String(asRecord(asRecord(cd.shipperDetails).postalAddress).countryCode).toUpperCase();
    const to = String(asRecord(asRecord(cd.receiverDetails).postalAddress).countryCode).toUpperCase();
    const content = asRecord(body.content);
    const pkgs = asArray(content.packages).map(asRecord);
    const shippedOn = String(body.plannedShippingDateAndTime).slice(0, 10);
    const productCode = String(body.productCode);
    awbCounter += 1;
    const awb = `58${String((awbBase + awbCounter) % 1e8).padStart(8, '0')}`; // 10 digits, unique per double
    const pieceIds = pkgs.map((_, i) => `JD0146${awb}${String(i + 1).padStart(4, '0')}`); // 20 characters, like JD014600004617230770
    const image = asRecord(body.outputImageProperties);
    const encoding = String(image.encodingFormat ?? 'pdf');
    const imageOptions = asArray(image.imageOptions).map(asRecord);
    const requested = (typeCode: string) => imageOptions.some((o) => o.typeCode === typeCode && o.isRequested === true);

    const header = ['DHL EXPRESS - MYDHL TEST DOUBLE', `WAYBILL ${awb}`, `PRODUCT ${productCode}`, `${from} -> ${to}`];
    const pieceLine = (p: string, i: number) => `PIECE ${i + 1}/${pieceIds.length} ${p}`;
    const labelDocument = (pieces: string[], packageReferenceNumber?: number): MyDhlShipmentDocument => ({
      ...(encoding === 'pdf'
        ? { imageFormat: 'PDF', content: minimalPdf([...header, ...pieces.map((p) => pieceLine(p, pieceIds.indexOf(p)))]).toString('base64') }
        : { imageFormat: encoding.toUpperCase(), content: Buffer.from(zplLabels(awb, pieceIds, from, to, productCode, pieces)).toString('base64') }),
      typeCode: 'label',
      ...(packageReferenceNumber === undefined ? {} : { packageReferenceNumber }),
    });
    const perPiece = pieceIds.map((p, i) => labelDocument([p], i + 1));
    const documents: MyDhlShipmentDocument[] = !options.labelPerPiece
      ? [labelDocument(pieceIds)]
      : options.labelPerPiece === 'reversed'
        ? perPiece.reverse()
        : perPiece;
    // "Note that invoice and shipment receipt will always come back as PDF" (outputImageProperties.encodingFormat);
    // the waybill document comes in the label's format.
    if (requested('waybillDoc')) {
      documents.push(
        encoding === 'pdf'
          ? { imageFormat: 'PDF', content: minimalPdf([`WAYBILL DOC ${awb}`]).toString('base64'), typeCode: 'waybillDoc' }
          : {
              imageFormat: encoding.toUpperCase(),
              content: Buffer.from(`^XA^CI28^FO30,30^A0N,40,40^FDWAYBILL DOC ${awb}^FS^XZ`).toString('base64'),
              typeCode: 'waybillDoc',
            },
      );
    }
    if (requested('invoice')) {
      const inv = asRecord(asRecord(content.exportDeclaration).invoice);
      documents.push({
        imageFormat: 'PDF',
        content: minimalPdf([`COMMERCIAL INVOICE ${String(inv.number ?? '')}`, `WAYBILL ${awb}`]).toString('base64'),
        typeCode: 'invoice',
      });
    }

    let dispatchConfirmationNumber: string | undefined;
    if (asRecord(body.pickup).isRequested === true) {
      dispatchConfirmationNumber = `${serviceAreaOf(from).code}${shippedOn.slice(2).replace(/-/g, '')}${awb.slice(-6)}`;
      pickups.set(dispatchConfirmationNumber, 'booked');
    }
    const totalWeight = pkgs.reduce((s, p) => s + Number(p.weight), 0);
    const edd = asRecord(body.estimatedDeliveryDate);
    const transit = products.find((p) => p.productCode === productCode)?.transitDays ?? 2;
    const price = (products.find((p) => p.productCode === productCode)?.basePrice ?? 35) + 9.5 * totalWeight;

    shipments.set(awb, {
      shipmentTrackingNumber: awb,
      pieceTrackingNumbers: pieceIds,
      productCode,
      fromCountry: from,
      toCountry: to,
      shippedOn,
      totalWeight,
      description: String(content.description),
      dispatchConfirmationNumber,
      request: body,
    });
    return new Reply(
      201,
      mydhlResponses.shipment({
        baseUrl,
        shipmentTrackingNumber: awb,
        pieceTrackingNumbers: pieceIds,
        documents,
        dispatchConfirmationNumber,
        ...(body.getRateEstimates === true
          ? { shipmentCharges: [{ currencyType: 'BILLC', priceCurrency: currency, price: Math.round(price * 100) / 100 }] }
          : {}),
        ...(edd.isRequested === true
          ? { estimatedDeliveryDate: { estimatedDeliveryDate: addDays(shippedOn, transit), estimatedDeliveryType: String(edd.typeCode ?? 'QDDF') } }
          : {}),
      }),
      { Location: `/shipments/${awb}` },
      createShipmentResponseSchema,
    );
  }

  function trackedShipmentFor(number: string, q: Record<string, unknown>) {
    const created = shipments.get(number);
    const override = trackingOverrides.get(number);
    const known = created || override || MYDHL_TEST_WAYBILLS.includes(number) || options.trackable === 'any';
    if (!known) return undefined;
    const from = created?.fromCountry ?? 'AU';
    const to = created?.toCountry ?? 'NZ';
    const shippedOn = created?.shippedOn ?? '2023-08-09';
    let events = Array.isArray(override)
      ? override
      : mydhlResponses.trackingEvents({ fromCountry: from, toCountry: to, shippedOn, upTo: override ?? (created ? 'in-transit' : 'delivered') });
    if (q.trackingView === 'last-checkpoint') events = events.slice(-1);
    if (q.trackingView === 'shipment-details-only') events = [];
    // requestGMTOffsetPerEvent: "to return GMT Offset of each event in response"; without it, events carry none.
    events = events.map(({ GMTOffset, ...e }) => (q.requestGMTOffsetPerEvent === true && GMTOffset !== undefined ? { ...e, GMTOffset } : e));
    const level = String(q.levelOfDetail ?? 'shipment');
    return mydhlResponses.trackedShipment({
      shipmentTrackingNumber: number,
      events,
      productCode: created?.productCode ?? 'P',
      description: created?.description ?? 'Shipment',
      fromCountry: from,
      toCountry: to,
      shippedAt: `${shippedOn}T13:42:48`,
      totalWeight: created?.totalWeight,
      pieceTrackingNumbers: created?.pieceTrackingNumbers,
      withPieces: level === 'piece' || level === 'all',
    });
  }

  const trackingHeaders = { 'Content-Language': 'eng' };
  const noData = (instance: string) => errorReply(404, { instance, detail: 'No data found', title: 'Not data found', message: 'Not data found' });

  function trackSingle(number: string, q: Record<string, unknown>, instance: string): Reply {
    const found = trackedShipmentFor(number, q);
    return found ? new Reply(200, mydhlResponses.tracking([found]), trackingHeaders, trackingResponseSchema) : noData(instance);
  }

  function trackMulti(q: Record<string, unknown>, instance: string): Reply {
    const numbers = new Set(asArray(q.shipmentTrackingNumber).map(String));
    for (const piece of asArray(q.pieceTrackingNumber).map(String)) {
      for (const s of shipments.values()) if (s.pieceTrackingNumbers.includes(piece)) numbers.add(s.shipmentTrackingNumber);
    }
    if (typeof q.shipmentReference === 'string') {
      // A shipment is found by its reference as soon as it is created (unlike DHL's test environment, where created
      // shipments are not trackable): by value, type (when asked; a reference without one is CU, the default), the
      // shipper account, and the planned shipping date within dateRangeFrom..dateRangeTo when given.
      const type = typeof q.shipmentReferenceType === 'string' ? q.shipmentReferenceType : undefined;
      const from = typeof q.dateRangeFrom === 'string' ? q.dateRangeFrom.slice(0, 10) : undefined;
      const to = typeof q.dateRangeTo === 'string' ? q.dateRangeTo.slice(0, 10) : undefined;
      for (const s of shipments.values()) {
        const refs = asArray(s.request.customerReferences).map(asRecord);
        const accounts = asArray(s.request.accounts).map(asRecord);
        const referenced = refs.some((r) => r.value === q.shipmentReference && (type === undefined || (r.typeCode ?? 'CU') === type));
        const inRange = (from === undefined || s.shippedOn >= from) && (to === undefined || s.shippedOn <= to);
        if (referenced && inRange && accounts.some((a) => a.number === q.shipperAccountNumber)) numbers.add(s.shipmentTrackingNumber);
      }
    }
    // Every number asked (explode form: repeated shipmentTrackingNumber), in the order asked; unknown ones are left
    // out. The operation has no requestGMTOffsetPerEvent parameter (only exp-api-shipments-tracking has), so its
    // events carry no GMTOffset, whatever the query says.
    const found = [...numbers].map((n) => trackedShipmentFor(n, { ...q, requestGMTOffsetPerEvent: undefined })).filter((s) => s !== undefined);
    if (!found.length) {
      return typeof q.shipmentReference === 'string'
        ? errorReply(404, {
            instance,
            detail: `No Shipments Found for ReferenceID | ${q.shipmentReference}`,
            title: 'Not data found',
            message: 'Not data found',
          })
        : noData(instance);
    }
    return new Reply(200, mydhlResponses.tracking(found), trackingHeaders, trackingResponseSchema);
  }

  function cancelPickup(dcn: string, instance: string): Reply {
    const state = pickups.get(dcn);
    if (!state)
      return errorReply(404, { instance, detail: 'Cancellation of booking was not successful. Requested Pickup was not found', title: 'Pickup not found' });
    if (state === 'cancelled')
      return errorReply(400, { instance, detail: 'Pickup already cancelled or completed', title: 'Bad request', message: 'Bad request' });
    pickups.set(dcn, 'cancelled');
    return new Reply(200, undefined);
  }

  // ---- rules the document states in prose (checked after the schema passes) ------------------------------------

  function documentedRules(
    operation: MyDhlOperation,
    body: Record<string, unknown>,
    q: Record<string, unknown>,
  ): { detail: string; title?: string; additionalDetails: string[] } | undefined {
    if (operation === 'shipments.create' || operation === 'rates.post') {
      const ts = String(body.plannedShippingDateAndTime);
      if (!PLANNED_SHIPPING_TIMESTAMP.test(ts)) {
        return {
          detail: "998: ShipTimeStamp is not well formatted.(Expected Sample Format : '2010-02-11T17:10:09 GMT+01:00')",
          additionalDetails: [`#/plannedShippingDateAndTime: [${ts}] is not in the format YYYY-MM-DDTHH:MM:SS GMT+hh:mm`],
        };
      }
      if (options.enforceShippingDateWindow) {
        const today = now().toISOString().slice(0, 10);
        const day = ts.slice(0, 10);
        if (day < today || day > addDays(today, 10)) {
          return {
            detail: 'plannedShippingDateAndTime should not be in the past or more than 10 days in the future',
            additionalDetails: [`#/plannedShippingDateAndTime: ${day} is outside ${today} .. ${addDays(today, 10)}`],
          };
        }
      }
    }
    if (operation === 'shipments.create') {
      const content = asRecord(body.content);
      const problems: string[] = [];
      // content.isCustomsDeclarable: "If the shipment is dutiable, exportDeclaration element must be provided."
      if (content.isCustomsDeclarable === true && content.exportDeclaration === undefined) {
        problems.push('#/content: required key [exportDeclaration] not found (content.isCustomsDeclarable is true)');
      }
      // lineItems[].weight: "Either one of the gross or net weight field value to be provided"
      asArray(asRecord(content.exportDeclaration).lineItems).forEach((li, i) => {
        const w = asRecord(asRecord(li).weight);
        if (w.netValue === undefined && w.grossValue === undefined)
          problems.push(`#/content/exportDeclaration/lineItems/${i}/weight: one of [netValue, grossValue] must be provided`);
      });
      // packages[].referenceNumber: "If ... provided for at least one package, then ... must be provided for all packages."
      const pkgs = asArray(content.packages).map(asRecord);
      const withRef = pkgs.filter((p) => p.referenceNumber !== undefined).length;
      if (withRef > 0 && withRef < pkgs.length) {
        pkgs.forEach(
          (p, i) =>
            p.referenceNumber === undefined && problems.push(`#/content/packages/${i}: required key [referenceNumber] not found (other packages carry one)`),
        );
      }
      if (problems.length)
        return { detail: problems.length === 1 ? problems[0] : 'Multiple problems found, see Additional Details', additionalDetails: problems };
    }
    if (operation === 'tracking.multi') {
      // The document's 400 example: tracking by shipmentReference without shipperAccountNumber.
      if (q.shipmentReference !== undefined && q.shipperAccountNumber === undefined) {
        return {
          title: 'Missing parameters',
          detail: 'Missing mandatory parameters: shipperAccountNumber',
          additionalDetails: ['#: required key [shipperAccountNumber] not found'],
        };
      }
      if (q.shipmentTrackingNumber === undefined && q.pieceTrackingNumber === undefined && q.shipmentReference === undefined) {
        return {
          title: 'Missing parameters',
          detail: 'Missing mandatory parameters: shipmentTrackingNumber',
          additionalDetails: ['#: required key [shipmentTrackingNumber] not found'],
        };
      }
    }
    return undefined;
  }

  // ---- request pipeline ---------------------------------------------------------------------------------------

  const queryForOperation: Record<MyDhlOperation, SchemaObject> = {
    'rates.get': ratesQuerySchema,
    'rates.post': ratesPostQuerySchema,
    'shipments.create': createShipmentQuerySchema,
    'tracking.single': trackingSingleQuerySchema,
    'tracking.multi': trackingMultiQuerySchema,
    'pickups.cancel': pickupCancelQuerySchema,
  };
  const bodyForOperation: Partial<Record<MyDhlOperation, SchemaObject>> = {
    'rates.post': rateRequestSchema,
    'shipments.create': createShipmentRequestSchema,
  };

  // Compile up front so a schema bug fails startMyDhlDouble(), not a request.
  validatorFor(bodyAjv, headersSchema);
  for (const schema of Object.values(queryForOperation)) validatorFor(queryAjv, schema);
  for (const schema of [...Object.values(bodyForOperation), errorResponseSchema, ratesResponseSchema, createShipmentResponseSchema, trackingResponseSchema]) {
    validatorFor(bodyAjv, schema);
  }

  /** Header and query failures in the wording of the document's GET examples. */
  function parameterReply(instance: string, errors: ErrorObject[], rec: RecordedRequest): Reply {
    const missing = errors.filter((e) => e.keyword === 'required').map((e) => String((e.params as Record<string, unknown>).missingProperty));
    const wrong = errors
      .filter((e) => e.keyword !== 'required')
      .map(
        (e) =>
          `${e.instancePath.slice(1).split('/')[0]} (${e.keyword}${e.keyword === 'enum' ? `=${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}` : ''})`,
      );
    rec.validationErrors.push(...errors.map(formatSchemaError));
    return missing.length
      ? errorReply(400, {
          instance,
          detail: `Missing mandatory parameters: ${[...new Set(missing)].join(', ')}`,
          title: 'Missing parameters',
          message: 'Bad request',
          additionalDetails: errors.map(formatSchemaError),
        })
      : errorReply(400, {
          instance,
          detail: `Parameters not having correct format: ${[...new Set(wrong)].join(', ')}`,
          title: 'Wrong format',
          message: 'Bad request',
          additionalDetails: errors.map(formatSchemaError),
        });
  }

  function handle(req: IncomingMessage, rawBody: string, rec: RecordedRequest): Reply | (MyDhlFault & { performed?: Reply }) {
    const url = new URL(req.url ?? '/', 'http://double.invalid');
    const inBase = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
    const rel = inBase ? url.pathname.slice(basePath.length) || '/' : url.pathname;
    const method = (req.method ?? 'GET').toUpperCase();
    const route = inBase ? ROUTES.find((r) => r.method === method && r.pattern.test(rel)) : undefined;
    const instance = `/expressapi${rel}${url.search}`;
    rec.path = rel;
    rec.operation = route?.operation ?? null;

    const infraFault = faults.take(rec.operation, (f) => !AFTER_VALIDATION.has(f.kind));
    if (infraFault) return infraFault;

    // HTTP Basic (components/securitySchemes/basicAuth). The document defines no 401 response: ErrorResponse shape.
    const auth = req.headers.authorization;
    rec.auth = !auth ? 'missing' : auth === authorization ? 'ok' : 'invalid';
    if (rec.auth !== 'ok') {
      return errorReply(
        401,
        {
          instance,
          title: 'Unauthorized',
          detail: rec.auth === 'missing' ? 'Missing credentials: HTTP Basic authentication is required' : 'Invalid credentials',
          message: 'Unauthorized',
        },
        { 'WWW-Authenticate': 'Basic realm="MyDHL API"' },
      );
    }

    if (!route) {
      const documented = inBase && DOCUMENTED.find((d) => d.method === method && d.pattern.test(rel));
      return documented
        ? errorReply(501, {
            instance,
            title: 'Not Implemented',
            detail: `${method} ${documented.path} (${documented.operationId}) is in the MyDHL API contract but not emulated by the test double`,
            message: 'Not Implemented',
          })
        : errorReply(404, {
            instance,
            title: 'Not Found',
            detail: `${method} ${rel} is not an operation of the MyDHL API 3.1.1 contract`,
            message: 'Not Found',
          });
    }

    // Headers (x-version required; lengths of Message-Reference and the 3PV headers), then query parameters.
    const headerValues: Record<string, string> = {};
    for (const name of Object.keys(asRecord(headersSchema.properties))) {
      const v = req.headers[name];
      if (typeof v === 'string') headerValues[name] = v;
    }
    const headerErrors = validate(bodyAjv, headersSchema, headerValues);
    if (headerErrors.length) return parameterReply(instance, headerErrors, rec);

    const query: Record<string, unknown> = { ...rec.query };
    const queryErrors = validate(queryAjv, queryForOperation[route.operation], query);
    if (queryErrors.length) return parameterReply(instance, queryErrors, rec);

    // Body (requestBody required: true) → 422 "Validation error" with every problem in additionalDetails.
    const bodySchema = bodyForOperation[route.operation];
    let body: Record<string, unknown> = {};
    if (bodySchema) {
      if (rec.body === undefined) {
        rec.validationErrors.push('#: request body is not a JSON document');
        return errorReply(400, {
          instance,
          title: 'Bad request',
          message: 'Bad request',
          detail: rawBody.trim() ? 'Malformed JSON in request body' : 'Request body is required',
        });
      }
      const bodyErrors = validate(bodyAjv, bodySchema, rec.body);
      if (bodyErrors.length) {
        const details = [...new Set(bodyErrors.map(formatSchemaError))];
        rec.validationErrors.push(...details);
        return errorReply(422, {
          instance,
          detail: details.length === 1 ? details[0] : 'Multiple problems found, see Additional Details',
          title: 'Validation error',
          message: 'Unprocessable Entity',
          additionalDetails: details,
        });
      }
      body = asRecord(rec.body);
    }

    const rule = documentedRules(route.operation, body, query);
    if (rule) {
      rec.validationErrors.push(...rule.additionalDetails);
      return errorReply(400, {
        instance,
        detail: rule.detail,
        title: rule.title ?? 'Bad request',
        message: 'Bad request',
        additionalDetails: rule.additionalDetails,
      });
    }

    const late = faults.take(route.operation, (f) => AFTER_VALIDATION.has(f.kind));
    if (late?.kind === 'refusal') return late;
    const reply = perform(route.operation, route.pattern.exec(rel)?.[1] ?? '', body, query, instance);
    // The operation happened (a shipment exists); only its answer is lost or spoilt.
    if (late) return { ...late, performed: reply };
    return reply;
  }

  function perform(operation: MyDhlOperation, param: string, body: Record<string, unknown>, query: Record<string, unknown>, instance: string): Reply {
    switch (operation) {
      case 'rates.get':
        return ratesGet(query);
      case 'rates.post':
        return ratesPost(body);
      case 'shipments.create':
        return createShipment(body);
      case 'tracking.single':
        return trackSingle(decodeURIComponent(param), query, instance);
      case 'tracking.multi':
        return trackMulti(query, instance);
      case 'pickups.cancel':
        return cancelPickup(decodeURIComponent(param), instance);
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, reply: Reply, rec: RecordedRequest) {
    const headers: Record<string, string> = {
      'Message-Reference': typeof req.headers['message-reference'] === 'string' ? req.headers['message-reference'] : randomUUID(),
      'Invocation-Id': randomUUID(),
      ...reply.headers,
    };
    let payload = '';
    if (reply.body !== undefined) {
      payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      // Error responses: "Content-Type: application/problem+json" (headers of every documented 4xx/5xx).
      headers['Content-Type'] ??= typeof reply.body === 'string' ? 'text/plain' : reply.status >= 400 ? 'application/problem+json' : 'application/json';
    }
    rec.status = reply.status;
    res.writeHead(reply.status, headers);
    res.end(payload);
  }

  function applyFault(req: IncomingMessage, res: ServerResponse, fault: MyDhlFault, rec: RecordedRequest, instance: string) {
    rec.fault = fault.kind;
    switch (fault.kind) {
      case 'hang':
        return; // never answered; close() tears the socket down
      case 'drop':
        req.socket.destroy();
        return;
      case 'status':
        return send(
          req,
          res,
          errorReply(
            fault.status,
            fault.status === 500
              ? { instance, detail: fault.detail ?? MYDHL_REFUSALS.processFailure.detail, title: 'Internal Server Error', message: 'Internal Server Error' }
              : { instance, detail: fault.detail ?? 'The service is temporarily unavailable', title: 'Service Unavailable', message: 'Service Unavailable' },
            fault.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(fault.retryAfterSeconds) },
          ),
          rec,
        );
      case 'refusal': {
        const preset = fault.preset ? MYDHL_REFUSALS[fault.preset] : undefined;
        const status = fault.status ?? preset?.status ?? 400;
        return send(
          req,
          res,
          errorReply(status, {
            instance,
            detail: fault.detail ?? preset?.detail ?? 'Bad request',
            title: fault.title ?? preset?.title ?? (status === 422 ? 'Validation error' : 'Bad request'),
            message: status === 422 ? 'Unprocessable Entity' : status >= 500 ? 'Internal Server Error' : 'Bad request',
          }),
          rec,
        );
      }
      case 'custom':
        return send(req, res, new Reply(fault.status, fault.body, fault.headers ?? {}), rec);
      case 'applyThenDrop':
        req.socket.destroy();
        return;
      case 'applyThenStatus':
        return send(
          req,
          res,
          errorReply(fault.status, {
            instance,
            detail: fault.detail ?? (fault.status === 500 ? MYDHL_REFUSALS.processFailure.detail : 'The service is temporarily unavailable'),
            title: fault.status >= 500 ? 'Internal Server Error' : 'Bad request',
            message: fault.status >= 500 ? 'Internal Server Error' : 'Bad request',
          }),
          rec,
        );
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      let body: unknown;
      try {
        body = rawBody.trim() ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const rec: RecordedRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        url: req.url ?? '/',
        path: url.pathname,
        operation: null,
        query: queryObject(url.searchParams),
        headers: req.headers,
        rawBody,
        body,
        auth: 'missing',
        validationErrors: [],
      };
      requests.push(rec);
      let outcome: Reply | (MyDhlFault & { performed?: Reply });
      try {
        outcome = handle(req, rawBody, rec);
        const built = outcome instanceof Reply ? outcome : outcome.performed;
        if (built?.schema && built.body !== undefined) {
          const problems = validate(bodyAjv, built.schema, built.body).map(formatSchemaError);
          if (problems.length) throw new Error(`response body breaks the contract: ${problems.join('; ')}`);
        }
      } catch (err) {
        outcome = errorReply(500, {
          title: 'Internal Server Error',
          detail: `test double failure: ${(err as Error).message}`,
          message: 'Internal Server Error',
        });
      }
      if (outcome instanceof Reply) send(req, res, outcome, rec);
      else applyFault(req, res, outcome, rec, `/expressapi${rec.path}${url.search}`);
    });
  });

  const double = new DoubleServer(server);
  const origin = `http://127.0.0.1:${await double.listen(options.port)}`;
  baseUrl = `${origin}${basePath}`;

  return {
    baseUrl,
    origin,
    basePath,
    username,
    password,
    authorization,
    requests,
    shipments,
    failNext(fault, opts = {}) {
      faults.push(fault, opts);
    },
    clearFaults() {
      faults.clear();
    },
    setTracking(number, events) {
      trackingOverrides.set(number, events);
    },
    reset() {
      requests.length = 0;
      faults.clear();
      shipments.clear();
      pickups.clear();
      trackingOverrides.clear();
    },
    close: () => double.close(),
  };
}
