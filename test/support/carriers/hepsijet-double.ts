/**
 * A contract-faithful test double of HepsiJet's integration REST API (https://integration.hepsijet.com), for the
 * `hepsijet` carrier adapter. Contract and every choice where the documents are silent: HEPSIJET-CONTRACT.md next to
 * this file. Field lists, events, messages, settlement tables, labels: hepsijet.schemas.ts.
 *
 *   GET  /auth/getToken                                           Basic auth → X-Auth-Token (header and data.token), 60 minutes
 *   POST /rest/delivery/sendDeliveryOrderEnhanced                 book → data.customerDeliveryNo, data.zplBarcodeDTOList (ZPL per parcel)
 *   GET  /rest/delivery/generateZplBarcode/{barcode}/{totalParcel} the labels again → data[] (ZPL per parcel)
 *   POST /rest/delivery/deleteDeliveryOrder/{deliveryNo}           {deleteReason} → delete before HepsiJET took the parcel
 *   POST /deliveryReturn/externalRecallDeliveryOrder/{barcode}     recall after HepsiJET took it, before it is out for delivery
 *   POST /rest/deliveryTransaction/getDeliveryTracking            {deliveries:[{customerDeliveryNo}]} → detailed history (one or many)
 *   POST /rest/delivery/integration/track                         {barcodes:[…]} → main steps (integrationStatus) and tracking URL
 *   GET  /settlement/cities, /settlement/city/{id}/towns, /settlement/town/{id}/districts
 *
 * `/rest` in front of a path is optional (the documents disagree on it; see the contract). Every call but getToken
 * sends `X-Auth-Token`. Order of checks: route (404/405) → fault switches → token (401) → apikey (403) → media type
 * (415) → JSON and types (400, Spring's error body) → the contract's rules ({status: "FAIL", message}) → {status: "OK"}.
 * Every request is recorded in `requests` with its outcome, contract violations and the properties the DTOs do not have.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  DELETE_DELIVERY_ORDER,
  GET_DELIVERY_TRACKING,
  HEPSIJET_CITIES,
  HEPSIJET_CITY_ORDER,
  HEPSIJET_DELETABLE_STATUSES,
  HEPSIJET_DISTRICTS,
  HEPSIJET_EVENTS,
  HEPSIJET_MESSAGES,
  HEPSIJET_PRODUCTS,
  HEPSIJET_RECALLABLE_STATUSES,
  HEPSIJET_TOKEN_LIFETIME_MS,
  HEPSIJET_TOWNS,
  INTEGRATION_TRACK,
  SEND_DELIVERY_ORDER_ENHANCED,
  bind,
  checkSendDeliveryOrderEnhanced,
  desiSize,
  hepsijetZpl,
  hjDateTime,
  hjDotDate,
  hjIsoDate,
  hjPrintDate,
  maskName,
  required,
  springError,
  upperTr,
  type FieldSpec,
  type HepsijetBooking,
  type HepsijetEvent,
  type HepsijetEventName,
  type HepsijetFail,
  type HepsijetLabel,
  type HepsijetMessage,
} from './hepsijet.schemas';
import { DoubleServer, FaultQueue } from '../double-server';

export { HEPSIJET_EVENTS, HEPSIJET_EVENT_NAMES, HEPSIJET_MESSAGES, HEPSIJET_TOWNS, readHepsijetZplBarcode } from './hepsijet.schemas';

export interface HepsijetAccount {
  username: string;
  password: string;
  /** when set, every call must carry the header `apikey` with this value (PDF v2.0); else the header is not checked */
  apiKey?: string;
  /** the company block HepsiJet hands out ("Bu alanlar sabittir") */
  company: { name: string; abbreviationCode: string };
  /** senderAddress.companyAddressId HepsiJet registered for the account */
  senderAddressId: string;
  /** currentXDock.abbreviationCode: the cross-dock tied to that sender address */
  xDockCode: string;
  /** companyExtension.printBarcode: sendDeliveryOrderEnhanced answers the labels (default true) */
  printBarcode?: boolean;
}

