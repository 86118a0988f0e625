/**
 * A contract-faithful test double of Yurtiçi Kargo's SOAP web service ShippingOrderDispatcherServices ("Giden Kargo"),
 * for a `yurtici` carrier adapter. Contract and every choice where the document is silent: YURTICI-CONTRACT.md next to
 * this file. Tables (statuses, error codes, field limits): yurtici.schemas.ts.
 *
 *   POST /KOPSWebServices/ShippingOrderDispatcherServices   SOAP 1.1, text/xml, operation chosen by the body element:
 *     {ns}createShipment  wsUserName, wsPassword, userLanguage, ShippingOrderVO* → ShippingOrderResultVO (jobId, details)
 *     {ns}queryShipment   wsUserName, wsPassword, wsLanguage, keys*, keyType, addHistoricalData, onlyTracking → ShippingDeliveryVO
 *     {ns}cancelShipment  wsUserName, wsPassword, userLanguage, cargoKeys* → ShippingOrderResultVO (shippingCancelDetailVO)
 *
 * Order of checks (as a JAX-WS endpoint would): path (404) → method (405) → fault switches → media type (415) →
 * well-formed XML, envelope and operation (SOAP Fault, HTTP 500) → binding of unqualified children (numbers that are not
 * numbers: SOAP Fault) → credentials and language (outFlag 1) → the document's business rules (per-record errCode).
 * Every request is recorded in `requests` with its outcome, the refusals (`field: code message`) and the elements the
 * service's schema does not know (ignored silently by the service).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  EMAIL_PATTERN,
  OPERATION_FIELDS,
  PHONE_PATTERN,
  SHIPPING_ORDER_FIELDS,
  SOAP_ENVELOPE_NAMESPACE,
  SPECIAL_FIELD1_PATTERN,
  YURTICI_CALL_REFUSALS,
  YURTICI_ERRORS,
  YURTICI_EVENTS,
  YURTICI_NAMESPACE,
  YURTICI_OPERATIONS,
  YURTICI_OPERATION_STATUSES,
  YURTICI_OUT_RESULT,
  YURTICI_REASON_OK,
  YURTICI_REJECT_STATUSES,
  YURTICI_RETURN_STATUSES,
  YURTICI_SERVICE_PATH,
  YURTICI_TEST_CUSTOMER_ID,
  YURTICI_TEST_USER_RECEIVER_PAYS,
  YURTICI_TEST_USER_SENDER_PAYS,
  letterCount,
  ykDate,
  ykTime,
  type YurticiError,
  type YurticiEventKind,
  type YurticiLanguage,
  type YurticiOperation,
  type YurticiPaymentType,
  type YurticiStatusName,
  type YurticiUser,
} from './yurtici.schemas';

export {
  YURTICI_ERRORS,
  YURTICI_EVENTS,
  YURTICI_NAMESPACE,
  YURTICI_OPERATION_STATUSES,
  YURTICI_REJECT_STATUSES,
  YURTICI_RETURN_REASONS,
  YURTICI_RETURN_STATUSES,
  YURTICI_SERVICE_PATH,
  YURTICI_TEST_CUSTOMER_ID,
  YURTICI_TEST_USER_RECEIVER_PAYS,
  YURTICI_TEST_USER_SENDER_PAYS,
  fromYk,
} from './yurtici.schemas';
import { DoubleServer, FaultQueue } from '../double-server';
export type { YurticiUser, YurticiOperation, YurticiPaymentType, YurticiStatusName } from './yurtici.schemas';

/** README: "Rate limiting on queryShipment: 1-minute cooldown on repeated queries". */
export const YURTICI_QUERY_COOLDOWN_MS = 60_000;

export type YurticiFault =
  /** HTTP status: 500 with a SOAP Server fault ("Internal Server Error"), any other status with an HTML body */
  | { kind: 'status'; status: number }
  /** the operation takes effect at once; the answer leaves after `ms` (a slow service, or an answer held while its caller gives up) */
  | { kind: 'slow'; ms: number }
  /** nothing is done and no answer comes until close() */
  | { kind: 'hang' }
  /** the socket is destroyed, nothing done */
  | { kind: 'drop' }
  /** the operation takes effect (e.g. the booking IS made) and then the socket is destroyed without an answer */
  | { kind: 'applyThenDrop' }
  /** the operation takes effect and the answer never comes (until close()): the caller times out */
  | { kind: 'applyThenHang' };

export interface YurticiDoubleOptions {
  /** default [YURTICI_TEST_USER_SENDER_PAYS, YURTICI_TEST_USER_RECEIVER_PAYS] (one customer, YURTICI_TEST_CUSTOMER_ID) */
  users?: YurticiUser[];
  /** the double's clock (event times, the one-minute query rule); default real time */
  now?: () => Date;
  /** queryShipment's "repeated queries within 1 minute are blocked"; default YURTICI_QUERY_COOLDOWN_MS, 0 = off */
  queryCooldownMs?: number;
  /** loopback port to listen on (default: any free one) */
  port?: number;
}

export interface YurticiRecordedRequest {
  at: Date;
  method: string;
  /** path without the query, as sent */
  path: string;
  headers: IncomingHttpHeaders;
  /** the SOAPAction header as sent (the service dispatches on the body element, not on it) */
  soapAction?: string;
  rawBody: string;
  /** local name of the body's first element when it is in the service's namespace (any prefix) */
  operation?: YurticiOperation;
  /** the bound request: unqualified children of the operation element; ShippingOrderVO/keys/cargoKeys are arrays */
  body?: Record<string, unknown>;
  userName?: string;
  outcome:
    | 'ok'
    /** outFlag 0 but some records refused (or, for cancelShipment, not cancelled) */
    | 'partial'
    /** outFlag 1: the whole call or every record refused */
    | 'refused'
    | 'soap-fault'
    | 'fault'
    | 'not-found'
    | 'method-not-allowed'
    | 'unsupported-media-type';
  /** HTTP status answered; undefined while hanging or after a dropped connection */
  status?: number;
  /** the XML answered (or, for applyThenDrop/applyThenHang, the XML that would have been answered) */
  response?: string;
  /** every refusal or contract violation, `ShippingOrderVO[0].receiverAddress: 82502 …` */
  errors: string[];
  /** elements the service's schema does not have (ignored by the service), e.g. `ShippingOrderVO[0].receiverCity`, `{ns}wsUserName` */
  unknownFields: string[];
  fault?: YurticiFault['kind'];
}

