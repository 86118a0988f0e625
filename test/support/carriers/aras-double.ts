/**
 * A contract-faithful test double of Aras Kargo's SOAP services, for an `aras` carrier adapter. Contract and every choice
 * where Aras' documents are silent: ARAS-CONTRACT.md next to this file. Tables, XML helpers and answer shapes: aras.schemas.ts.
 *
 * Sevkiyat Entegrasyonu, an ASP.NET .asmx service at /arascargoservice/arascargoservice.asmx (SOAP 1.1 and 1.2):
 *   SetOrder(orderInfo: Order[], userName, password)          → OrderResultInfo[] {ResultCode, ResultMessage, …}
 *   GetOrderWithIntegrationCode(userName, password, integrationCode) → Order[] (empty when nothing is held)
 *   GetOrder(userName, password, date "dd.MM.yyyy")           → Order[] sent that day
 *   CancelDispatch(userName, password, integrationCode)       → {ResultCode, ResultMessage}
 * Müşteri Bilgi Sorgulama, a WCF service at /ArasCargoIntegrationService.svc (SOAP 1.1), with its own LoginInfo:
 *   GetQueryJSON / GetQueryXML(loginInfo, queryInfo)          → QueryType 1/11/100 cargo rows, 9 movements
 *
 * Order of checks (as ASP.NET / WCF would): path (404) → method → fault switches → media type → well-formed XML →
 * envelope version → SOAPAction / body element (SOAP faults, HTTP 500) → parameter binding (unknown elements ignored and
 * recorded) → the documents' business rules (result codes in a normal 200 answer).
 */
import { STATUS_CODES, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  ARAS_CANCEL_RESULTS,
  ARAS_CARGO_COLUMNS,
  ARAS_COD_COLUMNS,
  ARAS_DEVIR_CODES,
  ARAS_MAX_SENDS_PER_ORDER,
  ARAS_MOVEMENT_COLUMNS,
  ARAS_ORDER_FIELDS,
  ARAS_ORDER_LIST_FIELD,
  ARAS_ORDER_OPERATIONS,
  ARAS_ORDER_SERVICE_LIVE_PATH,
  ARAS_ORDER_SERVICE_PATH,
  ARAS_PIECE_FIELDS,
  ARAS_QUERY_CONTRACT,
  ARAS_QUERY_OPERATIONS,
  ARAS_QUERY_SERVICE_PATH,
  ARAS_SETORDER_RESULTS,
  ARAS_STATUSES,
  ARAS_STEPS,
  ARAS_TEST_ORDER_CREDENTIALS,
  ARAS_TEST_QUERY_CREDENTIALS,
  ARAS_TYPE_NORMAL,
  ARAS_TYPE_RETURNED,
  SOAP11_NS,
  SOAP12_NS,
  TEMPURI,
  arasCity,
  arasDate,
  arasDateTime,
  arasTime,
  arasTownKnown,
  asmxEnvelope,
  asmxFault,
  asmxResponse,
  child,
  clark,
  isDecimal,
  isDigits,
  parseArasDate,
  parseXml,
  queryJson,
  queryXml,
  row,
  upperTr,
  wcfEnvelope,
  wcfFault,
  xmlError,
  type ArasJsonRowShape,
  type ArasOperation,
  type ArasResult,
  type ArasStep,
  type QueryRow,
  type SoapVersion,
  type XmlElement,
} from './aras.schemas';

export {
  ARAS_TEST_ORDER_CREDENTIALS,
  ARAS_TEST_QUERY_CREDENTIALS,
  ARAS_SETORDER_RESULTS,
  ARAS_CANCEL_RESULTS,
  ARAS_STATUSES,
  ARAS_DEVIR_CODES,
  ARAS_ORDER_SERVICE_PATH,
  ARAS_QUERY_SERVICE_PATH,
} from './aras.schemas';
import { DoubleServer, FaultQueue } from '../double-server';
export type { ArasOperation, ArasStep, ArasJsonRowShape } from './aras.schemas';

export interface ArasAccount {
  /** Sevkiyat Entegrasyonu credentials (SetOrder's `userName`/`password` and each Order's UserName/Password) */
  userName: string;
  password: string;
  /** Müşteri Bilgi Sorgulama's LoginInfo; default {userName, password} above and CustomerCode 1932448851342 */
  query?: { userName: string; password: string; customerCode: string };
  /** GÖNDERİCİ in query answers (default `<userName> TEST GÖNDERİCİ`) */
  senderName?: string;
  /** ÇIKIŞ ŞUBE, the branch that receives this account's cargo (default KAVACIK) */
  departureBranch?: string;
}

export interface ArasDoubleOptions {
  /** default: the documents' test account (neodyum / nd2580, CustomerCode 1932448851342) */
  accounts?: ArasAccount[];
  /** the double's clock (order and movement times); default real time */
  now?: () => Date;
  /** CancelDispatch's success answer: `deleted` (default) = ResultCode 1 "<code> Başarılı bir şekilde silindi.", `success` = 0 "Başarılı" */
  cancelSuccess?: 'deleted' | 'success';
  /** GetQueryJSON with one row: `xml-node` (default) writes it as an object, `array` as a one-element array */
  jsonRowShape?: ArasJsonRowShape;
  /** loopback port to listen on (default: any free one) */
  port?: number;
}

export type ArasFault =
  /** answers this HTTP status with IIS's HTML error page (no SOAP), without doing anything */
  | { kind: 'status'; status: number }
  /** answers HTTP 500 with a soap:Server fault ("Server was unable to process request."), without doing anything */
  | { kind: 'soapFault' }
  /** a slow answer: waits `ms`, then does the operation and answers (the operation happens even if the caller gave up) */
  | { kind: 'delay'; ms: number }
  /** never answers until close() */
  | { kind: 'hang' }
  /** destroys the socket without doing anything */
  | { kind: 'drop' }
  /** does the operation (e.g. the order IS stored) and destroys the socket without answering */
  | { kind: 'applyThenDrop' }
  /** does the operation and holds the answer for `ms` (an answer lost while its caller gives up) */
  | { kind: 'applyThenHold'; ms: number };