/** The test account: company and cross-dock of the developers page's label sample ("TestCompany", "TSTCMPNY_KUSTEPE"); credentials invented. */
export const HEPSIJET_TEST_ACCOUNT: Readonly<Required<Omit<HepsijetAccount, 'apiKey'>>> = {
  username: 'hepsijet-test',
  password: 'Test.1234',
  company: { name: 'TestCompany', abbreviationCode: 'TSTCMPNY' },
  senderAddressId: 'TSTCMPNY_ADR1',
  xDockCode: 'TSTCMPNY_KUSTEPE',
  printBarcode: true,
};

export type HepsijetOperation =
  | 'getToken'
  | 'sendDeliveryOrderEnhanced'
  | 'generateZplBarcode'
  | 'deleteDeliveryOrder'
  | 'externalRecallDeliveryOrder'
  | 'getDeliveryTracking'
  | 'integrationTrack'
  | 'settlementCities'
  | 'settlementTowns'
  | 'settlementDistricts';

export type HepsijetFault =
  /** answer this HTTP status (Spring error body, optional Retry-After), before auth */
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  /** slow: wait `ms`, then handle the request as usual (the operation takes effect after the wait) */
  | { kind: 'delay'; ms: number }
  /** never answers until close() */
  | { kind: 'hang' }
  /** destroys the socket without doing anything */
  | { kind: 'drop' }
  /** performs the operation (e.g. the delivery IS created) and destroys the socket without answering */
  | { kind: 'applyThenDrop' }
  /** performs the operation and holds the answer for `ms` */
  | { kind: 'applyThenHold'; ms: number }
  /** 401 as for an expired token */
  | { kind: 'unauthorized' };

export interface HepsijetDoubleOptions {
  /** default [HEPSIJET_TEST_ACCOUNT] */
  accounts?: HepsijetAccount[];
  /** the double's clock (token expiry, dates); default real time */
  now?: () => Date;
  /** HTTP status of a {status: "FAIL"} refusal: the documents do not say; default 400 (200 to emulate a service that answers 200 with FAIL) */
  failHttpStatus?: number;
  /** loopback port (default: any free one) */
  port?: number;
}

export interface HepsijetRecordedRequest {
  at: Date;
  method: string;
  /** path as sent, without the query */
  path: string;
  operation?: HepsijetOperation;
  /** path parameters (barcode, totalParcel, deliveryNo, id) */
  params: Record<string, string>;
  /** whether the path began with `/rest` */
  restPrefix: boolean;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** parsed JSON body (undefined when empty or not JSON) */
  body: unknown;
  /** username of the account whose credentials or token were used */
  account?: string;
  outcome: 'ok' | 'refused' | 'invalid' | 'unauthorized' | 'forbidden' | 'not-found' | 'method-not-allowed' | 'unsupported-media-type' | 'fault';
  /** HTTP status answered; undefined while hanging or when the connection was dropped */
  status?: number;
  /** the body answered (or, for applyThenDrop, the body that would have been) */
  response?: unknown;
  /** contract violations found (`path: message`), empty when the request was within the contract */
  validationErrors: string[];
  /** properties the DTO does not have (ignored by the service), e.g. `delivery.deliveryContent`, `delivery.length` */
  unknownFields: string[];
  fault?: HepsijetFault['kind'];
}

export interface HepsijetEventRecord {
  event: HepsijetEventName;
  at: Date;
  location: string;
  /** DELIVERED: who took it */
  deliveredPerson?: string;
}

export interface HepsijetDelivery {
  customerDeliveryNo: string;
  /** the service made the number up (customerDeliveryNo was not sent) */
  generatedNo: boolean;
  account: string;
  booking: HepsijetBooking;
  /** the body as bound (unknown properties dropped) */
  request: unknown;
  /** the JSON body as sent */
  rawRequest: unknown;
  events: HepsijetEventRecord[];
  createdAt: Date;
  /** label data of each parcel (without ZPL), as first answered */
  labels: Omit<HepsijetLabel, 'zplBarcode'>[];
}