export interface YurticiMovement {
  at: Date;
  unitId: string;
  unitName: string;
  eventId: string;
  eventName: string;
  reasonId: string;
  reasonName: string;
  cityName: string;
  townName: string;
}

export interface YurticiShipment {
  cargoKey: string;
  invoiceKey: string;
  /** the user that booked it; only that user can query or cancel it */
  userName: string;
  /** the payment type of that user (not a request field) */
  paymentType: YurticiPaymentType;
  customerId: number;
  jobId: number;
  /** ShippingOrderVO as bound (strings as sent; empty elements left out) */
  order: Record<string, string>;
  status: YurticiStatusName;
  /** YK shipment number, given when the branch issues the shipping document (pickUp) */
  docId?: string;
  documentAt?: Date;
  movements: YurticiMovement[];
  delivery?: { at: Date; receiverInfo: string };
  rejectStatus?: number;
  returnStatus?: number;
  returnReason?: string;
  cancelledAt?: Date;
  createdAt: Date;
}

/** Where and when a status move happens. */
export interface YurticiMoveOptions {
  at?: Date;
  unitId?: string;
  unitName?: string;
  cityName?: string;
  townName?: string;
  reasonId?: string;
  reasonName?: string;
}

export interface YurticiDouble {
  /** 'http://127.0.0.1:<port>' */
  baseUrl: string;
  /** baseUrl + YURTICI_SERVICE_PATH: where the adapter POSTs */
  endpointUrl: string;
  requests: YurticiRecordedRequest[];
  /** by cargoKey (a shipment of another customer whose cargoKey is already in the map: `<customerId>/<cargoKey>`) */
  shipments: Map<string, YurticiShipment>;
  failNext(fault: YurticiFault, options?: { times?: number; operation?: YurticiOperation }): void;
  clearFaults(): void;
  /** forget when keys were last queried (the one-minute rule starts afresh) */
  forgetQueries(): void;
  /** the branch scanned the package but has not issued the document: ISR, still cancellable */
  scan(cargoKey: string, options?: YurticiMoveOptions): YurticiShipment;
  /** the branch accepted the package and issued the shipping document: IND with a docId; no longer cancellable */
  pickUp(cargoKey: string, options?: YurticiMoveOptions): YurticiShipment;
  /** a movement while in delivery (stays IND): loaded/unloaded at a transfer centre, out for delivery */
  move(cargoKey: string, event: 'loaded' | 'unloaded' | 'outForDelivery', options?: YurticiMoveOptions): YurticiShipment;
  /** DLV with deliveryDate/Time and receiverInfo (who signed; default the receiver's name) */
  deliver(cargoKey: string, options?: YurticiMoveOptions & { receiverInfo?: string }): YurticiShipment;
  /** a failed delivery attempt: stays IND, return requested (rejectStatus 0, returnStatus 0) with the reason */
  notDelivered(cargoKey: string, reason: string, options?: YurticiMoveOptions): YurticiShipment;
  /** back at the sender: rejectStatus 9 (return completed), returnStatus 3 (returned to sender) */
  returnToSender(cargoKey: string, options?: YurticiMoveOptions): YurticiShipment;
  /** sets rejectStatus/returnStatus/reason as given (values must be in the document's tables) */
  setReturn(cargoKey: string, values: { rejectStatus?: number; returnStatus?: number; reason?: string }): YurticiShipment;
  /** BI: the branch cancelled the invoice */
  cancelByBranch(cargoKey: string, options?: YurticiMoveOptions): YurticiShipment;
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------------------------------
// XML: parse keeping prefixes, then resolve them (the service accepts any prefix bound to its namespace)
// --------------------------------------------------------------------------------------------------------------------

interface XmlElement {
  ns?: string;
  local: string;
  text: string;
  nil: boolean;
  children: XmlElement[];
}

class SoapFault extends Error {
  constructor(
    readonly faultcode: 'Client' | 'Server' | 'VersionMismatch',
    message: string,
  ) {
    super(message);
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (_name, _jpath, _isLeaf, isAttribute) => !isAttribute,
});

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: false });
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

function toElement(qname: string, node: unknown, scope: Map<string, string>): XmlElement {
  const inner = new Map(scope);
  const attrs: Record<string, string> = {};
  if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (!k.startsWith('@_')) continue;
      const name = k.slice(2);
      attrs[name] = String(v);
      if (name === 'xmlns') inner.set('', String(v));
      else if (name.startsWith('xmlns:')) inner.set(name.slice(6), String(v));
    }
  }
  const [prefix, local] = qname.includes(':') ? qname.split(':', 2) : ['', qname];
  if (prefix && !inner.has(prefix)) throw new SoapFault('Client', `XML reader error: undeclared namespace prefix "${prefix}"`);
  const ns = inner.get(prefix) || undefined;
  const nilAttr = Object.entries(attrs).find(([k]) => k.endsWith(':nil') && inner.get(k.split(':')[0]) === XSI);
  const el: XmlElement = { ns, local, text: '', nil: nilAttr?.[1] === 'true', children: [] };
  if (typeof node === 'string') el.text = node;
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (k.startsWith('@_')) continue;
      if (k === '#text') {
        el.text = String(Array.isArray(v) ? v.join('') : v);
        continue;
      }
      for (const child of v as unknown[]) el.children.push(toElement(k, child, inner));
    }
  }
  return el;
}

