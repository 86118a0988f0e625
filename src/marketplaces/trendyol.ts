import { createHash } from 'node:crypto';
import { foldText } from '../address/fold';
import { outboundFailureText, retryAfterMs } from '../carriers/carrier-http';
import type { TrackingEventName } from '../domain/tracking';
import type { ItemInput, PartyInput } from '../domain/draft';
import { OutboundHttpError, TargetRefusedError, type HttpMethod, type OutboundResponse } from '../http/outbound';
import {
  MarketplaceBusyError,
  MarketplaceRefusedError,
  type MarketplaceClient,
  type MarketplaceClientOptions,
  type MarketplacePackage,
  type PackageState,
  type PullWindow,
  type ShippedPackage,
  type WriteBackResult,
} from './marketplace';

/**
 * Trendyol's seller integration API (developers.trendyol.com, Turkish reference; the rules this client follows are
 * those of test/support/marketplaces/TRENDYOL-CONTRACT.md, cited below by its section names):
 *
 * - Basic auth with the seller's API key and secret, and the User-Agent "<sellerId> - <integrator>" on every call
 *   ("User-Agent bilgisi olmayan istekler, 403 hatası alarak engellenecektir").
 * - Pulls through getShipmentPackagesStream (`/orders/stream`), the cursor stream the reference recommends for periodic
 *   synchronisation: packages by lastModifiedDate, windows of at most two weeks, followed by `nextCursor`.
 * - Lookups by id through getShipmentPackages' `shipmentPackageIds` (at most 50).
 * - Write-back for a seller's own carrier contract: status Picking (updatePackage), then the tracking number through
 *   updateTrackingNumber (marked "Kullanım Dışı" with no successor named; where it is gone, alternative-delivery, the
 *   documented call for a shipment outside Trendyol's carriers). Invoiced needs an invoice number we do not have.
 * - "Trendyol pays" packages: the common label (createCommonLabel, then getCommonLabel), never a tracking number of ours.
 * - Webhooks registered with our API key (authenticationType API_KEY: Trendyol sends it as `x-api-key`).
 *
 * Error texts name neither the credentials nor the base URL.
 */

export const TRENDYOL_URL = 'https://apigw.trendyol.com';
export const TRENDYOL_STAGE_URL = 'https://stageapigw.trendyol.com';

export interface TrendyolCredentials {
  /** Satıcı Id (digits): in every path and the User-Agent */
  seller_id: string;
  api_key: string;
  api_secret: string;
}

export interface TrendyolSettings {
  /** default https://apigw.trendyol.com; stage https://stageapigw.trendyol.com (its own test account, the server's IP allow-listed) */
  base_url?: string;
  /** the integrator's name in the User-Agent "<seller_id> - <name>": letters and digits, at most 30 (default "SelfIntegration") */
  integrator_name?: string;
}

/**
 * The rate-limit groups this client asks `budget` for, with their per-minute limits at the lowest listing tier
 * (1. Servis Limitleri, tier 50 000; higher tiers allow more): `null` where only the general rule holds. Every endpoint
 * also takes at most 50 calls in 10 seconds ("aynı endpointe 10 saniye içerisinde maksimum 50 request").
 */
export const TRENDYOL_CALL_GROUPS = {
  /** "Sipariş Paketlerini Çekme": the stream and the lookups by id */
  orders: 30,
  /** "Paket Statü Bildirimi" (updatePackage) */
  'package-status': 300,
  /** "Kargo Takip Kodu Bildirme" (updateTrackingNumber) */
  'tracking-number': 300,
  /** "Alternatif Teslimat İle Gönderim" */
  'alternative-delivery': 300,
  /** Ortak etiket: "Barkod Talebi" / "Oluşan Barkodun Alınması" */
  'label-create': 100,
  'label-get': 100,
  /** webhook registration: the 50 / 10 s rule only */
  webhooks: null,
} as const satisfies Record<string, number | null>;
export type TrendyolCallGroup = keyof typeof TRENDYOL_CALL_GROUPS;

/** getShipmentPackagesStream: "maksimum aralık iki hafta". */
const MAX_WINDOW_MS = 14 * 24 * 3600_000;
/**
 * Query dates are "GMT +3" timestamps ("GMT +3 olarak gönderilmelidir"), yet whether Trendyol subtracts three hours
 * from them is not shown anywhere. We send the start as the plain instant and the end three hours later: under either
 * reading the window asked covers the one wanted (at worst three hours more on each side).
 */
