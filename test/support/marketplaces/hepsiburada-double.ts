/**
 * A contract-faithful test double of Hepsiburada's order integration ("Sipariş Entegrasyonu", the OMS external API on
 * oms-external[-sit].hepsiburada.com), for the `hepsiburada` order source of issue #43. Contract and every choice where
 * the documents are silent: HEPSIBURADA-CONTRACT.md next to this file. Tables, dates, labels: hepsiburada.schemas.ts.
 *
 *   GET  /orders/merchantid/{m}?offset&limit[&begindate&enddate]                ödemesi tamamlanmış (Open) lines → {items, …, totalCount}
 *   GET  /orders/merchantid/{m}/cancelled?offset&limit&begindate&enddate        cancelled lines
 *   GET  /orders/merchantid/{m}/ordernumber/{orderNumber}                       one order with all its lines
 *   GET  /lineitems/merchantid/{m}/packageablewith/lineitemid/{id}              lines that may share a package
 *   POST /packages/merchantid/{m}                                               {lineItemRequests, cargoCompany, carrier, …} → 201 {barcode, packageNumber}
 *   GET  /packages/merchantid/{m}?limit&Offset[&timespan|&begindate&enddate]     packed (ready to ship) packages → [package]
 *   GET  /packages/merchantid/{m}/packagenumber/{pn}                            cargo info of one package
 *   GET  /packages/merchantid/{m}/packagenumber/{pn}/labels?format=ZPL           common barcode (Hepsiburada-contracted carriers)
 *   POST /packages/merchantid/{m}/packagenumber/{pn}/split|unpack               split / unpack a package
 *   POST /packages/merchantid/{m}/packagenumber/{pn}/intransit|deliver|undeliver own-carrier ("Mağaza Hesabı", MP) status write-backs
 *   GET  …/packagenumber/{pn}/changablecargocompanies, PUT …/changecargocompany  change a packed package's carrier
 *   GET  /delivery/changeablecargocompanies/merchantid/{m}/orderlineid/{id}, PUT /lineitems/merchantid/{m}/orderlineid/{id}/cargocompany
 *   POST /lineitems/merchantid/{m}/id/{lineId}/cancelbymerchant                 {reasonId} cancel an unpacked line
 *   PUT  /packages/merchantid/{m}/packagenumber/{pn}/invoice                    invoice link
 *   GET  /packages/merchantid/{m}/shipped|delivered|undelivered|status/unpacked|missing-invoice
 *
 * Order of checks: route (404/405) → outage (503) → fault switches → Basic auth merchantId:serviceKey + User-Agent (401)
 * → path merchantId = the authenticated one (403) → rate limit (429, X-RateLimit-* headers) → query/body (400) → the
 * rules (400/404) → 200/201/204. Every request is recorded in `requests`; write-backs also in `writeBacks`.
 * The push model (Hepsiburada calls the merchant's base URL, Basic auth, unsigned): `push(event, key)`.
 */
import { STATUS_CODES, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  HB_CANCEL_REASON_NOT_SUPPLIED,
  HB_CARGO_COMPANIES,
  HB_DATE_WINDOW_MS,
  HB_DEFAULT_TIMESPAN_HOURS,
  HB_HAND_DELIVERY_CARRIER,
  HB_MESSAGES,
  HB_ORDERS_MAX_LIMIT,
  HB_OWN_CARRIER_CARGO_COMPANY,
  HB_PACKAGES_MAX_LIMIT,
  HB_RATE_LIMIT,
  HB_SAMPLE_ADDRESS,
  HB_SAMPLE_LINES,
  HB_STATUS_DATE_MAX_AGE_MS,
  HB_STATUS_LISTS_MAX_LIMIT,
  ean13,
  hbCargoByShortName,
  hbDateTime,
  hbGuid,
  hbLabelZpl,
  hbUtc,
  money,
  parseHbBodyDate,
  parseHbQueryDate,
  type HbAddress,
  type HbCargoCompany,
  type HbInvoice,
  type HbLineStatus,
  type HbPackageStatus,
  type HbSampleLine,
} from './hepsiburada.schemas';
import { DoubleServer, FaultQueue } from '../double-server';

export { HB_CARGO_COMPANIES, HB_MESSAGES, HEPSIBURADA_HOSTS, hbQueryDate, readHbLabelBarcode } from './hepsiburada.schemas';

// ----------------------------------------------------------------------------------------------------------------------
// Public types
// ----------------------------------------------------------------------------------------------------------------------

export interface HepsiburadaAccount {
  /** "Mağaza ID", a GUID: the Basic username and the `{merchantid}` of every path */
  merchantId: string;
  /** "Servis Anahtarı": 12 alphanumerics, the Basic password */
  serviceKey: string;
  /** the integrator's developer username ("eskiden basic auth'ta kullanılan username"), sent as User-Agent */
  userAgent: string;
  /** which portal issued it; default: the double's environment */
  environment?: 'sit' | 'production';
  /** the store's name (labels) */
  name?: string;
}

/** merchantId: the pages' example GUID; the service key and user agent are invented (a SIT account). */
export const HEPSIBURADA_TEST_ACCOUNT: Readonly<Required<HepsiburadaAccount>> = {
  merchantId: 'b2910839-83b9-4d45-adb6-86bad457edcb',
  serviceKey: 'Tst4Srv9Key2',
  userAgent: 'consignflow_dev',
  environment: 'sit',
  name: 'Consignflow Test Mağazası',
};

export type HepsiburadaOperation =
  | 'listOrders'
  | 'listCancelled'
  | 'orderDetail'
  | 'packageableWith'
  | 'createPackage'
  | 'listPackages'
  | 'packageCargo'
  | 'labels'
  | 'split'
  | 'unpack'
  | 'intransit'
  | 'deliver'
  | 'undeliver'
  | 'packageChangeableCargo'
  | 'changePackageCargo'
  | 'lineChangeableCargo'
  | 'changeLineCargo'
  | 'cancelByMerchant'
  | 'invoice'
  | 'listShipped'
  | 'listDelivered'
  | 'listUndelivered'
  | 'listUnpacked'
  | 'listMissingInvoice';

export type HepsiburadaFault =
  /** answer this status before auth ({message}); 429 gets X-RateLimit-* headers */
  | { kind: 'status'; status: number }
  /** handle normally after `ms` */
  | { kind: 'delay'; ms: number }
  /** never answer until close() */
  | { kind: 'hang' }
  /** destroy the socket, nothing done */
  | { kind: 'drop' }
  /** do the operation, then destroy the socket */
  | { kind: 'applyThenDrop' }
  /** do the operation, answer `status` (default 500) */
  | { kind: 'applyThenStatus'; status?: number };

export interface HepsiburadaRecordedRequest {
  at: Date;
  method: string;
  path: string;
  operation?: HepsiburadaOperation;
  query: Record<string, string>;
  /** as sent, with the Authorization value replaced by `Basic <merchantId>:***` */
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  /** the authenticated merchant */
  merchantId?: string;
  outcome: 'ok' | 'refused' | 'invalid' | 'unauthorized' | 'forbidden' | 'rate-limited' | 'not-found' | 'method-not-allowed' | 'outage' | 'fault';
  status?: number;
  response?: unknown;
  lostResponse?: unknown;
  fault?: HepsiburadaFault['kind'];
  validationErrors: string[];
}

export interface HbLine {
  id: string;
  orderNumber: string;
  orderId: string;
  merchantId: string;
  sku: string;
  merchantSku: string;
  name: string;
  quantity: number;
  /** not packed, not cancelled */
  openQuantity: number;
  cancelledQuantity: number;
  unitPrice: number;
  vatRate: number;
  productBarcode: string;
  /** cargo company short name assigned at checkout (or changed) */
  cargoCompany: string;
  status: HbLineStatus;
  /** when it entered the "ödemesi tamamlanmış" list (begindate/enddate of the orders list filter on this) */
  addedAt: Date;
  lastStatusUpdateDate: Date;
  dueDate: Date;
  creationReason: string;
}

export interface HbOrder {
  orderNumber: string;
  orderId: string;
  merchantId: string;
  orderDate: Date;
  customer: { customerId: string; name: string };
  shippingAddress: HbAddress;
  invoice: HbInvoice;
  lines: HbLine[];
  /** an address change demand in progress: packaging refused ("Order has an ongoing change address demand") */
  addressChangePending: boolean;
  /** HB otomatik paketleme: packaged by the double once now() passes this */
  autoPackageAt?: Date;
}

export interface HbPackageLine {
  lineId: string;
  quantity: number;
}

export interface HbPackage {
  packageNumber: string;
  id: string;
  merchantId: string;
  barcode: string;
  status: HbPackageStatus;
  lines: HbPackageLine[];
  /** Hepsiburada cargo company short name; MP = the merchant's own contract ("Mağaza Hesabı") */
  cargoCompany: string;
  /** MP packages: the merchant's carrier short name, or ET (hand delivery) */
  carrier?: string;
  deci: number;
  parcelQuantity: number;
  warehouse?: { shippingAddressLabel?: string; shippingModel?: string };
  packedAt: Date;
  packedBy: 'merchant' | 'hepsiburada';
  shippedAt?: Date;
  trackingNumber?: string;
  trackingUrl?: string;
  trackingPhoneNumber?: string;
  estimatedArrivalDate?: Date;
  deliveredAt?: Date;
  receivedBy?: string;
  undeliveredAt?: Date;
  undeliveredReason?: string;
  unpackedAt?: Date;
  /** packages made by splitting this one */
  splitInto?: string[];
  splitFrom?: string;
  invoice?: Record<string, unknown>;
}

export interface HbCancellation {
  lineItemId: string;
  orderNumber: string;
  merchantId: string;
  sku: string;
  merchantSku: string;
  quantity: number;
  cancelDate: Date;
  cancelledBy: string;
  cancelReasonCode: string;
  /** the line was in a package when cancelled (the package was unpacked) */
  isUnpackedLine: boolean;
}