export interface HepsijetDouble {
  /** 'http://127.0.0.1:<port>' (no path) */
  baseUrl: string;
  requests: HepsijetRecordedRequest[];
  /** by customerDeliveryNo */
  deliveries: Map<string, HepsijetDelivery>;
  /** getToken calls answered 200 */
  logins: number;
  failNext(fault: HepsijetFault, options?: { times?: number; operation?: HepsijetOperation }): void;
  clearFaults(): void;
  /** every token issued so far now answers 401 ("token expired mid-run") */
  expireTokens(): void;
  /** appends a HepsiJet event (any of HEPSIJET_EVENTS but CREATED) */
  advance(customerDeliveryNo: string, event: HepsijetEventName, options?: { at?: Date; location?: string; deliveredPerson?: string }): void;
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------------------------------
// Routing
// --------------------------------------------------------------------------------------------------------------------

interface Route {
  operation: HepsijetOperation;
  methods: string[];
  pattern: RegExp;
  names: string[];
  /** false: `/rest` in front is not served (getToken) */
  restAllowed: boolean;
}

const route = (operation: HepsijetOperation, methods: string[], path: string, restAllowed = true): Route => {
  const names: string[] = [];
  const pattern = new RegExp(`^${path.replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
  return { operation, methods, pattern, names, restAllowed };
};

const ROUTES: Route[] = [
  route('getToken', ['GET'], '/auth/getToken', false),
  route('sendDeliveryOrderEnhanced', ['POST'], '/delivery/sendDeliveryOrderEnhanced'),
  route('generateZplBarcode', ['GET'], '/delivery/generateZplBarcode/{barcode}/{totalParcel}'),
  route('deleteDeliveryOrder', ['POST'], '/delivery/deleteDeliveryOrder/{deliveryNo}'),
  route('externalRecallDeliveryOrder', ['POST', 'GET'], '/deliveryReturn/externalRecallDeliveryOrder/{barcode}'),
  route('getDeliveryTracking', ['POST'], '/deliveryTransaction/getDeliveryTracking'),
  route('integrationTrack', ['POST'], '/delivery/integration/track'),
  route('settlementCities', ['GET'], '/settlement/cities'),
  route('settlementTowns', ['GET'], '/settlement/city/{id}/towns'),
  route('settlementDistricts', ['GET'], '/settlement/town/{id}/districts'),
];

function match(pathname: string): { route: Route; params: Record<string, string>; rest: boolean } | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const rest = /^\/rest(\/|$)/.test(trimmed);
  const path = rest ? trimmed.slice('/rest'.length) : trimmed;
  for (const r of ROUTES) {
    if (rest && !r.restAllowed) continue;
    const m = r.pattern.exec(path);
    if (m) return { route: r, params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])), rest };
  }
  return undefined;
}

/** Operations whose input is a JSON body. */
const BODY_SPECS: Partial<Record<HepsijetOperation, FieldSpec>> = {
  sendDeliveryOrderEnhanced: SEND_DELIVERY_ORDER_ENHANCED,
  deleteDeliveryOrder: DELETE_DELIVERY_ORDER,
  getDeliveryTracking: GET_DELIVERY_TRACKING,
  integrationTrack: INTEGRATION_TRACK,
};
const isJson = (ct: string | undefined) => /^\s*application\/([^;\s]+\+)?json\s*(;|$)/i.test(ct ?? '');

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly outcome: HepsijetRecordedRequest['outcome'],
    readonly headers: Record<string, string> = {},
    readonly validationErrors: string[] = [],
  ) {}
}

interface Issued {
  account: Required<Omit<HepsijetAccount, 'apiKey'>> & { apiKey?: string };
  expiresAt: number;
  revoked: boolean;
}

type Account = Issued['account'];
type Json = Record<string, unknown>;

export async function startHepsijetDouble(options: HepsijetDoubleOptions = {}): Promise<HepsijetDouble> {
  const now = options.now ?? (() => new Date());
  const failStatus = options.failHttpStatus ?? 400;
  const accounts: Account[] = (options.accounts ?? [HEPSIJET_TEST_ACCOUNT]).map((a) => ({ printBarcode: true, ...a }));
  const tokens = new Map<string, Issued>();
  const requests: HepsijetRecordedRequest[] = [];
  const deliveries = new Map<string, HepsijetDelivery>();
  const faults = new FaultQueue<HepsijetFault, HepsijetOperation>();
  let nextGenerated = 10000000001;
  let logins = 0;

  const ok = (body: Json) => new HttpAnswer(200, { status: 'OK', ...body }, 'ok');
  const fail = (m: HepsijetMessage | string, field: string, detailStatus?: string) => {
    const message = typeof m === 'string' ? m : m.message;
    const body: HepsijetFail = detailStatus ? { status: 'FAIL', detailStatus, message } : { status: 'FAIL', message };
    return new HttpAnswer(failStatus, body, 'refused', {}, [`${field}: ${message}`]);
  };
  const invalid = (errors: string[]) => new HttpAnswer(failStatus, { status: 'FAIL', message: errors[0] } satisfies HepsijetFail, 'invalid', {}, errors);
  const spring = (status: number, path: string, outcome: HepsijetRecordedRequest['outcome'], extra: Record<string, string> = {}, errors: string[] = []) =>
    new HttpAnswer(status, springError(now(), status, STATUS_CODES[status] ?? 'Error', path), outcome, extra, errors);

  // ---- auth ---------------------------------------------------------------------------------------------------------

  function login(header: string | undefined): Account | undefined {
    const m = /^Basic\s+(\S+)\s*$/i.exec(header ?? '');
    if (!m) return undefined;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const [user, pass] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    return accounts.find((a) => a.username === user && a.password === pass);
  }

  function tokenAnswer(account: Account): HttpAnswer {
    const token = randomUUID();
    tokens.set(token, { account, expiresAt: now().getTime() + HEPSIJET_TOKEN_LIFETIME_MS, revoked: false });
    const index = accounts.indexOf(account);
    const a = ok({
      data: {
        id: 1000 + index,
        username: account.username,
        firstname: upperTr(account.company.name),
        lastname: 'ENTEGRASYON',
        language: 'tr',
        token,
        department: 'Entegrasyon',
        company: {
          id: 7600000 + index,
          name: account.company.name,
          companyCompanyId: String(7600000 + index),
          companyType: 'CUSTOMER',
          abbreviationCode: account.company.abbreviationCode,
          corporateName: account.company.name,
          companyExtension: { id: 380000 + index, printBarcode: account.printBarcode },
        },
        tenant: { id: 1, rowVersion: 0, name: 'HepsiExpress', abbreviationCode: 'HX' },
        userGroupCode: ['INTEGRATION'],
        authorities: [],
      },
    });
    return new HttpAnswer(200, a.body, 'ok', { 'x-auth-token': token });
  }

  function authenticate(header: string | string[] | undefined, path: string): Account | HttpAnswer {
    const token = typeof header === 'string' ? header.trim() : undefined;
    const issued = token ? tokens.get(token) : undefined;
    if (!token) return spring(401, path, 'unauthorized', {}, ['X-Auth-Token: missing']);
    if (!issued) return spring(401, path, 'unauthorized', {}, ['X-Auth-Token: unknown token']);
    if (issued.revoked || now().getTime() >= issued.expiresAt) return spring(401, path, 'unauthorized', {}, ['X-Auth-Token: expired']);
    return issued.account;
  }

  // ---- deliveries ---------------------------------------------------------------------------------------------------

  const owned = (account: Account, no: string) => {
    const d = deliveries.get(no.trim());
    return d && d.account === account.username ? d : undefined;
  };
  const last = (d: HepsijetDelivery) => d.events[d.events.length - 1];
  const lastEvent = (d: HepsijetDelivery) => HEPSIJET_EVENTS[last(d).event];
  const accountOf = (d: HepsijetDelivery) => accounts.find((a) => a.username === d.account)!;
  const receiverTown = (d: HepsijetDelivery) => upperTr(d.booking.recipientAddress.knownTown?.name ?? d.booking.recipientAddress.town);
  const arrivalBranch = (d: HepsijetDelivery) => `${upperTr(d.booking.recipientAddress.knownTown?.xDock ?? receiverTown(d))} Dağıtım Merkezi`;
  const transferName = (d: HepsijetDelivery) => `${d.booking.recipientAddress.city.name} TM`;

  function locationName(d: HepsijetDelivery, event: HepsijetEventName): string {
    switch (HEPSIJET_EVENTS[event].location) {
      case 'sender':
        return accountOf(d).company.name;
      case 'pickup':
        return `${accountOf(d).xDockCode} Transfer Merkezi`;
      case 'transfer':
        return transferName(d);
      case 'arrival':
        return arrivalBranch(d);
      case 'vehicle':
        return 'Dağıtım Aracında';
      case 'recipient':
        return 'Alıcıda';
    }
  }

  function addEvent(d: HepsijetDelivery, event: HepsijetEventName, opts: { at?: Date; location?: string; deliveredPerson?: string } = {}): void {
    d.events.push({
      event,
      at: opts.at ?? now(),
      location: opts.location ?? locationName(d, event),
      ...(event === 'DELIVERED' && { deliveredPerson: opts.deliveredPerson ?? d.booking.recipientPerson }),
    });
  }

  function labelData(d: HepsijetDelivery, totalParcels: number): Omit<HepsijetLabel, 'zplBarcode'>[] {
    const b = d.booking;
    const a = accountOf(d);
    const town = receiverTown(d);
    const xDock = upperTr(b.recipientAddress.knownTown?.xDock ?? town);
    const original = b.deliveryDateOriginal ? new Date(`${b.deliveryDateOriginal.slice(0, 10)}T12:00:00+03:00`) : d.createdAt;
    return Array.from({ length: totalParcels }, (_, i) => ({
      sender: a.company.name,
      receiverCity: b.recipientAddress.city.name,
      receiverTown: town,
      receiverDistrict: upperTr(b.recipientAddress.district ?? ''),
      receiverXDock: xDock,
      transferXdockName: transferName(d),
      productName: HEPSIJET_PRODUCTS[b.productCode].productName,
      deliveryDateOriginal: hjDotDate(original),
      deliveryDatePromised: hjDotDate(new Date(original.getTime() + 2 * 24 * 3600 * 1000)),
      distributionZoneName: `${xDock}-${town}01-STD`,
      receiver: b.recipientPerson,
      receiverAddress: b.recipientAddress.addressLine1,
      parcelNo: i + 1,
      totalParcels,
      senderXDock: a.xDockCode,
      barcodePrintDate: hjPrintDate(now()),
      desiSize: desiSize(b.desi),
    }));
  }

  const withZpl = (d: HepsijetDelivery, labels: Omit<HepsijetLabel, 'zplBarcode'>[]): HepsijetLabel[] =>
    labels.map((l) => ({ ...l, zplBarcode: hepsijetZpl(l, d.customerDeliveryNo) }));

  function book(account: Account, raw: unknown, bound: Json): HttpAnswer {
    const checked = checkSendDeliveryOrderEnhanced(bound);
    const errors = [...checked.errors];
    const b = checked.booking;
    if (b && !b.senderAddress.companyAddressId) errors.push(required('delivery.senderAddress.companyAddressId'));
    if (errors.length || !b) return invalid(errors);
    if (b.company.abbreviationCode !== account.company.abbreviationCode || b.company.name !== account.company.name)
      return fail(HEPSIJET_MESSAGES.companyMismatch, 'company');
    if (b.senderAddress.companyAddressId !== account.senderAddressId)
      return fail(HEPSIJET_MESSAGES.senderAddressMismatch, 'delivery.senderAddress.companyAddressId');
    if (b.currentXDock !== account.xDockCode) return fail(HEPSIJET_MESSAGES.xDockMismatch, 'currentXDock.abbreviationCode');
    if (b.customerDeliveryNo && deliveries.has(b.customerDeliveryNo))
      return fail(HEPSIJET_MESSAGES.barcodeExists, 'delivery.customerDeliveryNo', 'BARCODE_EXIST');

    let no = b.customerDeliveryNo;
    const generatedNo = !no;
    while (!no || deliveries.has(no)) no = `HJ${nextGenerated++}`;
    const d: HepsijetDelivery = {
      customerDeliveryNo: no,
      generatedNo,
      account: account.username,
      booking: b,
      request: bound,
      rawRequest: raw,
      events: [],
      createdAt: now(),
      labels: [],
    };
    addEvent(d, 'CREATED');
    d.labels = labelData(d, b.totalParcels);
    deliveries.set(no, d);
    return ok({ data: account.printBarcode ? { customerDeliveryNo: no, zplBarcodeDTOList: withZpl(d, d.labels) } : { customerDeliveryNo: no } });
  }

  function label(account: Account, params: Record<string, string>): HttpAnswer {
    const d = owned(account, params.barcode);
    if (!d) return fail(HEPSIJET_MESSAGES.deliveryNotFound, 'barcode');
    const total = /^\d+$/.test(params.totalParcel) ? Number(params.totalParcel) : NaN;
    if (!(total >= 1)) return invalid([`totalParcel geçersiz: ${params.totalParcel}`]);
    if (lastEvent(d).deliveryStatus === 'DELETED') return fail(HEPSIJET_MESSAGES.statusNotSuitable, 'barcode');
    return ok({ data: withZpl(d, labelData(d, total)) });
  }

  function remove(account: Account, params: Record<string, string>, body: Json): HttpAnswer {
    if (typeof body.deleteReason !== 'string' || body.deleteReason.trim() === '') return invalid([required('deleteReason')]);
    const d = owned(account, params.deliveryNo);
    if (!d) return fail(HEPSIJET_MESSAGES.deliveryNotFound, 'deliveryNo');
    if (!HEPSIJET_DELETABLE_STATUSES.includes(lastEvent(d).deliveryStatus)) return fail(HEPSIJET_MESSAGES.statusNotSuitable, 'deliveryNo');
    addEvent(d, 'DELETED');
    return ok({ message: HEPSIJET_MESSAGES.deleted.message });
  }

  function recall(account: Account, params: Record<string, string>): HttpAnswer {
    const d = owned(account, params.barcode);
    if (!d) return fail(HEPSIJET_MESSAGES.deliveryNotFound, 'barcode');
    if (d.booking.deliveryType === 'RETURNED') return fail(HEPSIJET_MESSAGES.recallNotForType, 'barcode');
    if (!HEPSIJET_RECALLABLE_STATUSES.includes(lastEvent(d).deliveryStatus)) return fail(HEPSIJET_MESSAGES.statusNotSuitable, 'barcode');
    addEvent(d, 'RECALLED');
    return ok({ message: HEPSIJET_MESSAGES.recallStarted.message });
  }

  function trackingEntry(d: HepsijetDelivery): Json {
    const a = accountOf(d);
    const index = accounts.indexOf(a);
    const l = last(d);
    const e = HEPSIJET_EVENTS[l.event];
    const masked = maskName(`${d.booking.receiver.firstName} ${d.booking.receiver.lastName}`);
    const text = (name: HepsijetEventName, rec: HepsijetEventRecord) =>
      HEPSIJET_EVENTS[name].transaction.replace('{person}', maskName(rec.deliveredPerson ?? ''));
    const delivered = d.events.find((x) => x.event === 'DELIVERED');
    return {
      arrivalBranch: arrivalBranch(d),
      customerDeliveryNo: d.customerDeliveryNo,
      barcode: d.customerDeliveryNo,
      deliveryType: d.booking.deliveryType,
      currentLocation: l.location,
      lastTransaction: text(l.event, l),
      receiver: masked,
      sender: a.company.name,
      recipientName: maskName(d.booking.recipientPerson),
      deliveryDateCurrent: hjIsoDate(d.createdAt),
      deliverySlotCurrent: Number(d.booking.deliverySlotOriginal),
      ...(delivered && { deliveredPerson: maskName(delivered.deliveredPerson ?? ''), deliveredDate: hjDateTime(delivered.at) }),
      deliveryStatus: e.deliveryStatus,
      operationStatus: e.operationStatus,
      transactionType: e.transactionType,
      company: {
        id: 7600000 + index,
        rowVersion: 0,
        name: a.company.name,
        companyCompanyId: String(7600000 + index),
        companyType: 'CUSTOMER',
        abbreviationCode: a.company.abbreviationCode,
        corporateName: a.company.name,
      },
      transactions: d.events.map((rec) => {
        const ev: HepsijetEvent = HEPSIJET_EVENTS[rec.event];
        return {
          deliveryStatus: ev.deliveryStatus,
          operationStatus: ev.operationStatus,
          transactionType: ev.transactionType,
          transactionDateTime: hjDateTime(rec.at),
          location: rec.location,
          ...(ev.nonDeliveryReason && { nonDeliveryReason: ev.nonDeliveryReason }),
          transaction: text(rec.event, rec),
        };
      }),
    };
  }

  function tracking(account: Account, body: Json): HttpAnswer {
    const list = Array.isArray(body.deliveries) ? (body.deliveries as Json[]) : [];
    const numbers = list.map((x) => (x && typeof x.customerDeliveryNo === 'string' ? x.customerDeliveryNo.trim() : '')).filter(Boolean);
    if (numbers.length === 0) return invalid([required('deliveries[].customerDeliveryNo')]);
    const found = numbers.map((n) => owned(account, n)).filter((d): d is HepsijetDelivery => !!d);
    if (found.length === 0) return fail(HEPSIJET_MESSAGES.deliveryNotFound, 'deliveries[].customerDeliveryNo');
    return ok({ data: found.map(trackingEntry) });
  }

  function integrationTrack(account: Account, body: Json): HttpAnswer {
    const barcodes = Array.isArray(body.barcodes) ? (body.barcodes as unknown[]).filter((b): b is string => typeof b === 'string').map((b) => b.trim()) : [];
    const day = (v: unknown, end: boolean) =>
      typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T${end ? '23:59:59' : '00:00:00'}+03:00`) : undefined;
    const from = day(body.dateStart, false);
    const to = day(body.dateEnd, true);
    if (barcodes.length === 0 && (!from || !to)) return invalid([required('barcodes')]);
    const inRange = (at: Date) => (!from || at >= from) && (!to || at <= to);
    const selected =
      barcodes.length > 0
        ? barcodes.map((b) => owned(account, b)).filter((d): d is HepsijetDelivery => !!d)
        : [...deliveries.values()].filter((d) => d.account === account.username && d.events.some((e) => inRange(e.at)));
    return ok({
      data: selected.map((d) => ({
        barcode: d.customerDeliveryNo,
        trackingUrl: `https://hepsijet.com/gonderi-takibi/${d.customerDeliveryNo}`,
        details: d.events
          .filter((rec) => 'integrationStatus' in HEPSIJET_EVENTS[rec.event] && inRange(rec.at))
          .map((rec) => {
            const ev: HepsijetEvent = HEPSIJET_EVENTS[rec.event];
            return {
              transactionLocation: rec.location,
              transactionDate: hjDateTime(rec.at),
              integrationStatus: ev.integrationStatus,
              ...(ev.nonDeliveryReason && { nonDeliveryReason: ev.nonDeliveryReason }),
              ...(rec.deliveredPerson && { deliveredPerson: rec.deliveredPerson }),
            };
          }),
      })),
    });
  }