export interface ArasRecordedRequest {
  at: Date;
  method: string;
  path: string;
  service?: 'order' | 'query';
  soapVersion?: SoapVersion;
  /** SOAPAction header (SOAP 1.1) or the Content-Type `action` parameter (SOAP 1.2), unquoted */
  soapAction?: string;
  operation?: ArasOperation;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** the operation's parameters as bound (SetOrder: `{orderInfo: [{…, PieceDetails: [{…}]}], userName, password}`) */
  args?: Record<string, unknown>;
  outcome: 'ok' | 'refused' | 'fault' | 'not-found' | 'bad-request' | 'unsupported-media-type' | 'method-not-allowed' | 'help-page';
  /** HTTP status answered; undefined while hanging or when the connection was dropped */
  status?: number;
  /** the body answered (or, for applyThenDrop, the body that would have been answered) */
  response?: string;
  /** ResultCodes answered (one per order for SetOrder) */
  resultCodes: number[];
  /** every refusal or fault reason, `Field: code message` */
  validationErrors: string[];
  /** elements the service does not bind (ignored silently by XmlSerializer), e.g. `orderInfo.Order[0].ReceiverEmail` or `{ns}UserName` */
  unknownFields: string[];
  fault?: ArasFault['kind'];
}

export interface ArasPiece {
  BarcodeNumber: string;
  VolumetricWeight?: string;
  Weight?: string;
  ProductNumber?: string;
  Description?: string;
}

export interface ArasMovement {
  step: ArasStep;
  at: Date;
  /** BİRİM */
  unit: string;
  /** İŞLEM */
  operation: string;
  /** AÇIKLAMA */
  description: string;
}

/** What the branch creates when it receives the cargo and cuts the waybill (irsaliye). */
export interface ArasShipment {
  /** KARGO TAKİP NO: 13 digits */
  trackingNumber: string;
  /** KARGO KODU: 20 digits */
  cargoCode: string;
  /** İRSALİYE NUMARA (series and number) */
  waybillNumber: string;
  linkNumber: string;
  departureBranch: string;
  arrivalBranch: string;
  arrivalCode: string;
  receivedAt: Date;
  /** DURUM KODU 1–7 */
  status: number;
  /** TİP KODU 1 normal, 2 redirected, 3 returned */
  type: number;
  movements: ArasMovement[];
  deliveredAt?: Date;
  receivedBy?: string;
  returnReason?: string;
  devirCode?: string;
}

export interface ArasOrder {
  integrationCode: string;
  /** Sevkiyat Entegrasyonu user name of the account that sent it */
  account: string;
  /** the Order's scalar fields as last sent ('' for an empty element) */
  fields: Record<string, string>;
  pieces: ArasPiece[];
  /** successful SetOrder sends for this code (at most ARAS_MAX_SENDS_PER_ORDER) */
  sends: number;
  createdAt: Date;
  updatedAt: Date;
  /** set by advance(code, 'received') */
  shipment?: ArasShipment;
}

export interface ArasAdvanceOptions {
  at?: Date;
  /** BİRİM (default: the departure branch, the arrival branch or the transfer centre, by step) */
  unit?: string;
  /** AÇIKLAMA (default per step) */
  description?: string;
  /** delivered / partiallyDelivered: TESLİM ALAN (default the ReceiverName) */
  receivedBy?: string;
  /** returned: İADE SEBEBİ */
  reason?: string;
  /** notDelivered: a DEVİR KODU of ARAS_DEVIR_CODES (default AY) */
  devirCode?: string;
}

export interface ArasDouble {
  /** 'http://127.0.0.1:<port>' */
  baseUrl: string;
  /** baseUrl + the .asmx test path */
  orderServiceUrl: string;
  /** baseUrl + the .svc path */
  queryServiceUrl: string;
  requests: ArasRecordedRequest[];
  /** by IntegrationCode (a second account's order with a code already in the map: `<userName>/<code>`) */
  orders: Map<string, ArasOrder>;
  /** orders deleted by CancelDispatch */
  cancelled: ArasOrder[];
  failNext(fault: ArasFault, options?: { times?: number; operation?: ArasOperation }): void;
  clearFaults(): void;
  /** moves an order's shipment one step (the first must be `received`); throws for an unknown order or an impossible step */
  advance(integrationCode: string, step: ArasStep, options?: ArasAdvanceOptions): ArasShipment;
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------------------------------
// Answers
// --------------------------------------------------------------------------------------------------------------------

class SoapAnswer {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly outcome: ArasRecordedRequest['outcome'],
    readonly contentType: string,
    readonly validationErrors: string[] = [],
    readonly resultCodes: number[] = [],
  ) {}
}

const ASMX_UNREADABLE = 'Server was unable to read request.';
const ASMX_UNPROCESSABLE = 'Server was unable to process request.';
const WCF_INTERNAL =
  'The server was unable to process the request due to an internal error.  For more information about the error, either turn on IncludeExceptionDetailInFaults (either from ServiceBehaviorAttribute or from the <serviceDebug> configuration behavior) on the server in order to send the exception information back to the client, or turn on tracing as per the Microsoft .NET Framework SDK documentation and inspect the server trace logs.';

const contentTypeOf = (v: SoapVersion) => (v === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
const has = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';
const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');
const iisErrorPage = (status: number) =>
  `<!DOCTYPE html><html><head><title>${status} - ${STATUS_CODES[status] ?? 'Error'}</title></head><body><h1>Server Error</h1><h2>${status} - ${STATUS_CODES[status] ?? 'Error'}</h2></body></html>`;

/** Line and column (1-based) of an index in a text, for XmlSerializer's "There is an error in XML document (l, c)". */
function position(text: string, index: number): string {
  const before = text.slice(0, Math.max(0, index));
  const line = before.split('\n').length;
  return `(${line}, ${index - before.lastIndexOf('\n')})`;
}

/** The SOAP version and action a request claims, from its headers alone (routing and fault switches need it before parsing). */
function claimedAction(headers: IncomingHttpHeaders): { version?: SoapVersion; action?: string; mediaType: string } {
  const ct = headers['content-type'] ?? '';
  const mediaType = ct.split(';')[0].trim().toLowerCase();
  if (mediaType === 'text/xml') {
    const sa = headers.soapaction;
    return { version: '1.1', action: typeof sa === 'string' ? unquote(sa) : undefined, mediaType };
  }
  if (mediaType === 'application/soap+xml') {
    const m = /;\s*action\s*=\s*("([^"]*)"|[^;\s]+)/i.exec(ct);
    return { version: '1.2', action: m ? (m[2] ?? m[1]) : undefined, mediaType };
  }
  return { mediaType };
}