/** The operation element of a SOAP 1.1 request, or a SoapFault as Metro/JAX-WS would raise it. */
function operationElement(raw: string): XmlElement {
  const valid = XMLValidator.validate(raw);
  if (valid !== true) throw new SoapFault('Client', `Couldn't create SOAP message due to exception: XML reader error: ${valid.err.msg}`);
  const doc = parser.parse(raw) as Record<string, unknown>;
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('@_'));
  if (!rootName) throw new SoapFault('Client', "Couldn't create SOAP message: no document element");
  const root = toElement(rootName, (doc[rootName] as unknown[])[0], new Map());
  if (root.local !== 'Envelope' || root.ns !== SOAP_ENVELOPE_NAMESPACE)
    throw new SoapFault(
      'VersionMismatch',
      `Couldn't create SOAP message. Expecting Envelope in namespace ${SOAP_ENVELOPE_NAMESPACE}, but got ${root.ns ?? ''}`,
    );
  const body = root.children.find((c) => c.local === 'Body' && c.ns === SOAP_ENVELOPE_NAMESPACE);
  const op = body?.children[0];
  if (!op) throw new SoapFault('Client', 'Cannot find dispatch method for the empty Body');
  if (op.ns !== YURTICI_NAMESPACE || !(YURTICI_OPERATIONS as readonly string[]).includes(op.local))
    throw new SoapFault('Client', `Cannot find dispatch method for {${op.ns ?? ''}}${op.local}`);
  return op;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function soapFaultXml(f: SoapFault): string {
  return (
    `<?xml version='1.0' encoding='UTF-8'?><S:Envelope xmlns:S="${SOAP_ENVELOPE_NAMESPACE}"><S:Body><S:Fault>` +
    `<faultcode>S:${f.faultcode}</faultcode><faultstring>${escapeText(f.message)}</faultstring></S:Fault></S:Body></S:Envelope>`
  );
}

/** Drops undefined members so the builder leaves the element out (minOccurs=0). */
function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(compact) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, compact(v)]),
    ) as T;
  return value;
}

function responseXml(operation: YurticiOperation, resultElement: string, result: Record<string, unknown>): string {
  const body = { [`ns2:${operation}Response`]: { '@_xmlns:ns2': YURTICI_NAMESPACE, [resultElement]: compact(result) } };
  return `<?xml version='1.0' encoding='UTF-8'?>${builder.build({ 'S:Envelope': { '@_xmlns:S': SOAP_ENVELOPE_NAMESPACE, 'S:Body': body } }) as string}`;
}

// --------------------------------------------------------------------------------------------------------------------
// Binding (JAXB): unqualified children by local name; numbers must parse or the call faults
// --------------------------------------------------------------------------------------------------------------------

type Bound = Record<string, string | string[] | Record<string, string>[]>;

const REPEATED = new Set(['ShippingOrderVO', 'keys', 'cargoKeys']);
const ORDER_FIELD = new Map(SHIPPING_ORDER_FIELDS.map((f) => [f.name, f]));
const QUERY_TYPES: Record<string, 'int' | 'boolean'> = { keyType: 'int', addHistoricalData: 'boolean', onlyTracking: 'boolean' };

function checkLexical(value: string, xsType: string): void {
  const ok =
    xsType === 'long' || xsType === 'int'
      ? /^[+-]?\d+$/.test(value)
      : xsType === 'double'
        ? /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value)
        : xsType === 'boolean'
          ? /^(true|false|1|0)$/.test(value)
          : true;
  if (!ok) throw new SoapFault('Client', `Unmarshalling Error: For input string: "${value}"`);
}

function bind(op: XmlElement, operation: YurticiOperation, unknown: string[]): Bound {
  const known = new Set(OPERATION_FIELDS[operation]);
  const out: Bound = {};
  for (const c of op.children) {
    if (c.ns !== undefined || !known.has(c.local)) {
      unknown.push(c.ns ? `{${c.ns}}${c.local}` : c.local);
      continue;
    }
    if (c.local === 'ShippingOrderVO') {
      const index = ((out.ShippingOrderVO as Record<string, string>[] | undefined) ?? []).length;
      const vo: Record<string, string> = {};
      for (const f of c.children) {
        const field = f.ns === undefined ? ORDER_FIELD.get(f.local) : undefined;
        if (!field) {
          unknown.push(`ShippingOrderVO[${index}].${f.ns ? `{${f.ns}}` : ''}${f.local}`);
          continue;
        }
        if (f.nil || f.text === '') continue; // empty = not sent (see YURTICI-CONTRACT.md)
        checkLexical(f.text, field.xsType);
        vo[f.local] = f.text;
      }
      ((out.ShippingOrderVO ??= []) as Record<string, string>[]).push(vo);
    } else if (REPEATED.has(c.local)) {
      if (!c.nil) ((out[c.local] ??= []) as string[]).push(c.text);
    } else if (!c.nil && c.text !== '') {
      if (QUERY_TYPES[c.local]) checkLexical(c.text, QUERY_TYPES[c.local]);
      out[c.local] = c.text;
    }
  }
  return out;
}

// --------------------------------------------------------------------------------------------------------------------
// The double
// --------------------------------------------------------------------------------------------------------------------

class Answer {
  constructor(
    readonly status: number,
    readonly xml: string,
    readonly outcome: YurticiRecordedRequest['outcome'],
    readonly errors: string[] = [],
    readonly contentType = 'text/xml;charset=utf-8',
  ) {}
}

interface Refusal {
  error: YurticiError;
  field: string;
  /** the field name in the message for the generic 82517 */
  detail?: string;
}

const message = (error: YurticiError, lang: YurticiLanguage, detail?: string) => {
  const text = lang === 'EN' ? error.en : error.tr;
  return detail ? `${text}: ${detail}` : text;
};
const decimals = (v: string) => (/\.(\d*)$/.exec(v.replace(/[eE].*$/, ''))?.[1] ?? '').length;
const integerDigits = (v: string) =>
  v
    .replace(/^[+-]/, '')
    .split(/[.eE]/)[0]
    .replace(/^0+(?=\d)/, '').length;

