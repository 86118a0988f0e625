/**
 * A contract-faithful test double of Trendyol's seller integration API (apigw.trendyol.com / stageapigw.trendyol.com),
 * for the `trendyol` order source of issue #43. Contract, sources and every choice where the documents are silent:
 * TRENDYOL-CONTRACT.md next to this file. Statuses, limits, shapes, messages, sample data, labels: trendyol.schemas.ts.
 *
 *   GET    /integration/order/sellers/{sellerId}/orders                                    getShipmentPackages (page/size ≤ 200, 2-week window)
 *   GET    /integration/order/sellers/{sellerId}/v2/orders                                 the same (the "v2 endpoint" of the 10.000-record update)
 *   GET    /integration/order/sellers/{sellerId}/orders/stream                             getShipmentPackagesStream (nextCursor/hasMore)
 *   PUT    /integration/order/sellers/{sellerId}/shipment-packages/{packageId}             updatePackage: Picking, then Invoiced (+ invoiceNumber)
 *   PUT    …/shipment-packages/{packageId}/update-tracking-number                          updateTrackingNumber ("Kullanım Dışı" in the TR pages)
 *   PUT    …/shipment-packages/{packageId}/tracking-details                                tracking number (International reference; storeFrontCode)
 *   PUT    …/shipment-packages/{packageId}/alternative-delivery                            shipped with a tracking link / phone number
 *   PUT    …/shipment-packages/{packageId}/items/unsupplied                                cancel lines ("tedarik edememe", reasonId)
 *   POST   …/shipment-packages/{packageId}/split | /multi-split | /quantity-split | /split-packages
 *   POST   /integration/sellers/{sellerId}/common-label/{cargoTrackingNumber}              createCommonLabel {format: "ZPL", boxQuantity}
 *   GET    /integration/sellers/{sellerId}/common-label/{cargoTrackingNumber}              getCommonLabel → {data: [{label, format}]}
 *   POST   /integration/webhook/sellers/{sellerId}/webhooks (GET lists; PUT/DELETE …/{id}; PUT …/{id}/activate|deactivate)
 *   POST   /integration/test/order/orders/core                                             createTestOrder (stage only; header sellerID)
 *   PUT    /integration/test/order/sellers/{sellerId}/shipment-packages/{packageId}/status test order statuses (stage only)
 *
 * Order of checks: route (404/405) → fault switches → outage (503) → stage IP allow-list (503) → User-Agent (403) →
 * Basic auth (401 ClientApiAuthenticationException) → sellerId of the path (403) → rate limits (429 too.many.requests)
 * → media type / JSON (415/400) → the operation's rules (400/404) → 200.
 * Every request is recorded in `requests` with its outcome.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  LISTING_TIERS,
  SELLER_CARRIERS,
  TEST_ORDER_STATUS_SEQUENCE,
  TRENDYOL_FILTER_ONLY_STATUSES,
  TRENDYOL_LIMITS,
  TRENDYOL_LINE_STATUSES,
  TRENDYOL_MESSAGES as M,
  TRENDYOL_PACKAGE_STATUSES,
  TRENDYOL_PAYS_CARRIERS,
  TRENDYOL_RATE_LIMITS,
  TRENDYOL_SAMPLE_ADDRESS,
  TRENDYOL_SAMPLE_PRODUCTS,
  TRENDYOL_TEST_SELLER,
  TRENDYOL_WEBHOOK_STATUSES,
  UNSUPPLIED_REASONS as UNSUPPLIED,
  USER_AGENT_PATTERN,
  asInteger,
  authErrorBody,
  errorsBody,
  fromGmt3,
  isObject,
  pullErrorBody,
  round2,
  toGmt3,
  trendyolCommonLabel,
  webhookStatusOf,
  type TrendyolAddress,
  type TrendyolAddressInput,
  type TrendyolCommonLabelAnswer,
  type TrendyolCreatedBy,
  type TrendyolEnvironment,
  type TrendyolLimitGroup,
  type TrendyolLine,
  type TrendyolListingTier,
  type TrendyolPackageStatus,
  type TrendyolPage,
  type TrendyolPaysCarrier,
  type TrendyolProduct,
  type TrendyolShipmentPackage,
  type TrendyolStreamPage,
  type TrendyolWebhookStatus,
  type TrendyolWebhookView,
} from './trendyol.schemas';

export {
  TRENDYOL_HOSTS,
  TRENDYOL_LIMITS,
  TRENDYOL_MESSAGES,
  TRENDYOL_PACKAGE_STATUSES,
  TRENDYOL_PAYS_CARRIERS,
  TRENDYOL_RATE_LIMITS,
  TRENDYOL_SAMPLE_ADDRESS,
  TRENDYOL_SAMPLE_PRODUCTS,
  TRENDYOL_TEST_SELLER,
  TRENDYOL_WEBHOOK_STATUSES,
  UNSUPPLIED_REASONS,
  toGmt3,
  fromGmt3,
  zplBarcodes,
} from './trendyol.schemas';
import { DoubleServer, FaultQueue } from '../double-server';
export type { TrendyolShipmentPackage, TrendyolLine, TrendyolPage, TrendyolStreamPage, TrendyolWebhookView } from './trendyol.schemas';

// --------------------------------------------------------------------------------------------------------------------
// Public types
// --------------------------------------------------------------------------------------------------------------------

export type TrendyolOperation =
  | 'getShipmentPackages'
  | 'getShipmentPackagesV2'
  | 'getShipmentPackagesStream'
  | 'updatePackage'
  | 'updateTrackingNumber'
  | 'updateTrackingDetails'
  | 'alternativeDelivery'
  | 'unsupplied'
  | 'split'
  | 'multiSplit'
  | 'quantitySplit'
  | 'splitPackages'
  | 'createCommonLabel'
  | 'getCommonLabel'
  | 'createWebhook'
  | 'getWebhooks'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'activateWebhook'
  | 'deactivateWebhook'
  | 'createTestOrder'
  | 'updateTestOrderStatus';

export type TrendyolFault =
  /** answer this HTTP status before anything else (optional Retry-After) */
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  /** handle the request normally, but answer only after `ms` */
  | { kind: 'delay'; ms: number }
  /** never answer until close() */
  | { kind: 'hang' }
  /** destroy the socket without doing anything */
  | { kind: 'drop' }
  /** perform the operation (the package IS updated), then destroy the socket without answering */
  | { kind: 'applyThenDrop' }
  /** perform the operation and answer `status` (default 500) as if it had failed */
  | { kind: 'applyThenStatus'; status?: number };

export interface TrendyolSeller {
  sellerId: string;
  apiKey: string;
  apiSecret: string;
  /** the seller's product-listing limit tier, which sets its per-minute order-service limits (default '50000') */
  listingTier?: TrendyolListingTier;
  /** the seller's name on common labels (default "Test Mağazası") */
  name?: string;
}

export interface TrendyolDoubleOptions {
  /** default [TRENDYOL_TEST_SELLER] */
  sellers?: TrendyolSeller[];
  /** which host the double plays (stage serves the test-order endpoints; default 'stage') */
  environment?: TrendyolEnvironment;
  /** stage only: false → every request 503, as "Test ortamında alacağınız 503 hatası IP yetkilendirmesi olmamasından kaynaklıdır" (default true) */
  ipAllowlisted?: boolean;
  /** the double's clock (windows, rate limits, dates); default real time */
  now?: () => Date;
  /** 'strict' (default): a User-Agent not of the documented "<sellerId> - <Name>" form is refused 403 like a missing one; 'presence': only a missing one is */
  userAgentCheck?: 'strict' | 'presence';
  /** enforce the documented request limits (default true) */
  rateLimits?: boolean;
  /** how the pull's startDate/endDate and the stream's lastModified*Date are read: "GMT +3" timestamps (default, as documented) or plain epoch ms */
  queryDates?: 'gmt3' | 'utc';
  /** which date getShipmentPackages' startDate/endDate window applies to (the documents do not say; default 'lastModified') */
  ordersDateField?: 'lastModified' | 'orderDate';
  /** the deprecated updateTrackingNumber: served (default) or gone (404) */
  deprecatedTrackingEndpoint?: 'serve' | 'gone';
  /** packages created by a split appear in pulls this long after the call ("asenkron olarak oluşacaktır"); default 0 */
  splitDelayMs?: number;
  /** getCommonLabel answers the labels this long after createCommonLabel; default 0 */
  labelDelayMs?: number;
  /** deliver webhooks by themselves on every status change (default false: call deliverWebhooks()) */
  autoDeliverWebhooks?: boolean;
  /** how long a failing webhook keeps being retried before it is made PASSIVE (not in the contract; default 24 h) */
  webhookPassivateAfterMs?: number;
  /** webhook POST timeout (default 5000 ms) */
  webhookTimeoutMs?: number;
  /** product catalogue for placeOrder/createTestOrder (default TRENDYOL_SAMPLE_PRODUCTS) */
  products?: TrendyolProduct[];
  /** loopback port (default: any free one) */
  port?: number;
}

export type TrendyolOutcome =
  | 'ok'
  | 'refused'
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'unavailable'
  | 'fault';

export interface TrendyolRecordedRequest {
  at: Date;
  method: string;
  /** path as sent, without the query */
  path: string;
  operation?: TrendyolOperation;
  params: Record<string, string>;
  query: Record<string, string>;
  /** the headers, Authorization reduced to its scheme */
  headers: IncomingHttpHeaders;
  userAgent?: string;
  /** the API key of the Basic credential (the secret is never recorded) */
  apiKey?: string;
  /** the authenticated seller */
  sellerId?: string;
  rawBody: string;
  body: unknown;
  outcome: TrendyolOutcome;
  /** undefined while hanging or after a drop */
  status?: number;
  response?: unknown;
  /** applyThenDrop / applyThenStatus: what the operation answered (the client never saw it) */
  lostResponse?: unknown;
  /** every rule the request broke, `field: message` */
  validationErrors: string[];
  /** the limit that refused it: `burst` (50 / 10 s) or a per-minute group */
  rateLimit?: 'burst' | TrendyolLimitGroup;
  fault?: TrendyolFault['kind'];
}

export interface TrendyolLineInput {
  barcode: string;
  quantity: number;
  /** unit price before discounts (default: the catalogue's) */
  price?: number;
  /** per-unit seller discount (default 0) */
  sellerDiscount?: number;
  /** per-unit Trendyol discount (default 0) */
  tyDiscount?: number;
  productName?: string;
  stockCode?: string;
  vatRate?: number;
}

export interface PlaceOrderInput {
  sellerId?: string;
  orderNumber?: string;
  lines: TrendyolLineInput[];
  customer?: { firstName: string; lastName: string; email?: string; id?: number };
  shipmentAddress?: TrendyolAddressInput;
  invoiceAddress?: TrendyolAddressInput & { taxNumber?: string; taxOffice?: string };
  commercial?: boolean;
  /** 'trendyol' (default): Trendyol's contract, it picks the carrier and gives the tracking number; 'seller': the seller's own contract (whoPays 1) */
  whoPays?: 'trendyol' | 'seller';
  /** Trendyol pays: 'TEX' (default) or 'ARAS'; seller pays: a carrier code of SELLER_CARRIERS (default 'YKMP') */
  carrier?: string;
  status?: 'Created' | 'Awaiting';
  at?: Date;
  identityNumber?: string;
  deliveryAddressType?: 'Shipment' | 'CollectionPoint';
  fastDelivery?: boolean;
  paymentMethod?: string;
}