const GMT3_MS = 3 * 3600_000;
/** A window sent spans its chunk plus GMT3_MS: chunks stay under the two-week limit with an hour to spare. */
const CHUNK_MS = MAX_WINDOW_MS - GMT3_MS - 3600_000;
/** The stream serves "son 3 aylık veri": a start further back is moved up (89 days: three months are never fewer). */
const STREAM_HISTORY_MS = 89 * 24 * 3600_000;
/**
 * Packages a stream page asks for (default 50, "maksimum 200"). A package is about 4 kB of JSON (more with many units:
 * one discountDetails entry per unit), so 100 keeps a page well under the outbound 1 MiB answer cap; an answer over the
 * cap is asked again with half the size.
 */
const STREAM_PAGE_SIZE = 100;
const STREAM_PAGE_SIZE_MIN = 10;
/** getShipmentPackages: shipmentPackageIds "maksimum 50". */
const IDS_PER_LOOKUP = 50;
/** "1 satıcı için oluşturulabileceek maksimum webhook sayısı 15 dir. Pasife alınan webhooklarda … dahildir". */
const WEBHOOKS_PER_SELLER = 15;
/** 'Webhook servislerinizin endpointi "Trendyol", "Dolap", "Localhost" ibareleri içermemelidir'. */
const WEBHOOK_URL_FORBIDDEN = /trendyol|dolap|localhost/i;
/** The User-Agent's integrator name: "alfanumerik, en fazla 30 karakter". */
const INTEGRATOR_NAME = /^[A-Za-z0-9]{1,30}$/;
const SELF_INTEGRATION = 'SelfIntegration';
/** 429 carries no Retry-After (not documented): the burst rule's 10-second window. */
const RATE_LIMIT_WAIT_MS = 10_000;
/** 503: an outage (or, on the stage host, the server's IP not allow-listed). */
const OUTAGE_WAIT_MS = 30_000;
/** A common label asked for and not made yet: asked again after this. */
const LABEL_WAIT_MS = 5_000;
const TRANSIENT_STATUSES = new Set([408, 425, 500, 502, 504]);

/** Package statuses (getShipmentPackages' `status` enum) by what an order source does with them. */
const OPEN_STATUSES = new Set(['Created', 'Picking', 'Invoiced']);
const SHIPPED_STATUSES = new Set(['Shipped', 'AtCollectionPoint', 'Delivered', 'UnDelivered', 'Returned']);
const CANCELLED_STATUSES = new Set(['Cancelled', 'UnSupplied']);
/** "Bölünmüş siparişler için status=UnPacked": the package was broken up, new package ids were generated. */
const REPLACED_STATUSES = new Set(['UnPacked']);
const CANCELLED_LINE_STATUSES = new Set(['Cancelled', 'UnSupplied']);

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);
const text = (value: unknown): string | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};
const num = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};
const digits = (value: string): boolean => /^\d+$/.test(value);

/**
 * Trendyol's JSON with `cargoTrackingNumber` kept exact: it is a JSON number in the answers (7280027504111111) and real
 * ones can exceed JavaScript's safe integers, so an integer there is read as its digits (a string).
 */
export function parseTrendyolJson(body: string): unknown {
  return JSON.parse(body.replace(/("cargoTrackingNumber"\s*:\s*)(-?\d+)(?=\s*[,}\]])/g, '$1"$2"'));
}

// ---------------------------------------------------------------------------------------------------------------------
// Mapping
// ---------------------------------------------------------------------------------------------------------------------

/** The package's status (`status`, or `shipmentPackageStatus`: the model carries both). */
export const trendyolStatus = (pkg: unknown): string | undefined => text(object(pkg).status) ?? text(object(pkg).shipmentPackageStatus);

/** A cancel's marks on a line (cancelledBy, cancelReason, cancelReasonCode: the 08.12.2025 fields). */
const cancelMarked = (line: Json): boolean => !!text(line.cancelledBy) || !!text(line.cancelReason) || (num(line.cancelReasonCode) ?? 0) > 0;

/**
 * What the package's status means to an order source. A partial cancel breaks the package up ("iptal edilen paket
 * bozularak yeni ID'li bir paket oluşturulacaktır"): the old package shows Cancelled with only some lines marked
 * cancelled, the rest moved to a new package; such a package is replaced, not cancelled. Awaiting waits ("Created
 * statüsüne geçene kadar herhangi bir işlem yapmamanız gerekmektedir"), and so does a status the documents do not list
 * (Repack, anything new): nothing is done with it until it becomes one we know.
 */