  function settlement(operation: HepsijetOperation, params: Record<string, string>): HttpAnswer {
    if (operation === 'settlementCities')
      return ok({
        data: Object.entries(HEPSIJET_CITIES)
          .map(([id, name]) => ({ id: Number(id), name, order: HEPSIJET_CITY_ORDER[Number(id)] ?? 3 + Number(id) }))
          .sort((a, b) => a.order - b.order),
      });
    if (operation === 'settlementTowns')
      return ok({ data: HEPSIJET_TOWNS.filter((t) => String(t.cityId) === params.id).map((t) => ({ id: t.id, name: t.name })) });
    return ok({ data: HEPSIJET_DISTRICTS.filter((d) => String(d.townId) === params.id).map((d) => ({ id: d.id, name: d.name, xdock: d.xdock })) });
  }

  // ---- one request --------------------------------------------------------------------------------------------------

  function answer(req: IncomingMessage, r: Route, params: Record<string, string>, url: URL, raw: string, rec: HepsijetRecordedRequest): HttpAnswer {
    let account: Account;
    if (r.operation === 'getToken') {
      const a = login(req.headers.authorization);
      if (!a)
        return new HttpAnswer(401, { status: 'FAIL', message: HEPSIJET_MESSAGES.loginFailed.message } satisfies HepsijetFail, 'unauthorized', {}, [
          `Authorization: ${HEPSIJET_MESSAGES.loginFailed.message}`,
        ]);
      account = a;
    } else {
      const a = authenticate(req.headers['x-auth-token'], url.pathname);
      if (a instanceof HttpAnswer) return a;
      account = a;
    }
    rec.account = account.username;
    if (account.apiKey !== undefined && req.headers.apikey !== account.apiKey)
      return new HttpAnswer(403, { status: 'FAIL', message: HEPSIJET_MESSAGES.invalidApiKey.message } satisfies HepsijetFail, 'forbidden', {}, [
        `apikey: ${HEPSIJET_MESSAGES.invalidApiKey.message}`,
      ]);
    if (r.operation === 'getToken') return tokenAnswer(account);

    let body: Json = {};
    const spec = BODY_SPECS[r.operation];
    if (spec && rec.method === 'POST') {
      if (raw.trim() === '') {
        return spring(400, url.pathname, 'invalid', {}, ['(body): Required request body is missing']);
      } else if (!isJson(req.headers['content-type'])) {
        return spring(415, url.pathname, 'unsupported-media-type', {}, [`Content-Type: ${req.headers['content-type'] ?? '(none)'} is not application/json`]);
      } else {
        if (rec.body === undefined) return spring(400, url.pathname, 'invalid', {}, ['(body): JSON parse error']);
        const b = bind(spec, rec.body);
        rec.unknownFields = b.unknownFields;
        if (b.typeErrors.length) return spring(400, url.pathname, 'invalid', {}, b.typeErrors);
        body = (b.value ?? {}) as Json;
      }
    }

    switch (r.operation) {
      case 'sendDeliveryOrderEnhanced':
        return book(account, rec.body, body);
      case 'generateZplBarcode':
        return label(account, params);
      case 'deleteDeliveryOrder':
        return remove(account, params, body);
      case 'externalRecallDeliveryOrder':
        return recall(account, params);
      case 'getDeliveryTracking':
        return tracking(account, body);
      case 'integrationTrack':
        return integrationTrack(account, body);
      default:
        return settlement(r.operation, params);
    }
  }

