/**
 * A contract-faithful test double of MNG Kargo's REST API (DHL eCommerce Türkiye, "apizone" behind IBM API Connect),
 * for the `mng` carrier adapter (issue #42). Contract and every choice where the document is silent: MNG-CONTRACT.md
 * next to this file. Tables, schemas, label builder and answer shapes: mng.schemas.ts.
 *
 *   POST /mngapi/api/token                                            {customerNumber, password, identityType: 1} → {jwt, …}; 8 hours
 *   POST /mngapi/api/pluscmdapi/createRecipient                       {recipient} → {shipperBranchCode}   (stage 1)
 *   POST /mngapi/api/standardcmdapi/createOrder                       {order, orderPieceList, recipient} → [{orderInvoiceId, …}]
 *   POST /mngapi/api/barcodecmdapi/createbarcode                      {referenceId, orderPieceList, …} → [{shipmentId, invoiceId, barcodes}]
 *   GET  /mngapi/api/standardqueryapi/trackshipment/{referenceId}     → [events]     (…/trackshipmentByShipmentId/{shipmentId})
 *   GET  /mngapi/api/standardqueryapi/getshipmentstatus/{referenceId} → [{status}]   (…/getshipmentstatusByShipmentId/{shipmentId})
 *   PUT  /mngapi/api/barcodecmdapi/cancelshipment                     {referenceId, shipmentId} → "OK"
 *   PUT  /mngapi/api/standardcmdapi/cancelorder/{referenceId}         (no body) → "OK"
 *   GET  /mngapi/api/cbsinfoapi/getcities, …/getdistricts/{cityCode}  (no JWT) → [{code, name}], [{cityCode, cityName, code, name}]
 *
 * Order of checks (as API Connect + an ASP.NET Core backend would): route (API Connect 404/405) → fault switches →
 * X-IBM-Client-Id / X-IBM-Client-Secret and the app's product subscription (API Connect 401) → Bearer JWT (401; not for
 * the token and CBS Info) → media type (415) → model binding (400 ProblemDetails) → field validation (400
 * `{error: {code, message, description}}`, first failure wins) → the backend's rules (500 `{error: {Code, Message,
 * Description}}`, or 404 ProblemDetails for an unknown order) → 200.
 * Every request is recorded in `requests` with its outcome.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  GATEWAY_TEXTS,
  MNG_CITIES,
  MNG_DISTRICTS,
  MNG_ERRORS,
  MNG_REFERENCE_MAX,
  MNG_REQUEST_SCHEMAS,
  MNG_STATUSES,
  MNG_STATUS_DELIVERED,
  MNG_STATUS_PREPARED,
  EMAIL_PATTERN,
  MOBILE_PHONE_PATTERN,
  bindBody,
  describeMngError,
  foldTurkish,
  isTcKimlik,
  isVergiNo,
  mngCityListName,
  mngDateOnly,
  mngDeliveryDateTime,
  mngDistrict,
  mngEventDate,
  mngEventDate2,
  mngPieceBarcode,
  mngResponses,
  mngTokenDate,
  mngTrackingUrl,
  mngZplLabel,
  trDay,
  upperTr,
  type MngBarcodeEntry,
  type MngBodyOperation,
  type MngCityRow,
  type MngCreateBarcodeAnswer,
  type MngCreateOrderAnswer,
  type MngDistrictRow,
  type MngError,
  type MngShipmentStatusAnswer,
  type MngTokenAnswer,
  type MngTrackEvent,
} from './mng.schemas';
import { DoubleServer, FaultQueue } from '../double-server';

export { MNG_STATUSES, MNG_CITIES, MNG_DISTRICTS, MNG_ERRORS, zplBarcodes } from './mng.schemas';

/** The app keys of the tests' defaultShipmentParams (`clientId` / `clientSecret`). */
export const MNG_TEST_APP = { clientId: 'client-id', clientSecret: 'client-secret' } as const;
/** The customer of the tests' defaultShipmentParams (`customerNumber` 2951471412, `password` pwd). */
export const MNG_TEST_CUSTOMER = { customerNumber: '2951471412', password: 'pwd' } as const;
/** README "JWT caching": "MNG JWTs are valid for 8 hours". */
export const MNG_TOKEN_LIFETIME_MS = 8 * 3600 * 1000;
/** Not in the contract: the refresh token's life (no refresh endpoint is emulated). */
export const MNG_REFRESH_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;
/** README "3-stage shipment flow": after createOrder alone "MNG needs **minutes**" to resolve the destination branch (3 minutes: ours). */
export const MNG_BRANCH_RESOLUTION_AFTER_ORDER_MS = 3 * 60 * 1000;

/** README "Setup checklist" step 3: the six API products an app subscribes to. */
export const MNG_PRODUCTS = ['identity', 'standard-command', 'standard-query', 'barcode-command', 'plus-command', 'cbs-info'] as const;
export type MngProduct = (typeof MNG_PRODUCTS)[number];

export type MngOperation =
  | 'token'
  | 'createRecipient'
  | 'createOrder'
  | 'cancelorder'
  | 'createbarcode'
  | 'cancelshipment'
  | 'trackshipment'
  | 'trackshipmentByShipmentId'
  | 'getshipmentstatus'
  | 'getshipmentstatusByShipmentId'
  | 'getcities'
  | 'getdistricts';