export function trendyolState(pkg: unknown): PackageState {
  const status = trendyolStatus(pkg) ?? '';
  if (OPEN_STATUSES.has(status)) return 'open';
  if (SHIPPED_STATUSES.has(status)) return 'shipped';
  if (REPLACED_STATUSES.has(status)) return 'replaced';
  if (CANCELLED_STATUSES.has(status)) {
    const lines = list(object(pkg).lines);
    return lines.some(cancelMarked) && lines.some((l) => !cancelMarked(l)) ? 'replaced' : 'cancelled';
  }
  // Awaiting, and any status the documents do not list
  return 'waiting';
}

/** The package's cargoTrackingNumber as text (null until a seller-contract package gets one). */
const trackingOf = (pkg: Json): string | undefined => text(pkg.cargoTrackingNumber);

/** whoPays: "Eğer satıcı anlaşması ise 1 gelir, trendyol anlaşması ise alan gelmez". */
const sellerContract = (pkg: Json): boolean => text(pkg.whoPays) === '1';

/**
 * "Trendyol pays": Trendyol's carrier contract (no `whoPays`) with the carrier it chose (`cargoProviderName`, Trendyol
 * Express or Aras) and the tracking number it assigned; the label is its common label.
 */
export function trendyolCarrier(pkg: unknown): { name: string; trackingNumber: string } | undefined {
  const p = object(pkg);
  if (sellerContract(p)) return undefined;
  const name = text(p.cargoProviderName);
  const trackingNumber = trackingOf(p);
  return name && trackingNumber ? { name, trackingNumber } : undefined;
}

/**
 * The shipment address as a consignee: the district (ilçe) as the city, the province (il) as the state, its plate code
 * (cityCode) as state_code; the neighbourhood put before the address lines when they do not name it already.
 */
export function trendyolConsignee(pkg: unknown): PartyInput {
  const p = object(pkg);
  const a = object(p.shipmentAddress);
  const invoice = object(p.invoiceAddress);
  const lines = object(a.addressLines);
  const name =
    text(a.fullName) ??
    ([text(a.firstName), text(a.lastName)].filter(Boolean).join(' ') ||
      [text(p.customerFirstName), text(p.customerLastName)].filter(Boolean).join(' ') ||
      undefined);
  let street = [text(a.address1) ?? text(lines.addressLine1), text(a.address2) ?? text(lines.addressLine2)].filter(Boolean).join(' ');
  if (!street) street = text(a.fullAddress) ?? '';
  const neighborhood = text(a.neighborhood);
  if (neighborhood && !foldText(street).includes(foldText(neighborhood))) street = `${neighborhood} ${street}`.trim();
  const country = (text(a.countryCode) ?? 'TR').toUpperCase();
  const plate = num(a.cityCode);
  const taxNumber = text(invoice.taxNumber) ?? text(p.taxNumber);
  const party: PartyInput = {
    name: name ?? null,
    address: street || null,
    city: text(a.district) ?? null,
    state: text(a.city) ?? null,
    postal_code: text(a.postalCode) ?? null,
    country,
    phone_number: text(a.phone) ?? text(invoice.phone) ?? null,
    email: text(p.customerEmail) ?? null,
  };
  if (country === 'TR' && plate !== undefined && Number.isInteger(plate) && plate >= 1 && plate <= 81) party.state_code = String(plate).padStart(2, '0');
  if (taxNumber) party.tax_number = taxNumber;
  return party;
}

/**
 * The lines as items: the product name, the quantity, the unit price as sold (`lineUnitPrice`: gross less the seller's
 * and Trendyol's discounts, per unit) and its currency. Lines cancelled out of a live package are left out.
 */
export function trendyolItems(pkg: unknown): ItemInput[] {
  const p = object(pkg);
  const lines = list(p.lines);
  const state = trendyolState(p);
  const live = lines.filter((l) => !CANCELLED_LINE_STATUSES.has(text(l.orderLineItemStatusName) ?? ''));
  const shown = (state === 'open' || state === 'waiting' || state === 'shipped') && live.length > 0 ? live : lines;
  return shown.map((l) => ({
    description: text(l.productName) ?? text(l.barcode) ?? null,
    quantity: num(l.quantity) ?? null,
    // lineUnitPrice since the 08.12.2025 renames; `price` before them
    unit_price: num(l.lineUnitPrice) ?? num(l.price) ?? null,
    currency_code: text(l.currencyCode) ?? text(p.currencyCode) ?? 'TRY',
  }));
}