/** What the merchant sent back (tests assert these arrived). */
export interface HbWriteBack {
  at: Date;
  operation: HepsiburadaOperation;
  merchantId: string;
  packageNumber?: string;
  lineId?: string;
  body: unknown;
}

export type HbPushEvent = 'createOrder' | 'createPackages' | 'orderCancel' | 'unpack' | 'intransit' | 'deliver' | 'undeliver' | 'changeShippingAddress';

export interface HbPushTarget {
  /** the merchant's base URL ("{merchant_api_baseUrl}"), e.g. http://127.0.0.1:3000/hooks/hepsiburada/src_1 */
  url: string;
  /** the Basic credentials the merchant gave Hepsiburada by ticket */
  username: string;
  password: string;
}

export interface HbPush {
  at: Date;
  event: HbPushEvent;
  method: 'POST' | 'PUT';
  url: string;
  body: unknown;
  /** undefined when the connection failed */
  status?: number;
  responseBody?: string;
  /** 200, 201 or 204 ("Sürecin başarılı sayılabilmesi adına 200,201 veya 204") */
  delivered: boolean;
  error?: string;
}

export interface HepsiburadaDoubleOptions {
  /** default [HEPSIBURADA_TEST_ACCOUNT] */
  accounts?: HepsiburadaAccount[];
  /** which host the double is (SIT keys are refused by production and vice versa); default 'sit' */
  environment?: 'sit' | 'production';
  /** the double's clock; default real time */
  now?: () => Date;
  /** documented: 1000 requests a second; per merchant (scope not in the contract) */
  rateLimit?: { limit: number; windowMs: number };
  /** where push() delivers by default */
  push?: HbPushTarget;
  /** HB otomatik paketleme: orders placed are packaged this long after placement (documented: within 15 minutes); default off */
  autoPackageAfterMs?: number;
  port?: number;
}

export interface PlaceOrderInput {
  orderNumber?: string;
  merchantId?: string;
  at?: Date;
  customer?: { customerId?: string; name?: string };
  shippingAddress?: Partial<HbAddress>;
  invoice?: Partial<Omit<HbInvoice, 'address'>> & { address?: Partial<HbAddress> };
  lines?: HbSampleLine[];
  /** default carrier short name for lines without one; default HX */
  cargoCompany?: string;
  /** dispatch time in days (dueDate = order date + this); default 2 */
  dispatchTime?: number;
}

export interface HepsiburadaDouble {
  baseUrl: string;
  requests: HepsiburadaRecordedRequest[];
  orders: Map<string, HbOrder>;
  packages: Map<string, HbPackage>;
  cancellations: HbCancellation[];
  writeBacks: HbWriteBack[];
  pushes: HbPush[];
  placeOrder(input?: PlaceOrderInput): HbOrder;
  line(lineId: string): HbLine;
  /** the buyer / customer service changes the delivery address; `pending` leaves a change demand open (packaging refused) */
  changeAddress(orderNumber: string, address: Partial<HbAddress>, options?: { pending?: boolean }): HbOrder;
  completeAddressChange(orderNumber: string): HbOrder;
  /** Hepsiburada packages lines itself (HB otomatik paketleme / panel) */
  packLines(lines: { lineId: string; quantity?: number }[], options?: { cargoCompany?: string; carrier?: string; deci?: number }): HbPackage;
  /** splits a packed package: each group becomes a new package; the old one is Unpacked */
  splitPackage(packageNumber: string, groups: { lineId: string; quantity: number }[][]): HbPackage[];
  unpackPackage(packageNumber: string): HbPackage;
  /** cancels (part of) a line: by the customer, customer service or fraud; a packed line's package is unpacked */
  cancelLine(lineId: string, options?: { quantity?: number; by?: string; reasonCode?: string; at?: Date }): HbCancellation;
  /** moves a package on as Hepsiburada's carrier reports it (or for tests of an MP package) */
  advance(
    packageNumber: string,
    status: 'InTransit' | 'Delivered' | 'Undelivered',
    options?: { at?: Date; trackingNumber?: string; receivedBy?: string; reason?: string },
  ): HbPackage;
  /** Hepsiburada calls the merchant's URL for an event (key: orderNumber, packageNumber or lineId as the event needs) */
  push(event: HbPushEvent, key: string, target?: Partial<HbPushTarget> & { timeoutMs?: number }): Promise<HbPush>;
  /** what push() would send */
  pushBody(event: HbPushEvent, key: string): { method: 'POST' | 'PUT'; path: string; body: unknown };
  /** pushes not delivered, retried ("verilerin yeniden iletimi sağlanır") */
  redeliverFailedPushes(target?: Partial<HbPushTarget>): Promise<HbPush[]>;
  /** applies automatic packaging due by now() */
  tick(): void;
  failNext(fault: HepsiburadaFault, options?: { times?: number; operation?: HepsiburadaOperation }): void;
  clearFaults(): void;
  /** every request answers 503 until set to false */
  setOutage(on: boolean): void;
  readonly outage: boolean;
  close(): Promise<void>;
}

// ----------------------------------------------------------------------------------------------------------------------
// Routing
// ----------------------------------------------------------------------------------------------------------------------

type Method = 'GET' | 'POST' | 'PUT';
interface Route {
  operation: HepsiburadaOperation;
  method: Method;
  pattern: RegExp;
}
const M = '([^/]+)';
const ROUTES: Route[] = [
  { operation: 'listOrders', method: 'GET', pattern: new RegExp(`^/orders/merchantid/${M}$`) },
  { operation: 'listCancelled', method: 'GET', pattern: new RegExp(`^/orders/merchantid/${M}/cancelled$`) },
  { operation: 'orderDetail', method: 'GET', pattern: new RegExp(`^/orders/merchantid/${M}/ordernumber/${M}$`) },
  { operation: 'packageableWith', method: 'GET', pattern: new RegExp(`^/lineitems/merchantid/${M}/packageablewith/lineitemid/${M}$`) },
  { operation: 'createPackage', method: 'POST', pattern: new RegExp(`^/packages/merchantid/${M}$`) },
  { operation: 'listPackages', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}$`) },
  { operation: 'packageCargo', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}$`) },
  { operation: 'labels', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/labels$`) },
  { operation: 'split', method: 'POST', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/split$`) },
  { operation: 'unpack', method: 'POST', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/unpack$`) },
  { operation: 'intransit', method: 'POST', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/intransit$`) },
  { operation: 'deliver', method: 'POST', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/deliver$`) },
  { operation: 'undeliver', method: 'POST', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/undeliver$`) },
  { operation: 'packageChangeableCargo', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/changablecargocompanies$`) },
  { operation: 'changePackageCargo', method: 'PUT', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/changecargocompany$`) },
  { operation: 'invoice', method: 'PUT', pattern: new RegExp(`^/packages/merchantid/${M}/packagenumber/${M}/invoice$`) },
  { operation: 'lineChangeableCargo', method: 'GET', pattern: new RegExp(`^/delivery/changeablecargocompanies/merchantid/${M}/orderlineid/${M}$`) },
  { operation: 'changeLineCargo', method: 'PUT', pattern: new RegExp(`^/lineitems/merchantid/${M}/orderlineid/${M}/cargocompany$`) },
  { operation: 'cancelByMerchant', method: 'POST', pattern: new RegExp(`^/lineitems/merchantid/${M}/id/${M}/cancelbymerchant$`) },
  { operation: 'listShipped', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/shipped$`) },
  { operation: 'listDelivered', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/delivered$`) },
  { operation: 'listUndelivered', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/undelivered$`) },
  { operation: 'listUnpacked', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/status/unpacked$`) },
  { operation: 'listMissingInvoice', method: 'GET', pattern: new RegExp(`^/packages/merchantid/${M}/missing-invoice$`) },
];

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly outcome: HepsiburadaRecordedRequest['outcome'],
    readonly headers: Record<string, string> = {},
    readonly validationErrors: string[] = [],
  ) {}
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

// ----------------------------------------------------------------------------------------------------------------------
// The double
// ----------------------------------------------------------------------------------------------------------------------