export type MngFault =
  /** answer this HTTP status before auth (500: the backend's error body; other statuses: API Connect's) */
  | { kind: 'status'; status: number }
  /** handle the request normally, but only after `ms` (slow carrier) */
  | { kind: 'delay'; ms: number }
  /** never answers until close() */
  | { kind: 'hang' }
  /** destroys the socket without doing anything */
  | { kind: 'drop' }
  /** performs the operation (e.g. the order IS created) and then destroys the socket without answering */
  | { kind: 'applyThenDrop' }
  /** performs the operation and answers `status` (default 500) as if it had failed */
  | { kind: 'applyThenStatus'; status?: number }
  /** 401 as for an expired token */
  | { kind: 'unauthorized' };

export interface MngApp {
  clientId: string;
  clientSecret: string;
  /** the apizone portal the keys come from (README trap 8); default: the double's environment */
  environment?: 'sandbox' | 'production';
  /** the API products the app is subscribed to (README trap 10); default all six */
  products?: readonly MngProduct[];
}

export interface MngCustomer {
  customerNumber: string;
  password: string;
  /** README trap 7: a temporary password "expires fast"; from this instant the token call refuses it */
  passwordExpiresAt?: Date;
  /** createOrder/createRecipient `shipperBranchCode`; default "03401700" (the array-wrapped test example) */
  shipperBranchCode?: string;
  /** origin branch of tracking events; default "Atalar Şube", "İSTANBUL" (GetTrackingStatusRequestTest) */
  branch?: { name: string; city: string };
  /** the shipper's name on labels; default "MNG Test Müşterisi" */
  name?: string;
}

export interface MngDoubleOptions {
  /** default [MNG_TEST_APP] */
  apps?: MngApp[];
  /** default [MNG_TEST_CUSTOMER] */
  customers?: MngCustomer[];
  /** which apizone the double is (README "Sandbox vs production"); default 'sandbox' */
  environment?: 'sandbox' | 'production';
  /** the double's clock (token expiry, branch resolution, same-day cancel, dates); default real time */
  now?: () => Date;
  /**
   * When createbarcode stops answering 20001 VARIŞ ŞUBESİ BULUNAMADI: `afterRecipientMs` after createRecipient registered
   * the recipient (default 0), `afterOrderMs` after createOrder saw an unregistered one (default 3 minutes).
   */
  branchResolution?: { afterRecipientMs?: number; afterOrderMs?: number };
  /** createbarcode for an order that already has a live barcode: answer the same shipment again (default) or refuse 20006 */
  repeatBarcode?: 'reanswer' | 'refuse';
  /** loopback port to listen on (default: any free one) */
  port?: number;
}

export interface MngRecordedRequest {
  at: Date;
  method: string;
  /** path as sent, without the query */
  path: string;
  operation?: MngOperation;
  /** the path parameter (referenceId, shipmentId or cityCode), decoded */
  pathParam?: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** the parsed JSON body (undefined when empty or not JSON) */
  body: unknown;
  /** X-IBM-Client-Id as sent */
  clientId?: string;
  /** the customer whose JWT was used (or who asked for one) */
  customer?: string;
  outcome: 'ok' | 'refused' | 'invalid' | 'unauthorized' | 'not-found' | 'method-not-allowed' | 'unsupported-media-type' | 'fault';
  /** HTTP status answered; undefined while hanging or when the connection was dropped */
  status?: number;
  /** the body answered */
  response?: unknown;
  /** applyThenDrop / applyThenStatus: what the operation itself answered (the client never saw it) */
  lostResponse?: unknown;
  /** every contract violation found, `field: message` (empty when the request was valid) */
  validationErrors: string[];
  /** properties the model does not have (ignored), e.g. `recipient.phone` */
  unknownFields: string[];
  /** the fault switch that handled this request */
  fault?: MngFault['kind'];
}

/** The bound recipient (canonical names). */
export interface MngRecipient {
  customerId?: number;
  refCustomerId?: string;
  cityCode?: number;
  cityName?: string;
  districtCode?: number;
  districtName?: string;
  address?: string;
  bussinessPhoneNumber?: string;
  email?: string;
  taxOffice?: string;
  taxNumber?: string;
  fullName?: string;
  homePhoneNumber?: string;
  mobilePhoneNumber?: string;
}

export interface MngPiece {
  barcode?: string;
  desi?: number;
  kg?: number;
  content?: string;
}

export interface MngOrderFields {
  referenceId?: string;
  barcode?: string;
  billOfLandingId?: string;
  isCOD?: number;
  codAmount?: number;
  shipmentServiceType?: number;
  packagingType?: number;
  content?: string;
  smsPreference1?: number;
  smsPreference2?: number;
  smsPreference3?: number;
  paymentType?: number;
  deliveryType?: number;
  description?: string;
  marketPlaceShortCode?: string;
  marketPlaceSaleCode?: string;
}

export interface MngRecipientRegistration {
  customerNumber: string;
  /** the double's matching key: city code | district code | full name | mobile phone */
  key: string;
  recipient: MngRecipient;
  registeredAt: Date;
  /** when the destination branch is resolved; undefined = never (unknown city/district code) */
  resolvesAt?: Date;
}

export interface MngShipmentStatusEntry {
  code: number;
  at: Date;
}

export interface MngShipment {
  shipmentId: string;
  invoiceId: string;
  barcodes: MngBarcodeEntry[];
  pieces: MngPiece[];
  isCOD: boolean;
  codAmount: number;
  /** the bound createbarcode body */
  request: Record<string, unknown>;
  statuses: MngShipmentStatusEntry[];
  /** who signed for it (status 5) */
  deliveryTo?: string;
  cancelled: boolean;
  createdAt: Date;
}