export interface TrendyolTrackingUpdate {
  at: Date;
  operation: 'updateTrackingNumber' | 'updateTrackingDetails' | 'alternativeDelivery';
  trackingNumber?: string;
  providerCode?: string;
  trackingInfo?: string;
  isPhoneNumber?: boolean;
  /** the package was a "Trendyol pays" one: the call moved it to the seller's own contract */
  switchedToSellerContract: boolean;
}

export interface TrendyolLabelRecord {
  requestedAt: Date;
  readyAt: Date;
  boxQuantity: number;
  volumetricHeight?: number;
  /** the package status when the label was requested (the documents recommend Picking or Invoiced first) */
  statusAtRequest: TrendyolPackageStatus;
  labels: string[];
}

export interface TrendyolPackageRecord {
  /** the package as the API shows it (live; the API answers clones) */
  json: TrendyolShipmentPackage;
  sellerId: string;
  whoPays: 'trendyol' | 'seller';
  /** Trendyol pays: the carrier Trendyol chose */
  carrier?: TrendyolPaysCarrier;
  createdAt: Date;
  lastModifiedAt: Date;
  /** pulls show the package from this instant on (split packages appear asynchronously) */
  visibleFrom: Date;
  statusUpdates: { at: Date; status: TrendyolPackageStatus; invoiceNumber?: string; source: 'api' | 'double' }[];
  trackingUpdates: TrendyolTrackingUpdate[];
  label?: TrendyolLabelRecord;
  testOrder: boolean;
}

export interface TrendyolWebhookRecord {
  id: string;
  sellerId: string;
  url: string;
  authenticationType: 'BASIC_AUTHENTICATION' | 'API_KEY';
  username?: string;
  password?: string;
  apiKey?: string;
  /** null: every status (also ones added later) */
  subscribedStatuses: TrendyolWebhookStatus[] | null;
  status: 'ACTIVE' | 'PASSIVE';
  createdAt: Date;
  lastModifiedAt: Date | null;
  /** first failure of the current failing streak */
  failingSince?: Date;
}

export interface TrendyolWebhookDelivery {
  at: Date;
  webhookId: string;
  url: string;
  shipmentPackageId: number;
  packageStatus: TrendyolPackageStatus;
  headers: Record<string, string>;
  body: TrendyolPage;
  /** HTTP status the receiver answered (undefined: no answer) */
  status?: number;
  ok: boolean;
  error?: string;
  attempt: number;
  /** failed deliveries are sent again by retryWebhooks() from this instant ("her 5 dakikada bir") */
  retryAt?: Date;
  retried?: boolean;
}

/** A credential override for deliverWebhooks() (to test that a wrong one is refused). */
export type TrendyolWebhookCredential = { username: string; password: string } | { apiKey: string } | 'none';

export interface TrendyolDouble {
  /** 'http://127.0.0.1:<port>' (the adapter appends /integration/...) */
  baseUrl: string;
  requests: TrendyolRecordedRequest[];
  /** by shipmentPackageId */
  packages: Map<number, TrendyolPackageRecord>;
  webhooks: Map<string, TrendyolWebhookRecord>;
  webhookDeliveries: TrendyolWebhookDelivery[];
  /** places an order (one package) as a customer would; returns the package */
  placeOrder(input: PlaceOrderInput): TrendyolPackageRecord;
  /** a clone of the package as the API would show it now */
  package(shipmentPackageId: number): TrendyolShipmentPackage;
  /** every package of an order number, oldest first */
  packagesOf(orderNumber: string): TrendyolPackageRecord[];
  /** the customer fixes the delivery address */
  changeAddress(shipmentPackageId: number, patch: Partial<TrendyolAddressInput>): TrendyolPackageRecord;
  /** Trendyol or the customer cancels lines (default all): the package is Cancelled, the rest moves to a new package */
  cancel(
    shipmentPackageId: number,
    options?: { lines?: { lineId: number; quantity?: number }[]; by?: 'customer' | 'trendyol' | 'seller'; reasonCode?: number; reason?: string },
  ): { cancelled: number; newPackageId?: number };
  /** splits a package: each group of line ids (or {lineId, quantity}) becomes a new package, the rest one more */
  split(shipmentPackageId: number, groups: (number | { lineId: number; quantity: number })[][], options?: { keepStatus?: boolean }): number[];
  /** moves a package to a status (carrier events, Awaiting → Created, …) */
  advance(shipmentPackageId: number, status: TrendyolPackageStatus, options?: { at?: Date }): TrendyolPackageRecord;
  /** POSTs the package to every ACTIVE webhook of its seller subscribed to its status, as Trendyol does */
  deliverWebhooks(shipmentPackageId: number, options?: { credential?: TrendyolWebhookCredential }): Promise<TrendyolWebhookDelivery[]>;
  /** sends again every failed delivery whose retry time has come (Trendyol: every 5 minutes until it succeeds) */
  retryWebhooks(): Promise<TrendyolWebhookDelivery[]>;
  failNext(fault: TrendyolFault, options?: { times?: number; operation?: TrendyolOperation }): void;
  clearFaults(): void;
  /** a marketplace outage: every request answers 503 until outage(false) */
  outage(on: boolean): void;
  /** forget the rate-limit counters */
  resetRateLimits(): void;
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------------------------------
// Routing
// --------------------------------------------------------------------------------------------------------------------

interface Route {
  operation: TrendyolOperation;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  pattern: RegExp;
  names: string[];
  /** the per-minute limit group (1. Servis Limitleri) */
  group?: TrendyolLimitGroup;
  /** error-body family: the pulls' OpenAPI `Error`, or the `errors[]` envelope */
  family: 'pull' | 'errors';
  stageOnly?: boolean;
  body?: boolean;
}

const route = (
  operation: TrendyolOperation,
  method: Route['method'],
  path: string,
  extra: Partial<Pick<Route, 'group' | 'family' | 'stageOnly' | 'body'>> = {},
): Route => {
  const names: string[] = [];
  const pattern = new RegExp(`^${path.replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
  return { operation, method, pattern, names, family: 'errors', ...extra };
};

const PKG = '/integration/order/sellers/{sellerId}/shipment-packages/{packageId}';
const HOOKS = '/integration/webhook/sellers/{sellerId}/webhooks';

const ROUTES: Route[] = [
  route('getShipmentPackages', 'GET', '/integration/order/sellers/{sellerId}/orders', { group: 'orderPull', family: 'pull' }),
  route('getShipmentPackagesV2', 'GET', '/integration/order/sellers/{sellerId}/v2/orders', { group: 'orderPull', family: 'pull' }),
  route('getShipmentPackagesStream', 'GET', '/integration/order/sellers/{sellerId}/orders/stream', { group: 'orderPull', family: 'pull' }),
  route('updatePackage', 'PUT', PKG, { group: 'packageStatus', body: true }),
  route('updateTrackingNumber', 'PUT', `${PKG}/update-tracking-number`, { group: 'trackingNumber', body: true }),
  route('updateTrackingDetails', 'PUT', `${PKG}/tracking-details`, { group: 'trackingNumber', body: true }),
  route('alternativeDelivery', 'PUT', `${PKG}/alternative-delivery`, { group: 'alternativeDelivery', body: true }),
  route('unsupplied', 'PUT', `${PKG}/items/unsupplied`, { group: 'unsupplied', body: true }),
  route('split', 'POST', `${PKG}/split`, { group: 'split', body: true }),
  route('multiSplit', 'POST', `${PKG}/multi-split`, { group: 'multiSplit', body: true }),
  route('quantitySplit', 'POST', `${PKG}/quantity-split`, { group: 'quantitySplit', body: true }),
  route('splitPackages', 'POST', `${PKG}/split-packages`, { group: 'splitPackages', body: true }),
  route('createCommonLabel', 'POST', '/integration/sellers/{sellerId}/common-label/{cargoTrackingNumber}', { group: 'labelCreate', body: true }),
  route('getCommonLabel', 'GET', '/integration/sellers/{sellerId}/common-label/{cargoTrackingNumber}', { group: 'labelGet' }),
  route('createWebhook', 'POST', HOOKS, { body: true }),
  route('getWebhooks', 'GET', HOOKS),
  route('updateWebhook', 'PUT', `${HOOKS}/{id}`, { body: true }),
  route('deleteWebhook', 'DELETE', `${HOOKS}/{id}`),
  route('activateWebhook', 'PUT', `${HOOKS}/{id}/activate`),
  route('deactivateWebhook', 'PUT', `${HOOKS}/{id}/deactivate`),
  route('createTestOrder', 'POST', '/integration/test/order/orders/core', { stageOnly: true, body: true }),
  route('updateTestOrderStatus', 'PUT', '/integration/test/order/sellers/{sellerId}/shipment-packages/{packageId}/status', { stageOnly: true, body: true }),
];

function matchRoute(pathname: string, method: string): { route?: Route; params: Record<string, string>; allow?: string } {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const hits = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
  if (!hits.length) return { params: {} };
  const hit = hits.find((x) => x.r.method === method);
  if (!hit) return { params: {}, allow: [...new Set(hits.map((x) => x.r.method))].join(', ') };
  const params = Object.fromEntries(hit.r.names.map((n, i) => [n, decodeURIComponent(hit.m![i + 1])]));
  return { route: hit.r, params };
}

const isJson = (ct: string | undefined) => /^\s*application\/([^;\s]+\+)?json\s*(;|$)/i.test(ct ?? '');
const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

class HttpAnswer {
  constructor(
    readonly status: number,
    /** undefined: no body; a string: text/plain */
    readonly body: unknown,
    readonly outcome: TrendyolOutcome,
    readonly headers: Record<string, string> = {},
    readonly validationErrors: string[] = [],
  ) {}
}

/** Statuses from which the seller can still act on a package (status update, split, unsupplied, labels). */
const OPEN_STATUSES: readonly TrendyolPackageStatus[] = ['Awaiting', 'Created', 'Picking', 'Invoiced'];
const GONE_STATUSES: readonly TrendyolPackageStatus[] = ['Cancelled', 'UnSupplied', 'UnPacked'];

// --------------------------------------------------------------------------------------------------------------------
// The double
// --------------------------------------------------------------------------------------------------------------------

export async function startTrendyolDouble(options: TrendyolDoubleOptions = {}): Promise<TrendyolDouble> {
  const now = options.now ?? (() => new Date());
  const nowMs = () => now().getTime();
  const environment = options.environment ?? 'stage';
  const ipAllowlisted = options.ipAllowlisted ?? true;
  const userAgentCheck = options.userAgentCheck ?? 'strict';
  const rateLimitsOn = options.rateLimits ?? true;
  const queryDates = options.queryDates ?? 'gmt3';
  const ordersDateField = options.ordersDateField ?? 'lastModified';
  const deprecatedTracking = options.deprecatedTrackingEndpoint ?? 'serve';
  const splitDelayMs = options.splitDelayMs ?? 0;
  const labelDelayMs = options.labelDelayMs ?? 0;
  const passivateAfterMs = options.webhookPassivateAfterMs ?? 24 * 3600_000;
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 5000;
  const sellers: Required<TrendyolSeller>[] = (options.sellers ?? [TRENDYOL_TEST_SELLER]).map((s) => ({
    listingTier: '50000',
    name: 'Test Mağazası',
    ...s,
  }));
  for (const s of sellers)
    if (!LISTING_TIERS.includes(s.listingTier)) throw new Error(`trendyol double: listingTier ${s.listingTier} is not one of ${LISTING_TIERS.join(', ')}`);
  const products = new Map((options.products ?? TRENDYOL_SAMPLE_PRODUCTS).map((p) => [p.barcode, p]));

  const requests: TrendyolRecordedRequest[] = [];
  const packages = new Map<number, TrendyolPackageRecord>();
  const webhooks = new Map<string, TrendyolWebhookRecord>();
  const webhookDeliveries: TrendyolWebhookDelivery[] = [];
  const cursors = new Map<
    string,
    { sellerId: string; filterKey: string; start: number; end: number; statuses: string[] | null; lastMod: number; lastId: number }
  >();
  const hits = new Map<string, number[]>();
  const faults = new FaultQueue<TrendyolFault, TrendyolOperation>();
  let down = false;

  // id sequences, from the documents' example values
  let nextPackageId = 3330111111;
  let nextLineId = 4765111111;
  let nextLineItemId = 11111111;
  let nextOrderNumber = 10654411111;
  let nextCustomerId = 888888888;
  let nextAddressId = 11111111;
  let nextShipmentNumber = 606404425;
  let nextSenderNumber = 210090111111;
  const nextTracking: Record<TrendyolPaysCarrier, number> = {
    TEX: TRENDYOL_PAYS_CARRIERS.TEX.firstTrackingNumber,
    ARAS: TRENDYOL_PAYS_CARRIERS.ARAS.firstTrackingNumber,
  };

  const sellerById = (id: string) => sellers.find((s) => s.sellerId === id);

  // ---- answers ------------------------------------------------------------------------------------------------------

  const ok = (body?: unknown) => new HttpAnswer(200, body, 'ok');
  const refuse = (r: Route, status: number, key: string, message: string, field: string, outcome: TrendyolOutcome = 'refused') =>
    new HttpAnswer(status, r.family === 'pull' ? pullErrorBody(STATUS_CODES[status] ?? 'Error', message) : errorsBody(status, key, message), outcome, {}, [
      `${field}: ${message}`,
    ]);
  const invalid = (r: Route, key: string, message: string, field: string) => refuse(r, 400, key, message, field, 'invalid');
  const notFound = (r: Route, message: string = M.packageNotFound, field = 'packageId') => refuse(r, 404, 'not.found', message, field, 'not-found');

  // ---- packages -----------------------------------------------------------------------------------------------------

  function address(input: TrendyolAddressInput, invoice: boolean, commercial: boolean, tax?: { taxNumber?: string; taxOffice?: string }): TrendyolAddress {
    const fullName = `${input.firstName} ${input.lastName}`;
    const fullAddress = [input.address1, input.address2, input.neighborhood, `${input.district}/${input.city}`].filter(Boolean).join(' ');
    const a: TrendyolAddress = {
      id: nextAddressId++,
      firstName: input.firstName,
      lastName: input.lastName,
      company: input.company ?? '',
      address1: input.address1,
      address2: input.address2 ?? '',
      city: input.city,
      cityCode: input.cityCode ?? 0,
      district: input.district,
      districtId: input.districtId ?? 0,
      countyId: 0,
      countyName: '',
      shortAddress: '',
      stateName: '',
      addressLines: { addressLine1: input.address1, addressLine2: input.address2 ?? '' },
      postalCode: input.postalCode ?? '',
      countryCode: input.countryCode ?? 'TR',
      neighborhoodId: input.neighborhoodId ?? 0,
      neighborhood: input.neighborhood ?? '',
      phone: input.phone === undefined ? null : input.phone,
      fullAddress,
      fullName,
    };
    if (invoice) Object.assign(a, { sector: '', latitude: '', longitude: '' });
    if (invoice && commercial) Object.assign(a, { taxOffice: tax?.taxOffice ?? '', taxNumber: tax?.taxNumber ?? '', eInvoiceAvailable: false });
    return a;
  }

  function lineJson(sellerId: string, l: TrendyolLineInput, lineId: number, status: string): TrendyolLine {
    const p = products.get(l.barcode);
    const price = l.price ?? p?.price;
    if (price === undefined) throw new Error(`trendyol double: barcode ${l.barcode} is not in the catalogue; give its price`);
    if (!Number.isInteger(l.quantity) || l.quantity < 1) throw new Error(`trendyol double: quantity ${l.quantity} of ${l.barcode} is not a positive integer`);
    const sellerDiscount = l.sellerDiscount ?? 0;
    const tyDiscount = l.tyDiscount ?? 0;
    const unit = round2(price - sellerDiscount - tyDiscount);
    return {
      quantity: l.quantity,
      salesCampaignId: 11,
      productSize: p?.productSize ?? '',
      stockCode: l.stockCode ?? p?.stockCode ?? l.barcode,
      productName: l.productName ?? p?.productName ?? `Ürün ${l.barcode}`,
      contentId: p?.contentId ?? 0,
      productOrigin: 'TR',
      sellerId: Number(sellerId),
      lineGrossAmount: round2(price),
      lineTotalDiscount: round2(sellerDiscount + tyDiscount),
      lineSellerDiscount: round2(sellerDiscount),
      lineTyDiscount: round2(tyDiscount),
      discountDetails: Array.from({ length: l.quantity }, () => ({
        lineItemId: String(nextLineItemId++),
        lineItemPrice: unit,
        lineItemSellerDiscount: round2(sellerDiscount),
        lineItemTyDiscount: round2(tyDiscount),
      })),
      currencyCode: 'TRY',
      productColor: p?.productColor ?? '',
      lineId,
      vatRate: l.vatRate ?? p?.vatRate ?? 20,
      barcode: l.barcode,
      orderLineItemStatusName: status,
      lineUnitPrice: unit,
      fastDeliveryOptions: [],
      productCategoryId: p?.productCategoryId ?? 0,
      commission: p?.commission ?? 13,
      businessUnit: p?.businessUnit ?? '',
      cancelledBy: '',
      cancelReason: '',
      cancelReasonCode: 0,
    };
  }

  /** A line with another quantity (split / partial cancel). Keeps lineId unless `newId`. */
  function resizeLine(l: TrendyolLine, quantity: number, newId: boolean): TrendyolLine {
    const copy = clone(l);
    copy.quantity = quantity;
    if (newId) copy.lineId = nextLineId++;
    copy.discountDetails = l.discountDetails.slice(0, quantity);
    while (copy.discountDetails.length < quantity) copy.discountDetails.push({ ...l.discountDetails[0], lineItemId: String(nextLineItemId++) });
    return copy;
  }

  function recomputeTotals(p: TrendyolShipmentPackage): void {
    const gross = p.lines.reduce((s, l) => s + l.lineGrossAmount * l.quantity, 0);
    const seller = p.lines.reduce((s, l) => s + l.lineSellerDiscount * l.quantity, 0);
    const ty = p.lines.reduce((s, l) => s + l.lineTyDiscount * l.quantity, 0);
    p.packageGrossAmount = round2(gross);
    p.packageSellerDiscount = round2(seller);
    p.packageTyDiscount = round2(ty);
    p.packageTotalDiscount = round2(seller + ty);
    p.packageTotalPrice = round2(gross - seller - ty);
  }

  function trackingFor(carrier: TrendyolPaysCarrier): { cargoTrackingNumber: number; cargoTrackingLink: string; cargoSenderNumber: string } {
    return {
      cargoTrackingNumber: nextTracking[carrier]++,
      cargoTrackingLink: `https://tracking.trendyol.com/?id=${randomUUID()}`,
      cargoSenderNumber: String(nextSenderNumber++),
    };
  }

