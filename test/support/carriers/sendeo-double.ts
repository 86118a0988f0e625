/**
 * A contract-faithful test double of Sendeo's current web service API (https://api.sendeo.com.tr), for the `sendeo`
 * carrier adapter. Contract and every choice where the document is silent: SENDEO-CONTRACT.md next to this file.
 * Schemas, tables, label builders and response shapes: sendeo.schemas.ts.
 *
 *   POST /api/Token/LoginAES                     {musteri, sifre} → result {Token, CustomerId}; the token lives 20 hours
 *   POST /api/Cargo/SETDELIVERY                  create a delivery ("iş emri") → TrackingNumber, TrackingUrl, labels
 *   GET  /api/Cargo/TRACKDELIVERY                ?trackingNo=…|referenceNo=… → state and StatusHistories
 *   POST /api/Cargo/CANCELDELIVERY               ?trackingNumber=…|referenceNo=… (or the C# client's JSON body) → IsSuccess
 *   POST /api/Cargo/CARGOMEASUREMENTUPDATE       {CustomerReferenceNo, Measurements[]} → IsSuccess
 *   POST /api/Cargo/GETBARCODE                   {barcodeLabelType, referenceNo} → the labels again
 *   POST /api/Cargo/GETBARCODEBYTRACKINGNUMBER   {trackingNumber} → {barcode}
 *   GET  /api/Cargo/GetCityDistricts             ?CityName=…&DistrictName=… → [{CityId, CityName, DistrictId, DistrictName}]
 *
 * Order of checks (as ASP.NET would): route (404/405) → fault switches → Bearer token (401) → media type (415) →
 * model binding + JSON schema (400 problem naming each field) → the document's business rules (HTTP 500 with the
 * error table's `StatusCode` and `exceptionMessage`) → 200 with the `ResponseBase<T>` envelope.
 * Every request is recorded in `requests` with its outcome, validation errors and the fields the model ignores.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import {
  SENDEO_CITIES,
  SENDEO_DISTRICTS,
  SENDEO_ERRORS,
  SENDEO_MAX_COLLECTION_PRICE,
  SENDEO_REQUEST_SCHEMAS,
  SENDEO_STATUSES,
  SENDEO_STATUS_CANCELLABLE,
  SENDEO_STATUS_CANCELLED,
  SENDEO_STATUS_CREATED,
  foldTurkish,
  labelKind,
  normalizeBody,
  queryValue,
  sendeoDisplayDate,
  sendeoLocalDateTime,
  sendeoOffsetDateTime,
  sendeoPdfLabel,
  sendeoResponses,
  sendeoZplLabel,
  upperTr,
  type LabelPiece,
  type SendeoBodyOperation,
  type SendeoCityDistrict,
  type SendeoError,
  type SendeoGetBarcodeResult,
  type SendeoSetDeliveryResult,
  type SendeoTrackDeliveryResult,
} from './sendeo.schemas';
import { DoubleServer, FaultQueue } from '../double-server';

export { SENDEO_STATUSES, SENDEO_CITIES, SENDEO_DISTRICTS, SENDEO_ERRORS } from './sendeo.schemas';

/** The test account of the README ("musteri": "TEST") with the password of the Postman collection and the CustomerId (carikod) of its token. */
export const SENDEO_TEST_CUSTOMER = { code: 'TEST', password: 'TesT.43e54', customerId: 925999 } as const;

/** README: "Token expire süremiz 20 saattir". */
export const SENDEO_TOKEN_LIFETIME_MS = 20 * 3600 * 1000;
/** README: "30 dakika içerisindeki aynı sorgulamalarda cache üzerinden sonuç döndürmektedir" (the value for `trackingCacheMs`). */
export const SENDEO_TRACKING_CACHE_MS = 30 * 60 * 1000;

export type SendeoOperation =
  'LoginAES' | 'SETDELIVERY' | 'TRACKDELIVERY' | 'CANCELDELIVERY' | 'CARGOMEASUREMENTUPDATE' | 'GETBARCODE' | 'GETBARCODEBYTRACKINGNUMBER' | 'GetCityDistricts';

export type SendeoFault =
  /** answer this HTTP status (error envelope, optional Retry-After), before auth */
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  /** never answers until close() */
  | { kind: 'hang' }
  /** destroys the socket without doing anything */
  | { kind: 'drop' }
  /** performs the operation (e.g. the booking IS made) and then destroys the socket without answering */
  | { kind: 'applyThenDrop' }
  /** performs the operation and holds the answer for `ms` (an answer held while its caller dies) */
  | { kind: 'applyThenHold'; ms: number }
  /** 401 as for an expired token */
  | { kind: 'unauthorized' };

export interface SendeoCustomer {
  code: string;
  password: string;
  customerId?: number;
}

export interface SendeoDoubleOptions {
  /** default [SENDEO_TEST_CUSTOMER] */
  customers?: SendeoCustomer[];
  /** the double's clock (token expiry, status dates, tracking cache); default real time */
  now?: () => Date;
  /** emulate TRACKDELIVERY's 30-minute cache (SENDEO_TRACKING_CACHE_MS); default 0 = off */
  trackingCacheMs?: number;
  /** loopback port to listen on (default: any free one) */
  port?: number;
}