/** When Trendyol last changed the package: lastModifiedDate, else its latest history entry (GMT), else orderDate (GMT+3). */
function changedAtOf(p: Json): Date {
  const modified = num(p.lastModifiedDate);
  if (modified !== undefined) return new Date(modified);
  const history = list(p.packageHistories)
    .map((h) => num(h.createdDate))
    .filter((t): t is number => t !== undefined);
  if (history.length) return new Date(Math.max(...history));
  const ordered = num(p.orderDate);
  return new Date(ordered === undefined ? 0 : ordered - GMT3_MS);
}

/** A Trendyol shipment package (the stream's, the lookup's and the webhook's model) as a MarketplacePackage. */
export function trendyolPackage(pkg: unknown): MarketplacePackage {
  const p = object(pkg);
  // shipmentPackageId since the 08.12.2025 renames; `id` before them
  const id = text(p.shipmentPackageId) ?? text(p.id);
  if (!id) throw new Error('Trendyol answered a package without its shipmentPackageId');
  const state = trendyolState(p);
  const consignee = trendyolConsignee(p);
  const items = trendyolItems(p);
  const carrier = trendyolCarrier(p);
  const changedAt = changedAtOf(p);
  const status = trendyolStatus(p) ?? '';
  // lastModifiedDate moves with every change Trendyol makes; the hash of what we map (and the status) catches a
  // change it would not show
  const hash = createHash('sha256')
    .update(JSON.stringify([status, consignee, items, carrier ?? null]))
    .digest('hex')
    .slice(0, 16);
  return {
    id,
    orderNumber: text(p.orderNumber) ?? '',
    version: `${changedAt.getTime()}-${hash}`,
    state,
    changedAt,
    consignee,
    items,
    ...(carrier ? { marketplaceCarrier: carrier } : {}),
    raw: pkg,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------------------------------

/** Trendyol refused one request for good (a 4xx other than 401, 403 and 429): its words, for a write-back's reason. */
class TrendyolRefusal extends MarketplaceRefusedError {
  constructor(
    readonly status: number,
    readonly trendyolMessage: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'MarketplaceRefusedError';
  }
}

/** An answer larger than the outbound cap: a stream page is asked again with a smaller size. */
class AnswerTooLarge extends Error {}

interface Answer {
  status: number;
  body: unknown;
}

/** Trendyol's words in an error answer: `errors[].message` (most calls), `message` (pulls), `exception` (401). */
function trendyolMessage(body: unknown): string | undefined {
  const b = object(body);
  const errors = list(b.errors)
    .map((e) => text(e.message) ?? text(e.key))
    .filter((m): m is string => !!m);
  if (errors.length) return errors.join('; ');
  return text(b.message) ?? text(b.exception) ?? text(b.error);
}

/**
 * The package statuses Trendyol's carrier reports once it has the parcel ("Trendyol pays"), as our events: Shipped is
 * the carrier taking it, AtCollectionPoint waiting at a pick-up point for the customer, Delivered, UnDelivered (an
 * attempt failed) and Returned.
 */
const EVENT_OF_CARRIER_STATUS: Readonly<Record<string, TrackingEventName>> = {
  Shipped: 'PICKED_UP',
  AtCollectionPoint: 'OUT_FOR_DELIVERY',
  Delivered: 'DELIVERED',
  UnDelivered: 'EXCEPTION',
  Returned: 'RETURNED',
};

/** A package's carrier statuses from its history (packageHistories: status and its GMT time), oldest first. */
export function trendyolCarrierEvents(pkg: MarketplacePackage): { id: string; event: TrackingEventName; at: Date; text: string }[] {
  return list(object(pkg.raw).packageHistories)
    .flatMap((h) => {
      const status = text(h.status);
      const at = num(h.createdDate);
      const event = status ? EVENT_OF_CARRIER_STATUS[status] : undefined;
      return event && at !== undefined ? [{ id: `${pkg.id}:${status}:${at}`, event, at: new Date(at), text: status! }] : [];
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

export class TrendyolClient implements MarketplaceClient {
  readonly carrierEvents = trendyolCarrierEvents;

  private readonly base: string;
  private readonly now: () => Date;

  constructor(private readonly options: MarketplaceClientOptions<TrendyolCredentials, TrendyolSettings>) {
    this.base = (options.settings.base_url?.trim() || TRENDYOL_URL).replace(/\/+$/, '');
    this.now = options.now ?? (() => new Date());
  }

  private get sellerId(): string {
    return this.options.credentials.seller_id.trim();
  }

  /**
   * Every package changed within the window, through the stream, in windows of under two weeks sent so that both
   * readings of the "GMT +3" dates cover them; a package seen twice (windows overlap at their edges) is handed over once.
   */
  async pull(window: PullWindow, onPage: (packages: MarketplacePackage[]) => Promise<void>): Promise<void> {
    const to = window.to.getTime();
    const from = Math.max(window.from.getTime(), this.now().getTime() - STREAM_HISTORY_MS);
    if (!(from <= to)) return;
    const seen = new Set<string>();
    for (let start = from; ; start += CHUNK_MS) {
      const end = Math.min(start + CHUNK_MS, to);
      await this.stream(start, end, seen, onPage);
      if (end >= to) break;
    }
  }

  /**
   * One stream, page after page: "Aynı cursor değeri kullanırken … filtreler değiştirilmemelidir", so every page is
   * asked with the first page's dates and the cursor the previous page answered.
   */
  private async stream(start: number, end: number, seen: Set<string>, onPage: (packages: MarketplacePackage[]) => Promise<void>): Promise<void> {
    const dates = { lastModifiedStartDate: String(start), lastModifiedEndDate: String(end + GMT3_MS) };
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let size = STREAM_PAGE_SIZE;
    for (;;) {
      let answer: Answer;
      try {
        answer = await this.send('getShipmentPackagesStream', 'orders', 'GET', `/integration/order/sellers/${this.sellerId}/orders/stream`, {
          query: { ...dates, size: String(size), ...(cursor ? { nextCursor: cursor } : {}) },
        });
      } catch (error) {
        if (error instanceof AnswerTooLarge && size > STREAM_PAGE_SIZE_MIN) {
          size = Math.max(STREAM_PAGE_SIZE_MIN, Math.floor(size / 2));
          continue;
        }
        throw error;
      }
      const page = object(answer.body);
      const fresh: MarketplacePackage[] = [];
      for (const raw of Array.isArray(page.content) ? (page.content as unknown[]) : []) {
        const pkg = trendyolPackage(raw);
        const key = `${pkg.id}@${pkg.version}`;
        if (seen.has(key)) continue;
        seen.add(key);
        fresh.push(pkg);
      }
      if (fresh.length) await onPage(fresh);
      if (page.hasMore !== true) return;
      const next = text(page.nextCursor);
      if (!next) throw new Error('Trendyol getShipmentPackagesStream: answered hasMore without a nextCursor');
      if (cursors.has(next)) throw new Error('Trendyol getShipmentPackagesStream: answered a cursor it had answered before');
      cursors.add(next);
      cursor = next;
    }
  }

  async packages(ids: string[]): Promise<MarketplacePackage[]> {
    const wanted = [...new Set(ids.map((id) => id.trim()).filter(digits))];
    const found: MarketplacePackage[] = [];
    for (let i = 0; i < wanted.length; i += IDS_PER_LOOKUP) found.push(...(await this.lookup(wanted.slice(i, i + IDS_PER_LOOKUP))).map(trendyolPackage));
    return found;
  }

  /**
   * getShipmentPackages by `shipmentPackageIds` (comma-separated, at most 50), without dates: a lookup, not a window.
   * A 426 (the v1 call's announced brownouts) is asked again of the v2 path.
   */
  private async lookup(ids: string[]): Promise<Json[]> {
    if (!ids.length) return [];
    const query = { shipmentPackageIds: ids.join(','), page: '0', size: String(IDS_PER_LOOKUP) };
    let answer: Answer;
    try {
      answer = await this.send('getShipmentPackages', 'orders', 'GET', `/integration/order/sellers/${this.sellerId}/orders`, { query });
    } catch (error) {
      if (!(error instanceof TrendyolRefusal && error.status === 426)) throw error;
      answer = await this.send('getShipmentPackages', 'orders', 'GET', `/integration/order/sellers/${this.sellerId}/v2/orders`, { query });
    }
    const wanted = new Set(ids);
    return list(object(answer.body).content).filter((p) => wanted.has(text(p.shipmentPackageId) ?? text(p.id) ?? ''));
  }

  /**
   * What a seller shipping with its own carrier contract tells Trendyol (order-process-flow: "Picking → tracking number →
   * (Invoiced)"): Picking while the package is Created, then the tracking number through updateTrackingNumber; where that
   * call is gone (404), alternative-delivery with the tracking link (the package turns Shipped). Invoiced is left out: it
   * needs the invoice number, which is not ours to know. The package is read first, so a second call after success (or
   * after a lost answer) sends nothing again; a "Trendyol pays" package never gets our number (updateTrackingNumber would
   * move it to the seller's contract), only its Picking.
   */
  async writeBack(shipped: ShippedPackage): Promise<WriteBackResult> {
    const id = shipped.packageId.trim();
    const ours = shipped.trackingCode.trim();
    const calls: string[] = [];
    if (!digits(id)) return { done: false, reason: `Trendyol package ids are numbers, not ${id}` };
    if (!ours) return { done: false, reason: 'no tracking number to write back' };
    const [pkg] = await this.lookup([id]);
    if (!pkg) return { done: false, reason: `Trendyol shows no package ${id} to this seller` };
    const status = trendyolStatus(pkg) ?? '';
    const current = trackingOf(pkg);
    const trendyolPays = trendyolCarrier(pkg);
    try {
      if (trendyolPays) {
        if (trendyolPays.trackingNumber !== ours)
          return {
            done: false,
            reason: `Trendyol ships package ${id} with its own carrier (${trendyolPays.name}, tracking number ${trendyolPays.trackingNumber}); another carrier's tracking number is not written back`,
          };
        if (status === 'Created') calls.push(await this.picking(pkg));
        return { done: true, calls };
      }
      if (CANCELLED_STATUSES.has(status) || REPLACED_STATUSES.has(status))
        return { done: false, reason: `Trendyol package ${id} is ${status}: nothing is written back` };
      if (SHIPPED_STATUSES.has(status)) {
        if (!current || current === ours) return { done: true, calls };
        return { done: false, reason: `Trendyol package ${id} is already ${status} with tracking number ${current}` };
      }
      if (!OPEN_STATUSES.has(status))
        return { done: false, reason: `Trendyol package ${id} is ${status || 'of no known status'}: it takes no tracking number yet` };
      if (status === 'Created') calls.push(await this.picking(pkg));
      if (current === ours) return { done: true, calls };
      calls.push(await this.trackingNumber(id, shipped));
      return { done: true, calls };
    } catch (error) {
      if (!(error instanceof TrendyolRefusal)) throw error;
      // A refusal may come of our own earlier call whose answer was lost: our number is there already
      const [now] = await this.lookup([id]);
      if (now && trackingOf(now) === ours && !trendyolPays) return { done: true, calls };
      return { done: false, reason: error.message };
    }
  }

  /** updatePackage to Picking with every line still in the package ("önce Picking sonra Invoiced"). */
  private async picking(pkg: Json): Promise<string> {
    const id = text(pkg.shipmentPackageId) ?? text(pkg.id);
    const lines = list(pkg.lines)
      .filter((l) => !CANCELLED_LINE_STATUSES.has(text(l.orderLineItemStatusName) ?? ''))
      .map((l) => ({ lineId: num(l.lineId) ?? num(l.id), quantity: num(l.quantity) }));
    await this.send('updatePackage', 'package-status', 'PUT', `/integration/order/sellers/${this.sellerId}/shipment-packages/${id}`, {
      json: { lines, params: {}, status: 'Picking' },
    });
    return 'updatePackage:Picking';
  }

  /**
   * updateTrackingNumber ("Kullanım Dışı", no successor named, still in the limits page); a 404 (the package was just
   * read, so the call is what is gone) falls back to alternative-delivery with the tracking link, parcels and desi.
   */
  private async trackingNumber(id: string, shipped: ShippedPackage): Promise<string> {
    const path = `/integration/order/sellers/${this.sellerId}/shipment-packages/${id}`;
    try {
      await this.send('updateTrackingNumber', 'tracking-number', 'PUT', `${path}/update-tracking-number`, {
        json: { trackingNumber: shipped.trackingCode.trim() },
      });
      return 'updateTrackingNumber';
    } catch (error) {
      if (!(error instanceof TrendyolRefusal && error.status === 404)) throw error;
    }
    const link = shipped.trackingUrl?.trim();
    await this.send('alternativeDelivery', 'alternative-delivery', 'PUT', `${path}/alternative-delivery`, {
      json: {
        isPhoneNumber: false,
        trackingInfo: link || shipped.trackingCode.trim(),
        params: {},
        ...(shipped.parcels > 0 ? { boxQuantity: Math.round(shipped.parcels) } : {}),
        ...(shipped.desi > 0 ? { deci: shipped.desi } : {}),
      },
    });
    return 'alternativeDelivery';
  }

  /**
   * The common label of a "Trendyol pays" package: the labels already made when there is one per parcel; else Picking
   * first while the package is Created ("PICKING veya INVOICED statüsü besledikten sonra yapmanız tavsiye edilmektedir"),
   * createCommonLabel for the parcels, and the labels read back. Not made yet → MarketplaceBusyError with a short wait.
   */
  async carrierLabel(pkg: { id: string; trackingNumber: string; parcels: number }): Promise<{ zpl: string }> {
    const number = pkg.trackingNumber.trim();
    const boxes = Math.max(1, Math.round(pkg.parcels || 1));
    const made = await this.commonLabels(number);
    if (made?.length === boxes) return { zpl: joinZpl(made) };
    const [current] = digits(pkg.id.trim()) ? await this.lookup([pkg.id.trim()]) : [];
    if (current && trendyolStatus(current) === 'Created') await this.picking(current);
    await this.send('createCommonLabel', 'label-create', 'POST', this.labelPath(number), { json: { format: 'ZPL', boxQuantity: boxes } });
    const labels = await this.commonLabels(number);
    if (labels?.length) return { zpl: joinZpl(labels) };
    throw new MarketplaceBusyError(LABEL_WAIT_MS, `Trendyol has not made the common label of ${number} yet`);
  }

  private labelPath(number: string): string {
    return `/integration/sellers/${this.sellerId}/common-label/${encodeURIComponent(number)}`;
  }

  /** getCommonLabel's ZPL labels ("çoklu koliler için birden fazla etiket"), or undefined when it has none (a 400). */
  private async commonLabels(number: string): Promise<string[] | undefined> {
    try {
      const answer = await this.send('getCommonLabel', 'label-get', 'GET', this.labelPath(number));
      const labels = list(object(answer.body).data)
        .map((d) => text(d.label))
        .filter((l): l is string => !!l);
      return labels.length ? labels : undefined;
    } catch (error) {
      if (error instanceof TrendyolRefusal && (error.status === 400 || error.status === 404)) return undefined;
      throw error;
    }
  }

  /**
   * Trendyol's webhook to `url` with authenticationType API_KEY (sent back as `x-api-key`), every status (no
   * subscribedStatuses: "statuses added later too"). The seller's webhook already at that URL is updated (and
   * activated when passive) instead of a second being made; the URL rule and the 15-webhook limit are checked first.
   */
  async registerWebhook(url: string, credential: string): Promise<string> {
    const target = url.trim();
    if (WEBHOOK_URL_FORBIDDEN.test(target))
      throw new MarketplaceRefusedError('Trendyol refuses a webhook URL that contains "Trendyol", "Dolap" or "Localhost"');
    if (!credential) throw new MarketplaceRefusedError('Trendyol needs the API key its webhook calls are to carry');
    const hooks = `/integration/webhook/sellers/${this.sellerId}/webhooks`;
    const registered = list((await this.send('getWebhooks', 'webhooks', 'GET', hooks)).body);
    const body = { url: target, authenticationType: 'API_KEY', apiKey: credential };
    const existing = registered.find((w) => text(w.url) === target && text(w.id));
    if (existing) {
      const id = text(existing.id)!;
      await this.send('updateWebhook', 'webhooks', 'PUT', `${hooks}/${encodeURIComponent(id)}`, { json: body });
      if (text(existing.status) === 'PASSIVE') await this.send('activateWebhook', 'webhooks', 'PUT', `${hooks}/${encodeURIComponent(id)}/activate`);
      return id;
    }
    if (registered.length >= WEBHOOKS_PER_SELLER)
      throw new MarketplaceRefusedError(
        `Trendyol allows ${WEBHOOKS_PER_SELLER} webhooks per seller (passive ones included) and this seller has ${registered.length}`,
      );
    const id = text(object((await this.send('createWebhook', 'webhooks', 'POST', hooks, { json: body })).body).id);
    if (!id) throw new Error('Trendyol createWebhook: answered no webhook id');
    return id;
  }

  /** The Authorization and User-Agent every call carries; an account that cannot make them is refused before sending. */
  private identity(): Record<string, string> {
    const { seller_id, api_key, api_secret } = this.options.credentials;
    if (!digits(seller_id?.trim() ?? '')) throw new MarketplaceRefusedError('Trendyol needs the seller id (Satıcı Id) in digits');
    if (!api_key || !api_secret) throw new MarketplaceRefusedError('Trendyol needs the API key and the API secret');
    const integrator = this.options.settings.integrator_name?.trim() || SELF_INTEGRATION;
    if (!INTEGRATOR_NAME.test(integrator))
      throw new MarketplaceRefusedError('Trendyol takes an integrator name of at most 30 letters and digits in the User-Agent');
    return {
      authorization: `Basic ${Buffer.from(`${api_key}:${api_secret}`).toString('base64')}`,
      'user-agent': `${seller_id.trim()} - ${integrator}`,
      accept: 'application/json',
    };
  }

  /** A text with the account's key and secret cut out (Trendyol's messages do not carry them; this makes sure). */
  private scrub(value: string): string {
    let out = value;
    for (const secret of [this.options.credentials.api_secret, this.options.credentials.api_key]) if (secret) out = out.split(secret).join('…');
    return out.slice(0, 500);
  }

  /**
   * One call, after one call of its group from the budget. 2xx answers its body; 429 and 503 → MarketplaceBusyError;
   * 5xx and network faults → a plain (retryable) Error; 401 and 403 → MarketplaceRefusedError about the account;
   * another 4xx → TrendyolRefusal with Trendyol's words.
   */
  private async send(
    operation: string,
    group: TrendyolCallGroup,
    method: HttpMethod,
    path: string,
    request: { query?: Record<string, string>; json?: unknown } = {},
  ): Promise<Answer> {
    const headers = this.identity();
    const url = new URL(`${this.base}${path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    await this.options.budget?.(group);
    let res: OutboundResponse;
    try {
      res = await this.options.http.request({ method, url, headers, ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }) });
    } catch (error) {
      if (error instanceof TargetRefusedError) throw new MarketplaceRefusedError(`Trendyol ${operation}: ${outboundFailureText(error)}`);
      if (error instanceof OutboundHttpError && error.code === 'INVALID_REQUEST')
        throw new MarketplaceRefusedError(`Trendyol ${operation}: ${outboundFailureText(error)}`);
      if (error instanceof OutboundHttpError && error.code === 'RESPONSE_TOO_LARGE')
        throw new AnswerTooLarge(`Trendyol ${operation}: ${outboundFailureText(error)}`);
      throw new Error(`Trendyol ${operation}: ${outboundFailureText(error)}`);
    }
    if (res.truncated) throw new AnswerTooLarge(`Trendyol ${operation}: the answer was cut at the size limit`);
    const raw = res.body.toString('utf8');
    let body: unknown;
    try {
      body = raw.trim() ? parseTrendyolJson(raw) : null;
    } catch {
      if (res.status >= 200 && res.status < 300) throw new Error(`Trendyol ${operation}: answered HTTP ${res.status} with a body that is not JSON`);
      body = null;
    }
    const status = res.status;
    if (status >= 200 && status < 300) return { status, body };
    const message = this.scrub(trendyolMessage(body) ?? `HTTP ${status}`);
    const retryAfter = res.headers['retry-after'];
    if (status === 429)
      throw new MarketplaceBusyError(retryAfter ? retryAfterMs(retryAfter) : RATE_LIMIT_WAIT_MS, `Trendyol's request limit was reached (${operation})`);
    if (status === 503)
      throw new MarketplaceBusyError(
        retryAfter ? retryAfterMs(retryAfter) : OUTAGE_WAIT_MS,
        `Trendyol is unavailable (${operation}: HTTP 503; on the stage host also the answer to a server IP not allow-listed)`,
      );
    if (status >= 500 || TRANSIENT_STATUSES.has(status)) throw new Error(`Trendyol ${operation}: HTTP ${status} ${message}`.trim());
    if (status === 401) throw new MarketplaceRefusedError(`Trendyol refused the seller's API key and secret (HTTP 401 ${message})`);
    if (status === 403) throw new MarketplaceRefusedError(`Trendyol refused the request (${operation}: HTTP 403 ${message})`);
    throw new TrendyolRefusal(status, message, `Trendyol ${operation}: ${message} (HTTP ${status})`);
  }
}

/** Labels one after another, each ending its line (a printer takes them as one job). */
const joinZpl = (labels: string[]): string => labels.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('');