function operationOfAction(service: 'order' | 'query', action: string | undefined): ArasOperation | undefined {
  if (!action) return undefined;
  if (service === 'order') return ARAS_ORDER_OPERATIONS.find((op) => action === `${TEMPURI}${op}`);
  return ARAS_QUERY_OPERATIONS.find((op) => action === `${TEMPURI}${ARAS_QUERY_CONTRACT}/${op}`);
}

// --------------------------------------------------------------------------------------------------------------------
// Binding (XmlSerializer: elements of the service namespace by exact, case-sensitive name; the rest ignored)
// --------------------------------------------------------------------------------------------------------------------

const isNil = (el: XmlElement) => Object.entries(el.attributes).some(([k, v]) => /(^|:)nil$/.test(k) && v === 'true');

/** Binds the scalar children named in `known` (in the tempuri namespace); records every other child as unknown. */
function bindScalars(el: XmlElement, known: readonly string[], path: string, unknown: string[], lists: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of el.children) {
    if (c.ns === TEMPURI && known.includes(c.local)) {
      if (!isNil(c)) out[c.local] = c.text;
    } else if (!(c.ns === TEMPURI && lists.includes(c.local))) unknown.push(`${path}${c.ns === TEMPURI ? c.local : clark(c)}`);
  }
  return out;
}

interface BoundOrder {
  fields: Record<string, string>;
  pieces?: ArasPiece[];
}

function bindOrders(orderInfo: XmlElement | undefined, unknown: string[]): BoundOrder[] {
  if (!orderInfo) return [];
  const orders: BoundOrder[] = [];
  const orderFields = Object.keys(ARAS_ORDER_FIELDS);
  const pieceFields = Object.keys(ARAS_PIECE_FIELDS);
  for (const o of orderInfo.children) {
    if (!(o.ns === TEMPURI && o.local === 'Order')) {
      unknown.push(`orderInfo.${clark(o)}`);
      continue;
    }
    const path = `orderInfo.Order[${orders.length}].`;
    const fields = bindScalars(o, orderFields, path, unknown, [ARAS_ORDER_LIST_FIELD]);
    const list = o.children.filter((c) => c.ns === TEMPURI && c.local === ARAS_ORDER_LIST_FIELD).pop();
    let pieces: ArasPiece[] | undefined;
    if (list && !isNil(list)) {
      pieces = [];
      for (const p of list.children) {
        if (!(p.ns === TEMPURI && p.local === 'PieceDetail')) {
          unknown.push(`${path}PieceDetails.${clark(p)}`);
          continue;
        }
        pieces.push(bindScalars(p, pieceFields, `${path}PieceDetails.PieceDetail[${pieces.length}].`, unknown) as unknown as ArasPiece);
      }
    }
    orders.push({ fields, pieces });
  }
  return orders;
}

// --------------------------------------------------------------------------------------------------------------------
// The server
// --------------------------------------------------------------------------------------------------------------------

const TRANSFER_CENTRE = 'İSTANBUL ANADOLU TRANSFER MERKEZİ';