export interface SendeoRecordedRequest {
  at: Date;
  method: string;
  /** path without the query, as sent (e.g. `/api/Cargo/SETDELIVERY`) */
  path: string;
  /** the operation the path names (case-insensitively), undefined for unknown paths */
  operation?: SendeoOperation;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** the parsed JSON body (undefined when empty or not JSON) */
  body: unknown;
  /** code of the customer whose token was used */
  customer?: string;
  outcome: 'ok' | 'refused' | 'invalid' | 'unauthorized' | 'not-found' | 'method-not-allowed' | 'unsupported-media-type' | 'fault';
  /** HTTP status answered; undefined while hanging or when the connection was dropped */
  status?: number;
  /** the body answered (or, for applyThenDrop, the body that would have been answered) */
  response?: unknown;
  /** every contract violation found, `Field: message` (empty when the request was valid) */
  validationErrors: string[];
  /** properties the service's model does not have (ignored silently by the service), e.g. `Products[0].Weight` */
  unknownFields: string[];
  /** the fault switch that handled this request */
  fault?: SendeoFault['kind'];
}

export interface SendeoMeasurement {
  Quantity: number;
  Width: number;
  Length: number;
  Height: number;
  Deci: number;
  Weight: number;
}

export interface SendeoProductLine {
  Count: number;
  ProductCode?: string;
  Description?: string;
  Deci?: number;
  Weigth?: number;
  DeciWeight?: number;
  Price?: number;
}

/** The bound SETDELIVERY body (canonical property names). */
export interface SendeoSetDeliveryBody {
  DeliveryType?: number;
  ReferenceNo?: string;
  Description?: string;
  Sender?: string;
  SenderId?: string;
  SenderAuthority?: string;
  SenderBranchCode?: number;
  SenderAddress?: string;
  SenderCityId?: number;
  SenderDistrictId?: number;
  SenderPhone?: string;
  SenderGSM?: string;
  SenderEmail?: string;
  Receiver?: string;
  ReceiverId?: string;
  ReceiverAuthority?: string;
  ReceiverBranchCode?: number;
  ReceiverAddress?: string;
  ReceiverCityId?: number;
  ReceiverDistrictId?: number;
  ReceiverPhone?: string;
  ReceiverGSM?: string;
  ReceiverEmail?: string;
  PaymentType?: number;
  CollectionType?: number;
  CollectionPrice?: number;
  DispatchNoteNumber?: string;
  ServiceType: number;
  BarcodeLabelType: number;
  AdditionalValue?: string;
  CustomerReferenceType?: string;
  SenderTc?: string;
  ReceiverTC?: string;
  Products?: SendeoProductLine[];
  [other: string]: unknown;
}

export interface SendeoDelivery {
  referenceNo: string;
  trackingNumber: string;
  /** GETBARCODE's ShipmentId */
  shipmentId: number;
  /** customer code (LoginAES `musteri`) */
  customer: string;
  customerId: number;
  deliveryType: number;
  /** the label type of the booking */
  barcodeLabelType: number;
  /** the bound request body (canonical property names, numbers as numbers) */
  request: SendeoSetDeliveryBody;
  /** the JSON body as sent */
  rawRequest: unknown;
  /** number of pieces: the sum of Products[].Count */
  pieces: number;
  /** one per piece */
  barcodeNumbers: string[];
  statuses: { statusId: number; at: Date }[];
  cancelled: boolean;
  /** the latest CARGOMEASUREMENTUPDATE's measurements */
  measurements?: SendeoMeasurement[];
  measurementsUpdatedAt?: Date;
  createdAt: Date;
}

export interface SendeoDouble {
  /** 'http://127.0.0.1:<port>' (no path: the adapter appends /api/...) */
  baseUrl: string;
  requests: SendeoRecordedRequest[];
  /** by ReferenceNo (a second customer's delivery with an already used ReferenceNo: `<customer code>/<ReferenceNo>`) */
  deliveries: Map<string, SendeoDelivery>;
  /** LoginAES calls answered 200 */
  logins: number;
  failNext(fault: SendeoFault, options?: { times?: number; operation?: SendeoOperation }): void;
  clearFaults(): void;
  /** every token issued so far now answers 401 */
  expireTokens(): void;
  /** appends a status (must be in SENDEO_STATUSES) */
  advance(referenceNo: string, statusId: number, at?: Date): void;
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------------------------------
// Validation
// --------------------------------------------------------------------------------------------------------------------

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false });
const validators = Object.fromEntries(Object.entries(SENDEO_REQUEST_SCHEMAS).map(([op, schema]) => [op, ajv.compile(schema)])) as Record<
  SendeoBodyOperation,
  ValidateFunction
>;

const fieldPath = (instancePath: string, extra?: string): string =>
  [...instancePath.split('/').filter(Boolean), ...(extra ? [extra] : [])]
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join('');