export async function startYurticiDouble(options: YurticiDoubleOptions = {}): Promise<YurticiDouble> {
  const now = options.now ?? (() => new Date());
  const cooldownMs = options.queryCooldownMs ?? YURTICI_QUERY_COOLDOWN_MS;
  const users = (options.users ?? [YURTICI_TEST_USER_SENDER_PAYS, YURTICI_TEST_USER_RECEIVER_PAYS]).map((u) => ({
    ...u,
    customerId: u.customerId ?? YURTICI_TEST_CUSTOMER_ID,
    customerName: u.customerName ?? 'YK TEST MÜŞTERİSİ',
    cashOnDelivery: u.cashOnDelivery ?? [],
  }));
  type User = (typeof users)[number];
  const requests: YurticiRecordedRequest[] = [];
  const shipments = new Map<string, YurticiShipment>();
  const all: YurticiShipment[] = [];
  /** `<customerId>|<userName>|<keyType>|<key>` → when it was last answered with data */
  const lastQueried = new Map<string, number>();
  const faults = new FaultQueue<YurticiFault, YurticiOperation>();
  let nextJobId = 5_160_001;
  let nextDocId = 110_000_000_001;

  const ofCustomer = (customerId: number) => all.filter((s) => s.customerId === customerId);
  const ofUser = (user: User) => all.filter((s) => s.userName === user.userName);

  /** Credentials and language, as the document puts them in every body; outFlag 1 with no detail when wrong. */
  function authenticate(
    body: Bound,
    languageField: 'userLanguage' | 'wsLanguage',
  ): { user: User; lang: YurticiLanguage } | { refusal: string; lang: YurticiLanguage } {
    const raw = typeof body[languageField] === 'string' ? (body[languageField] as string).trim().toUpperCase() : '';
    const lang: YurticiLanguage = raw === 'EN' ? 'EN' : 'TR';
    if (!raw) return { refusal: `${languageField}: ${YURTICI_CALL_REFUSALS.languageMissing.tr}`, lang };
    if (raw !== 'TR' && raw !== 'EN') return { refusal: `${languageField}: ${YURTICI_CALL_REFUSALS.languageInvalid.tr}`, lang };
    const user = users.find((u) => u.userName === body.wsUserName && u.password === body.wsPassword);
    if (!user) return { refusal: `wsUserName|wsPassword: ${YURTICI_CALL_REFUSALS.credentials[lang === 'EN' ? 'en' : 'tr']}`, lang };
    return { user, lang };
  }

  const callRefusal = (operation: YurticiOperation, resultElement: string, text: string, extra: Record<string, unknown> = {}, errCode?: number) =>
    new Answer(
      200,
      responseXml(operation, resultElement, {
        outFlag: '1',
        outResult: text.replace(/^[^:]+: /, ''),
        errCode: errCode === undefined ? undefined : String(errCode),
        ...extra,
      }),
      'refused',
      [text],
    );

  // ---- createShipment -------------------------------------------------------------------------------------------

  function orderRules(vo: Record<string, string>, user: User, batch: Record<string, string>[]): Refusal | undefined {
    const E = YURTICI_ERRORS;
    const blank = (name: string) => !vo[name] || vo[name].trim() === '';
    if (blank('cargoKey')) return { error: E.cargoKeyMissing, field: 'cargoKey' };
    if (vo.cargoKey.length > 20) return { error: E.cargoKeyLength, field: 'cargoKey' };
    if (blank('invoiceKey')) return { error: E.invoiceKeyMissing, field: 'invoiceKey' };
    if (vo.invoiceKey.length > 20) return { error: E.invoiceKeyLength, field: 'invoiceKey' };
    if (blank('receiverCustName')) return { error: E.receiverNameMissing, field: 'receiverCustName' };
    const name = vo.receiverCustName.trim();
    if (name.length < 5 || name.length > 200) return { error: E.receiverNameLength, field: 'receiverCustName' };
    if (letterCount(name) < 4) return { error: E.invalidFormat, field: 'receiverCustName', detail: 'RECEIVER_CUST_NAME en az 4 harf içermelidir' };
    if (blank('receiverAddress')) return { error: E.receiverAddressMissing, field: 'receiverAddress' };
    const address = vo.receiverAddress.trim();
    if (address.length < 5 || address.length > 200) return { error: E.receiverAddressLength, field: 'receiverAddress' };
    for (const phone of ['receiverPhone1', 'receiverPhone2', 'receiverPhone3']) {
      if ((phone === 'receiverPhone1' || !blank(phone)) && !PHONE_PATTERN.test((vo[phone] ?? '').trim())) return { error: E.phoneInvalid, field: phone };
    }
    if (!blank('emailAddress') && (!EMAIL_PATTERN.test(vo.emailAddress.trim()) || vo.emailAddress.length > 200))
      return { error: E.emailInvalid, field: 'emailAddress' };

    // the README's lengths and formats that have no code of their own: 82517 naming the field
    const invalid = (field: string): Refusal => ({ error: E.invalidFormat, field, detail: field });
    for (const f of SHIPPING_ORDER_FIELDS) {
      const v = vo[f.name];
      if (v === undefined || f.name.startsWith('tt') || f.name.startsWith('dc')) continue;
      if (f.xsType === 'string' && f.max !== undefined && v.length > f.max) return invalid(f.name);
      if ((f.xsType === 'long' || f.xsType === 'int') && (v.startsWith('-') || integerDigits(v) > (f.max ?? 19))) return invalid(f.name);
      if (f.xsType === 'double' && (v.startsWith('-') || decimals(v) > (f.scale ?? 0) || integerDigits(v) > (f.max ?? 18) - (f.scale ?? 0)))
        return invalid(f.name);
    }
    if (!blank('taxNumber') && !/^\d{10,11}$/.test(vo.taxNumber)) return invalid('taxNumber');
    if (!blank('specialField1') && !SPECIAL_FIELD1_PATTERN.test(vo.specialField1)) return invalid('specialField1');

    // collection on delivery ("Tahsilatlı Teslimat"): any tt* field makes it one
    const cod =
      ['ttCollectionType', 'ttInvoiceAmount', 'ttDocumentId', 'ttDocumentSaveType'].some((f) => !blank(f) && Number(vo[f]) !== 0) || !blank('ttCollectionType');
    if (cod) {
      const type = (vo.ttCollectionType ?? '').trim();
      if (type !== '0' && type !== '1') return { error: E.codTypeInvalid, field: 'ttCollectionType' };
      if (!user.cashOnDelivery.includes(type === '0' ? 'cash' : 'card')) return { error: E.paymentTypeMismatch, field: 'ttCollectionType' };
      if (blank('ttInvoiceAmount') || Number(vo.ttInvoiceAmount) <= 0) return { error: E.codAmountMissing, field: 'ttInvoiceAmount' };
      if (decimals(vo.ttInvoiceAmount) > 2 || integerDigits(vo.ttInvoiceAmount) > 16) return { error: E.codAmountLength, field: 'ttInvoiceAmount' };
      if (blank('ttDocumentId') || Number(vo.ttDocumentId) <= 0) return { error: E.codDocumentIdMissing, field: 'ttDocumentId' };
      if (integerDigits(vo.ttDocumentId) > 12) return { error: E.codDocumentIdLength, field: 'ttDocumentId' };
      if (!['0', '1'].includes((vo.ttDocumentSaveType ?? '').trim())) return { error: E.codSaveTypeInvalid, field: 'ttDocumentSaveType' };
      if (type === '1') {
        if (blank('dcSelectedCredit') || Number(vo.dcSelectedCredit) <= 0) return { error: E.installmentsMissing, field: 'dcSelectedCredit' };
        if (integerDigits(vo.dcSelectedCredit) > 2) return { error: E.installmentsLength, field: 'dcSelectedCredit' };
        if (blank('dcCreditRule')) return { error: E.creditRuleMissing, field: 'dcCreditRule' };
        if (!['0', '1'].includes(String(Number(vo.dcCreditRule)))) return { error: E.creditRuleInvalid, field: 'dcCreditRule' };
      }
    }

    const taken = ofCustomer(user.customerId).some((s) => s.cargoKey === vo.cargoKey) || batch.some((b) => b.cargoKey === vo.cargoKey);
    if (taken) return { error: E.cargoKeyExists, field: 'cargoKey' };
    // package-based mode shares an invoiceKey among the pieces of one shipment: same receiver only
    const sameInvoice = [...ofCustomer(user.customerId).map((s) => s.order), ...batch].find((o) => o.invoiceKey === vo.invoiceKey);
    const receiver = (o: Record<string, string>) => [o.receiverCustName, o.receiverAddress, o.receiverPhone1].map((x) => (x ?? '').trim()).join('|');
    if (sameInvoice && receiver(sameInvoice) !== receiver(vo))
      return { error: E.invalidFormat, field: 'invoiceKey', detail: 'INVOICE_KEY başka bir alıcının gönderisinde kullanılmış' };
    return undefined;
  }

  function createShipment(body: Bound, rec: YurticiRecordedRequest): Answer {
    const auth = authenticate(body, 'userLanguage');
    const empty = { count: '0', jobId: '0' };
    if ('refusal' in auth) return callRefusal('createShipment', 'ShippingOrderResultVO', auth.refusal, empty);
    const { user, lang } = auth;
    rec.userName = user.userName;
    const orders = (body.ShippingOrderVO as Record<string, string>[] | undefined) ?? [];
    if (orders.length === 0)
      return callRefusal('createShipment', 'ShippingOrderResultVO', `ShippingOrderVO: ${YURTICI_CALL_REFUSALS.noShipment[lang === 'EN' ? 'en' : 'tr']}`, empty);

    const jobId = nextJobId++;
    const accepted: Record<string, string>[] = [];
    const errors: string[] = [];
    const details = orders.map((vo, i) => {
      const refusal = orderRules(vo, user, accepted);
      if (refusal) {
        errors.push(`ShippingOrderVO[${i}].${refusal.field}: ${refusal.error.code} ${message(refusal.error, lang, refusal.detail)}`);
        return {
          cargoKey: vo.cargoKey,
          errCode: String(refusal.error.code),
          errMessage: message(refusal.error, lang, refusal.detail),
          invoiceKey: vo.invoiceKey,
        };
      }
      accepted.push(vo);
      const s: YurticiShipment = {
        cargoKey: vo.cargoKey,
        invoiceKey: vo.invoiceKey,
        userName: user.userName,
        paymentType: user.paymentType,
        customerId: user.customerId,
        jobId,
        order: { ...vo },
        status: 'NOP',
        movements: [],
        createdAt: now(),
      };
      all.push(s);
      shipments.set(shipments.has(s.cargoKey) ? `${s.customerId}/${s.cargoKey}` : s.cargoKey, s);
      return { cargoKey: vo.cargoKey, errCode: '0', invoiceKey: vo.invoiceKey };
    });
    const anyOk = accepted.length > 0;
    const outResult = YURTICI_OUT_RESULT[!anyOk ? 'allFailed' : errors.length ? 'someFailed' : 'ok'][lang === 'EN' ? 'en' : 'tr'];
    const xml = responseXml('createShipment', 'ShippingOrderResultVO', {
      outFlag: anyOk ? '0' : '1',
      outResult,
      count: String(details.length),
      jobId: String(anyOk ? jobId : 0),
      shippingOrderDetailVO: details,
    });
    return new Answer(200, xml, !anyOk ? 'refused' : errors.length ? 'partial' : 'ok', errors);
  }

  // ---- queryShipment --------------------------------------------------------------------------------------------

  const trackingUrl = (s: YurticiShipment) => `https://selfservis.yurticikargo.com/reports/SSWDocumentDetail.aspx?DocId=${s.docId}`;

  function itemDetail(s: YurticiShipment, historical: boolean, onlyTracking: boolean): Record<string, unknown> {
    if (onlyTracking) return { cargoKey: s.cargoKey, docId: s.docId, trackingUrl: trackingUrl(s) };
    const user = users.find((u) => u.userName === s.userName)!;
    const first = s.movements[0];
    const last = s.movements[s.movements.length - 1];
    const desi = Number(s.order.desi ?? 0);
    const kg = Number(s.order.kg ?? 0);
    const price = Math.round((60 + 5 * Math.max(desi, kg, 1)) * 100) / 100;
    const vat = Math.round(price * 0.2 * 100) / 100;
    const reject = s.rejectStatus === undefined ? undefined : YURTICI_REJECT_STATUSES[s.rejectStatus];
    return {
      cargoKey: s.cargoKey,
      docId: s.docId,
      invoiceNumber: s.invoiceKey,
      waybillNo: s.order.waybillNo,
      senderCustId: String(s.customerId),
      senderCustName: user.customerName,
      receiverCustName: s.order.receiverCustName,
      receiverAddressTxt: [s.order.receiverAddress, s.order.townName, s.order.cityName].filter(Boolean).join(' '),
      documentDate: s.documentAt && ykDate(s.documentAt),
      documentTime: s.documentAt && ykTime(s.documentAt),
      receiverInfo: s.delivery?.receiverInfo,
      trackingUrl: trackingUrl(s),
      deliveryDate: s.delivery && ykDate(s.delivery.at),
      deliveryTime: s.delivery && ykTime(s.delivery.at),
      totalPrice: price.toFixed(2),
      totalVat: vat.toFixed(2),
      totalAmount: (price + vat).toFixed(2),
      totalDesi: String(desi),
      totalKg: String(kg),
      totalDesiKg: String(Math.max(desi, kg)),
      totalCargo: s.order.cargoCount ?? '1',
      departureUnitId: first?.unitId,
      departureUnitName: first?.unitName,
      arrivalUnitId: last?.unitId,
      arrivalUnitName: last?.unitName,
      cargoEventId: last?.eventId,
      cargoEventExplanation: last?.eventName,
      cargoReasonId: last?.reasonId,
      cargoReasonExplanation: last?.reasonName,
      rejectStatus: s.rejectStatus === undefined ? undefined : String(s.rejectStatus),
      rejectStatusExplanation: reject?.text,
      rejectReasonExplanation: s.returnReason,
      returnStatus: s.returnStatus === undefined ? undefined : String(s.returnStatus),
      returnStatusExplanation: s.returnStatus === undefined ? undefined : YURTICI_RETURN_STATUSES[s.returnStatus],
      invDocCargoVOArray: historical
        ? s.movements.map((m) => ({
            unitId: m.unitId,
            unitName: m.unitName,
            eventId: m.eventId,
            eventName: m.eventName,
            reasonId: m.reasonId,
            reasonName: m.reasonName,
            eventDate: ykDate(m.at),
            eventTime: ykTime(m.at),
            cityName: m.cityName,
            townName: m.townName,
          }))
        : undefined,
    };
  }

  function queryShipment(body: Bound, rec: YurticiRecordedRequest): Answer {
    const auth = authenticate(body, 'wsLanguage');
    const empty = { count: '0', senderCustId: '0' };
    if ('refusal' in auth) return callRefusal('queryShipment', 'ShippingDeliveryVO', auth.refusal, empty);
    const { user, lang } = auth;
    rec.userName = user.userName;
    const keys = [...new Set(((body.keys as string[] | undefined) ?? []).map((k) => k.trim()).filter(Boolean))];
    const E = YURTICI_ERRORS;
    if (keys.length === 0) return callRefusal('queryShipment', 'ShippingDeliveryVO', `keys: ${message(E.keysMissing, lang)}`, empty, E.keysMissing.code);
    const keyType = body.keyType as string | undefined;
    if (keyType === undefined || !['0', '1'].includes(String(Number(keyType))))
      return callRefusal('queryShipment', 'ShippingDeliveryVO', `keyType: ${message(E.keyTypeInvalid, lang)}`, empty, E.keyTypeInvalid.code);
    const byInvoice = Number(keyType) === 1;
    const truthy = (v: unknown) => v === 'true' || v === '1';
    const historical = truthy(body.addHistoricalData);
    const onlyTracking = truthy(body.onlyTracking);

    const errors: string[] = [];
    const details: Record<string, unknown>[] = [];
    const keyField = byInvoice ? 'invoiceKey' : 'cargoKey';
    for (const key of keys) {
      const refuse = (error: YurticiError) => {
        errors.push(`keys[${key}]: ${error.code} ${message(error, lang)}`);
        details.push({ [keyField]: key, errCode: String(error.code), errMessage: message(error, lang), jobId: '0' });
      };
      const cooldownKey = `${user.customerId}|${user.userName}|${keyType}|${key}`;
      const last = lastQueried.get(cooldownKey);
      if (cooldownMs > 0 && last !== undefined && now().getTime() - last < cooldownMs) {
        refuse(E.queryTooSoon);
        continue;
      }
      const found = ofUser(user).filter((s) => (byInvoice ? s.invoiceKey : s.cargoKey) === key);
      if (found.length === 0) {
        refuse(E.cargoKeyNotFound);
        continue;
      }
      lastQueried.set(cooldownKey, now().getTime());
      for (const s of found) {
        const st = YURTICI_OPERATION_STATUSES[s.status];
        details.push({
          cargoKey: s.cargoKey,
          errCode: '0',
          invoiceKey: s.invoiceKey,
          jobId: String(s.jobId),
          operationCode: String(st.code),
          operationMessage: lang === 'EN' ? st.en : st.tr,
          operationStatus: st.status,
          // the YK document exists only once the branch issued it (README: docId "only available after queryShipment")
          shippingDeliveryItemDetailVO: s.docId ? itemDetail(s, historical, onlyTracking) : undefined,
        });
      }
    }
    const anyOk = details.some((d) => d.errCode === '0');
    const xml = responseXml('queryShipment', 'ShippingDeliveryVO', {
      outFlag: anyOk ? '0' : '1',
      outResult: YURTICI_OUT_RESULT[!anyOk ? 'allFailed' : errors.length ? 'someFailed' : 'ok'][lang === 'EN' ? 'en' : 'tr'],
      count: String(details.length),
      senderCustId: String(user.customerId),
      shippingDeliveryDetailVO: details,
    });
    return new Answer(200, xml, !anyOk ? 'refused' : errors.length ? 'partial' : 'ok', errors);
  }

  // ---- cancelShipment -------------------------------------------------------------------------------------------

  function cancelShipment(body: Bound, rec: YurticiRecordedRequest): Answer {
    const auth = authenticate(body, 'userLanguage');
    const empty = { count: '0', senderCustId: '0' };
    if ('refusal' in auth) return callRefusal('cancelShipment', 'ShippingOrderResultVO', auth.refusal, empty);
    const { user, lang } = auth;
    rec.userName = user.userName;
    const keys = [...new Set(((body.cargoKeys as string[] | undefined) ?? []).map((k) => k.trim()).filter(Boolean))];
    if (keys.length === 0)
      return callRefusal(
        'cancelShipment',
        'ShippingOrderResultVO',
        `cargoKeys: ${YURTICI_CALL_REFUSALS.cargoKeysMissing[lang === 'EN' ? 'en' : 'tr']}`,
        empty,
        YURTICI_ERRORS.cargoKeyMissing.code,
      );
    const errors: string[] = [];
    let cancelled = 0;
    const details = keys.map((key) => {
      const s = ofUser(user).find((x) => x.cargoKey === key);
      const E = YURTICI_ERRORS;
      if (!s) {
        errors.push(`cargoKeys[${key}]: ${E.cargoKeyNotFound.code} ${message(E.cargoKeyNotFound, lang)}`);
        return { cargoKey: key, docId: '0', errCode: String(E.cargoKeyNotFound.code), errMessage: message(E.cargoKeyNotFound, lang), jobId: '0' };
      }
      const op = (name: YurticiStatusName) => {
        const st = YURTICI_OPERATION_STATUSES[name];
        return { operationCode: String(st.code), operationMessage: lang === 'EN' ? st.en : st.tr, operationStatus: st.status };
      };
      const base = { cargoKey: s.cargoKey, docId: s.docId ?? '0' };
      if (s.status === 'CNL') {
        errors.push(`cargoKeys[${key}]: ${E.cargoKeyCancelled.code} ${message(E.cargoKeyCancelled, lang)}`);
        return {
          ...base,
          errCode: String(E.cargoKeyCancelled.code),
          errMessage: message(E.cargoKeyCancelled, lang),
          invoiceKey: s.invoiceKey,
          jobId: String(s.jobId),
          ...op('ISC'),
        };
      }
      if (s.status === 'NOP' || s.status === 'ISR') {
        s.status = 'CNL';
        s.cancelledAt = now();
        cancelled++;
        return { ...base, errCode: '0', invoiceKey: s.invoiceKey, jobId: String(s.jobId), ...op('CNL') };
      }
      // README: "Cancellation is only possible before the shipment is dispatched": the current status, no error code
      errors.push(`cargoKeys[${key}]: not cancelled, operationStatus ${s.status}`);
      return { ...base, errCode: '0', invoiceKey: s.invoiceKey, jobId: String(s.jobId), ...op(s.status) };
    });
    const anyOk = details.some((d) => d.errCode === '0');
    const xml = responseXml('cancelShipment', 'ShippingOrderResultVO', {
      outFlag: anyOk ? '0' : '1',
      outResult: YURTICI_OUT_RESULT[!anyOk ? 'allFailed' : cancelled === details.length ? 'ok' : 'someFailed'][lang === 'EN' ? 'en' : 'tr'],
      count: String(details.length),
      senderCustId: String(user.customerId),
      shippingCancelDetailVO: details,
    });
    return new Answer(200, xml, !anyOk ? 'refused' : cancelled === details.length ? 'ok' : 'partial', errors);
  }

  // ---- one request ------------------------------------------------------------------------------------------------

  function answer(req: IncomingMessage, raw: string, rec: YurticiRecordedRequest, op: XmlElement | SoapFault): Answer {
    // SOAP 1.1 is text/xml; a SOAP 1.2 (application/soap+xml) or other body is refused before it is read
    if (!/^\s*text\/xml\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
      return new Answer(415, '', 'unsupported-media-type', [`Content-Type: ${req.headers['content-type'] ?? '(none)'} is not text/xml`], 'text/plain');
    try {
      if (op instanceof SoapFault) throw op;
      const operation = op.local as YurticiOperation;
      const body = bind(op, operation, rec.unknownFields);
      rec.body = body;
      switch (operation) {
        case 'createShipment':
          return createShipment(body, rec);
        case 'queryShipment':
          return queryShipment(body, rec);
        case 'cancelShipment':
          return cancelShipment(body, rec);
      }
    } catch (err) {
      if (err instanceof SoapFault) return new Answer(500, soapFaultXml(err), 'soap-fault', [`${err.faultcode}: ${err.message}`]);
      throw err;
    }
  }

  function send(res: ServerResponse, a: Answer, rec: YurticiRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.xml;
    rec.errors.push(...a.errors);
    res.writeHead(a.status, a.xml ? { 'content-type': a.contentType } : {});
    res.end(a.xml);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      let op: XmlElement | SoapFault;
      try {
        op = operationElement(raw);
      } catch (err) {
        op = err instanceof SoapFault ? err : new SoapFault('Client', (err as Error).message);
      }
      const soapAction = req.headers.soapaction;
      const rec: YurticiRecordedRequest = {
        at: now(),
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        headers: req.headers,
        soapAction: Array.isArray(soapAction) ? soapAction[0] : soapAction,
        rawBody: raw,
        operation: op instanceof SoapFault ? undefined : (op.local as YurticiOperation),
        outcome: 'ok',
        errors: [],
        unknownFields: [],
      };
      requests.push(rec);

      if (url.pathname !== YURTICI_SERVICE_PATH) return send(res, new Answer(404, '<html><body>Not Found</body></html>', 'not-found', [], 'text/html'), rec);
      if (rec.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return send(res, new Answer(405, '', 'method-not-allowed'), rec);
      }

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
          return send(
            res,
            fault.status === 500
              ? new Answer(500, soapFaultXml(new SoapFault('Server', 'Internal Server Error')), 'fault')
              : new Answer(fault.status, `<html><body><h1>${fault.status}</h1></body></html>`, 'fault', [], 'text/html'),
            rec,
          );
        default:
          break;
      }

      let a: Answer;
      try {
        a = answer(req, raw, rec, op);
      } catch (err) {
        a = new Answer(500, soapFaultXml(new SoapFault('Server', `test double failure: ${(err as Error).message}`)), 'fault');
      }
      if (fault?.kind === 'applyThenDrop' || fault?.kind === 'applyThenHang') {
        // the operation took effect; the client never hears of it
        rec.outcome = a.outcome;
        rec.response = a.xml;
        rec.errors.push(...a.errors);
        if (fault.kind === 'applyThenDrop') req.socket.destroy();
        return;
      }
      if (fault?.kind === 'slow') {
        double.hold(req, fault.ms, () => send(res, a, rec));
        return;
      }
      send(res, a, rec);
    });
  });

  const double = new DoubleServer(server);
  const port = await double.listen(options.port);
  const baseUrl = `http://127.0.0.1:${port}`;

  // ---- status helpers -----------------------------------------------------------------------------------------------

  function shipment(cargoKey: string, allowed: YurticiStatusName[], what: string): YurticiShipment {
    const s = shipments.get(cargoKey);
    if (!s) throw new Error(`yurtici double: no shipment with cargoKey ${cargoKey}`);
    if (!allowed.includes(s.status)) throw new Error(`yurtici double: cannot ${what} ${cargoKey} in status ${s.status} (allowed: ${allowed.join(', ')})`);
    return s;
  }

  function addMovement(s: YurticiShipment, kind: YurticiEventKind, o: YurticiMoveOptions, arrival: boolean): Date {
    const at = o.at ?? now();
    const city = arrival ? (s.order.cityName ?? 'ISTANBUL') : 'ISTANBUL';
    const town = arrival ? (s.order.townName ?? 'MERKEZ') : 'ŞİŞLİ';
    s.movements.push({
      at,
      unitId: o.unitId ?? (arrival ? '8070' : '1010'),
      unitName: o.unitName ?? `${town.toLocaleUpperCase('tr-TR')} ${arrival ? 'IRTIBAT' : 'ŞUBE'}`,
      ...YURTICI_EVENTS[kind],
      reasonId: o.reasonId ?? YURTICI_REASON_OK.reasonId,
      reasonName: o.reasonName ?? YURTICI_REASON_OK.reasonName,
      cityName: o.cityName ?? city,
      townName: o.townName ?? town,
    });
    return at;
  }

  const inDelivery: YurticiStatusName[] = ['IND'];

  return {
    baseUrl,
    endpointUrl: `${baseUrl}${YURTICI_SERVICE_PATH}`,
    requests,
    shipments,
    failNext(fault, opts = {}) {
      faults.push(fault, opts);
    },
    clearFaults() {
      faults.clear();
    },
    forgetQueries() {
      lastQueried.clear();
    },
    scan(cargoKey, o = {}) {
      const s = shipment(cargoKey, ['NOP'], 'scan');
      s.status = 'ISR';
      addMovement(s, 'accepted', o, false);
      return s;
    },
    pickUp(cargoKey, o = {}) {
      const s = shipment(cargoKey, ['NOP', 'ISR'], 'pick up');
      if (s.status === 'NOP') addMovement(s, 'accepted', o, false);
      s.status = 'IND';
      s.docId = String(nextDocId++);
      s.documentAt = o.at ?? now();
      return s;
    },
    move(cargoKey, event, o = {}) {
      const s = shipment(cargoKey, inDelivery, event);
      addMovement(s, event, o, event !== 'loaded');
      return s;
    },
    deliver(cargoKey, o = {}) {
      const s = shipment(cargoKey, inDelivery, 'deliver');
      const at = addMovement(s, 'delivered', o, true);
      s.status = 'DLV';
      s.delivery = { at, receiverInfo: o.receiverInfo ?? s.order.receiverCustName };
      return s;
    },
    notDelivered(cargoKey, reason, o = {}) {
      const s = shipment(cargoKey, inDelivery, 'report a failed delivery of');
      addMovement(s, 'notDelivered', { reasonId: 'ND', reasonName: reason, ...o }, true);
      s.rejectStatus = 0;
      s.returnStatus = 0;
      s.returnReason = reason;
      return s;
    },
    returnToSender(cargoKey, o = {}) {
      const s = shipment(cargoKey, inDelivery, 'return');
      addMovement(s, 'returned', o, false);
      s.rejectStatus = 9;
      s.returnStatus = 3;
      return s;
    },
    setReturn(cargoKey, values) {
      const s = shipment(cargoKey, ['IND', 'DLV', 'BI'], 'set return values of');
      if (values.rejectStatus !== undefined && !YURTICI_REJECT_STATUSES[values.rejectStatus])
        throw new Error(`yurtici double: rejectStatus ${values.rejectStatus} is not in the document's table`);
      if (values.returnStatus !== undefined && !YURTICI_RETURN_STATUSES[values.returnStatus])
        throw new Error(`yurtici double: returnStatus ${values.returnStatus} is not in the document's table`);
      if (values.rejectStatus !== undefined) s.rejectStatus = values.rejectStatus;
      if (values.returnStatus !== undefined) s.returnStatus = values.returnStatus;
      if (values.reason !== undefined) s.returnReason = values.reason;
      return s;
    },
    cancelByBranch(cargoKey, o = {}) {
      const s = shipment(cargoKey, inDelivery, 'cancel the invoice of');
      s.status = 'BI';
      s.cancelledAt = o.at ?? now();
      return s;
    },
    close: () => double.close(),
  };
}