  function send(res: ServerResponse, a: HttpAnswer, rec: HepsijetRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.validationErrors.push(...a.validationErrors);
    if (res.destroyed) return;
    res.writeHead(a.status, { 'content-type': 'application/json;charset=UTF-8', ...a.headers });
    res.end(JSON.stringify(a.body));
    if (rec.operation === 'getToken' && a.status === 200) logins++;
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      const m = match(url.pathname);
      let body: unknown;
      try {
        body = raw.trim() ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const rec: HepsijetRecordedRequest = {
        at: now(),
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        operation: m?.route.operation,
        params: m?.params ?? {},
        restPrefix: m?.rest ?? /^\/rest(\/|$)/.test(url.pathname),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        rawBody: raw,
        body,
        outcome: 'ok',
        validationErrors: [],
        unknownFields: [],
      };
      requests.push(rec);

      const handle = (): HttpAnswer => {
        if (!m) return spring(404, url.pathname, 'not-found');
        if (!m.route.methods.includes(rec.method)) return spring(405, url.pathname, 'method-not-allowed', { allow: m.route.methods.join(', ') });
        try {
          return answer(req, m.route, m.params, url, raw, rec);
        } catch (err) {
          return new HttpAnswer(500, { status: 'FAIL', message: `test double failure: ${(err as Error).message}` }, 'fault');
        }
      };

      const fault = faults.take(m?.route.operation);
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
            spring(fault.status, url.pathname, 'fault', fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) }),
            rec,
          );
        case 'unauthorized':
          return send(res, spring(401, url.pathname, 'fault'), rec);
        case 'delay': {
          double.later(fault.ms, () => send(res, handle(), rec));
          return;
        }
        default:
          break;
      }

      const a = handle();
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
    advance(customerDeliveryNo, event, opts = {}) {
      const d = deliveries.get(customerDeliveryNo);
      if (!d) throw new Error(`hepsijet double: no delivery ${customerDeliveryNo}`);
      if (!(event in HEPSIJET_EVENTS) || event === 'CREATED') throw new Error(`hepsijet double: ${event} is not an event advance() can add`);
      addEvent(d, event, opts);
    },
    close: () => double.close(),
  };
}