/** ajv errors → ASP.NET ModelState-style `{ "Products[0].Count": ["The Count field is required."] }`. */
export function describeErrors(errors: ErrorObject[] | null | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    const list = (out[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const e of errors ?? []) {
    const p = e.params as Record<string, unknown>;
    const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
    if (e.keyword === 'required') {
      const name = String(p.missingProperty);
      add(fieldPath(e.instancePath, name), `The ${name} field is required.`);
      continue;
    }
    const field = fieldPath(e.instancePath);
    const name =
      field
        .split('.')
        .pop()!
        .replace(/\[\d+\]$/, '') || field;
    switch (e.keyword) {
      case 'minLength':
        add(field, Number(p.limit) === 1 ? `The ${name} field is required.` : `The field ${name} must have a minimum length of '${String(p.limit)}'.`);
        break;
      case 'minItems':
        add(field, `The field ${name} must be a string or array type with a minimum length of '${String(p.limit)}'.`);
        break;
      case 'enum':
        add(field, `The field ${name} must be one of ${(p.allowedValues as unknown[]).join(', ')}.`);
        break;
      case 'minimum':
      case 'maximum':
        add(
          field,
          typeof parent.minimum === 'number' && typeof parent.maximum === 'number'
            ? `The field ${name} must be between ${parent.minimum} and ${parent.maximum}.`
            : `The field ${name} must be ${e.keyword === 'minimum' ? 'greater' : 'less'} than or equal to ${String(p.limit)}.`,
        );
        break;
      case 'pattern':
        add(field, `The field ${name} must match the regular expression '${String(p.pattern)}'.`);
        break;
      default:
        add(field, `The value is not valid for ${name}: ${e.message ?? e.keyword}.`);
    }
  }
  return out;
}

const flatten = (errors: Record<string, string[]>) => Object.entries(errors).flatMap(([field, list]) => list.map((m) => `${field || '(body)'}: ${m}`));
const has = (s: unknown): s is string => typeof s === 'string' && s.trim() !== '';
const traceId = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;

// --------------------------------------------------------------------------------------------------------------------
// Routing
// --------------------------------------------------------------------------------------------------------------------

const ROUTES = new Map<string, { operation: SendeoOperation; method: 'GET' | 'POST' }>([
  ['/api/token/loginaes', { operation: 'LoginAES', method: 'POST' }],
  ['/api/cargo/setdelivery', { operation: 'SETDELIVERY', method: 'POST' }],
  ['/api/cargo/trackdelivery', { operation: 'TRACKDELIVERY', method: 'GET' }],
  ['/api/cargo/canceldelivery', { operation: 'CANCELDELIVERY', method: 'POST' }],
  ['/api/cargo/cargomeasurementupdate', { operation: 'CARGOMEASUREMENTUPDATE', method: 'POST' }],
  ['/api/cargo/getbarcode', { operation: 'GETBARCODE', method: 'POST' }],
  ['/api/cargo/getbarcodebytrackingnumber', { operation: 'GETBARCODEBYTRACKINGNUMBER', method: 'POST' }],
  ['/api/cargo/getcitydistricts', { operation: 'GetCityDistricts', method: 'GET' }],
]);

/** Operations whose input is a JSON body ([FromBody]): they need a JSON media type and a non-empty body. */
const BODY_REQUIRED = new Set<SendeoOperation>(['LoginAES', 'SETDELIVERY', 'CARGOMEASUREMENTUPDATE', 'GETBARCODE', 'GETBARCODEBYTRACKINGNUMBER']);
const isJsonMediaType = (ct: string | undefined) => /^\s*(application\/json|text\/json|application\/[^;\s]+\+json)\s*(;|$)/i.test(ct ?? '');

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly outcome: SendeoRecordedRequest['outcome'],
    readonly headers: Record<string, string> = {},
    readonly validationErrors: string[] = [],
  ) {}
}

/** DeliveryTypes whose receiver (name, phone, address, city, district) must be given: 1, 3 per the README; 4 and 5 our reading. */
const RECEIVER_REQUIRED = new Set([1, 3, 4, 5]);
/** DeliveryTypes whose sender must be given: 2, 3 per the README; 6 our reading (the Postman DeliveryType 6 examples carry a sender). */
const SENDER_REQUIRED = new Set([2, 3, 6]);

interface Issued {
  customer: Required<SendeoCustomer>;
  expiresAt: number;
  revoked: boolean;
}