  function touch(rec: TrendyolPackageRecord, at = now()): void {
    rec.lastModifiedAt = at;
    rec.json.lastModifiedDate = at.getTime();
  }

  function setStatus(rec: TrendyolPackageRecord, status: TrendyolPackageStatus, source: 'api' | 'double', at = now(), invoiceNumber?: string): void {
    rec.json.status = status;
    rec.json.shipmentPackageStatus = status;
    for (const l of rec.json.lines)
      if (l.orderLineItemStatusName !== 'UnSupplied' && l.orderLineItemStatusName !== 'Cancelled') l.orderLineItemStatusName = status;
    rec.json.packageHistories.push({ createdDate: at.getTime(), status });
    rec.statusUpdates.push({ at, status, invoiceNumber, source });
    touch(rec, at);
    if (options.autoDeliverWebhooks) void deliverWebhooks(rec.json.shipmentPackageId);
  }

  function derivePackage(
    from: TrendyolPackageRecord,
    lines: TrendyolLine[],
    status: TrendyolPackageStatus,
    createdBy: TrendyolCreatedBy,
    visibleFrom: Date,
  ): TrendyolPackageRecord {
    const at = now();
    const json: TrendyolShipmentPackage = clone(from.json);
    json.shipmentPackageId = nextPackageId++;
    json.shipmentNumber = nextShipmentNumber++;
    json.lines = lines;
    for (const l of json.lines) l.orderLineItemStatusName = status;
    json.status = status;
    json.shipmentPackageStatus = status;
    json.packageHistories = [{ createdDate: at.getTime(), status }];
    json.createdBy = createdBy;
    json.originPackageIds = [...(from.json.originPackageIds ?? []), from.json.shipmentPackageId];
    json.originShipmentDate = at.getTime();
    json.lastModifiedDate = at.getTime();
    delete json.invoiceNumber;
    if (from.whoPays === 'trendyol' && from.carrier) Object.assign(json, trackingFor(from.carrier));
    else Object.assign(json, { cargoTrackingNumber: null, cargoTrackingLink: null, cargoSenderNumber: null });
    recomputeTotals(json);
    const rec: TrendyolPackageRecord = {
      json,
      sellerId: from.sellerId,
      whoPays: from.whoPays,
      carrier: from.carrier,
      createdAt: at,
      lastModifiedAt: at,
      visibleFrom,
      statusUpdates: [{ at, status, source: 'double' }],
      trackingUpdates: [],
      testOrder: from.testOrder,
    };
    packages.set(json.shipmentPackageId, rec);
    return rec;
  }