export interface MngOrder {
  /** upper-cased as MNG keeps it */
  referenceId: string;
  customerNumber: string;
  orderInvoiceId: string;
  orderInvoiceDetailId: string;
  shipperBranchCode: string;
  order: MngOrderFields;
  pieces: MngPiece[];
  recipient: MngRecipient;
  /** the createOrder body as sent */
  rawRequest: unknown;
  recipientKey: string;
  /** when createOrder itself would let the branch resolve (undefined = never) */
  branchResolvesAt?: Date;
  /** every barcode issued, the last one live unless cancelled */
  shipments: MngShipment[];
  cancelled: boolean;
  createdAt: Date;
}

export interface MngDouble {
  /** 'http://127.0.0.1:<port>' (no path: the adapter appends /mngapi/api/...) */
  baseUrl: string;
  requests: MngRecordedRequest[];
  /** by referenceId (upper case); another customer's order with a referenceId already in the map: `<customerNumber>/<referenceId>` */
  orders: Map<string, MngOrder>;
  /** createRecipient registrations, oldest first */
  recipients: MngRecipientRegistration[];
  /** token calls answered 200 */
  logins: number;
  failNext(fault: MngFault, options?: { times?: number; operation?: MngOperation }): void;
  clearFaults(): void;
  /** every JWT issued so far now answers 401 ("token expired mid-run") */
  expireTokens(): void;
  /** appends a status (1–8) to the order's live shipment; `deliveryTo` for 5 (default: the recipient's fullName) */
  advance(referenceId: string, statusCode: number, options?: { at?: Date; deliveryTo?: string }): MngShipment;
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------------------------------
// Routing
// --------------------------------------------------------------------------------------------------------------------

const ROUTES: { operation: MngOperation; method: 'GET' | 'POST' | 'PUT'; pattern: RegExp; product: MngProduct }[] = [
  { operation: 'token', method: 'POST', pattern: /^\/mngapi\/api\/token$/, product: 'identity' },
  { operation: 'createRecipient', method: 'POST', pattern: /^\/mngapi\/api\/pluscmdapi\/createRecipient$/, product: 'plus-command' },
  { operation: 'createOrder', method: 'POST', pattern: /^\/mngapi\/api\/standardcmdapi\/createOrder$/, product: 'standard-command' },
  { operation: 'cancelorder', method: 'PUT', pattern: /^\/mngapi\/api\/standardcmdapi\/cancelorder\/([^/]+)$/, product: 'standard-command' },
  { operation: 'createbarcode', method: 'POST', pattern: /^\/mngapi\/api\/barcodecmdapi\/createbarcode$/, product: 'barcode-command' },
  { operation: 'cancelshipment', method: 'PUT', pattern: /^\/mngapi\/api\/barcodecmdapi\/cancelshipment$/, product: 'barcode-command' },
  { operation: 'trackshipment', method: 'GET', pattern: /^\/mngapi\/api\/standardqueryapi\/trackshipment\/([^/]+)$/, product: 'standard-query' },
  {
    operation: 'trackshipmentByShipmentId',
    method: 'GET',
    pattern: /^\/mngapi\/api\/standardqueryapi\/trackshipmentByShipmentId\/([^/]+)$/,
    product: 'standard-query',
  },
  { operation: 'getshipmentstatus', method: 'GET', pattern: /^\/mngapi\/api\/standardqueryapi\/getshipmentstatus\/([^/]+)$/, product: 'standard-query' },
  {
    operation: 'getshipmentstatusByShipmentId',
    method: 'GET',
    pattern: /^\/mngapi\/api\/standardqueryapi\/getshipmentstatusByShipmentId\/([^/]+)$/,
    product: 'standard-query',
  },
  { operation: 'getcities', method: 'GET', pattern: /^\/mngapi\/api\/cbsinfoapi\/getcities$/, product: 'cbs-info' },
  { operation: 'getdistricts', method: 'GET', pattern: /^\/mngapi\/api\/cbsinfoapi\/getdistricts\/([^/]+)$/, product: 'cbs-info' },
];

const BODY_OPERATIONS: Partial<Record<MngOperation, MngBodyOperation>> = {
  token: 'token',
  createRecipient: 'createRecipient',
  createOrder: 'createOrder',
  createbarcode: 'createbarcode',
  cancelshipment: 'cancelshipment',
};

const isJsonMediaType = (ct: string | undefined) => /^\s*(application\/json|text\/json|application\/[^;\s]+\+json)\s*(;|$)/i.test(ct ?? '');
const has = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const traceId = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly outcome: MngRecordedRequest['outcome'],
    readonly headers: Record<string, string> = {},
    readonly validationErrors: string[] = [],
  ) {}
}

interface Issued {
  customer: MngCustomer;
  expiresAt: number;
  revoked: boolean;
}