export async function startSendeoDouble(options: SendeoDoubleOptions = {}): Promise<SendeoDouble> {
  const now = options.now ?? (() => new Date());
  const cacheMs = options.trackingCacheMs ?? 0;
  const customers: Required<SendeoCustomer>[] = (options.customers ?? [SENDEO_TEST_CUSTOMER]).map((c, i) => ({
    code: c.code,
    password: c.password,
    customerId: c.customerId ?? 925999 + i,
  }));
  const signingKey = randomBytes(32);
  const tokens = new Map<string, Issued>();
  const requests: SendeoRecordedRequest[] = [];
  const deliveries = new Map<string, SendeoDelivery>();
  const all: SendeoDelivery[] = [];
  const trackCache = new Map<string, { at: number; result: SendeoTrackDeliveryResult }>();
  const faults = new FaultQueue<SendeoFault, SendeoOperation>();
  let nextTracking = 401281283560;
  let nextShipmentId = 122425;
  let nextUserCode = 11979;
  let logins = 0;

  const ok = (result: unknown) => new HttpAnswer(200, sendeoResponses.ok(randomUUID(), result), 'ok');
  const refuse = (error: SendeoError, field: string) =>
    new HttpAnswer(500, sendeoResponses.error(randomUUID(), error.code, error.message), 'refused', {}, [`${field}: ${error.message} (${error.code})`]);
  const problem = (errors: Record<string, string[]>) =>
    new HttpAnswer(
      400,
      sendeoResponses.validationProblem(traceId(), errors),
      'invalid',
      { 'content-type': 'application/problem+json; charset=utf-8' },
      flatten(errors),
    );
  const unauthorized = (description?: string) =>
    new HttpAnswer(401, sendeoResponses.error(randomUUID(), SENDEO_ERRORS.unauthorized.code, SENDEO_ERRORS.unauthorized.message), 'unauthorized', {
      'www-authenticate': description ? `Bearer error="invalid_token", error_description="${description}"` : 'Bearer',
    });

  // ---- auth ---------------------------------------------------------------------------------------------------------

  const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');
  function issueToken(customer: Required<SendeoCustomer>): string {
    const iat = Math.floor(now().getTime() / 1000);
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    // claims as in the Postman collection's tokens (strings, Unix seconds)
    const payload = b64url(
      JSON.stringify({
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name': customer.code,
        carikod: String(customer.customerId),
        userkod: String(nextUserCode++),
        usertype: '2',
        jti: randomUUID(),
        nbf: String(iat),
        exp: String(iat + SENDEO_TOKEN_LIFETIME_MS / 1000),
      }),
    );
    const token = `${header}.${payload}.${b64url(createHmac('sha256', signingKey).update(`${header}.${payload}`).digest())}`;
    tokens.set(token, { customer, expiresAt: now().getTime() + SENDEO_TOKEN_LIFETIME_MS, revoked: false });
    return token;
  }

  function authenticate(header: string | undefined): Required<SendeoCustomer> | HttpAnswer {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!token) return unauthorized();
    const issued = tokens.get(token);
    if (!issued || issued.revoked) return unauthorized('The signature is invalid');
    if (now().getTime() >= issued.expiresAt) return unauthorized(`The token expired at '${new Date(issued.expiresAt).toUTCString()}'`);
    return issued.customer;
  }

  // ---- deliveries ---------------------------------------------------------------------------------------------------

  const ownedBy = (customer: Required<SendeoCustomer>) => all.filter((d) => d.customer === customer.code);
  const byReference = (customer: Required<SendeoCustomer>, ref: string) => ownedBy(customer).find((d) => d.referenceNo === ref);
  const byTracking = (customer: Required<SendeoCustomer>, tn: string) => ownedBy(customer).find((d) => d.trackingNumber === tn.replace(/^0+/, ''));
  const latest = (d: SendeoDelivery) => d.statuses[d.statuses.length - 1].statusId;
  const district = (id: number | undefined) => SENDEO_DISTRICTS.find((x) => x.districtId === id);

  /** City/district checks of one side, in the error table's order (203/303, 204/304, 205/305, 206/306). */
  function geoRule(side: 'Receiver' | 'Sender', cityId: number | undefined, districtId: number | undefined, required: boolean): HttpAnswer | undefined {
    const e =
      side === 'Receiver'
        ? {
            dz: SENDEO_ERRORS.receiverDistrictZero,
            cz: SENDEO_ERRORS.receiverCityZero,
            cw: SENDEO_ERRORS.receiverCityNotCorrect,
            dw: SENDEO_ERRORS.receiverDistrictNotCorrect,
          }
        : {
            dz: SENDEO_ERRORS.senderDistrictZero,
            cz: SENDEO_ERRORS.senderCityZero,
            cw: SENDEO_ERRORS.senderCityNotCorrect,
            dw: SENDEO_ERRORS.senderDistrictNotCorrect,
          };
    if (required && !districtId) return refuse(e.dz, `${side}DistrictId`);
    if (required && !cityId) return refuse(e.cz, `${side}CityId`);
    if (cityId && !SENDEO_CITIES[cityId]) return refuse(e.cw, `${side}CityId`);
    if (districtId) {
      const d = district(districtId);
      if (!d || (cityId && d.cityId !== cityId)) return refuse(e.dw, `${side}DistrictId`);
    }
    return undefined;
  }

  /** The README's SETDELIVERY rules, first failure wins, in the error table's order. */
  function setDeliveryRules(b: SendeoSetDeliveryBody, customer: Required<SendeoCustomer>): HttpAnswer | undefined {
    const t = b.DeliveryType;
    if (!has(b.ReferenceNo)) return refuse(SENDEO_ERRORS.referenceNoNull, 'ReferenceNo');
    if (t === undefined || t < 1 || t > 6) return refuse(SENDEO_ERRORS.wrongDeliveryType, 'DeliveryType');
    if (!b.Products || b.Products.length === 0) return refuse(SENDEO_ERRORS.productsNull, 'Products');
    if (b.PaymentType !== 1) return refuse(SENDEO_ERRORS.paymentTypeNotCorrect, 'PaymentType');
    if (b.CollectionType === undefined || ![0, 1, 2].includes(b.CollectionType)) return refuse(SENDEO_ERRORS.collectionTypeNotFound, 'CollectionType');
    const price = b.CollectionPrice ?? 0;
    if (b.CollectionType !== 0 && price === 0) return refuse(SENDEO_ERRORS.productPriceZero, 'CollectionPrice');
    if (b.CollectionType === 0 && price !== 0) return refuse(SENDEO_ERRORS.collectionPriceNotZero, 'CollectionPrice');
    if (price > SENDEO_MAX_COLLECTION_PRICE) return refuse(SENDEO_ERRORS.collectionPriceTooHigh, 'CollectionPrice');

    const receiver = RECEIVER_REQUIRED.has(t);
    if (receiver && !has(b.Receiver)) return refuse(SENDEO_ERRORS.receiverNull, 'Receiver');
    if (receiver && !has(b.ReceiverPhone) && !has(b.ReceiverGSM)) return refuse(SENDEO_ERRORS.receiverPhone, 'ReceiverPhone|ReceiverGSM');
    if (receiver && !has(b.ReceiverAddress)) return refuse(SENDEO_ERRORS.receiverAddressNull, 'ReceiverAddress');
    const receiverGeo = geoRule('Receiver', b.ReceiverCityId, b.ReceiverDistrictId, receiver);
    if (receiverGeo) return receiverGeo;

    const sender = SENDER_REQUIRED.has(t);
    if (sender && !has(b.Sender)) return refuse(SENDEO_ERRORS.senderNull, 'Sender');
    if (sender && !has(b.SenderPhone) && !has(b.SenderGSM)) return refuse(SENDEO_ERRORS.senderPhone, 'SenderPhone|SenderGSM');
    if (sender && !has(b.SenderAddress)) return refuse(SENDEO_ERRORS.senderAddressNull, 'SenderAddress');
    const senderGeo = geoRule('Sender', b.SenderCityId, b.SenderDistrictId, sender);
    if (senderGeo) return senderGeo;

    if (t === 5 && !(b.ReceiverBranchCode && b.ReceiverBranchCode > 0)) return refuse(SENDEO_ERRORS.receiverBranchCodeNull, 'ReceiverBranchCode');
    if (t === 6 && !(b.SenderBranchCode && b.SenderBranchCode > 0)) return refuse(SENDEO_ERRORS.senderBranchCodeNull, 'SenderBranchCode');
    if (byReference(customer, b.ReferenceNo)) return refuse(SENDEO_ERRORS.referenceNoExists, 'ReferenceNo');
    return undefined;
  }

  const trackingUrl = (d: SendeoDelivery) => `https://sube.sendeo.com.tr/takip?ccode=${d.customerId}&musref=${encodeURIComponent(d.referenceNo)}`;

  function labelPieces(d: SendeoDelivery): LabelPiece[] {
    const r = d.request;
    const dist = district(r.ReceiverDistrictId);
    return d.barcodeNumbers.map((barcodeNumber, i) => ({
      trackingNumber: d.trackingNumber,
      referenceNo: d.referenceNo,
      barcodeNumber,
      index: i + 1,
      total: d.barcodeNumbers.length,
      sender: has(r.Sender) ? r.Sender : d.customer,
      receiver: has(r.Receiver) ? r.Receiver : d.customer,
      address: r.ReceiverAddress ?? '',
      district: dist?.name ?? '',
      city: r.ReceiverCityId ? (SENDEO_CITIES[r.ReceiverCityId] ?? '') : '',
      additionalValue: r.AdditionalValue,
    }));
  }

  function labels(d: SendeoDelivery, labelType: number): Omit<SendeoSetDeliveryResult, 'TrackingNumber' | 'TrackingUrl'> {
    const pieces = labelPieces(d);
    const kind = labelKind(labelType);
    return {
      Barcode: kind === 'base64' ? sendeoPdfLabel(pieces, labelType) : null,
      BarcodeZpl: kind === 'zpl' ? pieces.map((p) => sendeoZplLabel(p, labelType)).join('\n') : null,
      BarcodeNumbers: [...d.barcodeNumbers],
      BarcodeZpls: kind === 'zpls' ? pieces.map((p) => sendeoZplLabel(p, labelType)) : null,
    };
  }

  function setDelivery(customer: Required<SendeoCustomer>, body: SendeoSetDeliveryBody, raw: unknown): HttpAnswer {
    const refusal = setDeliveryRules(body, customer);
    if (refusal) return refusal;
    const products = body.Products!;
    const pieces = products.reduce((s, p) => s + p.Count, 0);
    const trackingNumber = String(nextTracking++);
    const referenceNo = body.ReferenceNo!;
    const d: SendeoDelivery = {
      referenceNo,
      trackingNumber,
      shipmentId: nextShipmentId++,
      customer: customer.code,
      customerId: customer.customerId,
      deliveryType: body.DeliveryType!,
      barcodeLabelType: body.BarcodeLabelType,
      request: body,
      rawRequest: raw,
      pieces,
      barcodeNumbers: Array.from({ length: pieces }, (_, i) => `${trackingNumber}${String(i + 1).padStart(3, '0')}`),
      statuses: [{ statusId: SENDEO_STATUS_CREATED, at: now() }],
      cancelled: false,
      createdAt: now(),
    };
    all.push(d);
    deliveries.set(deliveries.has(referenceNo) ? `${customer.code}/${referenceNo}` : referenceNo, d);
    return ok({ TrackingNumber: trackingNumber, TrackingUrl: trackingUrl(d), ...labels(d, body.BarcodeLabelType) } satisfies SendeoSetDeliveryResult);
  }

  function trackResult(d: SendeoDelivery): SendeoTrackDeliveryResult {
    const r = d.request;
    const last = d.statuses[d.statuses.length - 1];
    const status = SENDEO_STATUSES[last.statusId];
    const deci = d.measurements
      ? Math.ceil(d.measurements.reduce((s, m) => s + m.Quantity * Math.max(m.Deci, m.Weight), 0))
      : (r.Products ?? []).reduce((s, p) => s + p.Count * Math.max(p.Deci ?? 0, p.Weigth ?? 0, p.DeciWeight ?? 0), 0);
    const quantity = d.measurements ? d.measurements.reduce((s, m) => s + m.Quantity, 0) : d.pieces;
    const totalPrice = Math.round((45 + 4.5 * deci) * 100) / 100;
    const departure = district(r.SenderDistrictId);
    const arrival = district(r.ReceiverDistrictId);
    return {
      TrackingNo: Number(d.trackingNumber),
      ReferenceNo: d.referenceNo,
      SendDate: sendeoDisplayDate(d.createdAt),
      Receiver: has(r.Receiver) ? r.Receiver : d.customer,
      CargoAmount: Math.round(totalPrice * 1.2 * 100) / 100,
      Sender: has(r.Sender) ? r.Sender : d.customer,
      State: last.statusId,
      StateText: status.description,
      UpdateDate: sendeoDisplayDate(last.at),
      DeliveryDescription: status.name,
      DealerId: 851,
      DeciWeight: deci,
      Quantity: quantity,
      TotalPrice: totalPrice,
      DepartureBranchName: `${departure ? upperTr(departure.name) : 'SANCAKTEPE'} DM`,
      ArrivalBranchName: arrival ? `${upperTr(arrival.name)} DN` : '',
      DeliveryPlannedDate: sendeoOffsetDateTime(new Date(d.createdAt.getTime() + 2 * 24 * 3600 * 1000)),
      Products: (r.Products ?? []).map((p) => ({
        Count: p.Count,
        ProductCode: p.ProductCode ?? '',
        Description: p.Description ?? '',
        Price: p.Price ?? 0,
        StockCount: 0,
        MinStockCount: 0,
      })),
      StatusHistories: d.statuses.map((s) => ({
        StatusDate: sendeoLocalDateTime(s.at),
        StatusId: s.statusId,
        Status: SENDEO_STATUSES[s.statusId].name,
        Description: SENDEO_STATUSES[s.statusId].description,
      })),
    };
  }

  /** A long-typed query parameter: '' = not sent; not a number → 400 as ASP.NET's model binding. */
  function numericQuery(query: URLSearchParams, names: string[]): { value?: string; error?: HttpAnswer } {
    const value = queryValue(query, ...names);
    if (value !== undefined && !/^\d{1,19}$/.test(value)) return { error: problem({ [names[0]]: [`The value '${value}' is not valid for ${names[0]}.`] }) };
    return { value };
  }

  function track(customer: Required<SendeoCustomer>, query: URLSearchParams): HttpAnswer {
    const tn = numericQuery(query, ['trackingNo', 'trackingNumber']);
    if (tn.error) return tn.error;
    const ref = queryValue(query, 'referenceNo');
    if (!tn.value && !ref) return refuse(SENDEO_ERRORS.trackingOrReferenceRequired, 'trackingNo|referenceNo');
    const key = `${customer.code}|${tn.value ?? ''}|${ref ?? ''}`;
    const cached = trackCache.get(key);
    if (cacheMs > 0 && cached && now().getTime() - cached.at < cacheMs) return ok(cached.result);
    const d = tn.value ? byTracking(customer, tn.value) : byReference(customer, ref!);
    if (!d) return refuse(SENDEO_ERRORS.noDeliveryFound, tn.value ? 'trackingNo' : 'referenceNo');
    const result = trackResult(d);
    if (cacheMs > 0) trackCache.set(key, { at: now().getTime(), result });
    return ok(result);
  }

  function cancel(customer: Required<SendeoCustomer>, query: URLSearchParams, body: Record<string, string | undefined>): HttpAnswer {
    const tn = numericQuery(query, ['trackingNumber', 'trackingNo']);
    if (tn.error) return tn.error;
    const tracking = tn.value ?? [body.TrackingNumber, body.TrackingNo].find(has);
    const ref = queryValue(query, 'referenceNo', 'customerReferenceNo') ?? [body.ReferenceNo, body.CustomerReferenceNo].find(has);
    if (!tracking && !ref) return refuse(SENDEO_ERRORS.trackingOrReferenceRequired, 'trackingNumber|referenceNo');
    const d = tracking ? byTracking(customer, tracking.trim()) : byReference(customer, ref!.trim());
    if (!d) return refuse(SENDEO_ERRORS.noDeliveryFound, tracking ? 'trackingNumber' : 'referenceNo');
    if (latest(d) !== SENDEO_STATUS_CANCELLABLE) return refuse(SENDEO_ERRORS.alreadySent, tracking ? 'trackingNumber' : 'referenceNo');
    d.cancelled = true;
    d.statuses.push({ statusId: SENDEO_STATUS_CANCELLED, at: now() });
    return ok({ IsSuccess: true });
  }

  function measurementUpdate(customer: Required<SendeoCustomer>, body: { CustomerReferenceNo: string; Measurements: SendeoMeasurement[] }): HttpAnswer {
    const d = byReference(customer, body.CustomerReferenceNo.trim());
    if (!d) return refuse(SENDEO_ERRORS.noDeliveryFound, 'CustomerReferenceNo');
    d.measurements = body.Measurements.map((m) => ({
      Quantity: m.Quantity,
      Width: m.Width,
      Length: m.Length,
      Height: m.Height,
      Deci: m.Deci,
      Weight: m.Weight,
    }));
    d.measurementsUpdatedAt = now();
    return ok({ IsSuccess: true });
  }

  function getBarcode(customer: Required<SendeoCustomer>, body: { BarcodeLabelType: number; ReferenceNo: string }): HttpAnswer {
    const d = byReference(customer, body.ReferenceNo.trim());
    if (!d) return refuse(SENDEO_ERRORS.noDeliveryFound, 'referenceNo');
    return ok({
      TrackingNumber: d.trackingNumber,
      ShipmentId: d.shipmentId,
      TrackingUrl: trackingUrl(d),
      ...labels(d, body.BarcodeLabelType),
    } satisfies SendeoGetBarcodeResult);
  }

  function getBarcodeByTrackingNumber(customer: Required<SendeoCustomer>, body: { TrackingNumber: number }): HttpAnswer {
    const d = byTracking(customer, String(body.TrackingNumber));
    if (!d) return refuse(SENDEO_ERRORS.noDeliveryFound, 'trackingNumber');
    const l = labels(d, d.barcodeLabelType);
    return ok({ barcode: l.Barcode ?? l.BarcodeZpl ?? (l.BarcodeZpls ?? []).join('\n') });
  }

  function cityDistricts(query: URLSearchParams): HttpAnswer {
    const cityName = queryValue(query, 'CityName');
    if (!cityName) return problem({ CityName: ['The CityName field is required.'] });
    const districtName = queryValue(query, 'DistrictName');
    const cityIds = Object.entries(SENDEO_CITIES)
      .filter(([, name]) => foldTurkish(name) === foldTurkish(cityName))
      .map(([id]) => Number(id));
    const rows: SendeoCityDistrict[] = SENDEO_DISTRICTS.filter(
      (d) => cityIds.includes(d.cityId) && (!districtName || foldTurkish(d.name) === foldTurkish(districtName)),
    ).map((d) => ({
      CityId: d.cityId,
      CityName: SENDEO_CITIES[d.cityId],
      DistrictId: d.districtId,
      DistrictName: d.name,
    }));
    return ok(rows);
  }

  // ---- one request --------------------------------------------------------------------------------------------------

  function answer(req: IncomingMessage, operation: SendeoOperation, url: URL, raw: string, rec: SendeoRecordedRequest): HttpAnswer {
    let customer: Required<SendeoCustomer> | undefined;
    if (operation !== 'LoginAES') {
      const auth = authenticate(req.headers.authorization);
      if (auth instanceof HttpAnswer) return auth;
      customer = auth;
      rec.customer = auth.code;
    }

    // body: [FromBody] operations need JSON; CANCELDELIVERY takes the query string and optionally the C# client's body
    let bound: Record<string, unknown> = {};
    const bodyOp = operation === 'TRACKDELIVERY' || operation === 'GetCityDistricts' ? undefined : (operation as SendeoBodyOperation);
    if (bodyOp && (BODY_REQUIRED.has(operation) || raw.trim() !== '')) {
      if (!isJsonMediaType(req.headers['content-type']))
        return new HttpAnswer(415, sendeoResponses.unsupportedMediaType(traceId()), 'unsupported-media-type', {
          'content-type': 'application/problem+json; charset=utf-8',
        });
      if (raw.trim() === '') return problem({ '': ['A non-empty request body is required.'] });
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch (err) {
        return problem({ '': [`The JSON value could not be parsed: ${(err as Error).message}`] });
      }
      const n = normalizeBody(SENDEO_REQUEST_SCHEMAS[bodyOp], parsed);
      rec.unknownFields = n.unknownFields;
      if (Object.keys(n.errors).length) return problem(n.errors);
      const validate = validators[bodyOp];
      if (!validate(n.value)) return problem(describeErrors(validate.errors));
      bound = n.value as Record<string, unknown>;
    }

    switch (operation) {
      case 'LoginAES': {
        const c = customers.find((x) => x.code === bound.musteri && x.password === bound.sifre);
        if (!c)
          return new HttpAnswer(
            401,
            sendeoResponses.error(randomUUID(), SENDEO_ERRORS.loginFailed.code, SENDEO_ERRORS.loginFailed.message),
            'unauthorized',
            {},
            [`musteri|sifre: ${SENDEO_ERRORS.loginFailed.message}`],
          );
        rec.customer = c.code;
        return ok({ Token: issueToken(c), CustomerId: c.customerId });
      }
      case 'SETDELIVERY':
        return setDelivery(customer!, bound as SendeoSetDeliveryBody, rec.body);
      case 'TRACKDELIVERY':
        return track(customer!, url.searchParams);
      case 'CANCELDELIVERY':
        return cancel(customer!, url.searchParams, bound as Record<string, string | undefined>);
      case 'CARGOMEASUREMENTUPDATE':
        return measurementUpdate(customer!, bound as { CustomerReferenceNo: string; Measurements: SendeoMeasurement[] });
      case 'GETBARCODE':
        return getBarcode(customer!, bound as { BarcodeLabelType: number; ReferenceNo: string });
      case 'GETBARCODEBYTRACKINGNUMBER':
        return getBarcodeByTrackingNumber(customer!, bound as { TrackingNumber: number });
      case 'GetCityDistricts':
        return cityDistricts(url.searchParams);
    }
  }

  function send(res: ServerResponse, a: HttpAnswer, rec: SendeoRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.validationErrors.push(...a.validationErrors);
    const payload = a.body === undefined ? '' : JSON.stringify(a.body);
    res.writeHead(a.status, { ...(a.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...a.headers });
    res.end(payload);
    if (rec.operation === 'LoginAES' && a.status === 200) logins++;
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      const route = ROUTES.get(url.pathname.replace(/\/+$/, '').toLowerCase());
      let body: unknown;
      try {
        body = raw.trim() ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const rec: SendeoRecordedRequest = {
        at: now(),
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        operation: route?.operation,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        rawBody: raw,
        body,
        outcome: 'ok',
        validationErrors: [],
        unknownFields: [],
      };
      requests.push(rec);

      const fault = faults.take(route?.operation);
      if (fault) rec.fault = fault.kind;
      switch (fault?.kind) {
        case 'hang':
          rec.outcome = 'fault';
          return; // never answered; close() tears the socket down
        case 'drop':
          rec.outcome = 'fault';
          req.socket.destroy();
          return;
        case 'status': {
          const a = new HttpAnswer(
            fault.status,
            sendeoResponses.error(randomUUID(), fault.status, STATUS_CODES[fault.status] ?? 'Server Error'),
            'fault',
            fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) },
          );
          return send(res, a, rec);
        }
        case 'unauthorized': {
          const a = unauthorized('The token expired');
          return send(res, new HttpAnswer(a.status, a.body, 'fault', a.headers), rec);
        }
        default:
          break;
      }

      let a: HttpAnswer;
      if (!route) a = new HttpAnswer(404, undefined, 'not-found');
      else if (rec.method !== route.method) a = new HttpAnswer(405, undefined, 'method-not-allowed', { allow: route.method });
      else {
        try {
          a = answer(req, route.operation, url, raw, rec);
        } catch (err) {
          a = new HttpAnswer(500, sendeoResponses.error(randomUUID(), 500, `test double failure: ${(err as Error).message}`), 'fault');
        }
      }

      if (fault?.kind === 'applyThenDrop') {
        // the operation took effect; the client never hears of it
        rec.outcome = a.outcome;
        rec.response = a.body;
        rec.validationErrors.push(...a.validationErrors);
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'applyThenHold') {
        double.hold(req, fault.ms, () => send(res, a, rec));
        return;
      }
      send(res, a, rec);
    });
  });

  const double = new DoubleServer(server);
  const port = await double.listen(options.port);

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    deliveries,
    get logins() {
      return logins;
    },
    failNext(fault, opts = {}) {
      faults.push(fault, opts);
    },
    clearFaults() {
      faults.clear();
    },
    expireTokens() {
      for (const t of tokens.values()) t.revoked = true;
    },
    advance(referenceNo, statusId, at) {
      const d = deliveries.get(referenceNo);
      if (!d) throw new Error(`sendeo double: no delivery with ReferenceNo ${referenceNo}`);
      if (!SENDEO_STATUSES[statusId]) throw new Error(`sendeo double: status ${statusId} is not in Sendeo's status list`);
      d.statuses.push({ statusId, at: at ?? now() });
    },
    close: () => double.close(),
  };
}