  function placeOrder(input: PlaceOrderInput, testOrder = false): TrendyolPackageRecord {
    const sellerId = input.sellerId ?? sellers[0].sellerId;
    if (!sellerById(sellerId)) throw new Error(`trendyol double: no seller ${sellerId}`);
    if (!input.lines.length) throw new Error('trendyol double: an order needs lines');
    const at = input.at ?? now();
    const status = input.status ?? 'Created';
    const whoPays = input.whoPays ?? 'trendyol';
    let carrier: TrendyolPaysCarrier | undefined;
    let providerName: string;
    if (whoPays === 'trendyol') {
      carrier = (input.carrier ?? 'TEX') as TrendyolPaysCarrier;
      if (!(carrier in TRENDYOL_PAYS_CARRIERS)) throw new Error(`trendyol double: Trendyol pays with TEX or ARAS, not ${input.carrier}`);
      providerName = TRENDYOL_PAYS_CARRIERS[carrier].name;
    } else {
      const code = input.carrier ?? 'YKMP';
      providerName = SELLER_CARRIERS[code] ?? code;
    }
    const commercial = input.commercial ?? false;
    const customer = input.customer ?? { firstName: 'Ayşe', lastName: 'Yılmaz' };
    const ship = input.shipmentAddress ?? { ...TRENDYOL_SAMPLE_ADDRESS, firstName: customer.firstName, lastName: customer.lastName };
    const inv = input.invoiceAddress ?? ship;
    const lines = input.lines.map((l) => lineJson(sellerId, l, nextLineId++, status));
    const ms = at.getTime();
    const json: TrendyolShipmentPackage = {
      shipmentAddress: address(ship, false, false),
      orderNumber: input.orderNumber ?? String(nextOrderNumber++),
      paymentMethod: input.paymentMethod ?? 'Kredi Kartı',
      orderCountryCode: 'TR',
      packageGrossAmount: 0,
      packageSellerDiscount: 0,
      packageTyDiscount: 0,
      packageTotalDiscount: 0,
      discountDisplays: [],
      taxNumber: commercial ? (input.invoiceAddress?.taxNumber ?? null) : null,
      invoiceAddress: address(inv, true, commercial, input.invoiceAddress),
      customerFirstName: customer.firstName,
      customerEmail: customer.email ?? `pf+${Math.random().toString(36).slice(2, 10)}@trendyolmail.com`,
      customerId: customer.id ?? nextCustomerId++,
      supplierId: Number(sellerId),
      customerLastName: customer.lastName,
      channelId: 1,
      shipmentPackageId: nextPackageId++,
      cargoTrackingNumber: null,
      cargoTrackingLink: null,
      cargoSenderNumber: null,
      sellerDeliveryMethod: null,
      sellerOtpCode: null,
      cargoProviderName: providerName,
      lines,
      orderDate: toGmt3(ms),
      identityNumber: input.identityNumber ?? null,
      currencyCode: 'TRY',
      packageHistories: [{ createdDate: ms, status }],
      shipmentPackageStatus: status,
      status,
      deliveryType: 'normal',
      timeSlotId: 0,
      estimatedDeliveryStartDate: ms + 5 * 24 * 3600_000,
      estimatedDeliveryEndDate: ms + 7 * 24 * 3600_000,
      packageTotalPrice: 0,
      deliveryAddressType: input.deliveryAddressType ?? 'Shipment',
      agreedDeliveryDate: ms + 2 * 24 * 3600_000,
      fastDelivery: input.fastDelivery ?? false,
      originShipmentDate: ms,
      lastModifiedDate: ms,
      commercial,
      fastDeliveryType: '',
      deliveredByService: false,
      warehouseId: 372389,
      invoiceLink: null,
      micro: false,
      giftBoxRequested: false,
      '3pByTrendyol': false,
      containsDangerousProduct: false,
      cargoDeci: 1,
      isCod: false,
      createdBy: 'order-creation',
      originPackageIds: null,
      shipmentNumber: nextShipmentNumber++,
      is4P: false,
    };
    if (whoPays === 'seller') json.whoPays = 1;
    else Object.assign(json, trackingFor(carrier!));
    recomputeTotals(json);
    const rec: TrendyolPackageRecord = {
      json,
      sellerId,
      whoPays,
      carrier,
      createdAt: at,
      lastModifiedAt: at,
      visibleFrom: at,
      statusUpdates: [{ at, status, source: 'double' }],
      trackingUpdates: [],
      testOrder,
    };
    packages.set(json.shipmentPackageId, rec);
    if (options.autoDeliverWebhooks) void deliverWebhooks(json.shipmentPackageId);
    return rec;
  }

  const getPackage = (id: number): TrendyolPackageRecord => {
    const rec = packages.get(id);
    if (!rec) throw new Error(`trendyol double: no package ${id}`);
    return rec;
  };

  /** Cancels `spec` (lineId → quantity) of a package. Returns the package made of what is left, if anything is. */
  function cancelLines(
    rec: TrendyolPackageRecord,
    spec: Map<number, number>,
    how: { lineStatus: 'UnSupplied' | 'Cancelled'; by: string; reasonCode: number; reason: string },
  ): TrendyolPackageRecord | undefined {
    const remaining: TrendyolLine[] = [];
    for (const l of rec.json.lines) {
      const cancelled = Math.min(spec.get(l.lineId) ?? 0, l.quantity);
      if (cancelled < l.quantity) remaining.push(resizeLine(l, l.quantity - cancelled, false));
      if (cancelled > 0)
        Object.assign(l, { orderLineItemStatusName: how.lineStatus, cancelledBy: how.by, cancelReason: how.reason, cancelReasonCode: how.reasonCode });
    }
    const previous = rec.json.status;
    const whole = remaining.length === 0;
    // whole package: UnSupplied when the seller could not supply it, Cancelled otherwise; partial: the package is broken up (Cancelled)
    setStatus(rec, whole && how.lineStatus === 'UnSupplied' ? 'UnSupplied' : 'Cancelled', 'double');
    if (whole) return undefined;
    return derivePackage(rec, remaining, previous, 'cancel', now());
  }

  /** Splits a package into `groups` (lineId → quantity) + the rest. The old package becomes UnPacked. */
  function splitInto(rec: TrendyolPackageRecord, groups: Map<number, number>[], keepStatus: boolean): number[] {
    const previous = rec.json.status;
    const newStatus: TrendyolPackageStatus = keepStatus ? previous : 'Created';
    const left = new Map(rec.json.lines.map((l) => [l.lineId, l.quantity]));
    const parts: TrendyolLine[][] = [];
    for (const g of groups) {
      const part: TrendyolLine[] = [];
      for (const [lineId, q] of g) {
        const l = rec.json.lines.find((x) => x.lineId === lineId)!;
        left.set(lineId, left.get(lineId)! - q);
        part.push(resizeLine(l, q, q !== l.quantity));
      }
      parts.push(part);
    }
    const rest = rec.json.lines.filter((l) => left.get(l.lineId)! > 0).map((l) => resizeLine(l, left.get(l.lineId)!, left.get(l.lineId) !== l.quantity));
    if (rest.length) parts.push(rest);
    setStatus(rec, 'UnPacked', 'double');
    const visibleFrom = new Date(nowMs() + splitDelayMs);
    return parts.map((lines) => derivePackage(rec, lines, newStatus, 'split', visibleFrom).json.shipmentPackageId);
  }

  // ---- rate limits --------------------------------------------------------------------------------------------------

  function limited(sellerId: string, r: Route): 'burst' | TrendyolLimitGroup | undefined {
    if (!rateLimitsOn) return undefined;
    const t = nowMs();
    const count = (key: string, windowMs: number) => {
      const list = (hits.get(key) ?? []).filter((x) => x > t - windowMs);
      hits.set(key, list);
      return list.length;
    };
    const burstKey = `${sellerId}|op|${r.operation}`;
    if (count(burstKey, TRENDYOL_LIMITS.burstWindowMs) >= TRENDYOL_LIMITS.burstPerEndpoint) return 'burst';
    let groupKey: string | undefined;
    if (r.group) {
      const limit = TRENDYOL_RATE_LIMITS[r.group][sellerById(sellerId)!.listingTier];
      groupKey = `${sellerId}|group|${r.group}`;
      if (limit !== null && count(groupKey, 60_000) >= limit) return r.group;
      if (limit === null) groupKey = undefined;
    }
    hits.get(burstKey)!.push(t);
    if (groupKey) hits.get(groupKey)!.push(t);
    return undefined;
  }

  // ---- pulls --------------------------------------------------------------------------------------------------------

  function queryInstant(v: string | undefined): number | undefined | null {
    if (v === undefined || v === '') return undefined;
    const n = asInteger(v);
    if (n === undefined) return null;
    return queryDates === 'gmt3' ? fromGmt3(n) : n;
  }

  function visible(sellerId: string, historyMs: number): TrendyolPackageRecord[] {
    const t = nowMs();
    return [...packages.values()].filter((p) => p.sellerId === sellerId && p.visibleFrom.getTime() <= t && p.createdAt.getTime() >= t - historyMs);
  }

  function statusList(raw: string | undefined, allowed: readonly string[]): string[] | null | false {
    if (raw === undefined || raw.trim() === '') return null;
    const list = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const canonical = list.map((s) => allowed.find((a) => a.toLowerCase() === s.toLowerCase()));
    return canonical.every((s): s is string => s !== undefined) ? canonical : false;
  }

  function getShipmentPackages(r: Route, sellerId: string, url: URL): HttpAnswer {
    const q = url.searchParams;
    const page = q.get('page') === null ? 0 : asInteger(q.get('page'));
    const size = q.get('size') === null ? TRENDYOL_LIMITS.pageSizeDefault : asInteger(q.get('size'));
    if (page === undefined || page < 0) return invalid(r, 'invalid.page', 'page 0 veya daha büyük bir tam sayı olmalıdır.', 'page');
    if (size === undefined || size < 1) return invalid(r, 'invalid.size', 'size 1 veya daha büyük bir tam sayı olmalıdır.', 'size');
    if (size > TRENDYOL_LIMITS.pageSizeMax) return invalid(r, 'invalid.size', M.sizeTooLarge, 'size');
    if (page * size + size > TRENDYOL_LIMITS.maxQueryWindowResult) return invalid(r, 'max.query.window.result', M.maxQueryWindow, 'page');

    const statuses = statusList(q.get('status') ?? undefined, [...TRENDYOL_PACKAGE_STATUSES, ...TRENDYOL_FILTER_ONLY_STATUSES]);
    if (statuses === false) return invalid(r, 'invalid.status', M.invalidStatus, 'status');
    const rawIds = q
      .getAll('shipmentPackageIds')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
    const ids = rawIds.map((v) => asInteger(v));
    if (ids.some((i) => i === undefined)) return invalid(r, 'invalid.shipment.package.ids', 'shipmentPackageIds sayısal olmalıdır.', 'shipmentPackageIds');
    if (ids.length > TRENDYOL_LIMITS.shipmentPackageIdsMax) return invalid(r, 'invalid.shipment.package.ids', M.tooManyPackageIds, 'shipmentPackageIds');
    const orderNumber = q.get('orderNumber') ?? undefined;
    const orderByField = q.get('orderByField') ?? 'PackageLastModifiedDate';
    const orderByDirection = (q.get('orderByDirection') ?? 'DESC').toUpperCase();
    if (orderByField !== 'PackageLastModifiedDate' && orderByField !== 'CreatedDate')
      return invalid(r, 'invalid.order.by.field', 'orderByField PackageLastModifiedDate ya da CreatedDate olmalıdır.', 'orderByField');
    if (orderByDirection !== 'ASC' && orderByDirection !== 'DESC')
      return invalid(r, 'invalid.order.by.direction', 'orderByDirection ASC ya da DESC olmalıdır.', 'orderByDirection');

    const start = queryInstant(q.get('startDate') ?? undefined);
    const end = queryInstant(q.get('endDate') ?? undefined);
    if (start === null || end === null)
      return invalid(r, 'invalid.date', 'startDate ve endDate milisaniye cinsinden timestamp olmalıdır.', 'startDate|endDate');
    const targeted = ids.length > 0 || orderNumber !== undefined;
    let window: [number, number] | undefined;
    if (start !== undefined || end !== undefined || !targeted) {
      const e = end ?? nowMs();
      const s = start ?? e - TRENDYOL_LIMITS.defaultWindowMs;
      if (s > e) return invalid(r, 'invalid.date', 'startDate, endDate değerinden büyük olamaz.', 'startDate');
      if (e - s > TRENDYOL_LIMITS.maxWindowMs) return invalid(r, 'invalid.date.range', M.windowTooLarge, 'startDate|endDate');
      window = [s, e];
    }

    const dateOf = (p: TrendyolPackageRecord) => (ordersDateField === 'orderDate' ? p.createdAt.getTime() : p.lastModifiedAt.getTime());
    const matching = visible(sellerId, TRENDYOL_LIMITS.historyMs).filter(
      (p) =>
        (!window || (dateOf(p) >= window[0] && dateOf(p) <= window[1])) &&
        (!statuses || statuses.includes(p.json.status)) &&
        (!orderNumber || p.json.orderNumber === orderNumber) &&
        (!ids.length || ids.includes(p.json.shipmentPackageId)),
    );
    const key = (p: TrendyolPackageRecord) => (orderByField === 'CreatedDate' ? p.createdAt.getTime() : p.lastModifiedAt.getTime());
    const dir = orderByDirection === 'ASC' ? 1 : -1;
    matching.sort((a, b) => dir * (key(a) - key(b) || a.json.shipmentPackageId - b.json.shipmentPackageId));
    const content = matching.slice(page * size, page * size + size).map((p) => clone(p.json));
    const body: TrendyolPage = { totalElements: matching.length, totalPages: Math.ceil(matching.length / size), page, size, content };
    return ok(body);
  }