export async function startHepsiburadaDouble(options: HepsiburadaDoubleOptions = {}): Promise<HepsiburadaDouble> {
  const now = options.now ?? (() => new Date());
  const environment = options.environment ?? 'sit';
  const accounts = options.accounts ?? [HEPSIBURADA_TEST_ACCOUNT];
  const rateLimit = options.rateLimit ?? HB_RATE_LIMIT;
  const requests: HepsiburadaRecordedRequest[] = [];
  const orders = new Map<string, HbOrder>();
  const packages = new Map<string, HbPackage>();
  const lines = new Map<string, HbLine>();
  const cancellations: HbCancellation[] = [];
  const writeBacks: HbWriteBack[] = [];
  const pushes: HbPush[] = [];
  const retried = new Set<HbPush>();
  const windows = new Map<string, { start: number; count: number }>();
  const faults = new FaultQueue<HepsiburadaFault, HepsiburadaOperation>();
  let outage = false;
  let nextOrder = 4100000001;
  let nextLine = 1;
  let nextPackage = 13105889;
  let nextBarcode = 622013105489;
  let nextTracking = 176162533695;

  const defaultMerchant = accounts[0].merchantId;

  // ---- answers ----------------------------------------------------------------------------------------------------

  const ok = (body: unknown, status = 200) => new HttpAnswer(status, body, 'ok');
  const bad = (message: string, outcome: 'refused' | 'invalid' = 'invalid', field = '') =>
    new HttpAnswer(400, { message }, outcome, {}, [`${field || 'request'}: ${message}`]);
  const notFound = (message: string, field: string) => new HttpAnswer(404, { message }, 'refused', {}, [`${field}: ${message}`]);

  // ---- model helpers -------------------------------------------------------------------------------------------------

  function findLine(id: string): HbLine | undefined {
    return lines.get(id) ?? [...lines.values()].find((l) => l.id.toLowerCase() === id.toLowerCase());
  }
  const orderOf = (l: HbLine) => orders.get(l.orderNumber)!;
  const cargoOf = (short: string): HbCargoCompany => hbCargoByShortName(short) ?? HB_CARGO_COMPANIES[0];
  const touch = (l: HbLine) => {
    l.lastStatusUpdateDate = now();
  };
  const packageKey = (l: HbLine) => {
    const o = orderOf(l);
    const a = o.shippingAddress;
    return [o.merchantId, o.customer.customerId, a.address, a.town, a.city, a.name, l.cargoCompany].join('|');
  };
  function refreshLineStatus(l: HbLine): void {
    const inPackages = [...packages.values()].filter((p) => p.status !== 'Unpacked' && p.lines.some((x) => x.lineId === l.id));
    const before = l.status;
    if (l.openQuantity > 0) l.status = 'Open';
    else if (inPackages.length) {
      const order: HbPackageStatus[] = ['Packed', 'InTransit', 'Undelivered', 'Delivered'];
      const least = inPackages.map((p) => p.status).sort((a, b) => order.indexOf(a) - order.indexOf(b))[0];
      l.status = least as HbLineStatus;
    } else if (l.cancelledQuantity >= l.quantity) l.status = 'Cancelled';
    if (before !== l.status) touch(l);
  }
  const packageLinesOf = (p: HbPackage) => p.lines.map((x) => ({ ...x, line: lines.get(x.lineId)! }));
  const orderNumbersOf = (p: HbPackage) => [...new Set(packageLinesOf(p).map((x) => x.line.orderNumber))];

  function newPackage(merchantId: string, items: HbPackageLine[], fields: Partial<HbPackage>, by: HbPackage['packedBy']): HbPackage {
    const packageNumber = String(nextPackage++).padStart(9, '0');
    const cargo = fields.cargoCompany ?? lines.get(items[0].lineId)!.cargoCompany;
    const p: HbPackage = {
      packageNumber,
      id: hbGuid(0xb0c4a9e, nextPackage),
      merchantId,
      barcode: fields.barcode ?? ean13(String(nextBarcode++)),
      status: 'Packed',
      lines: items.map((x) => ({ ...x })),
      cargoCompany: cargo,
      carrier: fields.carrier,
      deci: fields.deci ?? 1,
      parcelQuantity: fields.parcelQuantity ?? 1,
      warehouse: fields.warehouse,
      packedAt: now(),
      packedBy: by,
      splitFrom: fields.splitFrom,
    };
    packages.set(packageNumber, p);
    for (const x of items) {
      const l = lines.get(x.lineId)!;
      l.openQuantity -= x.quantity;
      refreshLineStatus(l);
    }
    return p;
  }

  function unpack(p: HbPackage): void {
    p.status = 'Unpacked';
    p.unpackedAt = now();
    for (const x of p.lines) {
      const l = lines.get(x.lineId)!;
      l.openQuantity += x.quantity;
      refreshLineStatus(l);
    }
  }

  function cancel(l: HbLine, quantity: number, by: string, reasonCode: string, at: Date, isUnpackedLine: boolean): HbCancellation {
    l.openQuantity -= quantity;
    l.cancelledQuantity += quantity;
    refreshLineStatus(l);
    const c: HbCancellation = {
      lineItemId: l.id,
      orderNumber: l.orderNumber,
      merchantId: l.merchantId,
      sku: l.sku,
      merchantSku: l.merchantSku,
      quantity,
      cancelDate: at,
      cancelledBy: by,
      cancelReasonCode: reasonCode,
      isUnpackedLine,
    };
    cancellations.push(c);
    return c;
  }

  function autoPackage(): void {
    for (const o of orders.values()) {
      if (!o.autoPackageAt || now().getTime() < o.autoPackageAt.getTime() || o.addressChangePending) continue;
      o.autoPackageAt = undefined;
      const groups = new Map<string, HbLine[]>();
      for (const l of o.lines.filter((x) => x.openQuantity > 0)) groups.set(l.cargoCompany, [...(groups.get(l.cargoCompany) ?? []), l]);
      for (const group of groups.values())
        newPackage(
          o.merchantId,
          group.map((l) => ({ lineId: l.id, quantity: l.openQuantity })),
          {},
          'hepsiburada',
        );
    }
  }

  // ---- JSON views --------------------------------------------------------------------------------------------------

  function lineJson(l: HbLine): Record<string, unknown> {
    const o = orderOf(l);
    const cargo = cargoOf(l.cargoCompany);
    const total = l.unitPrice * l.quantity;
    const pkg = [...packages.values()].find((p) => p.status !== 'Unpacked' && p.lines.some((x) => x.lineId === l.id));
    return {
      id: l.id,
      orderId: o.orderId,
      orderNumber: l.orderNumber,
      orderDate: hbDateTime(o.orderDate),
      lastStatusUpdateDate: hbDateTime(l.lastStatusUpdateDate),
      dueDate: hbDateTime(l.dueDate),
      dispatchTime: Math.max(0, Math.ceil((l.dueDate.getTime() - now().getTime()) / 86400000)),
      status: l.status,
      merchantId: l.merchantId,
      sku: l.sku,
      merchantSKU: l.merchantSku,
      name: l.name,
      productBarcode: l.productBarcode,
      quantity: l.status === 'Open' ? l.openQuantity : l.quantity,
      unitPrice: money(l.unitPrice),
      totalPrice: money(total),
      vat: Math.round(((total * l.vatRate) / (100 + l.vatRate)) * 100) / 100,
      vatRate: l.vatRate,
      hbDiscount: { totalPrice: money(0), unitPrice: money(0) },
      merchantDiscount: { totalPrice: money(0), unitPrice: money(0) },
      discountToBeBilledToHB: 0,
      commission: money(Math.round(total * 0.15 * 100) / 100),
      commissionRate: 15,
      customerId: o.customer.customerId,
      customerName: o.customer.name,
      shippingAddress: { ...o.shippingAddress },
      invoice: { ...o.invoice, address: { ...o.invoice.address } },
      cargoCompany: cargo.Name,
      cargoCompanyModel: { id: cargo.Id, name: cargo.Name, shortName: cargo.ShortName, logoUrl: cargo.LogoUrl, trackingUrl: cargo.trackingUrl },
      deliveryType: 'Standard',
      deliveryOptionId: 1,
      isCancellable: l.status === 'Open',
      isCancellableByHbAdmin: l.status === 'Open' || l.status === 'InTransit',
      isCargoChangable: l.status === 'Open',
      canCreatePackage: l.status === 'Open',
      isJetDelivery: false,
      isSundayDelivery: false,
      isMicroExport: false,
      isCustomized: false,
      customizedTextX: '',
      creationReason: l.creationReason,
      packageNumber: pkg?.packageNumber ?? '',
      barcode: pkg?.barcode ?? '',
      warehouse: { shippingAddressLabel: 'BIRINCIL', shippingModel: 'Standard' },
      properties: [],
    };
  }

  function packageJson(p: HbPackage): Record<string, unknown> {
    const pl = packageLinesOf(p);
    const o = orderOf(pl[0].line);
    const a = o.shippingAddress;
    const cargo = cargoOf(p.cargoCompany);
    const total = pl.reduce((s, x) => s + x.line.unitPrice * x.quantity, 0);
    return {
      id: p.id,
      packageNumber: p.packageNumber,
      barcode: p.barcode,
      status: p.status,
      cargoCompany: p.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY ? (hbCargoByShortName(p.carrier)?.Name ?? p.carrier ?? cargo.Name) : cargo.Name,
      isCargoChangable: p.status === 'Packed' && p.cargoCompany !== HB_OWN_CARRIER_CARGO_COMPANY,
      customerId: o.customer.customerId,
      customerName: o.customer.name,
      orderDate: hbDateTime(o.orderDate),
      dueDate: hbDateTime(pl[0].line.dueDate),
      estimatedArrivalDate: hbDateTime(p.estimatedArrivalDate ?? new Date(p.packedAt.getTime() + 3 * 86400000)),
      recipientName: a.name,
      email: a.email,
      phoneNumber: a.phoneNumber,
      shippingAddressDetail: a.address,
      shippingCountryCode: a.countryCode,
      shippingCity: a.city,
      shippingTown: a.town,
      shippingDistrict: a.district,
      companyName: o.invoice.address.name,
      billingAddress: o.invoice.address.address,
      billingCity: o.invoice.address.city,
      billingTown: o.invoice.address.town,
      billingDistrict: o.invoice.address.district,
      billingPostalCode: o.invoice.address.postalCode,
      billingCountryCode: o.invoice.address.countryCode,
      identityNo: o.invoice.turkishIdentityNumber,
      taxNumber: o.invoice.taxNumber,
      taxOffice: o.invoice.taxOffice,
      totalPrice: money(total),
      shippingTotalPrice: money(0),
      customsTotalPrice: money(0),
      unpackedDate: p.unpackedAt ? hbDateTime(p.unpackedAt) : null,
      items: pl.map((x) => ({
        lineItemId: x.line.id,
        listingId: hbGuid(0x115, Number.parseInt(x.line.id.slice(-6), 16)),
        merchantId: x.line.merchantId,
        hbSku: x.line.sku,
        merchantSku: x.line.merchantSku,
        productName: x.line.name,
        productBarcode: x.line.productBarcode,
        orderNumber: x.line.orderNumber,
        orderDate: hbDateTime(o.orderDate),
        quantity: x.quantity,
        price: money(x.line.unitPrice),
        totalPrice: money(x.line.unitPrice * x.quantity),
        merchantUnitPrice: money(x.line.unitPrice),
        merchantTotalPrice: money(x.line.unitPrice * x.quantity),
        unitHBDiscount: money(0),
        totalHBDiscount: money(0),
        unitMerchantDiscount: money(0),
        totalMerchantDiscount: money(0),
        vatRate: x.line.vatRate,
        vat: Math.round(((x.line.unitPrice * x.quantity * x.line.vatRate) / (100 + x.line.vatRate)) * 100) / 100,
        commission: money(Math.round(x.line.unitPrice * x.quantity * 0.15 * 100) / 100),
        commissionRate: 15,
        deliveryType: 'Standard',
        cargoPaymentInfo: p.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY ? 'Merchant' : 'Hepsiburada',
        creationReason: x.line.creationReason,
        weight: p.deci,
        warehouse: p.warehouse ?? { shippingAddressLabel: 'BIRINCIL', shippingModel: 'Standard' },
        properties: [],
      })),
    };
  }

  function packageCargoJson(p: HbPackage): Record<string, unknown> {
    const carrier = p.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY ? hbCargoByShortName(p.carrier) : cargoOf(p.cargoCompany);
    const hbTracking = p.cargoCompany !== HB_OWN_CARRIER_CARGO_COMPANY;
    return {
      packageNumber: p.packageNumber,
      barcode: p.barcode,
      status: p.status,
      cargoCompany: carrier?.Name ?? p.carrier ?? '',
      deci: p.deci,
      estimatedArrivalDate: p.estimatedArrivalDate ? hbDateTime(p.estimatedArrivalDate) : null,
      trackingInfoCode: p.trackingNumber ?? (hbTracking ? p.barcode : null),
      trackingInfoUrl: p.trackingUrl ?? (hbTracking ? `${carrier?.trackingUrl ?? ''}${p.barcode}` : null),
    };
  }

  // ---- query helpers -----------------------------------------------------------------------------------------------

  interface Window {
    from?: number;
    to?: number;
  }
  interface Paging {
    limit: number;
    offset: number;
  }
  const q = (query: Record<string, string>, name: string): string | undefined => {
    const k = Object.keys(query).find((x) => x.toLowerCase() === name);
    return k === undefined ? undefined : query[k];
  };

  function paging(query: Record<string, string>, max: number, required: boolean): Paging | HttpAnswer {
    const rawLimit = q(query, 'limit');
    const rawOffset = q(query, 'offset');
    if (required && (rawLimit === undefined || rawLimit === '' || rawOffset === undefined || rawOffset === ''))
      return bad(HB_MESSAGES.limitOffsetRequired, 'invalid', 'limit|offset');
    const limit = rawLimit === undefined || rawLimit === '' ? max : Number(rawLimit);
    const offset = rawOffset === undefined || rawOffset === '' ? 0 : Number(rawOffset);
    if (!Number.isInteger(limit) || limit < 1) return bad(HB_MESSAGES.limitTooSmall, 'invalid', 'limit');
    if (!Number.isInteger(offset) || offset < 0) return bad(HB_MESSAGES.offsetInvalid, 'invalid', 'offset');
    return { limit: Math.min(limit, max), offset };
  }

  function dateWindow(query: Record<string, string>, timespanAllowed: boolean, defaultHours?: number): Window | HttpAnswer {
    const b = q(query, 'begindate');
    const e = q(query, 'enddate');
    const ts = q(query, 'timespan');
    if (b !== undefined && b !== '') {
      const from = parseHbQueryDate(b);
      if (!from) return bad(HB_MESSAGES.badDate, 'invalid', 'begindate');
      let to = from.getTime() + HB_DATE_WINDOW_MS;
      if (e !== undefined && e !== '') {
        const end = parseHbQueryDate(e);
        if (!end) return bad(HB_MESSAGES.badDate, 'invalid', 'enddate');
        // "Eğer 24 saatin dışında bir aralık değeri verilirse … Enddate parametresini ignore edecek, Begindate … üzerine 24 saat ekleyerek"
        if (end.getTime() - from.getTime() <= HB_DATE_WINDOW_MS) to = end.getTime();
      }
      return { from: from.getTime(), to };
    }
    if (e !== undefined && e !== '') return bad(HB_MESSAGES.endDateWithoutBegin, 'invalid', 'enddate');
    if (timespanAllowed && ts !== undefined && ts !== '') {
      const hours = Number(ts);
      if (!Number.isFinite(hours) || hours <= 0) return bad(HB_MESSAGES.badTimespan, 'invalid', 'timespan');
      return { from: now().getTime() - hours * 3600000, to: now().getTime() + 1 };
    }
    if (defaultHours !== undefined) return { from: now().getTime() - defaultHours * 3600000, to: now().getTime() + 1 };
    return {};
  }
  const inWindow = (w: Window, d: Date | undefined) => !!d && (w.from === undefined || d.getTime() >= w.from) && (w.to === undefined || d.getTime() < w.to);

  function page<T>(all: T[], p: Paging, map: (x: T) => unknown): { items: unknown[]; limit: number; offset: number; pageCount: number; totalCount: number } {
    return {
      items: all.slice(p.offset, p.offset + p.limit).map(map),
      limit: p.limit,
      offset: p.offset,
      pageCount: Math.ceil(all.length / p.limit),
      totalCount: all.length,
    };
  }

  function list<T>(
    query: Record<string, string>,
    max: number,
    required: boolean,
    all: T[],
    date: (x: T) => Date | undefined,
    map: (x: T) => unknown,
  ): HttpAnswer {
    const p = paging(query, max, required);
    if (p instanceof HttpAnswer) return p;
    const w = dateWindow(query, false);
    if (w instanceof HttpAnswer) return w;
    const rows = all.filter((x) => inWindow(w, date(x)));
    rows.sort((a, b) => date(a)!.getTime() - date(b)!.getTime());
    return ok(page(rows, p, map));
  }

  // ---- operations --------------------------------------------------------------------------------------------------

  function ownPackage(merchantId: string, pn: string): HbPackage | HttpAnswer {
    const p = packages.get(pn) ?? packages.get(pn.padStart(9, '0'));
    if (!p || p.merchantId !== merchantId) return notFound(HB_MESSAGES.packageNotFound, 'packagenumber');
    return p;
  }
  function ownLine(merchantId: string, id: string): HbLine | HttpAnswer {
    const l = findLine(id);
    if (!l || l.merchantId !== merchantId) return notFound(HB_MESSAGES.lineNotFound, 'lineId');
    return l;
  }
  const writeBack = (operation: HepsiburadaOperation, merchantId: string, body: unknown, ids: { packageNumber?: string; lineId?: string }) =>
    writeBacks.push({ at: now(), operation, merchantId, body, ...ids });

  function checkStatusDate(field: string, raw: unknown, notBefore?: Date): Date | HttpAnswer {
    if (raw === undefined || raw === null || raw === '') return bad(HB_MESSAGES.fieldRequired(field), 'invalid', field);
    const d = parseHbBodyDate(raw);
    if (!d) return bad(HB_MESSAGES.badBodyDate(field), 'invalid', field);
    if (now().getTime() - d.getTime() > HB_STATUS_DATE_MAX_AGE_MS) return bad(HB_MESSAGES.dateTooOld, 'refused', field);
    if (d.getTime() - now().getTime() > 5 * 60000) return bad(HB_MESSAGES.dateInFuture, 'refused', field);
    if (notBefore && d.getTime() < notBefore.getTime()) return bad(HB_MESSAGES.dateBeforePacking, 'refused', field);
    return d;
  }

  function createPackage(merchantId: string, body: Record<string, unknown>): HttpAnswer {
    const reqs = body.lineItemRequests;
    if (!Array.isArray(reqs) || reqs.length === 0) return bad(HB_MESSAGES.fieldRequired('lineItemRequests'), 'invalid', 'lineItemRequests');
    const items: HbPackageLine[] = [];
    const found: HbLine[] = [];
    for (const [i, r] of reqs.entries()) {
      const id = (r as { id?: unknown })?.id;
      const quantity = (r as { quantity?: unknown })?.quantity;
      if (!nonEmpty(id)) return bad(HB_MESSAGES.fieldRequired(`lineItemRequests[${i}].id`), 'invalid', `lineItemRequests[${i}].id`);
      if (!isInt(quantity) || quantity < 1)
        return bad(HB_MESSAGES.fieldRequired(`lineItemRequests[${i}].quantity`), 'invalid', `lineItemRequests[${i}].quantity`);
      const l = ownLine(merchantId, id);
      if (l instanceof HttpAnswer) return l;
      if (orderOf(l).addressChangePending) return bad(HB_MESSAGES.ongoingAddressChange, 'refused', 'orderNumber');
      if (l.status !== 'Open' || l.openQuantity < 1) return bad(HB_MESSAGES.lineNotPackageable, 'refused', `lineItemRequests[${i}].id`);
      const already = items.filter((x) => x.lineId === l.id).reduce((s, x) => s + x.quantity, 0);
      if (quantity + already > l.openQuantity) return bad(HB_MESSAGES.quantityExceeded, 'refused', `lineItemRequests[${i}].quantity`);
      items.push({ lineId: l.id, quantity });
      found.push(l);
    }
    if (new Set(found.map(packageKey)).size > 1) return bad(HB_MESSAGES.linesNotPackageableTogether, 'refused', 'lineItemRequests');
    const lineCargo = found[0].cargoCompany;
    const cargoCompany = nonEmpty(body.cargoCompany) ? body.cargoCompany.trim() : undefined;
    const carrier = nonEmpty(body.carrier) ? body.carrier.trim().toUpperCase() : undefined;
    const ownCarrier = lineCargo === HB_OWN_CARRIER_CARGO_COMPANY || cargoCompany?.toUpperCase() === HB_OWN_CARRIER_CARGO_COMPANY;
    if (ownCarrier) {
      if (cargoCompany?.toUpperCase() !== HB_OWN_CARRIER_CARGO_COMPANY || !carrier)
        return bad(HB_MESSAGES.ownCarrierFieldsRequired, 'invalid', 'cargoCompany|carrier');
      if (carrier !== HB_HAND_DELIVERY_CARRIER && !hbCargoByShortName(carrier)) return bad(HB_MESSAGES.unknownCarrier, 'refused', 'carrier');
    }
    if (body.deci !== undefined && (typeof body.deci !== 'number' || body.deci < 0)) return bad(HB_MESSAGES.fieldRequired('deci'), 'invalid', 'deci');
    if (body.parcelQuantity !== undefined && (!isInt(body.parcelQuantity) || body.parcelQuantity < 1))
      return bad(HB_MESSAGES.fieldRequired('parcelQuantity'), 'invalid', 'parcelQuantity');
    const p = newPackage(
      merchantId,
      items,
      {
        cargoCompany: ownCarrier ? HB_OWN_CARRIER_CARGO_COMPANY : lineCargo,
        carrier: ownCarrier ? carrier : undefined,
        barcode: ownCarrier && nonEmpty(body.barcode) ? body.barcode : undefined,
        deci: typeof body.deci === 'number' ? body.deci : undefined,
        parcelQuantity: isInt(body.parcelQuantity) ? body.parcelQuantity : undefined,
        warehouse: (body.warehouse as HbPackage['warehouse']) ?? undefined,
      },
      'merchant',
    );
    writeBack('createPackage', merchantId, body, { packageNumber: p.packageNumber });
    return ok({ barcode: p.barcode, packageNumber: p.packageNumber }, 201);
  }

  function split(merchantId: string, pn: string, body: Record<string, unknown>): HttpAnswer {
    const p = ownPackage(merchantId, pn);
    if (p instanceof HttpAnswer) return p;
    if (p.status !== 'Packed') return bad(HB_MESSAGES.wrongPackageStatus, 'refused', 'packagenumber');
    const details = Array.isArray(body.packageDetails) ? (body.packageDetails as Record<string, unknown>[]) : [];
    const cancelled = Array.isArray(body.cancelledItems) ? (body.cancelledItems as Record<string, unknown>[]) : [];
    if (!details.length && !cancelled.length) return bad(HB_MESSAGES.fieldRequired('packageDetails'), 'invalid', 'packageDetails');
    const counted = new Map<string, number>();
    const groups: HbPackageLine[][] = [];
    for (const [i, d] of details.entries()) {
      const ls = Array.isArray(d.lines) ? (d.lines as Record<string, unknown>[]) : [];
      if (!ls.length) return bad(HB_MESSAGES.fieldRequired(`packageDetails[${i}].lines`), 'invalid', `packageDetails[${i}].lines`);
      const g: HbPackageLine[] = [];
      for (const x of ls) {
        const l = findLine(String(x.orderLineId ?? ''));
        if (!l || !isInt(x.quantity) || x.quantity < 1) return bad(HB_MESSAGES.splitMustCoverPackage, 'invalid', `packageDetails[${i}].lines`);
        counted.set(l.id, (counted.get(l.id) ?? 0) + x.quantity);
        g.push({ lineId: l.id, quantity: x.quantity });
      }
      groups.push(g);
    }
    for (const c of cancelled) {
      const l = findLine(String(c.orderLineId ?? ''));
      if (!l || !isInt(c.quantity) || c.quantity < 1 || !isInt(c.cancelReasonId)) return bad(HB_MESSAGES.splitMustCoverPackage, 'invalid', 'cancelledItems');
      counted.set(l.id, (counted.get(l.id) ?? 0) + c.quantity);
    }
    const expected = new Map(p.lines.map((x) => [x.lineId, x.quantity]));
    const same = counted.size === expected.size && [...expected].every(([id, n]) => counted.get(id) === n);
    if (!same) return bad(HB_MESSAGES.splitMustCoverPackage, 'refused', 'packageDetails');
    unpack(p);
    for (const c of cancelled) cancel(findLine(String(c.orderLineId))!, c.quantity as number, 'Merchant', String(c.cancelReasonId), now(), true);
    const made = groups.map((g, i) =>
      newPackage(
        merchantId,
        g,
        {
          cargoCompany: p.cargoCompany,
          carrier: nonEmpty(details[i].carrier) ? String(details[i].carrier).toUpperCase() : p.carrier,
          deci: typeof details[i].deci === 'number' ? (details[i].deci as number) : p.deci,
          parcelQuantity: isInt(details[i].parcelQuantity) ? (details[i].parcelQuantity as number) : 1,
          splitFrom: p.packageNumber,
        },
        'merchant',
      ),
    );
    p.splitInto = made.map((x) => x.packageNumber);
    writeBack('split', merchantId, body, { packageNumber: p.packageNumber });
    return ok(made.map((x) => ({ packageNumber: x.packageNumber, barcode: x.barcode })));
  }

  function statusWriteBack(operation: 'intransit' | 'deliver' | 'undeliver', merchantId: string, pn: string, body: Record<string, unknown>): HttpAnswer {
    const p = ownPackage(merchantId, pn);
    if (p instanceof HttpAnswer) return p;
    if (p.cargoCompany !== HB_OWN_CARRIER_CARGO_COMPANY) return bad(HB_MESSAGES.notOwnCarrierPackage, 'refused', 'packagenumber');
    if (operation === 'intransit') {
      if (p.status !== 'Packed') return bad(HB_MESSAGES.wrongPackageStatus, 'refused', 'packagenumber');
      for (const f of ['trackingNumber', 'trackingUrl', 'trackingPhoneNumber'] as const)
        if (!nonEmpty(body[f])) return bad(HB_MESSAGES.fieldRequired(f), 'invalid', f);
      for (const f of ['tax', 'cost', 'deci'] as const) if (typeof body[f] !== 'number') return bad(HB_MESSAGES.fieldRequired(f), 'invalid', f);
      const shipped = checkStatusDate('shippedDate', body.shippedDate, new Date(Math.floor(p.packedAt.getTime() / 60000) * 60000));
      if (shipped instanceof HttpAnswer) return shipped;
      const eta = parseHbBodyDate(body.estimatedArrivalDate);
      if (!eta) return bad(HB_MESSAGES.fieldRequired('estimatedArrivalDate'), 'invalid', 'estimatedArrivalDate');
      Object.assign(p, {
        status: 'InTransit' as const,
        shippedAt: shipped,
        estimatedArrivalDate: eta,
        trackingNumber: String(body.trackingNumber),
        trackingUrl: String(body.trackingUrl),
        trackingPhoneNumber: String(body.trackingPhoneNumber),
        deci: body.deci as number,
      });
    } else if (operation === 'deliver') {
      if (p.status !== 'InTransit') return bad(HB_MESSAGES.wrongPackageStatus, 'refused', 'packagenumber');
      const at = checkStatusDate('receivedDate', body.receivedDate, p.shippedAt);
      if (at instanceof HttpAnswer) return at;
      Object.assign(p, { status: 'Delivered' as const, deliveredAt: at, receivedBy: typeof body.receivedBy === 'string' ? body.receivedBy : undefined });
    } else {
      if (p.status !== 'InTransit') return bad(HB_MESSAGES.wrongPackageStatus, 'refused', 'packagenumber');
      if (!nonEmpty(body.undeliveredReason)) return bad(HB_MESSAGES.fieldRequired('undeliveredReason'), 'invalid', 'undeliveredReason');
      const at = checkStatusDate('undeliveredDate', body.undeliveredDate, p.shippedAt);
      if (at instanceof HttpAnswer) return at;
      Object.assign(p, { status: 'Undelivered' as const, undeliveredAt: at, undeliveredReason: body.undeliveredReason });
    }
    for (const x of p.lines) refreshLineStatus(lines.get(x.lineId)!);
    writeBack(operation, merchantId, body, { packageNumber: p.packageNumber });
    return ok(undefined);
  }

  const changeable = (current: string) =>
    HB_CARGO_COMPANIES.filter((c) => c.IsActive && c.ShortName !== current && c.ShortName !== HB_OWN_CARRIER_CARGO_COMPANY).map(
      ({ Id, IsActive, LogoUrl, Name, ShortName }) => ({
        Id,
        IsActive,
        LogoUrl,
        Name,
        ShortName,
      }),
    );

  function operate(op: HepsiburadaOperation, merchantId: string, params: string[], query: Record<string, string>, body: Record<string, unknown>): HttpAnswer {
    const mine = (x: { merchantId: string }) => x.merchantId === merchantId;
    const allPackages = () => [...packages.values()].filter(mine);
    switch (op) {
      case 'listOrders': {
        const p = paging(query, HB_ORDERS_MAX_LIMIT, true);
        if (p instanceof HttpAnswer) return p;
        const w = dateWindow(query, false);
        if (w instanceof HttpAnswer) return w;
        const rows = [...lines.values()].filter(
          (l) => mine(l) && l.status === 'Open' && l.openQuantity > 0 && (w.from === undefined || inWindow(w, l.addedAt)),
        );
        rows.sort((a, b) => a.addedAt.getTime() - b.addedAt.getTime() || a.id.localeCompare(b.id));
        return ok(page(rows, p, lineJson));
      }
      case 'listCancelled':
        return list(
          query,
          HB_STATUS_LISTS_MAX_LIMIT,
          false,
          cancellations.filter(mine),
          (c) => c.cancelDate,
          (c) => ({
            lineItemId: c.lineItemId,
            merchantId: c.merchantId,
            orderNumber: c.orderNumber,
            sku: c.sku,
            merchantSku: c.merchantSku,
            quantity: c.quantity,
            cancelDate: hbDateTime(c.cancelDate),
            cancelledBy: c.cancelledBy,
            cancelReasonCode: c.cancelReasonCode,
          }),
        );
      case 'orderDetail': {
        const o = orders.get(params[0]);
        if (!o || !mine(o)) return notFound(HB_MESSAGES.orderNotFound, 'ordernumber');
        return ok({
          orderId: o.orderId,
          orderNumber: o.orderNumber,
          orderDate: hbDateTime(o.orderDate),
          createdDate: hbDateTime(o.orderDate),
          paymentStatus: 'Paid',
          customer: { ...o.customer },
          deliveryAddress: { ...o.shippingAddress },
          invoice: { ...o.invoice, address: { ...o.invoice.address } },
          orderNote: null,
          items: o.lines.map(lineJson),
        });
      }
      case 'packageableWith': {
        const l = ownLine(merchantId, params[0]);
        if (l instanceof HttpAnswer) return l;
        const key = packageKey(l);
        return ok({
          lineItems: [...lines.values()]
            .filter((x) => x.id !== l.id && x.status === 'Open' && x.openQuantity > 0 && packageKey(x) === key)
            .map((x) => ({ lineItemId: x.id, orderNumber: x.orderNumber, quantity: x.openQuantity })),
        });
      }
      case 'createPackage':
        return createPackage(merchantId, body);
      case 'listPackages': {
        const p = paging(query, HB_PACKAGES_MAX_LIMIT, true);
        if (p instanceof HttpAnswer) return p;
        const w = dateWindow(query, true, HB_DEFAULT_TIMESPAN_HOURS);
        if (w instanceof HttpAnswer) return w;
        const rows = allPackages().filter((x) => x.status === 'Packed' && inWindow(w, x.packedAt));
        rows.sort((a, b) => a.packedAt.getTime() - b.packedAt.getTime() || a.packageNumber.localeCompare(b.packageNumber));
        const pg = page(rows, p, packageJson);
        return new HttpAnswer(200, pg.items, 'ok', { pagecount: String(pg.pageCount), totalcount: String(pg.totalCount) });
      }
      case 'packageCargo': {
        const p = ownPackage(merchantId, params[0]);
        return p instanceof HttpAnswer ? p : ok(packageCargoJson(p));
      }
      case 'labels': {
        const p = ownPackage(merchantId, params[0]);
        if (p instanceof HttpAnswer) return p;
        const format = (q(query, 'format') ?? 'ZPL').toUpperCase();
        if (format !== 'ZPL') return bad(HB_MESSAGES.unsupportedLabelFormat, 'invalid', 'format');
        if (!cargoOf(p.cargoCompany).hbContracted || p.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY)
          return bad(HB_MESSAGES.labelOnlyForHbCarrier, 'refused', 'packagenumber');
        if (p.status === 'Unpacked') return bad(HB_MESSAGES.wrongPackageStatus, 'refused', 'packagenumber');
        const o = orderOf(lines.get(p.lines[0].lineId)!);
        const a = o.shippingAddress;
        const data = Array.from({ length: p.parcelQuantity }, (_, i) =>
          hbLabelZpl({
            packageNumber: p.packageNumber,
            barcode: p.barcode,
            cargoCompany: cargoOf(p.cargoCompany).Name,
            recipient: a.name,
            address: a.address,
            town: a.town,
            city: a.city,
            phone: a.phoneNumber,
            deci: p.deci,
            parcel: i + 1,
            parcels: p.parcelQuantity,
            orderNumbers: orderNumbersOf(p),
          }),
        );
        return ok({ format: 'ZPL', data, hasMerchantMutualBarcode: true });
      }
      case 'split':
        return split(merchantId, params[0], body);
      case 'unpack': {
        const p = ownPackage(merchantId, params[0]);
        if (p instanceof HttpAnswer) return p;
        if (p.status !== 'Packed') return bad(HB_MESSAGES.wrongPackageStatus, 'refused', 'packagenumber');
        unpack(p);
        writeBack('unpack', merchantId, body, { packageNumber: p.packageNumber });
        return ok(undefined);
      }
      case 'intransit':
      case 'deliver':
      case 'undeliver':
        return statusWriteBack(op, merchantId, params[0], body);
      case 'packageChangeableCargo': {
        const p = ownPackage(merchantId, params[0]);
        if (p instanceof HttpAnswer) return p;
        return ok(p.status === 'Packed' && p.cargoCompany !== HB_OWN_CARRIER_CARGO_COMPANY ? changeable(p.cargoCompany) : []);
      }
      case 'changePackageCargo': {
        const p = ownPackage(merchantId, params[0]);
        if (p instanceof HttpAnswer) return p;
        const short = body.CargoCompanyShortName ?? body.cargoCompanyShortName;
        if (!nonEmpty(short)) return bad(HB_MESSAGES.fieldRequired('CargoCompanyShortName'), 'invalid', 'CargoCompanyShortName');
        if (p.status !== 'Packed' || p.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY) return bad(HB_MESSAGES.cargoNotChangeable, 'refused', 'packagenumber');
        const c = changeable(p.cargoCompany).find((x) => x.ShortName === short.trim().toUpperCase());
        if (!c) return bad(HB_MESSAGES.unknownCarrier, 'refused', 'CargoCompanyShortName');
        p.cargoCompany = c.ShortName;
        p.barcode = ean13(String(nextBarcode++));
        for (const x of p.lines) lines.get(x.lineId)!.cargoCompany = c.ShortName;
        writeBack('changePackageCargo', merchantId, body, { packageNumber: p.packageNumber });
        return ok(undefined, 204);
      }
      case 'lineChangeableCargo': {
        const l = ownLine(merchantId, params[0]);
        if (l instanceof HttpAnswer) return l;
        return ok(l.status === 'Open' && l.cargoCompany !== HB_OWN_CARRIER_CARGO_COMPANY ? changeable(l.cargoCompany) : []);
      }
      case 'changeLineCargo': {
        const l = ownLine(merchantId, params[0]);
        if (l instanceof HttpAnswer) return l;
        const short = body.CargoCompanyShortName ?? body.cargoCompanyShortName;
        if (!nonEmpty(short)) return bad(HB_MESSAGES.fieldRequired('CargoCompanyShortName'), 'invalid', 'CargoCompanyShortName');
        if (l.status !== 'Open' || l.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY) return bad(HB_MESSAGES.cargoNotChangeable, 'refused', 'id');
        const c = changeable(l.cargoCompany).find((x) => x.ShortName === short.trim().toUpperCase());
        if (!c) return bad(HB_MESSAGES.unknownCarrier, 'refused', 'CargoCompanyShortName');
        l.cargoCompany = c.ShortName;
        touch(l);
        writeBack('changeLineCargo', merchantId, body, { lineId: l.id });
        return ok(undefined, 204);
      }
      case 'cancelByMerchant': {
        const l = ownLine(merchantId, params[0]);
        if (l instanceof HttpAnswer) return l;
        if (!isInt(body.reasonId)) return bad(HB_MESSAGES.fieldRequired('reasonId'), 'invalid', 'reasonId');
        if (l.status !== 'Open' || l.openQuantity < 1) return bad(HB_MESSAGES.lineNotCancellable, 'refused', 'lineId');
        cancel(l, l.openQuantity, 'Merchant', String(body.reasonId), now(), false);
        writeBack('cancelByMerchant', merchantId, body, { lineId: l.id });
        return ok(undefined);
      }
      case 'invoice': {
        const p = ownPackage(merchantId, params[0]);
        if (p instanceof HttpAnswer) return p;
        const link = body.invoiceLink ?? (Array.isArray(body.invoices) ? (body.invoices[0] as Record<string, unknown>)?.invoiceLink : undefined);
        if (!nonEmpty(link)) return bad(HB_MESSAGES.fieldRequired('invoiceLink'), 'invalid', 'invoiceLink');
        p.invoice = body;
        writeBack('invoice', merchantId, body, { packageNumber: p.packageNumber });
        return ok(undefined, 204);
      }
      case 'listShipped':
        return list(
          query,
          HB_STATUS_LISTS_MAX_LIMIT,
          false,
          allPackages(),
          (p) => p.shippedAt,
          (p) => ({
            Id: p.id,
            MerchantId: p.merchantId,
            PackageNumber: p.packageNumber,
            Barcode: p.barcode,
            Deci: p.deci,
            OrderNumber: orderNumbersOf(p)[0],
            OrderNumbers: orderNumbersOf(p),
            ShippedDate: hbDateTime(p.shippedAt!),
          }),
        );
      case 'listDelivered':
        return list(
          query,
          HB_STATUS_LISTS_MAX_LIMIT,
          false,
          allPackages(),
          (p) => p.deliveredAt,
          (p) => ({
            Id: p.id,
            MerchantId: p.merchantId,
            PackageNumber: p.packageNumber,
            Barcode: p.barcode,
            OrderNumber: orderNumbersOf(p)[0],
            OrderNumbers: orderNumbersOf(p),
            DeliveredDate: hbDateTime(p.deliveredAt!),
          }),
        );
      case 'listUndelivered':
        return list(
          query,
          HB_STATUS_LISTS_MAX_LIMIT,
          false,
          allPackages(),
          (p) => p.undeliveredAt,
          (p) => ({
            Id: p.id,
            MerchantId: p.merchantId,
            PackageNumber: p.packageNumber,
            Barcode: p.barcode,
            OrderNumber: orderNumbersOf(p)[0],
            OrderNumbers: orderNumbersOf(p),
            UndeliveredDate: hbDateTime(p.undeliveredAt!),
            UndeliveredReason: p.undeliveredReason ?? '',
          }),
        );
      case 'listUnpacked': {
        const p = paging(query, HB_PACKAGES_MAX_LIMIT, false);
        if (p instanceof HttpAnswer) return p;
        const w = dateWindow(query, true);
        if (w instanceof HttpAnswer) return w;
        const rows = allPackages().filter((x) => x.status === 'Unpacked' && (w.from === undefined || inWindow(w, x.unpackedAt)));
        rows.sort((a, b) => a.unpackedAt!.getTime() - b.unpackedAt!.getTime());
        // the OpenAPI's 200 is an array of page objects
        return ok([page(rows, p, (x) => ({ packageNumber: x.packageNumber, barcode: x.barcode, unpackedDate: hbDateTime(x.unpackedAt!) }))]);
      }
      case 'listMissingInvoice': {
        const p = paging(query, HB_STATUS_LISTS_MAX_LIMIT, false);
        if (p instanceof HttpAnswer) return p;
        const rows = allPackages().filter((x) => x.status !== 'Unpacked' && !x.invoice);
        rows.sort((a, b) => a.packedAt.getTime() - b.packedAt.getTime());
        return ok(page(rows, p, (x) => ({ packageNumber: x.packageNumber, orderNumbers: orderNumbersOf(x), status: x.status })));
      }
    }
  }

  // ---- auth and limits ---------------------------------------------------------------------------------------------

  function authenticate(h: IncomingHttpHeaders): HepsiburadaAccount | HttpAnswer {
    const unauthorized = (why: string) =>
      new HttpAnswer(401, { message: HB_MESSAGES.unauthorized }, 'unauthorized', { 'www-authenticate': 'Basic realm="hepsiburada"' }, [
        `authorization: ${why}`,
      ]);
    const m = /^Basic\s+(\S+)\s*$/i.exec(header(h, 'authorization') ?? '');
    if (!m) return unauthorized('no Basic credentials');
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const [user, pass] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
    const account = accounts.find((a) => a.merchantId.toLowerCase() === user.toLowerCase());
    if (!account || account.serviceKey !== pass) return unauthorized('merchantId/serviceKey do not match');
    if ((account.environment ?? environment) !== environment) return unauthorized(`${account.environment} credentials on the ${environment} host`);
    const ua = header(h, 'user-agent');
    if (!ua) return unauthorized('User-Agent missing');
    if (ua !== account.userAgent) return unauthorized(`User-Agent ${ua} is not the integrator's developer username`);
    return account;
  }

  function rateHeaders(merchantId: string): { headers: Record<string, string>; exceeded: boolean } {
    const t = now().getTime();
    let w = windows.get(merchantId);
    if (!w || t - w.start >= rateLimit.windowMs) {
      w = { start: t, count: 0 };
      windows.set(merchantId, w);
    }
    w.count++;
    const exceeded = w.count > rateLimit.limit;
    return {
      exceeded,
      headers: {
        'x-ratelimit-limit': String(rateLimit.limit),
        'x-ratelimit-remaining': String(Math.max(0, rateLimit.limit - w.count)),
        'x-ratelimit-reset': String(Math.max(0, Math.ceil((w.start + rateLimit.windowMs - t) / 1000))),
      },
    };
  }

  const statusAnswer = (status: number, outcome: HepsiburadaRecordedRequest['outcome']) =>
    new HttpAnswer(
      status,
      { message: STATUS_CODES[status] ?? 'Error' },
      outcome,
      status === 429 ? { 'x-ratelimit-limit': String(rateLimit.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' } : {},
    );

  // ---- one request -------------------------------------------------------------------------------------------------

  function answer(
    req: IncomingMessage,
    route: Route,
    params: string[],
    query: Record<string, string>,
    raw: string,
    rec: HepsiburadaRecordedRequest,
  ): HttpAnswer {
    const account = authenticate(req.headers);
    if (account instanceof HttpAnswer) return account;
    rec.merchantId = account.merchantId;
    if (params[0].toLowerCase() !== account.merchantId.toLowerCase())
      return new HttpAnswer(403, { message: HB_MESSAGES.forbidden }, 'forbidden', {}, [`merchantid: ${params[0]} is not the authenticated merchant`]);
    const rate = rateHeaders(account.merchantId);
    if (rate.exceeded) return new HttpAnswer(429, { message: HB_MESSAGES.tooManyRequests }, 'rate-limited', rate.headers);
    let body: Record<string, unknown> = {};
    if (route.method !== 'GET' && raw.trim() !== '') {
      try {
        const parsed = JSON.parse(raw) as unknown;
        body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
      } catch {
        const a = bad(HB_MESSAGES.badJson, 'invalid', 'body');
        return new HttpAnswer(a.status, a.body, a.outcome, rate.headers, a.validationErrors);
      }
    }
    autoPackage();
    const a = operate(route.operation, account.merchantId, params.slice(1), query, body);
    return new HttpAnswer(a.status, a.body, a.outcome, { ...rate.headers, ...a.headers }, a.validationErrors);
  }

  function send(res: ServerResponse, a: HttpAnswer, rec: HepsiburadaRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.validationErrors.push(...a.validationErrors);
    const payload = a.body === undefined ? '' : JSON.stringify(a.body);
    res.writeHead(a.status, { ...(a.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...a.headers });
    res.end(payload);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      const method = (req.method ?? 'GET').toUpperCase();
      const path = url.pathname.replace(/\/+$/, '') || '/';
      const matches = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
      const hit = matches.find((x) => x.r.method === method);
      const route = (hit ?? matches[0])?.r;
      const params = ((hit ?? matches[0])?.m?.slice(1) ?? []).map(decode);
      const query = Object.fromEntries(url.searchParams.entries());
      let body: unknown;
      try {
        body = raw.trim() ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const headers = { ...req.headers };
      const auth = header(headers, 'authorization');
      if (auth) {
        const m = /^Basic\s+(\S+)/i.exec(auth);
        headers.authorization = m ? `Basic ${Buffer.from(m[1], 'base64').toString('utf8').split(':')[0]}:***` : '***';
      }
      const rec: HepsiburadaRecordedRequest = {
        at: now(),
        method,
        path,
        operation: hit?.r.operation,
        query,
        headers,
        rawBody: raw,
        body,
        outcome: 'ok',
        validationErrors: [],
      };
      requests.push(rec);

      if (!route) return send(res, new HttpAnswer(404, { message: HB_MESSAGES.notFound }, 'not-found'), rec);
      if (!hit)
        return send(
          res,
          new HttpAnswer(405, { message: HB_MESSAGES.methodNotAllowed }, 'method-not-allowed', { allow: matches.map((x) => x.r.method).join(', ') }),
          rec,
        );
      if (outage) return send(res, new HttpAnswer(503, { message: HB_MESSAGES.serviceUnavailable }, 'outage'), rec);

      const fault = faults.take(route.operation);
      if (fault) rec.fault = fault.kind;
      if (fault?.kind === 'hang') {
        rec.outcome = 'fault';
        return;
      }
      if (fault?.kind === 'drop') {
        rec.outcome = 'fault';
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'status') return send(res, statusAnswer(fault.status, 'fault'), rec);

      const run = () => {
        let a: HttpAnswer;
        try {
          a = answer(req, route, params, query, raw, rec);
        } catch (err) {
          a = new HttpAnswer(500, { message: `test double failure: ${(err as Error).message}` }, 'fault');
        }
        if (fault?.kind === 'applyThenDrop') {
          rec.outcome = a.outcome;
          rec.lostResponse = a.body ?? null;
          rec.validationErrors.push(...a.validationErrors);
          req.socket.destroy();
          return;
        }
        if (fault?.kind === 'applyThenStatus') {
          rec.lostResponse = a.body ?? null;
          return send(res, statusAnswer(fault.status ?? 500, 'fault'), rec);
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

  // ---- push model --------------------------------------------------------------------------------------------------

  function pushBody(event: HbPushEvent, key: string): { method: 'POST' | 'PUT'; path: string; body: unknown } {
    const pkg = () => {
      const p = packages.get(key);
      if (!p) throw new Error(`hepsiburada double: no package ${key}`);
      return p;
    };
    switch (event) {
      case 'createOrder': {
        const o = orders.get(key);
        if (!o) throw new Error(`hepsiburada double: no order ${key}`);
        return {
          method: 'POST',
          path: '/orders',
          body: {
            items: o.lines.map((l) => {
              const j = lineJson(l);
              const total = l.unitPrice * l.quantity;
              // the Create Order page writes vat as money and names the HB-billed discount discountPriceToBeInvoicedHb
              return { ...j, vat: money((total * l.vatRate) / (100 + l.vatRate)), discountPriceToBeInvoicedHb: money(0), quantity: l.quantity };
            }),
          },
        };
      }
      case 'createPackages':
        return { method: 'POST', path: '/packages', body: { ...packageJson(pkg()), merchantId: pkg().merchantId } };
      case 'orderCancel': {
        const c = [...cancellations].reverse().find((x) => x.lineItemId === key);
        if (!c) throw new Error(`hepsiburada double: no cancellation of line ${key}`);
        return {
          method: 'PUT',
          path: `/lineitems/${encodeURIComponent(c.lineItemId)}/cancel`,
          body: {
            cancelDate: hbDateTime(c.cancelDate),
            merchantId: c.merchantId,
            id: c.lineItemId,
            quantity: c.quantity,
            cancelledBy: c.cancelledBy,
            orderNumber: c.orderNumber,
            cancelReasonCode: c.cancelReasonCode,
            isUnpackedLine: c.isUnpackedLine,
          },
        };
      }
      case 'unpack': {
        const p = pkg();
        return {
          method: 'PUT',
          path: `/packages/${p.packageNumber}/unpack`,
          body: { merchantId: p.merchantId, packageNumber: p.packageNumber, unpackedDate: hbUtc(p.unpackedAt ?? now()), orderNumbers: orderNumbersOf(p) },
        };
      }
      case 'intransit': {
        const p = pkg();
        const c = packageCargoJson(p);
        return {
          method: 'PUT',
          path: `/packages/${p.packageNumber}/intransit`,
          body: {
            merchantId: p.merchantId,
            shippedDate: hbUtc(p.shippedAt ?? now()),
            packageNumber: p.packageNumber,
            barcode: p.barcode,
            trackingInfoCode: c.trackingInfoCode,
            trackingInfoUrl: c.trackingInfoUrl,
            deci: p.deci,
          },
        };
      }
      case 'deliver': {
        const p = pkg();
        return {
          method: 'PUT',
          path: `/packages/${p.packageNumber}/deliver`,
          body: {
            merchantId: p.merchantId,
            receivedDate: hbUtc(p.deliveredAt ?? now()),
            receivedBy: p.receivedBy ?? '',
            packageNumber: p.packageNumber,
            barcode: p.barcode,
          },
        };
      }
      case 'undeliver': {
        const p = pkg();
        return {
          method: 'PUT',
          path: `/packages/${p.packageNumber}/undeliver`,
          body: {
            merchantId: p.merchantId,
            undeliveredDate: hbUtc(p.undeliveredAt ?? now()),
            undeliveredReason: p.undeliveredReason ?? '',
            packageNumber: p.packageNumber,
            barcode: p.barcode,
          },
        };
      }
      case 'changeShippingAddress': {
        const o = orders.get(key);
        if (!o) throw new Error(`hepsiburada double: no order ${key}`);
        const a = o.shippingAddress;
        return {
          method: 'PUT',
          path: `/orders/${encodeURIComponent(o.orderNumber)}/shippingaddress`,
          body: {
            orderNumber: o.orderNumber,
            addressId: a.addressId,
            address: a.address,
            name: a.name,
            email: a.email,
            countryCode: a.countryCode,
            phoneNumber: a.phoneNumber,
            alternatePhoneNumber: a.alternatePhoneNumber,
            district: a.district,
            city: a.city,
            town: a.town,
          },
        };
      }
    }
  }

  async function deliverPush(
    event: HbPushEvent,
    method: 'POST' | 'PUT',
    url: string,
    body: unknown,
    t: HbPushTarget & { timeoutMs?: number },
  ): Promise<HbPush> {
    const p: HbPush = { at: now(), event, method, url, body, delivered: false };
    try {
      const res = await fetch(url, {
        method,
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${t.username}:${t.password}`).toString('base64')}`,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(t.timeoutMs ?? 10_000),
      });
      p.status = res.status;
      p.responseBody = await res.text();
      p.delivered = [200, 201, 204].includes(res.status);
    } catch (err) {
      p.error = (err as Error).message;
    }
    pushes.push(p);
    return p;
  }

  const resolveTarget = (target?: Partial<HbPushTarget> & { timeoutMs?: number }) => {
    const t = { ...options.push, ...target } as Partial<HbPushTarget> & { timeoutMs?: number };
    if (!t.url || t.username === undefined || t.password === undefined)
      throw new Error('hepsiburada double: push needs url, username and password (option `push` or argument)');
    return t as HbPushTarget & { timeoutMs?: number };
  };

  // ---- programming interface ---------------------------------------------------------------------------------------

  function place(input: PlaceOrderInput = {}): HbOrder {
    const at = input.at ?? now();
    const merchantId = input.merchantId ?? defaultMerchant;
    const orderNumber = input.orderNumber ?? String(nextOrder++);
    if (orders.has(orderNumber)) throw new Error(`hepsiburada double: order ${orderNumber} exists`);
    const shippingAddress: HbAddress = { ...HB_SAMPLE_ADDRESS, ...input.shippingAddress };
    if (input.customer?.name && !input.shippingAddress?.name) shippingAddress.name = input.customer.name;
    const customer = { customerId: input.customer?.customerId ?? hbGuid(0xc057, nextOrder), name: input.customer?.name ?? shippingAddress.name };
    const invoice: HbInvoice = {
      turkishIdentityNumber: input.invoice?.turkishIdentityNumber ?? '11111111110',
      taxNumber: input.invoice?.taxNumber ?? '',
      taxOffice: input.invoice?.taxOffice ?? '',
      address: { ...shippingAddress, ...input.invoice?.address },
    };
    const dueDate = new Date(at.getTime() + (input.dispatchTime ?? 2) * 86400000);
    const o: HbOrder = {
      orderNumber,
      orderId: hbGuid(0x0d3e, nextOrder),
      merchantId,
      orderDate: at,
      customer,
      shippingAddress,
      invoice,
      lines: [],
      addressChangePending: false,
      autoPackageAt: options.autoPackageAfterMs === undefined ? undefined : new Date(at.getTime() + options.autoPackageAfterMs),
    };
    for (const s of input.lines ?? HB_SAMPLE_LINES) {
      const cargo = s.cargoCompany ?? input.cargoCompany ?? 'HX';
      if (!hbCargoByShortName(cargo)) throw new Error(`hepsiburada double: unknown cargo company ${cargo}`);
      const l: HbLine = {
        id: hbGuid(0x5ef25338, nextLine++),
        orderNumber,
        orderId: o.orderId,
        merchantId,
        sku: s.sku,
        merchantSku: s.merchantSku,
        name: s.name,
        quantity: s.quantity,
        openQuantity: s.quantity,
        cancelledQuantity: 0,
        unitPrice: s.unitPrice,
        vatRate: s.vatRate ?? 20,
        productBarcode: s.productBarcode ?? '',
        cargoCompany: hbCargoByShortName(cargo)!.ShortName,
        status: 'Open',
        addedAt: at,
        lastStatusUpdateDate: at,
        dueDate,
        creationReason: 'OrderCreated',
      };
      o.lines.push(l);
      lines.set(l.id, l);
    }
    orders.set(orderNumber, o);
    return o;
  }

  const mustLine = (id: string) => {
    const l = findLine(id);
    if (!l) throw new Error(`hepsiburada double: no line ${id}`);
    return l;
  };
  const mustPackage = (pn: string) => {
    const p = packages.get(pn);
    if (!p) throw new Error(`hepsiburada double: no package ${pn}`);
    return p;
  };

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    orders,
    packages,
    cancellations,
    writeBacks,
    pushes,
    placeOrder: place,
    line: mustLine,
    changeAddress(orderNumber, address, opts = {}) {
      const o = orders.get(orderNumber);
      if (!o) throw new Error(`hepsiburada double: no order ${orderNumber}`);
      o.shippingAddress = { ...o.shippingAddress, ...address };
      o.addressChangePending = !!opts.pending;
      for (const l of o.lines) touch(l);
      return o;
    },
    completeAddressChange(orderNumber) {
      const o = orders.get(orderNumber);
      if (!o) throw new Error(`hepsiburada double: no order ${orderNumber}`);
      o.addressChangePending = false;
      return o;
    },
    packLines(items, opts = {}) {
      const ls = items.map((x) => mustLine(x.lineId));
      if (ls.some((l) => l.status !== 'Open' || l.openQuantity < 1)) throw new Error('hepsiburada double: every line must be open');
      if (new Set(ls.map(packageKey)).size > 1) throw new Error('hepsiburada double: lines can not share a package');
      const own = opts.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY || ls[0].cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY;
      return newPackage(
        ls[0].merchantId,
        items.map((x, i) => ({ lineId: ls[i].id, quantity: x.quantity ?? ls[i].openQuantity })),
        { cargoCompany: own ? HB_OWN_CARRIER_CARGO_COMPANY : ls[0].cargoCompany, carrier: own ? (opts.carrier ?? 'YK') : undefined, deci: opts.deci },
        'hepsiburada',
      );
    },
    splitPackage(packageNumber, groups) {
      const p = mustPackage(packageNumber);
      if (p.status !== 'Packed') throw new Error(`hepsiburada double: package ${packageNumber} is ${p.status}`);
      const a = split(p.merchantId, packageNumber, {
        packageDetails: groups.map((g) => ({ lines: g.map((x) => ({ orderLineId: x.lineId, quantity: x.quantity })) })),
        cancelledItems: [],
      });
      if (a.status !== 200) throw new Error(`hepsiburada double: ${(a.body as { message: string }).message}`);
      writeBacks.pop(); // made by Hepsiburada, not written back by the merchant
      p.splitInto = (a.body as { packageNumber: string }[]).map((x) => x.packageNumber);
      return p.splitInto.map(mustPackage).map((x) => ((x.packedBy = 'hepsiburada'), x));
    },
    unpackPackage(packageNumber) {
      const p = mustPackage(packageNumber);
      if (p.status !== 'Packed') throw new Error(`hepsiburada double: package ${packageNumber} is ${p.status}`);
      unpack(p);
      return p;
    },
    cancelLine(lineId, opts = {}) {
      const l = mustLine(lineId);
      const at = opts.at ?? now();
      const by = opts.by ?? 'Customer';
      const reason = opts.reasonCode ?? (by === 'Customer' ? 'CustomerCancelled' : 'MerchantCanNotBeSupplied');
      const pkg = [...packages.values()].find((p) => p.status !== 'Unpacked' && p.lines.some((x) => x.lineId === l.id));
      if (pkg && pkg.status !== 'Packed') throw new Error(`hepsiburada double: line ${lineId} is in package ${pkg.packageNumber} (${pkg.status})`);
      if (pkg) unpack(pkg);
      const quantity = opts.quantity ?? l.openQuantity;
      if (quantity < 1 || quantity > l.openQuantity) throw new Error(`hepsiburada double: line ${lineId} has ${l.openQuantity} to cancel`);
      return cancel(l, quantity, by, reason, at, !!pkg);
    },
    advance(packageNumber, status, opts = {}) {
      const p = mustPackage(packageNumber);
      const at = opts.at ?? now();
      if (status === 'InTransit') {
        if (p.status !== 'Packed') throw new Error(`hepsiburada double: package ${packageNumber} is ${p.status}`);
        const carrier = p.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY ? hbCargoByShortName(p.carrier) : cargoOf(p.cargoCompany);
        const tracking = opts.trackingNumber ?? (p.cargoCompany === HB_OWN_CARRIER_CARGO_COMPANY ? String(nextTracking++) : p.barcode);
        Object.assign(p, { status: 'InTransit', shippedAt: at, trackingNumber: tracking, trackingUrl: `${carrier?.trackingUrl ?? ''}${tracking}` });
      } else {
        if (p.status !== 'InTransit' && p.status !== 'Undelivered') throw new Error(`hepsiburada double: package ${packageNumber} is ${p.status}`);
        if (status === 'Delivered')
          Object.assign(p, { status, deliveredAt: at, receivedBy: opts.receivedBy ?? orderOf(mustLine(p.lines[0].lineId)).shippingAddress.name });
        else Object.assign(p, { status, undeliveredAt: at, undeliveredReason: opts.reason ?? 'Alıcı adreste bulunamadı' });
      }
      for (const x of p.lines) refreshLineStatus(mustLine(x.lineId));
      return p;
    },
    async push(event, key, target) {
      const t = resolveTarget(target);
      const { method, path, body } = pushBody(event, key);
      return deliverPush(event, method, t.url.replace(/\/+$/, '') + path, body, t);
    },
    pushBody,
    async redeliverFailedPushes(target) {
      const t = resolveTarget(target);
      const failed = pushes.filter((p) => !p.delivered && !retried.has(p));
      const out: HbPush[] = [];
      for (const p of failed) {
        retried.add(p);
        out.push(await deliverPush(p.event, p.method, p.url, p.body, t));
      }
      return out;
    },
    tick: autoPackage,
    failNext(fault, opts = {}) {
      faults.push(fault, opts);
    },
    clearFaults() {
      faults.clear();
    },
    setOutage(on) {
      outage = on;
    },
    get outage() {
      return outage;
    },
    close: () => double.close(),
  };
}

/** Documented reason for cancelbymerchant (re-exported for adapters and tests). */
export { HB_CANCEL_REASON_NOT_SUPPLIED };