export async function startArasDouble(options: ArasDoubleOptions = {}): Promise<ArasDouble> {
  const now = options.now ?? (() => new Date());
  const accounts = (options.accounts ?? [ARAS_TEST_ORDER_CREDENTIALS]).map((a: ArasAccount) => ({
    userName: a.userName,
    password: a.password,
    query: a.query ?? { userName: a.userName, password: a.password, customerCode: ARAS_TEST_QUERY_CREDENTIALS.customerCode },
    senderName: a.senderName ?? `${upperTr(a.userName)} TEST GÖNDERİCİ`,
    departureBranch: a.departureBranch ?? 'KAVACIK',
  }));
  type Account = (typeof accounts)[number];
  const cancelSuccess = options.cancelSuccess ?? 'deleted';
  const jsonRowShape = options.jsonRowShape ?? 'xml-node';
  const requests: ArasRecordedRequest[] = [];
  const orders = new Map<string, ArasOrder>();
  const all: ArasOrder[] = [];
  const cancelled: ArasOrder[] = [];
  const faults = new FaultQueue<ArasFault, ArasOperation>();
  let nextTracking = 3513773163316;
  let nextWaybill = 4_100_001;

  const ownedBy = (account: string) => all.filter((o) => o.account === account);
  const find = (account: string, code: string) => ownedBy(account).find((o) => o.integrationCode === code);
  const accountOf = (userName: string | undefined, password: string | undefined) =>
    accounts.find((a) => a.userName === (userName ?? '') && a.password === (password ?? ''));

  // ---- SetOrder -----------------------------------------------------------------------------------------------------

  /** "<code> Sipariş Numaralı …": the table's messages that need the order's number in front. */
  const numbered = (r: ArasResult, code: string): ArasResult => ({ code: r.code, message: `${code} ${r.message}` });

  /** The SetOrder rules for one Order, first failure wins (order: ARAS-CONTRACT.md). */
  function setOrderRules(o: BoundOrder, call: Account | undefined): { refusal?: ArasResult; field?: string } {
    const R = ARAS_SETORDER_RESULTS;
    const f = o.fields;
    const code = (f.IntegrationCode ?? '').trim();
    if (!call || !accountOf(f.UserName, f.Password) || f.UserName !== call.userName) return { refusal: R.wrongCredentials, field: 'UserName|Password' };
    if (!has(f.IntegrationCode)) return { refusal: R.integrationCodeRequired, field: 'IntegrationCode' };
    if (!has(f.ReceiverAddress)) return { refusal: R.receiverAddressRequired, field: 'ReceiverAddress' };
    if (!has(f.ReceiverName)) return { refusal: R.receiverNameRequired, field: 'ReceiverName' };
    const city = has(f.ReceiverCityName) ? arasCity(f.ReceiverCityName) : undefined;
    if (!city) return { refusal: R.cityRequired, field: 'ReceiverCityName' };
    if (!has(f.ReceiverTownName) || !arasTownKnown(city, f.ReceiverTownName)) return { refusal: R.townRequired, field: 'ReceiverTownName' };
    if (!has(f.ReceiverPhone1) || !isDigits(f.ReceiverPhone1)) return { refusal: R.phoneNotNumeric, field: 'ReceiverPhone1' };
    if (f.ReceiverAddress.length > 250) return { refusal: R.addressTooLong, field: 'ReceiverAddress' };
    if ((f.InvoiceNumber ?? '').length > 20) return { refusal: R.invoiceTooLong, field: 'InvoiceNumber' };
    const payor = has(f.PayorTypeCode) ? f.PayorTypeCode.trim() : '1';
    if (payor !== '1' && payor !== '2') return { refusal: R.payorType, field: 'PayorTypeCode' };
    const isCod = has(f.IsCod) ? f.IsCod.trim() : '0';
    if (isCod !== '0' && isCod !== '1') return { refusal: R.isCod, field: 'IsCod' };
    if (has(f.CodCollectionType) && !['0', '1'].includes(f.CodCollectionType.trim())) return { refusal: R.codCollectionType, field: 'CodCollectionType' };
    if (isCod === '1' && payor === '2') return { refusal: R.receiverPaysCod, field: 'IsCod|PayorTypeCode' };
    if (isCod === '1' && !(has(f.CodAmount) && /^\d{1,16}(\.\d{1,2})?$/.test(f.CodAmount.trim()) && Number(f.CodAmount) > 0))
      return { refusal: R.updateError, field: 'CodAmount' };
    if (has(f.VolumetricWeight) && !isDecimal(f.VolumetricWeight)) return { refusal: R.volumeNotDecimal, field: 'VolumetricWeight' };
    if (has(f.Weight) && !isDecimal(f.Weight)) return { refusal: R.kgNotDecimal, field: 'Weight' };
    if (has(f.PieceCount) && !/^\d{1,2}$/.test(f.PieceCount.trim())) return { refusal: R.updateError, field: 'PieceCount' };

    const pieces = o.pieces ?? [];
    if (pieces.length > 0) {
      if (!has(f.PieceCount)) return { refusal: R.pieceCountRequired, field: 'PieceCount' };
      if (Number(f.PieceCount) !== pieces.length) return { refusal: R.pieceCountMismatch, field: 'PieceCount' };
      for (const [i, p] of pieces.entries()) {
        if (!has(p.BarcodeNumber)) return { refusal: numbered(R.barcodeMissing, code), field: `PieceDetails[${i}].BarcodeNumber` };
        if (has(p.VolumetricWeight) && !isDecimal(p.VolumetricWeight)) return { refusal: R.volumeNotDecimal, field: `PieceDetails[${i}].VolumetricWeight` };
        if (has(p.Weight) && !isDecimal(p.Weight)) return { refusal: R.kgNotDecimal, field: `PieceDetails[${i}].Weight` };
      }
      const barcodes = pieces.map((p) => p.BarcodeNumber.trim());
      if (new Set(barcodes).size !== barcodes.length) return { refusal: R.duplicateBarcode, field: 'PieceDetails.BarcodeNumber' };
      const taken = ownedBy(call.userName).filter((x) => x.integrationCode !== code);
      if (taken.some((x) => x.pieces.some((p) => barcodes.includes(p.BarcodeNumber.trim()))))
        return { refusal: R.barcodeUsed, field: 'PieceDetails.BarcodeNumber' };
    }

    // String(n) limits without a code of their own: a value the database cannot hold fails the write
    if (!has(f.TradingWaybillNumber)) return { refusal: R.updateError, field: 'TradingWaybillNumber' };
    for (const [name, rule] of Object.entries(ARAS_ORDER_FIELDS)) {
      const v = f[name];
      if (v !== undefined && rule.kind === 'string' && rule.max !== undefined && v.length > rule.max) return { refusal: R.updateError, field: name };
      if (v !== undefined && rule.kind === 'integer' && has(v) && (!isDigits(v) || v.trim().length > (rule.max ?? 9)))
        return { refusal: R.updateError, field: name };
    }
    for (const [i, p] of pieces.entries()) {
      for (const [name, rule] of Object.entries(ARAS_PIECE_FIELDS)) {
        const v = (p as unknown as Record<string, string | undefined>)[name];
        if (v !== undefined && rule.max !== undefined && v.length > rule.max) return { refusal: R.updateError, field: `PieceDetails[${i}].${name}` };
      }
    }

    const existing = find(call.userName, code);
    if (existing?.shipment) return { refusal: numbered(R.waybillCut, code), field: 'IntegrationCode' };
    if (existing && existing.sends >= ARAS_MAX_SENDS_PER_ORDER) return { refusal: R.tooManyUpdates, field: 'IntegrationCode' };
    return {};
  }

  function setOrder(args: { orders: BoundOrder[]; userName?: string; password?: string }): {
    results: Record<string, string>[];
    codes: number[];
    errors: string[];
  } {
    const call = accountOf(args.userName, args.password);
    const results: Record<string, string>[] = [];
    const errors: string[] = [];
    const codes: number[] = [];
    const answer = (r: ArasResult, extra: Record<string, string> = {}) => {
      codes.push(r.code);
      results.push({ ResultCode: String(r.code), ResultMessage: r.message, ...extra });
    };
    if (args.orders.length === 0) {
      const r = call ? ARAS_SETORDER_RESULTS.noOrder : ARAS_SETORDER_RESULTS.wrongCredentials;
      answer(r);
      errors.push(`${call ? 'orderInfo' : 'userName|password'}: ${r.code} ${r.message}`);
    }
    for (const [i, o] of args.orders.entries()) {
      const { refusal, field } = setOrderRules(o, call);
      if (refusal) {
        answer(refusal);
        errors.push(`orderInfo.Order[${i}].${field}: ${refusal.code} ${refusal.message}`);
        continue;
      }
      const code = o.fields.IntegrationCode.trim();
      const existing = find(call!.userName, code);
      const pieces = (o.pieces ?? []).map((p) => ({ ...p, BarcodeNumber: p.BarcodeNumber.trim() }));
      if (existing) {
        existing.fields = { ...o.fields };
        existing.pieces = pieces;
        existing.sends++;
        existing.updatedAt = now();
      } else {
        const order: ArasOrder = {
          integrationCode: code,
          account: call!.userName,
          fields: { ...o.fields },
          pieces,
          sends: 1,
          createdAt: now(),
          updatedAt: now(),
        };
        all.push(order);
        orders.set(orders.has(code) ? `${call!.userName}/${code}` : code, order);
      }
      answer(ARAS_SETORDER_RESULTS.success, {
        ...(has(o.fields.InvoiceNumber) ? { InvoiceKey: o.fields.InvoiceNumber } : {}),
        OrgReceiverCustId: code,
      });
    }
    return { results, codes, errors };
  }

  // ---- order lookups and cancel -------------------------------------------------------------------------------------

  /** An Order as GetOrder/GetOrderWithIntegrationCode answer it: the fields as sent, without the credentials. */
  function orderXml(o: ArasOrder): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(ARAS_ORDER_FIELDS)) {
      if (name === 'UserName' || name === 'Password' || name === 'SenderAccountAddressId') continue;
      if (o.fields[name] !== undefined) out[name] = o.fields[name];
    }
    if (o.pieces.length) out.PieceDetails = { PieceDetail: o.pieces.map((p) => ({ ...p })) };
    return out;
  }

  const credentialsFault = (version: SoapVersion) =>
    new SoapAnswer(
      500,
      asmxFault(version, 'Server', `${ASMX_UNPROCESSABLE} ---> ${ARAS_SETORDER_RESULTS.wrongCredentials.message}`),
      'fault',
      contentTypeOf(version),
      [`userName|password: ${ARAS_SETORDER_RESULTS.wrongCredentials.message}`],
    );

  function cancelDispatch(args: Record<string, string>): { result: ArasResult; field: string } {
    const call = accountOf(args.userName, args.password);
    if (!call) return { result: ARAS_CANCEL_RESULTS.wrongCredentials, field: 'userName|password' };
    const code = (args.integrationCode ?? '').trim();
    const o = code ? find(call.userName, code) : undefined;
    if (!o) return { result: ARAS_CANCEL_RESULTS.notFound, field: 'integrationCode' };
    if (o.shipment) return { result: ARAS_CANCEL_RESULTS.waybillCut, field: 'integrationCode' };
    all.splice(all.indexOf(o), 1);
    for (const [k, v] of orders) if (v === o) orders.delete(k);
    cancelled.push(o);
    return {
      result:
        cancelSuccess === 'deleted'
          ? { code: ARAS_CANCEL_RESULTS.deleted.code, message: `${code}${ARAS_CANCEL_RESULTS.deleted.message}` }
          : ARAS_CANCEL_RESULTS.success,
      field: 'integrationCode',
    };
  }

  // ---- the query service --------------------------------------------------------------------------------------------

  const money = (n: number) => n.toFixed(2);
  const totalDesi = (o: ArasOrder) => {
    const pieces = o.pieces.reduce((s, p) => s + (has(p.VolumetricWeight) ? Number(p.VolumetricWeight) : 0), 0);
    return pieces || (has(o.fields.VolumetricWeight) ? Number(o.fields.VolumetricWeight) : 1);
  };

  function cargoRow(o: ArasOrder, withCod: boolean): QueryRow {
    const s = o.shipment!;
    const desi = totalDesi(o);
    const delivered = s.deliveredAt;
    const account = accounts.find((a) => a.userName === o.account)!;
    const columns = withCod ? [...ARAS_CARGO_COLUMNS, ...ARAS_COD_COLUMNS] : ARAS_CARGO_COLUMNS;
    const cod = o.fields.IsCod?.trim() === '1';
    return row(columns, {
      MUSTERI_OZEL_KODU: o.integrationCode,
      IRSALIYE_NUMARA: s.waybillNumber,
      GONDERICI: account.senderName,
      ALICI: o.fields.ReceiverName,
      KARGO_LINK_NO: s.linkNumber,
      KARGO_TAKIP_NO: s.trackingNumber,
      CIKIS_SUBE: s.departureBranch,
      VARIS_SUBE: s.arrivalBranch,
      CIKIS_TARIH: arasDate(s.receivedAt),
      ADET: String(o.pieces.length || Number(o.fields.PieceCount || 1)),
      DESI: String(desi),
      ODEME_TIPI: o.fields.PayorTypeCode?.trim() === '2' ? 'ÜA' : 'ÜG',
      TUTAR: money(40 + 5 * desi),
      REFERANS: o.fields.TradingWaybillNumber,
      TESLIM_ALAN: delivered ? s.receivedBy : undefined,
      TESLIM_TARIHI: delivered ? arasDate(delivered) : undefined,
      TESLIM_SAATI: delivered ? arasTime(delivered) : undefined,
      VARIS_KODU: s.arrivalCode,
      TIP_KODU: String(s.type),
      DURUM_KODU: String(s.status),
      DURUMU: ARAS_STATUSES[s.status].tr,
      IADE_SEBEBI: s.returnReason,
      DEVIR_KODU: s.devirCode,
      WORLDWIDE: o.fields.IsWorldWide?.trim() === '1' ? '1' : '0',
      KARGO_KODU: s.cargoCode,
      DURUM_EN: ARAS_STATUSES[s.status].en,
      TAHSILAT_TUTARI: cod ? money(Number(o.fields.CodAmount)) : undefined,
      TAHSILAT_TIPI: cod ? (o.fields.CodCollectionType?.trim() === '1' ? '6' : '1') : undefined,
    });
  }

  const movementRows = (o: ArasOrder): QueryRow[] =>
    (o.shipment?.movements ?? []).map((m) =>
      row(ARAS_MOVEMENT_COLUMNS, { ISLEM_TARIHI: arasDateTime(m.at), BIRIM: m.unit, ISLEM: m.operation, ACIKLAMA: m.description }),
    );

  function query(operation: 'GetQueryJSON' | 'GetQueryXML', args: Record<string, string>): SoapAnswer {
    const fault = (code: string, message: string, reason: string) => new SoapAnswer(500, wcfFault(code, message), 'fault', 'text/xml; charset=utf-8', [reason]);
    const parseInner = (name: string, root: string) => {
      const text = args[name] ?? '';
      if (!text.trim() || xmlError(text)) return undefined;
      const el = parseXml(text);
      return el?.local === root ? el : undefined;
    };
    const login = parseInner('loginInfo', 'LoginInfo');
    const info = parseInner('queryInfo', 'QueryInfo');
    if (!login) return fault('a:InternalServiceFault', WCF_INTERNAL, 'loginInfo: not a <LoginInfo> XML document');
    if (!info) return fault('a:InternalServiceFault', WCF_INTERNAL, 'queryInfo: not a <QueryInfo> XML document');
    const value = (el: XmlElement, name: string) => child(el, name)?.text.trim() ?? '';
    const account = accounts.find(
      (a) =>
        a.query.userName === value(login, 'UserName') && a.query.password === value(login, 'Password') && a.query.customerCode === value(login, 'CustomerCode'),
    );
    if (!account) return fault('s:Client', ARAS_SETORDER_RESULTS.wrongCredentials.message, `loginInfo: ${ARAS_SETORDER_RESULTS.wrongCredentials.message}`);
    const type = value(info, 'QueryType');
    const codes = value(info, 'IntegrationCode')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const shipped = (code: string) => ownedBy(account.userName).find((o) => o.integrationCode === code && o.shipment);
    let table: string;
    let rows: QueryRow[];
    switch (type) {
      case '1':
        table = 'Cargo';
        rows = codes.length === 1 && shipped(codes[0]) ? [cargoRow(shipped(codes[0])!, false)] : [];
        break;
      case '11':
      case '100':
        table = 'Cargo';
        rows = codes.map(shipped).flatMap((o) => (o ? [cargoRow(o, type === '11')] : []));
        break;
      case '9':
        table = 'CargoTransaction';
        rows = codes.length === 1 && shipped(codes[0]) ? movementRows(shipped(codes[0])!) : [];
        break;
      case '':
        return fault('a:InternalServiceFault', WCF_INTERNAL, 'queryInfo.QueryType: missing');
      default:
        return fault('s:Client', `QueryType ${type} is not emulated by the Aras test double`, `queryInfo.QueryType: ${type} not emulated`);
    }
    const result = operation === 'GetQueryJSON' ? queryJson(table, rows, jsonRowShape) : queryXml(table, rows);
    return new SoapAnswer(200, wcfEnvelope(asmxResponse(operation, result)), 'ok', 'text/xml; charset=utf-8');
  }

  // ---- one request --------------------------------------------------------------------------------------------------

  function asmx(req: IncomingMessage, raw: string, rec: ArasRecordedRequest): SoapAnswer {
    const claim = claimedAction(req.headers);
    if (!claim.version)
      return new SoapAnswer(
        500,
        `System.InvalidOperationException: Request format is invalid: ${req.headers['content-type'] ?? ''}.`,
        'unsupported-media-type',
        'text/plain; charset=utf-8',
      );
    const version = claim.version;
    rec.soapVersion = version;
    rec.soapAction = claim.action;
    const fault = (side: 'Client' | 'Server', message: string) =>
      new SoapAnswer(500, asmxFault(version, side, message), 'fault', contentTypeOf(version), [message]);
    const bad = xmlError(raw);
    if (bad || !raw.trim())
      return fault(
        'Client',
        `${ASMX_UNREADABLE} ---> There is an error in XML document (${bad?.line ?? 0}, ${bad?.col ?? 0}). ---> ${bad?.message ?? 'Root element is missing.'}`,
      );
    const envelope = parseXml(raw);
    const envNs = version === '1.1' ? SOAP11_NS : SOAP12_NS;
    if (!envelope || envelope.local !== 'Envelope' || envelope.ns !== envNs)
      return fault('Client', `Possible SOAP version mismatch: Envelope namespace ${envelope?.ns ?? ''} was unexpected. Expecting ${envNs}.`);
    const bodyEl = child(envelope, 'Body', envNs)?.children[0];
    let operation = operationOfAction('order', claim.action);
    if (claim.action !== undefined && !operation) return fault('Client', `Server did not recognize the value of HTTP Header SOAPAction: ${claim.action}.`);
    if (!operation && version === '1.2' && bodyEl?.ns === TEMPURI) operation = ARAS_ORDER_OPERATIONS.find((op) => op === bodyEl.local);
    if (!operation) return fault('Client', `Server did not recognize the value of HTTP Header SOAPAction: ${claim.action ?? ''}.`);
    rec.operation = operation;
    if (!bodyEl || bodyEl.local !== operation || bodyEl.ns !== TEMPURI) {
      const at = bodyEl ? position(raw, raw.indexOf(`<${bodyEl.qname}`)) : '(1, 1)';
      const what = bodyEl ? `<${bodyEl.local} xmlns='${bodyEl.ns}'> was not expected.` : 'Root element is missing.';
      return fault('Client', `${ASMX_UNREADABLE} ---> There is an error in XML document ${at}. ---> ${what}`);
    }

    const unknown: string[] = [];
    // a business refusal is a normal 200 answer carrying the result code
    const ok = (result: unknown, codes: number[] = [], errors: string[] = []) =>
      new SoapAnswer(200, asmxEnvelope(version, asmxResponse(operation, result)), errors.length ? 'refused' : 'ok', contentTypeOf(version), errors, codes);
    let answer: SoapAnswer;
    switch (operation) {
      case 'SetOrder': {
        const params = bindScalars(bodyEl, ['userName', 'password'], '', unknown, ['orderInfo']);
        const ordersBound = bindOrders(child(bodyEl, 'orderInfo', TEMPURI), unknown);
        rec.args = { orderInfo: ordersBound.map((o) => ({ ...o.fields, ...(o.pieces ? { PieceDetails: o.pieces } : {}) })), ...params };
        const { results, codes, errors } = setOrder({ orders: ordersBound, ...params });
        answer = ok({ OrderResultInfo: results }, codes, errors);
        break;
      }
      case 'GetOrderWithIntegrationCode': {
        const params = bindScalars(bodyEl, ['userName', 'password', 'integrationCode'], '', unknown);
        rec.args = params;
        const call = accountOf(params.userName, params.password);
        if (!call) return credentialsFault(version);
        const o = find(call.userName, (params.integrationCode ?? '').trim());
        answer = ok(o ? { Order: [orderXml(o)] } : '');
        break;
      }
      case 'GetOrder': {
        const params = bindScalars(bodyEl, ['userName', 'password', 'date'], '', unknown);
        rec.args = params;
        const call = accountOf(params.userName, params.password);
        if (!call) return credentialsFault(version);
        const day = parseArasDate(params.date ?? '');
        if (!day) return fault('Server', `${ASMX_UNPROCESSABLE} ---> String was not recognized as a valid DateTime.`);
        const found = ownedBy(call.userName).filter((o) => arasDate(o.createdAt) === day);
        answer = ok(found.length ? { Order: found.map(orderXml) } : '');
        break;
      }
      case 'CancelDispatch': {
        const params = bindScalars(bodyEl, ['userName', 'password', 'integrationCode'], '', unknown);
        rec.args = params;
        const { result, field } = cancelDispatch(params);
        const refused = result.code !== 0 && result.code !== 1;
        answer = ok(
          { ResultCode: String(result.code), ResultMessage: result.message },
          [result.code],
          refused ? [`${field}: ${result.code} ${result.message}`] : [],
        );
        break;
      }
      default:
        return fault('Client', `Server did not recognize the value of HTTP Header SOAPAction: ${claim.action ?? ''}.`);
    }
    rec.unknownFields = unknown;
    return answer;
  }

  function wcf(req: IncomingMessage, raw: string, rec: ArasRecordedRequest): SoapAnswer {
    const claim = claimedAction(req.headers);
    // basicHttpBinding is SOAP 1.1 only
    if (claim.version !== '1.1')
      return new SoapAnswer(
        415,
        `Cannot process the message because the content type '${req.headers['content-type'] ?? ''}' was not the expected type 'text/xml; charset=utf-8'.`,
        'unsupported-media-type',
        'text/plain; charset=utf-8',
      );
    rec.soapVersion = '1.1';
    rec.soapAction = claim.action;
    if (xmlError(raw) || !raw.trim()) return new SoapAnswer(400, '', 'bad-request', 'text/html; charset=utf-8', ['body: not well-formed XML']);
    const envelope = parseXml(raw);
    if (!envelope || envelope.local !== 'Envelope' || envelope.ns !== SOAP11_NS)
      return new SoapAnswer(400, '', 'bad-request', 'text/html; charset=utf-8', [`body: no SOAP 1.1 Envelope (${envelope ? clark(envelope) : 'nothing'})`]);
    const operation = operationOfAction('query', claim.action) as 'GetQueryJSON' | 'GetQueryXML' | undefined;
    if (!operation) {
      const message = `The message with Action '${claim.action ?? ''}' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher. This may be because of either a contract mismatch (mismatched Actions between sender and receiver) or a binding/security mismatch between the sender and the receiver.  Check that sender and receiver have the same contract and the same binding (including security requirements, e.g. Message, Transport, None).`;
      return new SoapAnswer(500, wcfFault('a:ActionNotSupported', message), 'fault', 'text/xml; charset=utf-8', [
        `SOAPAction: ${claim.action ?? ''} not supported`,
      ]);
    }
    rec.operation = operation;
    const bodyEl = child(envelope, 'Body', SOAP11_NS)?.children[0];
    if (!bodyEl || bodyEl.local !== operation || bodyEl.ns !== TEMPURI) {
      const found = bodyEl ? `Found node type 'Element' with name '${bodyEl.local}' and namespace '${bodyEl.ns}'` : "Found node type 'EndElement'";
      const message = `Error in deserializing body of request message for operation '${operation}'. OperationFormatter encountered an invalid Message body. Expected to find node type 'Element' with name '${operation}' and namespace '${TEMPURI}'. ${found}`;
      return new SoapAnswer(500, wcfFault('a:DeserializationFailed', message), 'fault', 'text/xml; charset=utf-8', [message]);
    }
    const unknown: string[] = [];
    const params = bindScalars(bodyEl, ['loginInfo', 'queryInfo'], '', unknown);
    rec.args = params;
    rec.unknownFields = unknown;
    return query(operation, params);
  }

  function send(res: ServerResponse, a: SoapAnswer, rec: ArasRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.resultCodes = a.resultCodes;
    rec.validationErrors.push(...a.validationErrors);
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(a.status, a.body === '' ? {} : { 'content-type': a.contentType });
    res.end(a.body);
  }

  const ROUTES = new Map<string, 'order' | 'query'>([
    [ARAS_ORDER_SERVICE_PATH.toLowerCase(), 'order'],
    [ARAS_ORDER_SERVICE_LIVE_PATH.toLowerCase(), 'order'],
    [ARAS_QUERY_SERVICE_PATH.toLowerCase(), 'query'],
  ]);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      const service = ROUTES.get(url.pathname.replace(/\/+$/, '').toLowerCase());
      const method = (req.method ?? 'GET').toUpperCase();
      const claim = claimedAction(req.headers);
      const rec: ArasRecordedRequest = {
        at: now(),
        method,
        path: url.pathname,
        service,
        operation: service ? operationOfAction(service, claim.action) : undefined,
        headers: req.headers,
        rawBody: raw,
        outcome: 'ok',
        resultCodes: [],
        validationErrors: [],
        unknownFields: [],
      };
      requests.push(rec);

      if (!service) return send(res, new SoapAnswer(404, iisErrorPage(404), 'not-found', 'text/html; charset=utf-8'), rec);
      if (method === 'GET') {
        // the service help page ASP.NET / WCF show a browser (WSDL is not emulated)
        const ops = service === 'order' ? ARAS_ORDER_OPERATIONS : ARAS_QUERY_OPERATIONS;
        const page = `<html><body><h1>${service === 'order' ? 'Service' : 'ArasCargoIntegrationService'}</h1><ul>${ops.map((o) => `<li>${o}</li>`).join('')}</ul></body></html>`;
        return send(res, new SoapAnswer(200, page, 'help-page', 'text/html; charset=utf-8'), rec);
      }
      if (method !== 'POST') return send(res, new SoapAnswer(405, iisErrorPage(405), 'method-not-allowed', 'text/html; charset=utf-8'), rec);

      const fault = faults.take(rec.operation);
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
          return send(res, new SoapAnswer(fault.status, iisErrorPage(fault.status), 'fault', 'text/html; charset=utf-8'), rec);
        case 'soapFault': {
          const v = claim.version ?? '1.1';
          const body =
            service === 'order' ? asmxFault(v, 'Server', `${ASMX_UNPROCESSABLE} ---> Test double fault`) : wcfFault('a:InternalServiceFault', WCF_INTERNAL);
          return send(res, new SoapAnswer(500, body, 'fault', contentTypeOf(v)), rec);
        }
        default:
          break;
      }

      const process = () => {
        let a: SoapAnswer;
        try {
          a = service === 'order' ? asmx(req, raw, rec) : wcf(req, raw, rec);
        } catch (err) {
          a = new SoapAnswer(
            500,
            asmxFault('1.1', 'Server', `${ASMX_UNPROCESSABLE} ---> test double failure: ${(err as Error).message}`),
            'fault',
            contentTypeOf('1.1'),
          );
        }
        if (fault?.kind === 'applyThenDrop') {
          // the operation took effect; the caller never hears of it
          rec.outcome = a.outcome;
          rec.response = a.body;
          rec.resultCodes = a.resultCodes;
          rec.validationErrors.push(...a.validationErrors);
          req.socket.destroy();
          return;
        }
        if (fault?.kind === 'applyThenHold') {
          double.hold(req, fault.ms, () => send(res, a, rec));
          return;
        }
        send(res, a, rec);
      };
      if (fault?.kind === 'delay') {
        double.later(fault.ms, process);
        return;
      }
      process();
    });
  });

  const double = new DoubleServer(server);
  const port = await double.listen(options.port);
  const baseUrl = `http://127.0.0.1:${port}`;

  function advance(integrationCode: string, step: ArasStep, opts: ArasAdvanceOptions = {}): ArasShipment {
    const o = orders.get(integrationCode);
    if (!o) throw new Error(`aras double: no order with IntegrationCode ${integrationCode}`);
    const rule = ARAS_STEPS[step];
    if (!rule) throw new Error(`aras double: unknown step ${step}`);
    const at = opts.at ?? now();
    const account = accounts.find((a) => a.userName === o.account)!;
    if (step === 'received') {
      if (o.shipment) throw new Error(`aras double: ${integrationCode} was already received`);
      const tracking = String(nextTracking++);
      const town = upperTr(o.fields.ReceiverTownName ?? '');
      o.shipment = {
        trackingNumber: tracking,
        cargoCode: `0805${tracking}${String(o.pieces.length || 1).padStart(3, '0')}`,
        waybillNumber: `AK ${nextWaybill++}`,
        linkNumber: String(Number(tracking.slice(-8)) * 3),
        departureBranch: account.departureBranch,
        arrivalBranch: town || 'MERKEZ',
        arrivalCode: String(1000 + (tracking.charCodeAt(tracking.length - 1) % 900)),
        receivedAt: at,
        status: rule.status,
        type: ARAS_TYPE_NORMAL,
        movements: [],
      };
    }
    const s = o.shipment;
    if (!s) throw new Error(`aras double: ${integrationCode} has not been received by a branch yet (advance 'received' first)`);
    if (s.status === 6 && step !== 'received') throw new Error(`aras double: ${integrationCode} was already delivered`);
    if (step !== 'received') s.status = rule.status;
    if (rule.type !== undefined) s.type = rule.type;
    let description = opts.description ?? rule.description;
    if (step === 'delivered' || step === 'partiallyDelivered') {
      s.receivedBy = opts.receivedBy ?? (s.type === ARAS_TYPE_RETURNED ? account.senderName : o.fields.ReceiverName);
      s.deliveredAt = at;
      description = opts.description ?? `${rule.description} (Teslim alan: ${s.receivedBy})`;
    }
    if (step === 'notDelivered') {
      const code = opts.devirCode ?? 'AY';
      if (!ARAS_DEVIR_CODES[code]) throw new Error(`aras double: ${code} is not a DEVİR KODU`);
      s.devirCode = code;
      description = opts.description ?? ARAS_DEVIR_CODES[code].reason;
    }
    if (step === 'returned') {
      s.returnReason = opts.reason ?? 'ALICI KARGOYU KABUL ETMİYOR';
      description = opts.description ?? `${rule.description}: ${s.returnReason}`;
    }
    const unit =
      opts.unit ??
      (step === 'received' || step === 'inTransit' ? s.departureBranch : step === 'returned' || step === 'redirected' ? TRANSFER_CENTRE : s.arrivalBranch);
    s.movements.push({ step, at, unit, operation: rule.operation, description });
    return s;
  }

  return {
    baseUrl,
    orderServiceUrl: `${baseUrl}${ARAS_ORDER_SERVICE_PATH}`,
    queryServiceUrl: `${baseUrl}${ARAS_QUERY_SERVICE_PATH}`,
    requests,
    orders,
    cancelled,
    failNext(fault, opts = {}) {
      faults.push(fault, opts);
    },
    clearFaults() {
      faults.clear();
    },
    advance,
    close: () => double.close(),
  };
}