  function getShipmentPackagesStream(r: Route, sellerId: string, url: URL): HttpAnswer {
    const q = url.searchParams;
    const size = q.get('size') === null ? TRENDYOL_LIMITS.streamSizeDefault : asInteger(q.get('size'));
    if (size === undefined || size < 1) return invalid(r, 'invalid.size', 'size 1 veya daha büyük bir tam sayı olmalıdır.', 'size');
    if (size > TRENDYOL_LIMITS.pageSizeMax) return invalid(r, 'invalid.size', M.sizeTooLarge, 'size');
    const rawStatuses = q.get('packageItemStatuses') ?? undefined;
    const statuses = statusList(rawStatuses, TRENDYOL_LINE_STATUSES);
    if (statuses === false) return invalid(r, 'invalid.status', M.invalidStatus, 'packageItemStatuses');
    const rawStart = q.get('lastModifiedStartDate') ?? undefined;
    const rawEnd = q.get('lastModifiedEndDate') ?? undefined;
    const filterKey = JSON.stringify([statuses ? [...statuses].sort() : null, rawStart ?? null, rawEnd ?? null]);
    const cursorId = q.get('nextCursor');

    let state: { sellerId: string; filterKey: string; start: number; end: number; statuses: string[] | null; lastMod: number; lastId: number };
    if (cursorId !== null) {
      const c = cursors.get(cursorId);
      if (!c || c.sellerId !== sellerId) return invalid(r, 'invalid.cursor', M.invalidCursor, 'nextCursor');
      if (c.filterKey !== filterKey) return invalid(r, 'cursor.filter.mismatch', M.cursorFilterMismatch, 'nextCursor');
      state = c;
    } else {
      const start = queryInstant(rawStart);
      const end = queryInstant(rawEnd);
      if (start === null || end === null)
        return invalid(r, 'invalid.date', 'lastModifiedStartDate ve lastModifiedEndDate milisaniye cinsinden timestamp olmalıdır.', 'lastModified*Date');
      const e = end ?? nowMs();
      const s = start ?? e - TRENDYOL_LIMITS.maxWindowMs;
      if (s > e) return invalid(r, 'invalid.date', 'lastModifiedStartDate, lastModifiedEndDate değerinden büyük olamaz.', 'lastModifiedStartDate');
      if (e - s > TRENDYOL_LIMITS.maxWindowMs) return invalid(r, 'invalid.date.range', M.windowTooLarge, 'lastModified*Date');
      state = { sellerId, filterKey, start: s, end: e, statuses, lastMod: Number.POSITIVE_INFINITY, lastId: Number.POSITIVE_INFINITY };
    }
    const matching = visible(sellerId, TRENDYOL_LIMITS.streamHistoryMs)
      .filter((p) => {
        const m = p.lastModifiedAt.getTime();
        if (m < state.start || m > state.end) return false;
        if (state.statuses && !p.json.lines.some((l) => state.statuses!.includes(l.orderLineItemStatusName))) return false;
        // after the cursor in lastModifiedDate DESC order
        return m < state.lastMod || (m === state.lastMod && p.json.shipmentPackageId < state.lastId);
      })
      .sort((a, b) => b.lastModifiedAt.getTime() - a.lastModifiedAt.getTime() || b.json.shipmentPackageId - a.json.shipmentPackageId);
    const pageItems = matching.slice(0, size);
    const hasMore = matching.length > size;
    let nextCursor = '';
    if (hasMore) {
      const last = pageItems[pageItems.length - 1];
      nextCursor = randomUUID();
      cursors.set(nextCursor, { ...state, lastMod: last.lastModifiedAt.getTime(), lastId: last.json.shipmentPackageId });
    }
    const body: TrendyolStreamPage = { hasMore, nextCursor, size: pageItems.length, content: pageItems.map((p) => clone(p.json)) };
    return ok(body);
  }

  // ---- package write-backs ------------------------------------------------------------------------------------------

  function ownPackage(r: Route, sellerId: string, params: Record<string, string>): TrendyolPackageRecord | HttpAnswer {
    const id = asInteger(params.packageId);
    if (id === undefined) return invalid(r, 'invalid.package.id', 'packageId sayısal olmalıdır.', 'packageId');
    const rec = packages.get(id);
    if (!rec || rec.sellerId !== sellerId || rec.visibleFrom.getTime() > nowMs()) return notFound(r);
    return rec;
  }

  /** lines: [{lineId, quantity}] of this package; returns lineId → quantity. */
  function lineSpec(r: Route, rec: TrendyolPackageRecord, lines: unknown, field = 'lines'): Map<number, number> | HttpAnswer {
    if (!Array.isArray(lines) || lines.length === 0) return invalid(r, 'invalid.lines', `${field} alanı zorunludur.`, field);
    const spec = new Map<number, number>();
    for (const entry of lines) {
      const lineId = isObject(entry) ? asInteger(entry.lineId) : undefined;
      const quantity = isObject(entry) ? asInteger(entry.quantity) : undefined;
      const line = rec.json.lines.find((l) => l.lineId === lineId);
      if (lineId === undefined || !line) return invalid(r, 'line.not.found', M.lineNotInPackage, `${field}.lineId`);
      if (quantity === undefined || quantity < 1 || quantity + (spec.get(lineId) ?? 0) > line.quantity)
        return invalid(r, 'invalid.quantity', M.invalidQuantity, `${field}.quantity`);
      spec.set(lineId, (spec.get(lineId) ?? 0) + quantity);
    }
    return spec;
  }

  function updatePackage(r: Route, rec: TrendyolPackageRecord, body: Record<string, unknown>): HttpAnswer {
    const status = body.status;
    if (status !== 'Picking' && status !== 'Invoiced') return invalid(r, 'invalid.status', M.statusNotAllowed, 'status');
    const params = body.params === undefined || body.params === null ? {} : body.params;
    if (!isObject(params)) return invalid(r, 'invalid.params', 'params bir nesne olmalıdır.', 'params');
    const invoiceNumber = params.invoiceNumber;
    if (status === 'Picking' && invoiceNumber !== undefined) return invalid(r, 'invalid.params', M.invoiceNumberOnlyInvoiced, 'params.invoiceNumber');
    if (status === 'Invoiced' && !nonEmpty(invoiceNumber)) return invalid(r, 'invoice.number.required', M.invoiceNumberRequired, 'params.invoiceNumber');
    const spec = lineSpec(r, rec, body.lines);
    if (spec instanceof HttpAnswer) return spec;
    const current = rec.json.status;
    if (status === 'Picking' && current !== 'Created' && current !== 'Picking') return refuse(r, 400, 'package.not.updatable', M.packageNotUpdatable, 'status');
    if (status === 'Invoiced') {
      if (current === 'Created') return refuse(r, 400, 'picking.required', M.pickingBeforeInvoiced, 'status');
      if (current !== 'Picking' && !(current === 'Invoiced' && rec.json.invoiceNumber === invoiceNumber))
        return refuse(r, 400, 'package.not.updatable', M.packageNotUpdatable, 'status');
    }
    if (current === status && (status === 'Picking' || rec.json.invoiceNumber === invoiceNumber)) return ok(); // repeated: nothing changes
    if (status === 'Invoiced') rec.json.invoiceNumber = invoiceNumber as string;
    setStatus(rec, status, 'api', now(), status === 'Invoiced' ? (invoiceNumber as string) : undefined);
    return ok();
  }

  function updateTrackingNumber(r: Route, rec: TrendyolPackageRecord, body: Record<string, unknown>): HttpAnswer {
    if (!nonEmpty(body.trackingNumber)) return invalid(r, 'invalid.tracking.number', 'trackingNumber alanı zorunludur.', 'trackingNumber');
    const s = rec.json.status;
    const alreadyFed = rec.trackingUpdates.some((u) => u.operation === 'updateTrackingNumber');
    if (!OPEN_STATUSES.includes(s) || s === 'Awaiting' || alreadyFed) return refuse(r, 400, 'shipment.not.updatable', M.shipmentNotUpdatable, 'packageId');
    const switched = rec.whoPays === 'trendyol';
    const tn = body.trackingNumber.trim();
    rec.json.cargoTrackingNumber = /^\d{1,15}$/.test(tn) ? Number(tn) : tn;
    rec.json.whoPays = 1;
    rec.whoPays = 'seller';
    rec.trackingUpdates.push({ at: now(), operation: 'updateTrackingNumber', trackingNumber: tn, switchedToSellerContract: switched });
    touch(rec);
    return ok();
  }

  function updateTrackingDetails(r: Route, rec: TrendyolPackageRecord, body: Record<string, unknown>, headers: IncomingHttpHeaders): HttpAnswer {
    if (!nonEmpty(header(headers, 'storefrontcode'))) return invalid(r, 'store.front.code.required', M.storeFrontCodeRequired, 'storeFrontCode');
    if (!nonEmpty(body.cargoSenderNumber)) return invalid(r, 'invalid.cargo.sender.number', 'cargoSenderNumber alanı zorunludur.', 'cargoSenderNumber');
    if (!nonEmpty(body.providerCode)) return invalid(r, 'invalid.provider.code', 'providerCode alanı zorunludur.', 'providerCode');
    const s = rec.json.status;
    if (!['Picking', 'Invoiced', 'Shipped'].includes(s))
      return refuse(r, 400, 'shipment.not.updatable', 'Shipment tracking number cannot be updated', 'packageId');
    const switched = rec.whoPays === 'trendyol';
    rec.json.cargoSenderNumber = body.cargoSenderNumber.trim();
    rec.json.cargoProviderName = SELLER_CARRIERS[body.providerCode] ?? body.providerCode;
    rec.json.whoPays = 1;
    rec.whoPays = 'seller';
    rec.trackingUpdates.push({
      at: now(),
      operation: 'updateTrackingDetails',
      trackingNumber: body.cargoSenderNumber.trim(),
      providerCode: body.providerCode,
      switchedToSellerContract: switched,
    });
    touch(rec);
    return ok();
  }

  function alternativeDelivery(r: Route, rec: TrendyolPackageRecord, body: Record<string, unknown>): HttpAnswer {
    if (typeof body.isPhoneNumber !== 'boolean') return invalid(r, 'invalid.is.phone.number', 'isPhoneNumber alanı zorunludur.', 'isPhoneNumber');
    if (!nonEmpty(body.trackingInfo)) return invalid(r, 'invalid.tracking.info', 'trackingInfo alanı zorunludur.', 'trackingInfo');
    if (!isObject(body.params)) return invalid(r, 'invalid.params', 'params alanı zorunludur.', 'params');
    if (!['Created', 'Picking', 'Invoiced'].includes(rec.json.status)) return refuse(r, 400, 'package.not.updatable', M.packageNotUpdatable, 'packageId');
    rec.trackingUpdates.push({
      at: now(),
      operation: 'alternativeDelivery',
      trackingInfo: body.trackingInfo,
      isPhoneNumber: body.isPhoneNumber,
      switchedToSellerContract: rec.whoPays === 'trendyol',
    });
    setStatus(rec, 'Shipped', 'api');
    return ok();
  }