export async function startMngDouble(options: MngDoubleOptions = {}): Promise<MngDouble> {
  const now = options.now ?? (() => new Date());
  const environment = options.environment ?? 'sandbox';
  const apps: MngApp[] = options.apps ?? [MNG_TEST_APP];
  const customers: MngCustomer[] = options.customers ?? [MNG_TEST_CUSTOMER];
  const afterRecipientMs = options.branchResolution?.afterRecipientMs ?? 0;
  const afterOrderMs = options.branchResolution?.afterOrderMs ?? MNG_BRANCH_RESOLUTION_AFTER_ORDER_MS;
  const repeatBarcode = options.repeatBarcode ?? 'reanswer';
  const signingKey = randomBytes(32);
  const tokens = new Map<string, Issued>();
  const requests: MngRecordedRequest[] = [];
  const orders = new Map<string, MngOrder>();
  const all: MngOrder[] = [];
  const recipients: MngRecipientRegistration[] = [];
  const faults = new FaultQueue<MngFault, MngOperation>();
  let nextOrderInvoiceId = 1707264;
  let nextOrderInvoiceDetailId = 1707777;
  let nextShipmentId = 614118757013;
  let nextInvoiceNo = 378349;
  let logins = 0;

  // ---- answers --------------------------------------------------------------------------------------------------------

  const ok = (body: unknown) => new HttpAnswer(200, body, 'ok');
  const fieldError = (e: MngError, fieldName: string, values: { ref?: string } = {}) =>
    new HttpAnswer(400, mngResponses.fieldError(e.code, describeMngError(e, values)), 'invalid', {}, [
      `${fieldName}: ${describeMngError(e, values)} (${e.code})`,
    ]);
  const refuse = (e: MngError, fieldName: string, values: { ref?: string; shipmentId?: string } = {}) =>
    new HttpAnswer(500, mngResponses.werr(e.code, describeMngError(e, values)), 'refused', {}, [`${fieldName}: ${describeMngError(e, values)} (${e.code})`]);
  const notFound = (what: string) =>
    new HttpAnswer(404, mngResponses.problem(404, 'Not Found', traceId()), 'refused', { 'content-type': 'application/problem+json; charset=utf-8' }, [
      `${what}: not found`,
    ]);
  const problem = (errors: Record<string, string[]>) =>
    new HttpAnswer(
      400,
      mngResponses.problem(400, 'One or more validation errors occurred.', traceId(), { errors }),
      'invalid',
      { 'content-type': 'application/problem+json; charset=utf-8' },
      Object.entries(errors).flatMap(([k, list]) => list.map((m) => `${k || '(body)'}: ${m}`)),
    );
  const gateway = (status: number, moreInformation: string, outcome: MngRecordedRequest['outcome']) =>
    new HttpAnswer(status, mngResponses.gateway(status, STATUS_CODES[status] ?? 'Error', moreInformation), outcome, {}, [`(gateway): ${moreInformation}`]);
  const unauthorized = (description?: string) =>
    new HttpAnswer(401, undefined, 'unauthorized', {
      'www-authenticate': description ? `Bearer error="invalid_token", error_description="${description}"` : 'Bearer',
    });

  // ---- API Connect and the JWT ----------------------------------------------------------------------------------------

  function gatewayCheck(headers: IncomingHttpHeaders, product: MngProduct): HttpAnswer | MngApp {
    const app = apps.find((a) => a.clientId === header(headers, 'x-ibm-client-id'));
    if (!app || !(app.products ?? MNG_PRODUCTS).includes(product)) return gateway(401, GATEWAY_TEXTS.noSubscription, 'unauthorized');
    if (app.clientSecret !== header(headers, 'x-ibm-client-secret')) return gateway(401, GATEWAY_TEXTS.badSecret, 'unauthorized');
    return app;
  }

  const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');
  function issueToken(customer: MngCustomer): MngTokenAnswer {
    const iat = Math.floor(now().getTime() / 1000);
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        sub: customer.customerNumber,
        customerNumber: customer.customerNumber,
        identityType: 1,
        jti: randomUUID(),
        iat,
        nbf: iat,
        exp: iat + MNG_TOKEN_LIFETIME_MS / 1000,
      }),
    );
    const jwt = `${head}.${payload}.${b64url(createHmac('sha256', signingKey).update(`${head}.${payload}`).digest())}`;
    tokens.set(jwt, { customer, expiresAt: now().getTime() + MNG_TOKEN_LIFETIME_MS, revoked: false });
    return {
      jwt,
      refreshToken: randomBytes(24).toString('base64url'),
      jwtExpireDate: mngTokenDate(new Date(now().getTime() + MNG_TOKEN_LIFETIME_MS)),
      refreshTokenExpireDate: mngTokenDate(new Date(now().getTime() + MNG_REFRESH_TOKEN_LIFETIME_MS)),
    };
  }

  function authenticate(authorization: string | undefined): MngCustomer | HttpAnswer {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) return unauthorized();
    const issued = tokens.get(token);
    if (!issued || issued.revoked) return unauthorized('The signature is invalid');
    if (now().getTime() >= issued.expiresAt) return unauthorized(`The token expired at '${new Date(issued.expiresAt).toUTCString()}'`);
    return issued.customer;
  }

  function token(body: { customerNumber?: string; password?: string; identityType?: number }, rec: MngRecordedRequest): HttpAnswer {
    const c = customers.find((x) => x.customerNumber === body.customerNumber && x.password === body.password);
    const expired = c?.passwordExpiresAt !== undefined && now().getTime() >= c.passwordExpiresAt.getTime();
    if (!c || expired || body.identityType !== 1) {
      const why = !c ? 'unknown customerNumber/password' : expired ? 'temporary password expired' : 'identityType must be 1';
      return new HttpAnswer(401, mngResponses.fieldError('401', 'Musteri numarasi veya sifre hatali.'), 'unauthorized', {}, [
        `customerNumber|password: ${why}`,
      ]);
    }
    rec.customer = c.customerNumber;
    return ok(issueToken(c));
  }

  // ---- orders -----------------------------------------------------------------------------------------------------------

  const normRef = (ref: string) => ref.trim().toUpperCase();
  const ownedBy = (customer: MngCustomer) => all.filter((o) => o.customerNumber === customer.customerNumber);
  const byReference = (customer: MngCustomer, ref: string) => ownedBy(customer).find((o) => o.referenceId === normRef(ref));
  const liveShipment = (o: MngOrder) => {
    const last = o.shipments[o.shipments.length - 1];
    return last && !last.cancelled ? last : undefined;
  };
  const byShipmentId = (customer: MngCustomer, id: string) =>
    ownedBy(customer).find((o) => !o.cancelled && liveShipment(o)?.shipmentId === id.trim().replace(/^0+/, ''));
  const latest = (sh: MngShipment) => sh.statuses[sh.statuses.length - 1].code;
  const recipientKey = (r: MngRecipient) => [r.cityCode ?? 0, r.districtCode ?? 0, foldTurkish(r.fullName ?? ''), (r.mobilePhoneNumber ?? '').trim()].join('|');
  const knownPlace = (r: MngRecipient) => !!r.cityCode && !!MNG_CITIES[r.cityCode] && mngDistrict(r.districtCode)?.cityCode === r.cityCode;

  /** The recipient rules (README traps 3–6), first failure wins. */
  function recipientRules(r: MngRecipient | undefined, requireEmail: boolean): HttpAnswer | undefined {
    const x = r ?? {};
    if (x.customerId && x.customerId !== 0 && has(x.fullName)) return fieldError(MNG_ERRORS.customerIdAndFullName, 'recipient.customerId|fullName');
    if (x.customerId && x.customerId !== 0) return fieldError(MNG_ERRORS.customerIdUnsupported, 'recipient.customerId');
    if (!has(x.fullName)) return fieldError(MNG_ERRORS.fullNameRequired, 'recipient.fullName');
    if (!x.cityCode) return fieldError(MNG_ERRORS.cityCode, 'recipient.cityCode');
    if (!x.districtCode) return fieldError(MNG_ERRORS.districtCode, 'recipient.districtCode');
    if (!has(x.address)) return fieldError(MNG_ERRORS.address, 'recipient.address');
    if (requireEmail && !(has(x.email) && EMAIL_PATTERN.test(x.email.trim()))) return fieldError(MNG_ERRORS.email, 'recipient.email');
    if (!MOBILE_PHONE_PATTERN.test(x.mobilePhoneNumber ?? '')) return fieldError(MNG_ERRORS.mobilePhone, 'recipient.mobilePhoneNumber');
    const tax = (x.taxNumber ?? '').trim();
    if (!isTcKimlik(tax) && !isVergiNo(tax)) return fieldError(MNG_ERRORS.taxNumber, 'recipient.taxNumber');
    return undefined;
  }

  function pieceRules(pieces: MngPiece[] | undefined): HttpAnswer | undefined {
    if (!pieces || pieces.length === 0) return fieldError(MNG_ERRORS.piecesRequired, 'orderPieceList');
    for (const [i, p] of pieces.entries()) {
      if (!p || !has(p.barcode)) return fieldError(MNG_ERRORS.pieceBarcodeRequired, `orderPieceList[${i}].barcode`);
      if ((p.kg ?? 0) < 0 || (p.desi ?? 0) < 0) return fieldError(MNG_ERRORS.pieceWeight, `orderPieceList[${i}].kg|desi`);
    }
    return undefined;
  }

  function codRules(isCOD: number | undefined, codAmount: number | undefined, path: string): HttpAnswer | undefined {
    if (isCOD !== undefined && isCOD !== 0 && isCOD !== 1) return fieldError(MNG_ERRORS.isCod, `${path}isCOD`);
    if (isCOD === 1 && !((codAmount ?? 0) > 0)) return fieldError(MNG_ERRORS.codAmount, `${path}codAmount`);
    return undefined;
  }

  function createRecipient(customer: MngCustomer, body: { recipient?: MngRecipient }): HttpAnswer {
    const refusal = recipientRules(body.recipient, true);
    if (refusal) return refusal;
    const r = body.recipient!;
    recipients.push({
      customerNumber: customer.customerNumber,
      key: recipientKey(r),
      recipient: r,
      registeredAt: now(),
      resolvesAt: knownPlace(r) ? new Date(now().getTime() + afterRecipientMs) : undefined,
    });
    return ok({ shipperBranchCode: customer.shipperBranchCode ?? '03401700' });
  }

  function createOrder(
    customer: MngCustomer,
    body: { order?: MngOrderFields; orderPieceList?: MngPiece[]; recipient?: MngRecipient },
    raw: unknown,
  ): HttpAnswer {
    const o = body.order ?? {};
    if (!has(o.referenceId)) return fieldError(MNG_ERRORS.referenceRequired, 'order.referenceId');
    if (o.referenceId.trim().length > MNG_REFERENCE_MAX) return fieldError(MNG_ERRORS.referenceTooLong, 'order.referenceId');
    const pieces = pieceRules(body.orderPieceList);
    if (pieces) return pieces;
    if (o.paymentType !== 1 && o.paymentType !== 2) return fieldError(MNG_ERRORS.paymentType, 'order.paymentType');
    const cod = codRules(o.isCOD, o.codAmount, 'order.');
    if (cod) return cod;
    const recipient = recipientRules(body.recipient, true);
    if (recipient) return recipient;
    const referenceId = normRef(o.referenceId);
    if (byReference(customer, referenceId)) return refuse(MNG_ERRORS.duplicateReference, 'order.referenceId', { ref: referenceId });

    const r = body.recipient!;
    const order: MngOrder = {
      referenceId,
      customerNumber: customer.customerNumber,
      orderInvoiceId: String(nextOrderInvoiceId++),
      orderInvoiceDetailId: String(nextOrderInvoiceDetailId++),
      shipperBranchCode: customer.shipperBranchCode ?? '03401700',
      order: o,
      pieces: body.orderPieceList!,
      recipient: r,
      rawRequest: raw,
      recipientKey: recipientKey(r),
      branchResolvesAt: knownPlace(r) ? new Date(now().getTime() + afterOrderMs) : undefined,
      shipments: [],
      cancelled: false,
      createdAt: now(),
    };
    all.push(order);
    orders.set(orders.has(referenceId) ? `${customer.customerNumber}/${referenceId}` : referenceId, order);
    const answer: MngCreateOrderAnswer = {
      orderInvoiceId: order.orderInvoiceId,
      orderInvoiceDetailId: order.orderInvoiceDetailId,
      shipperBranchCode: order.shipperBranchCode,
      referenceId,
    };
    return ok([answer]); // README trap 1: a one-element array
  }

  /** The earliest instant the order's destination branch is resolved: createOrder's own clock or a createRecipient registration. */
  function branchResolvesAt(o: MngOrder): number | undefined {
    const times = [
      o.branchResolvesAt?.getTime(),
      ...recipients.filter((r) => r.customerNumber === o.customerNumber && r.key === o.recipientKey).map((r) => r.resolvesAt?.getTime()),
    ].filter((t): t is number => t !== undefined);
    return times.length ? Math.min(...times) : undefined;
  }

  function barcodeAnswer(o: MngOrder, sh: MngShipment): MngCreateBarcodeAnswer[] {
    return [{ referenceId: o.referenceId, invoiceId: sh.invoiceId, shipmentId: sh.shipmentId, barcodes: sh.barcodes.map((b) => ({ ...b })) }];
  }

  function createBarcode(
    customer: MngCustomer,
    body: { referenceId?: string; isCOD?: number; codAmount?: number; orderPieceList?: MngPiece[] } & Record<string, unknown>,
  ): HttpAnswer {
    if (!has(body.referenceId)) return fieldError(MNG_ERRORS.referenceRequired, 'referenceId');
    const o = byReference(customer, body.referenceId);
    if (!o || o.cancelled) return notFound('referenceId');
    const pieces = pieceRules(body.orderPieceList);
    if (pieces) return pieces;
    const cod = codRules(body.isCOD, body.codAmount, '');
    if (cod) return cod;
    const live = liveShipment(o);
    if (live)
      return repeatBarcode === 'reanswer' ? ok(barcodeAnswer(o, live)) : refuse(MNG_ERRORS.barcodeAlreadyCreated, 'referenceId', { ref: o.referenceId });
    const resolvesAt = branchResolvesAt(o);
    if (resolvesAt === undefined || now().getTime() < resolvesAt) return refuse(MNG_ERRORS.branchNotFound, 'referenceId', { ref: o.referenceId });

    const shipmentId = String(nextShipmentId++);
    const invoiceId = `FM${nextInvoiceNo++}`;
    const list = body.orderPieceList!;
    const district = mngDistrict(o.recipient.districtCode);
    const isCOD = body.isCOD === 1;
    const barcodes = list.map((p, i): MngBarcodeEntry => {
      const barcode = mngPieceBarcode(shipmentId, i + 1);
      return {
        pieceNumber: i + 1,
        value: mngZplLabel({
          referenceId: o.referenceId,
          shipmentId,
          invoiceId,
          barcode,
          pieceNumber: i + 1,
          pieces: list.length,
          shipper: customer.name ?? 'MNG Test Müşterisi',
          recipient: o.recipient.fullName ?? '',
          address: o.recipient.address ?? '',
          district: district?.name ?? o.recipient.districtName ?? '',
          city: MNG_CITIES[o.recipient.cityCode ?? 0] ?? o.recipient.cityName ?? '',
          phone: o.recipient.mobilePhoneNumber ?? '',
          kg: p.kg ?? 0,
          desi: p.desi ?? 0,
          isCOD,
          codAmount: body.codAmount ?? 0,
        }),
        barcode,
      };
    });
    const sh: MngShipment = {
      shipmentId,
      invoiceId,
      barcodes,
      pieces: list,
      isCOD,
      codAmount: isCOD ? (body.codAmount ?? 0) : 0,
      request: body,
      statuses: [{ code: MNG_STATUS_PREPARED, at: now() }],
      cancelled: false,
      createdAt: now(),
    };
    o.shipments.push(sh);
    return ok(barcodeAnswer(o, sh));
  }

  function location(o: MngOrder, code: number): { location: string; locationAddress: string } {
    if (MNG_STATUSES[code].at === 'origin') {
      const c = customers.find((x) => x.customerNumber === o.customerNumber);
      return { location: c?.branch?.name ?? 'Atalar Şube', locationAddress: c?.branch?.city ?? 'İSTANBUL' };
    }
    const district = mngDistrict(o.recipient.districtCode);
    const city = MNG_CITIES[o.recipient.cityCode ?? 0] ?? o.recipient.cityName ?? '';
    return { location: `${district?.name ?? o.recipient.districtName ?? city} Şube`, locationAddress: upperTr(city) };
  }

  function events(o: MngOrder): MngTrackEvent[] {
    const sh = liveShipment(o);
    if (!sh) return [];
    return sh.statuses.map((st, i) => ({
      referenceId: o.referenceId,
      eventSequence: String(i + 1),
      eventStatus: MNG_STATUSES[st.code].text,
      eventStatusEn: MNG_STATUSES[st.code].textEn,
      eventDateTime: mngEventDate(st.at),
      eventDateTime2: mngEventDate2(st.at),
      ...location(o, st.code),
      country: 'TR',
    }));
  }

  function statusAnswer(o: MngOrder): MngShipmentStatusAnswer[] {
    const sh = liveShipment(o);
    const last = sh ? sh.statuses[sh.statuses.length - 1] : undefined;
    const code = last?.code ?? MNG_STATUS_PREPARED;
    const delivered = code === MNG_STATUS_DELIVERED;
    return [
      {
        orderId: o.orderInvoiceId,
        referenceId: o.referenceId,
        shipmentId: sh?.shipmentId ?? null,
        shipmentStatusCode: code,
        shipmentStatus: MNG_STATUSES[code].name,
        isDelivered: delivered ? 1 : 0,
        deliveryTo: delivered ? (sh?.deliveryTo ?? o.recipient.fullName ?? null) : null,
        deliveryDateTime: delivered && last ? mngDeliveryDateTime(last.at) : null,
        estimatedDeliveryDate: sh ? mngDateOnly(new Date(sh.createdAt.getTime() + 2 * 24 * 3600 * 1000)) : null,
        trackingUrl: sh ? mngTrackingUrl(sh.shipmentId) : null,
      },
    ];
  }

  function cancelShipment(customer: MngCustomer, body: { referenceId?: string; shipmentId?: string }): HttpAnswer {
    if (!has(body.referenceId)) return fieldError(MNG_ERRORS.referenceRequired, 'referenceId');
    const o = byReference(customer, body.referenceId);
    const sh = o && !o.cancelled ? liveShipment(o) : undefined;
    if (!o || !sh || sh.shipmentId !== (body.shipmentId ?? '').trim()) return notFound('referenceId|shipmentId');
    if (latest(sh) !== MNG_STATUS_PREPARED) return refuse(MNG_ERRORS.cancelAfterAcceptance, 'shipmentId', { shipmentId: sh.shipmentId });
    if (trDay(now()) !== trDay(sh.createdAt)) return refuse(MNG_ERRORS.cancelNotSameDay, 'shipmentId', { shipmentId: sh.shipmentId });
    sh.cancelled = true;
    return ok('OK');
  }

  function cancelOrder(customer: MngCustomer, ref: string): HttpAnswer {
    const o = byReference(customer, ref);
    if (!o || o.cancelled) return notFound('referenceId');
    if (liveShipment(o)) return refuse(MNG_ERRORS.cancelOrderWithBarcode, 'referenceId', { ref: o.referenceId });
    o.cancelled = true;
    return ok('OK');
  }

  // ---- one request ------------------------------------------------------------------------------------------------------

  function answer(
    req: IncomingMessage,
    operation: MngOperation,
    product: MngProduct,
    param: string | undefined,
    raw: string,
    rec: MngRecordedRequest,
  ): HttpAnswer {
    const app = gatewayCheck(req.headers, product);
    if (app instanceof HttpAnswer) return app;

    if (operation === 'token' && (app.environment ?? environment) !== environment) {
      return refuse(MNG_ERRORS.environmentMismatch, 'X-IBM-Client-Id');
    }

    let customer: MngCustomer | undefined;
    if (operation !== 'token' && operation !== 'getcities' && operation !== 'getdistricts') {
      const auth = authenticate(req.headers.authorization);
      if (auth instanceof HttpAnswer) return auth;
      customer = auth;
      rec.customer = auth.customerNumber;
    }

    let bound: Record<string, unknown> = {};
    const bodyOp = BODY_OPERATIONS[operation];
    if (bodyOp) {
      if (!isJsonMediaType(req.headers['content-type']))
        return new HttpAnswer(415, mngResponses.problem(415, 'Unsupported Media Type', traceId()), 'unsupported-media-type', {
          'content-type': 'application/problem+json; charset=utf-8',
        });
      if (raw.trim() === '') return problem({ '': ['A non-empty request body is required.'] });
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch (err) {
        return problem({ $: [`The JSON could not be parsed: ${(err as Error).message}`] });
      }
      const b = bindBody(MNG_REQUEST_SCHEMAS[bodyOp], parsed);
      rec.unknownFields = b.unknownFields;
      if (Object.keys(b.errors).length) return problem(b.errors);
      bound = (b.value ?? {}) as Record<string, unknown>;
    }

    switch (operation) {
      case 'token':
        return token(bound, rec);
      case 'createRecipient':
        return createRecipient(customer!, bound);
      case 'createOrder':
        return createOrder(customer!, bound, rec.body);
      case 'createbarcode':
        return createBarcode(customer!, bound);
      case 'cancelshipment':
        return cancelShipment(customer!, bound);
      case 'cancelorder':
        return cancelOrder(customer!, param ?? '');
      case 'trackshipment':
      case 'getshipmentstatus': {
        const o = byReference(customer!, param ?? '');
        if (!o || o.cancelled) return notFound('referenceId');
        return ok(operation === 'trackshipment' ? events(o) : statusAnswer(o));
      }
      case 'trackshipmentByShipmentId':
      case 'getshipmentstatusByShipmentId': {
        const o = byShipmentId(customer!, param ?? '');
        if (!o) return notFound('shipmentId');
        return ok(operation === 'trackshipmentByShipmentId' ? events(o) : statusAnswer(o));
      }
      case 'getcities':
        return ok(Object.keys(MNG_CITIES).map((code): MngCityRow => ({ code: code.padStart(2, '0'), name: mngCityListName(Number(code)) })));
      case 'getdistricts': {
        const cityCode = /^\d+$/.test(param ?? '') ? Number(param) : NaN;
        return ok(
          MNG_DISTRICTS.filter((d) => d.cityCode === cityCode).map((d): MngDistrictRow => ({
            cityCode: String(d.cityCode).padStart(2, '0'),
            cityName: MNG_CITIES[d.cityCode],
            code: String(d.code),
            name: d.name,
          })),
        );
      }
    }
  }

  function send(res: ServerResponse, a: HttpAnswer, rec: MngRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.validationErrors.push(...a.validationErrors);
    const payload = a.body === undefined ? '' : JSON.stringify(a.body);
    res.writeHead(a.status, { ...(a.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...a.headers });
    res.end(payload);
    if (rec.operation === 'token' && a.status === 200) logins++;
  }

  function faultAnswer(status: number): HttpAnswer {
    return status === 500
      ? new HttpAnswer(500, mngResponses.werr('500', '<WERR> Internal Server Error </WERR>'), 'fault')
      : new HttpAnswer(status, mngResponses.gateway(status, STATUS_CODES[status] ?? 'Error', 'The backend server returned an error.'), 'fault');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      const method = (req.method ?? 'GET').toUpperCase();
      const matches = ROUTES.map((r) => ({ r, m: r.pattern.exec(url.pathname) })).filter((x) => x.m);
      const hit = matches.find((x) => x.r.method === method);
      const matched = hit ?? matches[0];
      const route = matched?.r;
      const rawParam = matched?.m?.[1];
      let param: string | undefined;
      if (rawParam !== undefined) {
        try {
          param = decodeURIComponent(rawParam);
        } catch {
          param = rawParam;
        }
      }
      let body: unknown;
      try {
        body = raw.trim() ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const rec: MngRecordedRequest = {
        at: now(),
        method,
        path: url.pathname,
        operation: route?.operation,
        pathParam: param,
        headers: req.headers,
        rawBody: raw,
        body,
        clientId: header(req.headers, 'x-ibm-client-id'),
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
        case 'status':
          return send(res, faultAnswer(fault.status), rec);
        case 'unauthorized': {
          const a = unauthorized('The token expired');
          return send(res, new HttpAnswer(a.status, a.body, 'fault', a.headers), rec);
        }
        default:
          break;
      }

      const run = () => {
        let a: HttpAnswer;
        if (!route) a = gateway(404, GATEWAY_TEXTS.noRoute, 'not-found');
        else if (!hit)
          a = new HttpAnswer(405, mngResponses.gateway(405, 'Method Not Allowed', GATEWAY_TEXTS.badMethod), 'method-not-allowed', { allow: route.method });
        else {
          try {
            a = answer(req, route.operation, route.product, param, raw, rec);
          } catch (err) {
            a = new HttpAnswer(500, mngResponses.werr('500', `<WERR> test double failure: ${(err as Error).message} </WERR>`), 'fault');
          }
        }
        if (fault?.kind === 'applyThenDrop') {
          // the operation took effect; the client never hears of it
          rec.outcome = a.outcome;
          rec.lostResponse = a.body;
          rec.validationErrors.push(...a.validationErrors);
          req.socket.destroy();
          return;
        }
        if (fault?.kind === 'applyThenStatus') {
          rec.lostResponse = a.body;
          rec.validationErrors.push(...a.validationErrors);
          const f = faultAnswer(fault.status ?? 500);
          return send(res, f, rec);
        }
        send(res, a, rec);
      };
      if (fault?.kind === 'delay') {
        double.later(fault.ms, run);
        return;
      }
      run();
    });
  });

  const double = new DoubleServer(server);
  const port = await double.listen(options.port);

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    orders,
    recipients,
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
    advance(referenceId, statusCode, opts = {}) {
      const o = orders.get(normRef(referenceId)) ?? all.find((x) => x.referenceId === normRef(referenceId));
      if (!o || o.cancelled) throw new Error(`mng double: no order with referenceId ${referenceId}`);
      const sh = liveShipment(o);
      if (!sh) throw new Error(`mng double: order ${referenceId} has no barcode (createbarcode) to move`);
      if (!MNG_STATUSES[statusCode]) throw new Error(`mng double: status ${statusCode} is not one of MNG's shipmentStatusCode 1–8`);
      sh.statuses.push({ code: statusCode, at: opts.at ?? now() });
      if (statusCode === MNG_STATUS_DELIVERED) sh.deliveryTo = opts.deliveryTo ?? o.recipient.fullName;
      return sh;
    },
    close: () => double.close(),
  };
}