  function unsupplied(r: Route, rec: TrendyolPackageRecord, body: Record<string, unknown>): HttpAnswer {
    const reasonId = asInteger(body.reasonId);
    const spec = lineSpec(r, rec, body.lines);
    if (spec instanceof HttpAnswer) return spec;
    if (reasonId === undefined || !(reasonId in UNSUPPLIED)) return invalid(r, 'invalid.reason.id', M.invalidReason, 'reasonId');
    if (!OPEN_STATUSES.includes(rec.json.status)) return refuse(r, 400, 'package.not.updatable', M.packageNotUpdatable, 'packageId');
    cancelLines(rec, spec, { lineStatus: 'UnSupplied', by: 'seller', reasonCode: reasonId, reason: UNSUPPLIED[reasonId] });
    return ok();
  }

  function splitOperation(r: Route, rec: TrendyolPackageRecord, body: Record<string, unknown>): HttpAnswer {
    if (!['Created', 'Picking', 'Invoiced'].includes(rec.json.status)) return refuse(r, 400, 'package.not.updatable', M.packageNotUpdatable, 'packageId');
    const byId = new Map(rec.json.lines.map((l) => [l.lineId, l]));
    const used = new Map<number, number>();
    const take = (lineId: number | undefined, q: number | undefined, field: string): HttpAnswer | [number, number] => {
      const line = lineId === undefined ? undefined : byId.get(lineId);
      if (!line) return invalid(r, 'line.not.found', M.lineNotInPackage, field);
      const quantity = q ?? line.quantity;
      if (!Number.isInteger(quantity) || quantity < 1 || (used.get(line.lineId) ?? 0) + quantity > line.quantity)
        return invalid(r, 'invalid.quantity', M.invalidQuantity, field);
      used.set(line.lineId, (used.get(line.lineId) ?? 0) + quantity);
      return [line.lineId, quantity];
    };
    const groups: Map<number, number>[] = [];
    const addGroup = (entries: [number | undefined, number | undefined][], field: string): HttpAnswer | undefined => {
      if (!entries.length) return invalid(r, 'invalid.split', `${field} boş olamaz.`, field);
      const g = new Map<number, number>();
      for (const [id, q] of entries) {
        const t = take(id, q, field);
        if (t instanceof HttpAnswer) return t;
        g.set(t[0], (g.get(t[0]) ?? 0) + t[1]);
      }
      groups.push(g);
      return undefined;
    };
    const ids = (v: unknown) => (Array.isArray(v) ? v.map((x) => [asInteger(x), undefined] as [number | undefined, undefined]) : []);
    let err: HttpAnswer | undefined;
    switch (r.operation) {
      case 'split':
        err = addGroup(ids(body.orderLineIds), 'orderLineIds');
        break;
      case 'multiSplit':
        if (!Array.isArray(body.splitGroups) || !body.splitGroups.length) return invalid(r, 'invalid.split', 'splitGroups alanı zorunludur.', 'splitGroups');
        for (const g of body.splitGroups) if (!err) err = addGroup(ids(isObject(g) ? g.orderLineIds : undefined), 'splitGroups.orderLineIds');
        break;
      case 'quantitySplit': {
        if (!Array.isArray(body.quantitySplit) || !body.quantitySplit.length)
          return invalid(r, 'invalid.split', 'quantitySplit alanı zorunludur.', 'quantitySplit');
        for (const entry of body.quantitySplit) {
          const lineId = isObject(entry) ? asInteger(entry.orderLineId) : undefined;
          const quantities = isObject(entry) && Array.isArray(entry.quantities) ? entry.quantities.map((x) => asInteger(x)) : [];
          const line = lineId === undefined ? undefined : byId.get(lineId);
          if (!line) return invalid(r, 'line.not.found', M.lineNotInPackage, 'quantitySplit.orderLineId');
          if (quantities.length < 2 || quantities.reduce<number>((s, x) => s + (x ?? NaN), 0) !== line.quantity)
            return invalid(r, 'invalid.quantity', 'quantities toplamı satırdaki ürün adedine eşit olmalıdır.', 'quantitySplit.quantities');
          for (const q of quantities) if (!err) err = addGroup([[lineId, q]], 'quantitySplit.quantities');
        }
        break;
      }
      case 'splitPackages':
        if (!Array.isArray(body.splitPackages) || !body.splitPackages.length)
          return invalid(r, 'invalid.split', 'splitPackages alanı zorunludur.', 'splitPackages');
        for (const g of body.splitPackages) {
          const details = isObject(g) && Array.isArray(g.packageDetails) ? g.packageDetails : [];
          if (!err)
            err = addGroup(
              details.map(
                (d) =>
                  [isObject(d) ? asInteger(d.orderLineId) : undefined, isObject(d) ? asInteger(d.quantities) : undefined] as [
                    number | undefined,
                    number | undefined,
                  ],
              ),
              'splitPackages.packageDetails',
            );
        }
        break;
      default:
        break;
    }
    if (err) return err;
    const everything = rec.json.lines.every((l) => used.get(l.lineId) === l.quantity);
    // "Bir paket üzerindeki bütün orderLine'lar bu servise gönderilmemelidir": sending the whole package in one group splits nothing
    if (everything && (r.operation !== 'quantitySplit' && r.operation !== 'splitPackages' ? true : groups.length < 2))
      return invalid(r, 'invalid.split', M.splitAllLines, 'orderLineIds');
    splitInto(rec, groups, body.shouldKeepPreviousStatus === true);
    return ok();
  }

  // ---- common label -------------------------------------------------------------------------------------------------

  function labelPackage(sellerId: string, ctn: string): TrendyolPackageRecord | undefined {
    return [...packages.values()].find(
      (p) => p.sellerId === sellerId && p.json.cargoTrackingNumber !== null && String(p.json.cargoTrackingNumber) === ctn && p.visibleFrom.getTime() <= nowMs(),
    );
  }

  function createCommonLabel(r: Route, sellerId: string, ctn: string, body: Record<string, unknown>): HttpAnswer {
    if (body.format !== 'ZPL') return invalid(r, 'invalid.format', M.invalidFormat, 'format');
    const boxQuantity = body.boxQuantity === undefined || body.boxQuantity === null ? 1 : asInteger(body.boxQuantity);
    if (boxQuantity === undefined || boxQuantity < 1)
      return invalid(r, 'invalid.box.quantity', 'boxQuantity 1 veya daha büyük bir tam sayı olmalıdır.', 'boxQuantity');
    const vh = body.volumetricHeight;
    if (vh !== undefined && vh !== null && (typeof vh !== 'number' || vh < 0))
      return invalid(r, 'invalid.volumetric.height', 'volumetricHeight sayısal olmalıdır.', 'volumetricHeight');
    const rec = labelPackage(sellerId, ctn);
    if (!rec || rec.whoPays !== 'trendyol' || !rec.carrier || GONE_STATUSES.includes(rec.json.status))
      return refuse(r, 400, 'invalid.cargo.tracking.number', M.checkCargoTrackingNumber, 'cargoTrackingNumber');
    const seller = sellerById(sellerId)!;
    const a = rec.json.shipmentAddress;
    const at = now();
    rec.label = {
      requestedAt: at,
      readyAt: new Date(at.getTime() + labelDelayMs),
      boxQuantity,
      volumetricHeight: typeof vh === 'number' ? vh : undefined,
      statusAtRequest: rec.json.status,
      labels: Array.from({ length: boxQuantity }, (_, i) =>
        trendyolCommonLabel({
          carrierName: TRENDYOL_PAYS_CARRIERS[rec.carrier!].name,
          cargoTrackingNumber: ctn,
          orderNumber: rec.json.orderNumber,
          shipmentPackageId: rec.json.shipmentPackageId,
          sender: seller.name,
          recipient: a.fullName,
          address: a.fullAddress,
          district: a.district,
          city: a.city,
          box: i + 1,
          boxes: boxQuantity,
          volumetricHeight: typeof vh === 'number' ? vh : undefined,
        }),
      ),
    };
    return ok();
  }

  function getCommonLabel(r: Route, sellerId: string, ctn: string): HttpAnswer {
    const rec = labelPackage(sellerId, ctn);
    if (!rec || rec.whoPays !== 'trendyol') return refuse(r, 400, 'invalid.cargo.tracking.number', M.checkCargoTrackingNumber, 'cargoTrackingNumber');
    if (!rec.label || rec.label.readyAt.getTime() > nowMs()) return refuse(r, 400, 'common.label.not.found', M.labelNotReady, 'cargoTrackingNumber');
    const body: TrendyolCommonLabelAnswer = { data: rec.label.labels.map((label) => ({ label, format: 'ZPL' })) };
    return ok(body);
  }

  // ---- webhooks -----------------------------------------------------------------------------------------------------

  function webhookBody(
    r: Route,
    body: Record<string, unknown>,
  ): HttpAnswer | Omit<TrendyolWebhookRecord, 'id' | 'sellerId' | 'status' | 'createdAt' | 'lastModifiedAt'> {
    if (!nonEmpty(body.url)) return invalid(r, 'invalid.url', M.webhookUrlRequired, 'url');
    let parsed: URL;
    try {
      parsed = new URL(body.url);
    } catch {
      return invalid(r, 'invalid.url', 'url geçerli bir adres olmalıdır.', 'url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return invalid(r, 'invalid.url', 'url geçerli bir adres olmalıdır.', 'url');
    if (/trendyol|dolap|localhost/i.test(body.url)) return invalid(r, 'invalid.url', M.webhookUrlForbidden, 'url');
    const type = body.authenticationType;
    if (type !== 'BASIC_AUTHENTICATION' && type !== 'API_KEY') return invalid(r, 'invalid.authentication.type', M.webhookAuthType, 'authenticationType');
    if (type === 'API_KEY' && !nonEmpty(body.apiKey)) return invalid(r, 'api.key.required', M.webhookApiKeyRequired, 'apiKey');
    if (type === 'BASIC_AUTHENTICATION' && (!nonEmpty(body.username) || !nonEmpty(body.password)))
      return invalid(r, 'basic.credentials.required', M.webhookBasicRequired, 'username|password');
    let subscribed: TrendyolWebhookStatus[] | null = null;
    if (body.subscribedStatuses !== undefined && body.subscribedStatuses !== null) {
      if (!Array.isArray(body.subscribedStatuses) || body.subscribedStatuses.some((s) => !(TRENDYOL_WEBHOOK_STATUSES as readonly unknown[]).includes(s)))
        return invalid(r, 'invalid.subscribed.statuses', M.webhookStatus, 'subscribedStatuses');
      subscribed = body.subscribedStatuses.length ? [...new Set(body.subscribedStatuses as TrendyolWebhookStatus[])] : null;
    }
    return {
      url: body.url,
      authenticationType: type,
      username: nonEmpty(body.username) ? body.username : undefined,
      password: nonEmpty(body.password) ? body.password : undefined,
      apiKey: nonEmpty(body.apiKey) ? body.apiKey : undefined,
      subscribedStatuses: subscribed,
    };
  }

  const webhookView = (w: TrendyolWebhookRecord): TrendyolWebhookView => ({
    id: w.id,
    createdDate: toGmt3(w.createdAt.getTime()),
    lastModifiedDate: w.lastModifiedAt ? toGmt3(w.lastModifiedAt.getTime()) : null,
    url: w.url,
    username: w.username ?? null,
    authenticationType: w.authenticationType,
    status: w.status,
    subscribedStatuses: w.subscribedStatuses ? [...w.subscribedStatuses] : null,
  });

  function ownWebhook(r: Route, sellerId: string, id: string): TrendyolWebhookRecord | HttpAnswer {
    const w = webhooks.get(id);
    return w && w.sellerId === sellerId ? w : notFound(r, M.webhookNotFound, 'id');
  }

  async function post(w: TrendyolWebhookRecord, rec: TrendyolPackageRecord, credential: TrendyolWebhookCredential | undefined, attempt: number) {
    const body: TrendyolPage = { totalElements: 1, totalPages: 1, page: 0, size: 1, content: [clone(rec.json)] };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const cred = credential ?? (w.authenticationType === 'API_KEY' ? { apiKey: w.apiKey! } : { username: w.username!, password: w.password! });
    if (cred !== 'none' && 'apiKey' in cred) headers['x-api-key'] = cred.apiKey;
    else if (cred !== 'none') headers.authorization = `Basic ${Buffer.from(`${cred.username}:${cred.password}`).toString('base64')}`;
    const d: TrendyolWebhookDelivery = {
      at: now(),
      webhookId: w.id,
      url: w.url,
      shipmentPackageId: rec.json.shipmentPackageId,
      packageStatus: rec.json.status,
      headers,
      body,
      ok: false,
      attempt,
    };
    webhookDeliveries.push(d);
    try {
      const res = await fetch(w.url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(webhookTimeoutMs) });
      await res.arrayBuffer().catch(() => undefined);
      d.status = res.status;
      d.ok = res.status >= 200 && res.status < 300;
      if (!d.ok) d.error = `HTTP ${res.status}`;
    } catch (e) {
      d.error = (e as Error).message;
    }
    if (d.ok) w.failingSince = undefined;
    else {
      w.failingSince ??= d.at;
      d.retryAt = new Date(d.at.getTime() + 5 * 60_000);
      if (d.at.getTime() - w.failingSince.getTime() >= passivateAfterMs) w.status = 'PASSIVE';
    }
    return d;
  }

  async function deliverWebhooks(shipmentPackageId: number, opts: { credential?: TrendyolWebhookCredential } = {}): Promise<TrendyolWebhookDelivery[]> {
    const rec = getPackage(shipmentPackageId);
    const status = webhookStatusOf(rec.json.status);
    const targets = [...webhooks.values()].filter(
      (w) => w.sellerId === rec.sellerId && w.status === 'ACTIVE' && (w.subscribedStatuses === null || w.subscribedStatuses.includes(status)),
    );
    return Promise.all(targets.map((w) => post(w, rec, opts.credential, 1)));
  }

  async function retryWebhooks(): Promise<TrendyolWebhookDelivery[]> {
    const due = webhookDeliveries.filter((d) => !d.ok && !d.retried && d.retryAt && d.retryAt.getTime() <= nowMs());
    const out: TrendyolWebhookDelivery[] = [];
    for (const d of due) {
      d.retried = true;
      const w = webhooks.get(d.webhookId);
      const rec = packages.get(d.shipmentPackageId);
      if (!w || !rec || w.status !== 'ACTIVE') continue;
      out.push(await post(w, rec, undefined, d.attempt + 1));
    }
    return out;
  }

  // ---- test orders (stage) ------------------------------------------------------------------------------------------

  function createTestOrder(r: Route, seller: Required<TrendyolSeller>, body: Record<string, unknown>, headers: IncomingHttpHeaders): HttpAnswer {
    const headerSeller = header(headers, 'sellerid');
    if (!nonEmpty(headerSeller)) return invalid(r, 'seller.id.required', 'sellerID header bilgisi zorunludur.', 'sellerID');
    if (headerSeller.trim() !== seller.sellerId) return refuse(r, 403, 'seller.not.authorized', M.sellerMismatch, 'sellerID', 'forbidden');
    const req = (obj: unknown, fields: string[], name: string): HttpAnswer | Record<string, unknown> => {
      if (!isObject(obj)) return invalid(r, 'invalid.body', `${name} alanı zorunludur.`, name);
      for (const f of fields) if (!nonEmpty(obj[f])) return invalid(r, 'invalid.body', `${name}.${f} alanı zorunludur.`, `${name}.${f}`);
      return obj;
    };
    const customer = req(body.customer, ['customerFirstName', 'customerLastName'], 'customer');
    if (customer instanceof HttpAnswer) return customer;
    const inv = req(body.invoiceAddress, ['addressText', 'city', 'district', 'invoiceFirstName', 'invoiceLastName', 'phone', 'email'], 'invoiceAddress');
    if (inv instanceof HttpAnswer) return inv;
    const ship = req(body.shippingAddress, ['addressText', 'city', 'district', 'phone', 'shippingFirstName', 'shippingLastName', 'email'], 'shippingAddress');
    if (ship instanceof HttpAnswer) return ship;
    if (!isObject(body.seller) || String(asInteger(body.seller.sellerId)) !== seller.sellerId)
      return invalid(r, 'invalid.body', 'seller.sellerId, header ile gönderilen satıcı ID ile aynı olmalıdır.', 'seller.sellerId');
    const commercial = body.commercial === true;
    if (commercial) {
      const c = req(inv, ['company', 'invoiceTaxNumber', 'invoiceTaxOffice'], 'invoiceAddress');
      if (c instanceof HttpAnswer) return c;
    }
    if (!Array.isArray(body.lines) || !body.lines.length) return invalid(r, 'invalid.body', 'lines alanı zorunludur.', 'lines');
    const lines: TrendyolLineInput[] = [];
    for (const l of body.lines) {
      const barcode = isObject(l) && nonEmpty(l.barcode) ? l.barcode : undefined;
      const quantity = isObject(l) ? asInteger(l.quantity) : undefined;
      if (!barcode || !products.has(barcode)) return invalid(r, 'product.not.found', M.unknownBarcode, 'lines.barcode');
      if (quantity === undefined || quantity < 1) return invalid(r, 'invalid.quantity', M.invalidQuantity, 'lines.quantity');
      const pct = isObject(l) && typeof l.discountPercentage === 'number' ? l.discountPercentage : 0;
      const price = products.get(barcode)!.price;
      lines.push({ barcode, quantity, sellerDiscount: round2((price * pct) / 100) });
    }
    const addr = (a: Record<string, unknown>, first: string, last: string): TrendyolAddressInput => ({
      firstName: String(a[first]),
      lastName: String(a[last]),
      address1: String(a.addressText),
      city: String(a.city),
      district: String(a.district),
      neighborhood: typeof a.neighborhood === 'string' ? a.neighborhood : '',
      postalCode: typeof a.postalCode === 'string' ? a.postalCode : '',
      phone: String(a.phone),
      company: typeof a.company === 'string' ? a.company : '',
    });
    const rec = placeOrder(
      {
        sellerId: seller.sellerId,
        lines,
        customer: { firstName: String(customer.customerFirstName), lastName: String(customer.customerLastName), email: String(ship.email) },
        shipmentAddress: addr(ship, 'shippingFirstName', 'shippingLastName'),
        invoiceAddress: {
          ...addr(inv, 'invoiceFirstName', 'invoiceLastName'),
          taxNumber: typeof inv.invoiceTaxNumber === 'string' ? inv.invoiceTaxNumber : undefined,
          taxOffice: typeof inv.invoiceTaxOffice === 'string' ? inv.invoiceTaxOffice : undefined,
        },
        commercial,
      },
      true,
    );
    return ok({ orderNumber: rec.json.orderNumber });
  }

  function updateTestOrderStatus(
    r: Route,
    seller: Required<TrendyolSeller>,
    rec: TrendyolPackageRecord,
    body: Record<string, unknown>,
    headers: IncomingHttpHeaders,
  ): HttpAnswer {
    const headerSeller = header(headers, 'sellerid');
    if (!nonEmpty(headerSeller)) return invalid(r, 'seller.id.required', 'sellerID header bilgisi zorunludur.', 'sellerID');
    if (headerSeller.trim() !== seller.sellerId) return refuse(r, 403, 'seller.not.authorized', M.sellerMismatch, 'sellerID', 'forbidden');
    const status = body.status;
    const rank = (s: string) => (s === 'Shipped' ? 1 : s === 'AtCollectionPoint' ? 2 : s === 'Delivered' || s === 'UnDelivered' ? 3 : s === 'Returned' ? 4 : 0);
    if (typeof status !== 'string' || !(TEST_ORDER_STATUS_SEQUENCE as readonly string[]).includes(status))
      return invalid(r, 'invalid.status', `status ${TEST_ORDER_STATUS_SEQUENCE.join(', ')} değerlerinden biri olmalıdır.`, 'status');
    const spec = lineSpec(r, rec, body.lines);
    if (spec instanceof HttpAnswer) return spec;
    if (GONE_STATUSES.includes(rec.json.status) || rec.json.status === 'Awaiting')
      return refuse(r, 400, 'package.not.updatable', M.packageNotUpdatable, 'packageId');
    if (rank(status) <= rank(rec.json.status)) return refuse(r, 400, 'invalid.status.order', M.testStatusOrder, 'status');
    setStatus(rec, status as TrendyolPackageStatus, 'api');
    return ok();
  }

  // ---- one request --------------------------------------------------------------------------------------------------

  function authenticate(headers: IncomingHttpHeaders): Required<TrendyolSeller> | undefined {
    const m = /^Basic\s+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '');
    if (!m) return undefined;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const [key, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    return sellers.find((s) => s.apiKey === key && s.apiSecret === secret);
  }

  function answer(req: IncomingMessage, r: Route, params: Record<string, string>, url: URL, rec: TrendyolRecordedRequest): HttpAnswer {
    if (r.stageOnly && environment !== 'stage') return notFound(r, M.stageOnly, 'path');

    // 2. Authorization: "User-Agent bilgisi olmayan istekler, 403 hatası alarak engellenecektir."
    const ua = rec.userAgent?.trim();
    if (!ua) return refuse(r, 403, 'user.agent.required', M.userAgentMissing, 'User-Agent', 'forbidden');
    const uaMatch = USER_AGENT_PATTERN.exec(ua);
    if (userAgentCheck === 'strict' && !uaMatch) return refuse(r, 403, 'user.agent.invalid', M.userAgentMalformed, 'User-Agent', 'forbidden');

    const seller = authenticate(req.headers);
    if (!seller) return new HttpAnswer(401, authErrorBody(), 'unauthorized', {}, ['Authorization: ClientApiAuthenticationException']);
    rec.sellerId = seller.sellerId;
    if (userAgentCheck === 'strict' && uaMatch![1] !== seller.sellerId)
      return refuse(r, 403, 'user.agent.invalid', M.userAgentMalformed, 'User-Agent', 'forbidden');
    if (params.sellerId !== undefined) {
      if (asInteger(params.sellerId) === undefined) return invalid(r, 'invalid.seller.id', 'Geçersiz sellerId.', 'sellerId');
      if (params.sellerId !== seller.sellerId) return refuse(r, 403, 'seller.not.authorized', M.sellerMismatch, 'sellerId', 'forbidden');
    }

    const hit = limited(seller.sellerId, r);
    if (hit) {
      rec.rateLimit = hit;
      const a = refuse(r, 429, M.tooManyRequests, M.tooManyRequests, hit === 'burst' ? 'burst' : `limit ${hit}`, 'rate-limited');
      return a;
    }

    let body: Record<string, unknown> = {};
    if (r.body) {
      if (rec.rawBody.trim() === '') {
        if (r.operation !== 'createCommonLabel') return invalid(r, 'invalid.body', M.badBody, '(body)');
      } else {
        if (!isJson(req.headers['content-type']))
          return refuse(r, 415, 'unsupported.media.type', 'Content-Type application/json olmalıdır.', 'Content-Type', 'unsupported-media-type');
        if (!isObject(rec.body)) return invalid(r, 'invalid.body', M.badBody, '(body)');
        body = rec.body;
      }
    }

    switch (r.operation) {
      case 'getShipmentPackages':
      case 'getShipmentPackagesV2':
        return getShipmentPackages(r, seller.sellerId, url);
      case 'getShipmentPackagesStream':
        return getShipmentPackagesStream(r, seller.sellerId, url);
      case 'createCommonLabel':
        return createCommonLabel(r, seller.sellerId, params.cargoTrackingNumber, body);
      case 'getCommonLabel':
        return getCommonLabel(r, seller.sellerId, params.cargoTrackingNumber);
      case 'createWebhook': {
        const v = webhookBody(r, body);
        if (v instanceof HttpAnswer) return v;
        if ([...webhooks.values()].filter((w) => w.sellerId === seller.sellerId).length >= TRENDYOL_LIMITS.webhooksPerSeller)
          return refuse(r, 400, 'webhook.limit.exceeded', M.webhookLimit, 'url');
        const w: TrendyolWebhookRecord = { ...v, id: randomUUID(), sellerId: seller.sellerId, status: 'ACTIVE', createdAt: now(), lastModifiedAt: null };
        webhooks.set(w.id, w);
        return ok({ id: w.id });
      }
      case 'getWebhooks':
        return ok([...webhooks.values()].filter((w) => w.sellerId === seller.sellerId).map(webhookView));
      case 'updateWebhook': {
        const w = ownWebhook(r, seller.sellerId, params.id);
        if (w instanceof HttpAnswer) return w;
        const v = webhookBody(r, body);
        if (v instanceof HttpAnswer) return v;
        Object.assign(w, { username: undefined, password: undefined, apiKey: undefined }, v, { lastModifiedAt: now() });
        return ok();
      }
      case 'deleteWebhook': {
        const w = ownWebhook(r, seller.sellerId, params.id);
        if (w instanceof HttpAnswer) return w;
        webhooks.delete(w.id);
        return ok();
      }
      case 'activateWebhook':
      case 'deactivateWebhook': {
        const w = ownWebhook(r, seller.sellerId, params.id);
        if (w instanceof HttpAnswer) return w;
        w.status = r.operation === 'activateWebhook' ? 'ACTIVE' : 'PASSIVE';
        w.failingSince = undefined;
        w.lastModifiedAt = now();
        return ok();
      }
      case 'createTestOrder':
        return createTestOrder(r, seller, body, req.headers);
      default:
        break;
    }

    if (r.operation === 'updateTrackingNumber' && deprecatedTracking === 'gone') return notFound(r, 'Not Found', 'path');
    const pkg = ownPackage(r, seller.sellerId, params);
    if (pkg instanceof HttpAnswer) return pkg;
    switch (r.operation) {
      case 'updatePackage':
        return updatePackage(r, pkg, body);
      case 'updateTrackingNumber':
        return updateTrackingNumber(r, pkg, body);
      case 'updateTrackingDetails':
        return updateTrackingDetails(r, pkg, body, req.headers);
      case 'alternativeDelivery':
        return alternativeDelivery(r, pkg, body);
      case 'unsupplied':
        return unsupplied(r, pkg, body);
      case 'split':
      case 'multiSplit':
      case 'quantitySplit':
      case 'splitPackages':
        return splitOperation(r, pkg, body);
      case 'updateTestOrderStatus':
        return updateTestOrderStatus(r, seller, pkg, body, req.headers);
      default:
        return notFound(r, 'Not Found', 'path');
    }
  }

  function send(res: ServerResponse, a: HttpAnswer, rec: TrendyolRecordedRequest): void {
    rec.status = a.status;
    rec.outcome = a.outcome;
    rec.response = a.body;
    rec.validationErrors.push(...a.validationErrors);
    if (res.destroyed) return;
    if (a.body === undefined) {
      res.writeHead(a.status, a.headers);
      res.end();
    } else if (typeof a.body === 'string') {
      res.writeHead(a.status, { 'content-type': 'text/plain;charset=UTF-8', ...a.headers });
      res.end(a.body);
    } else {
      res.writeHead(a.status, { 'content-type': 'application/json;charset=UTF-8', ...a.headers });
      res.end(JSON.stringify(a.body));
    }
  }

  const statusAnswer = (r: Route | undefined, status: number, outcome: TrendyolOutcome, retryAfter?: number) => {
    const text = STATUS_CODES[status] ?? 'Error';
    const body = r?.family === 'pull' ? pullErrorBody(text, text) : errorsBody(status, text.toLowerCase().replace(/\s+/g, '.'), text);
    return new HttpAnswer(status, body, outcome, retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://double.invalid');
      const method = (req.method ?? 'GET').toUpperCase();
      const m = matchRoute(url.pathname, method);
      let body: unknown;
      try {
        body = raw.trim() ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const auth = header(req.headers, 'authorization');
      const basic = auth ? /^Basic\s+(\S+)/i.exec(auth) : null;
      const apiKey = basic ? Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0] : undefined;
      const rec: TrendyolRecordedRequest = {
        at: now(),
        method,
        path: url.pathname,
        operation: m.route?.operation,
        params: m.params,
        query: Object.fromEntries(url.searchParams),
        headers: { ...req.headers, ...(auth ? { authorization: auth.split(/\s+/)[0] } : {}) },
        userAgent: header(req.headers, 'user-agent'),
        apiKey,
        rawBody: raw,
        body,
        outcome: 'ok',
        validationErrors: [],
      };
      requests.push(rec);

      const handle = (): HttpAnswer => {
        if (!m.route && m.allow)
          return new HttpAnswer(405, errorsBody(405, 'method.not.allowed', 'Method Not Allowed'), 'method-not-allowed', { allow: m.allow });
        if (!m.route) return new HttpAnswer(404, errorsBody(404, 'not.found', 'Not Found'), 'not-found');
        if (down) return statusAnswer(m.route, 503, 'unavailable');
        if (environment === 'stage' && !ipAllowlisted) return statusAnswer(m.route, 503, 'unavailable');
        try {
          return answer(req, m.route, m.params, url, rec);
        } catch (err) {
          return new HttpAnswer(500, errorsBody(500, 'internal.error', `test double failure: ${(err as Error).message}`), 'fault');
        }
      };

      const fault = faults.take(m.route?.operation);
      if (fault) rec.fault = fault.kind;
      switch (fault?.kind) {
        case 'hang':
          rec.outcome = 'fault';
          return;
        case 'drop':
          rec.outcome = 'fault';
          req.socket.destroy();
          return;
        case 'status':
          return send(res, statusAnswer(m.route, fault.status, 'fault', fault.retryAfterSeconds), rec);
        case 'delay': {
          double.later(fault.ms, () => send(res, handle(), rec));
          return;
        }
        default:
          break;
      }
      const a = handle();
      if (fault?.kind === 'applyThenDrop') {
        rec.outcome = a.outcome;
        rec.lostResponse = a.body;
        rec.status = undefined;
        rec.validationErrors.push(...a.validationErrors);
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'applyThenStatus') {
        rec.lostResponse = a.body;
        rec.validationErrors.push(...a.validationErrors);
        return send(res, statusAnswer(m.route, fault.status ?? 500, 'fault'), rec);
      }
      send(res, a, rec);
    });
  });

  const double = new DoubleServer(server);
  const port = await double.listen(options.port);

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    packages,
    webhooks,
    webhookDeliveries,
    placeOrder: (input) => placeOrder(input),
    package: (id) => clone(getPackage(id).json),
    packagesOf: (orderNumber) =>
      [...packages.values()].filter((p) => p.json.orderNumber === orderNumber).sort((a, b) => a.json.shipmentPackageId - b.json.shipmentPackageId),
    changeAddress(id, patch) {
      const rec = getPackage(id);
      const a = rec.json.shipmentAddress;
      const merged: TrendyolAddressInput = {
        firstName: patch.firstName ?? a.firstName,
        lastName: patch.lastName ?? a.lastName,
        address1: patch.address1 ?? a.address1,
        address2: patch.address2 ?? a.address2,
        city: patch.city ?? a.city,
        cityCode: patch.cityCode ?? a.cityCode,
        district: patch.district ?? a.district,
        districtId: patch.districtId ?? a.districtId,
        neighborhood: patch.neighborhood ?? a.neighborhood,
        neighborhoodId: patch.neighborhoodId ?? a.neighborhoodId,
        postalCode: patch.postalCode ?? a.postalCode,
        phone: patch.phone === undefined ? a.phone : patch.phone,
        company: patch.company ?? a.company,
        countryCode: patch.countryCode ?? a.countryCode,
      };
      const id0 = a.id;
      rec.json.shipmentAddress = { ...address(merged, false, false), id: id0 };
      touch(rec);
      return rec;
    },
    cancel(id, opts = {}) {
      const rec = getPackage(id);
      if (GONE_STATUSES.includes(rec.json.status)) throw new Error(`trendyol double: package ${id} is ${rec.json.status}`);
      const spec = new Map<number, number>();
      const wanted: { lineId: number; quantity?: number }[] = opts.lines ?? rec.json.lines.map((x) => ({ lineId: x.lineId }));
      for (const l of wanted) {
        const line = rec.json.lines.find((x) => x.lineId === l.lineId);
        if (!line) throw new Error(`trendyol double: package ${id} has no line ${l.lineId}`);
        spec.set(l.lineId, l.quantity ?? line.quantity);
      }
      const by = opts.by ?? 'customer';
      const seller = by === 'seller';
      const reasonCode = opts.reasonCode ?? (seller ? 500 : 0);
      const next = cancelLines(rec, spec, {
        lineStatus: seller ? 'UnSupplied' : 'Cancelled',
        by,
        reasonCode,
        reason: opts.reason ?? (seller ? (UNSUPPLIED[reasonCode] ?? '') : 'Müşteri iptali'),
      });
      return { cancelled: id, newPackageId: next?.json.shipmentPackageId };
    },
    split(id, groups, opts = {}) {
      const rec = getPackage(id);
      if (!['Created', 'Picking', 'Invoiced'].includes(rec.json.status)) throw new Error(`trendyol double: package ${id} is ${rec.json.status}`);
      const maps = groups.map(
        (g) =>
          new Map(
            g.map((x) => {
              const lineId = typeof x === 'number' ? x : x.lineId;
              const line = rec.json.lines.find((l) => l.lineId === lineId);
              if (!line) throw new Error(`trendyol double: package ${id} has no line ${lineId}`);
              return [lineId, typeof x === 'number' ? line.quantity : x.quantity] as [number, number];
            }),
          ),
      );
      return splitInto(rec, maps, opts.keepStatus ?? false);
    },
    advance(id, status, opts = {}) {
      const rec = getPackage(id);
      if (GONE_STATUSES.includes(rec.json.status)) throw new Error(`trendyol double: package ${id} is ${rec.json.status}`);
      if (!TRENDYOL_PACKAGE_STATUSES.includes(status)) throw new Error(`trendyol double: ${status} is not a package status`);
      setStatus(rec, status, 'double', opts.at ?? now());
      return rec;
    },
    deliverWebhooks,
    retryWebhooks,
    failNext(fault, opts = {}) {
      faults.push(fault, opts);
    },
    clearFaults() {
      faults.clear();
    },
    outage(on) {
      down = on;
    },
    resetRateLimits() {
      hits.clear();
    },
    close: () => double.close(),
  };
}
