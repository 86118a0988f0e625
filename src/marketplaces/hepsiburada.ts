import { createHash } from 'node:crypto';
import { foldText } from '../address/fold';
import type { ItemInput, PartyInput } from '../domain/draft';
import { OutboundHttpError, TargetRefusedError, type OutboundResponse } from '../http/outbound';
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
 * Hepsiburada's order integration ("Sipariş Entegrasyonu", the OMS external API) as an order source's marketplace
 * client. The contract it follows, with its sources: test/support/marketplaces/HEPSIBURADA-CONTRACT.md.
 *
 * What a "package" is here. Hepsiburada sells lines (kalem); a line is packaged (by the seller through the API or the
 * panel, or by Hepsiburada's automatic packaging within 15 minutes), and a package can later be split, unpacked or
 * partly cancelled, each time under new package numbers. None of these changes what the customer ordered to one
 * address, and the own-carrier write-back must package lines that have no package yet. So one MarketplacePackage is one
 * Hepsiburada **order** (its id is the order number): its lines still to ship, whatever packages Hepsiburada has put
 * them in. The order's detail (`GET /orders/merchantid/{m}/ordernumber/{n}`) is the one call that shows every line
 * with its status and package, so every package we answer is built from it, in pull and in `packages(ids)` alike,
 * and its version never flips between two sources. A split or a partial cancellation is a new version of the same
 * package (never `replaced`); a package number is never an id that could be orphaned by a split made at Hepsiburada.
 *
 * Which carrier. A line whose cargo company is MP ("Mağaza Hesabı") ships with the seller's own contract: the order is
 * `open` from the start, and `writeBack` packages its open lines (cargoCompany MP, carrier = our carrier's short name)
 * then sends `intransit` with the tracking number. Any other cargo company is Hepsiburada's contracted carrier: the
 * order waits until every line is packaged (the package's barcode is the carrier's tracking number, its label is the
 * common barcode), then it is `open` with `marketplaceCarrier`, and `carrierLabel` answers the common barcode ZPL.
 */

/** "Canlı ortam url'leri endpoint içinde "-sit" ifadesi kaldırılarak" (Sipariş Entegrasyonu Önemli Bilgiler). */
export const HEPSIBURADA_URL = 'https://oms-external.hepsiburada.com';
export const HEPSIBURADA_SIT_URL = 'https://oms-external-sit.hepsiburada.com';

/** The documented limit ("1 saniye içerisinde 1k" requests) covers the whole order integration: one budget group. */
export const HEPSIBURADA_BUDGET_GROUP = 'orders';

/** Ödemesi tamamlanmış siparişler: limit "en fazla ve varsayılan olarak 100". */
const ORDERS_PAGE = 100;
/** Paket bilgilerini listeleme: "Limit maximum 10". */
const PACKAGES_PAGE = 10;
/** Cancelled / shipped lists: "en fazla ve varsayılan olarak 50". */
const STATUS_LIST_PAGE = 50;
/** `packages(ids)`: at most 50 a call (the interface). */
const PACKAGES_PER_CALL = 50;
/**
 * begindate/enddate "24 saatlik sorgular için geçerlidir": a wider range silently becomes begindate + 24 h. The zone
 * of these dates is not in the contract (Turkish time is likely): each query is widened by 3 hours at its start so it
 * covers its part of the window whether Hepsiburada reads the dates as Turkish time or as UTC, and the parts are
 * 20 hours long so the widened query stays within 24 hours.
 */
const QUERY_SPAN_MS = 20 * 3600_000;
const ZONE_SLACK_MS = 3 * 3600_000;
const TURKEY_OFFSET_MS = 3 * 3600_000;
/** The own-carrier cargo company ("cargoCompany alanı sadece MP değerini alabilir", Paketleme page). */
const OWN_CARRIER = 'MP';
/** "Elden teslim durumunda bu alana ET" (Paketleme page). */
const HAND_DELIVERY = 'ET';
/** intransit dates "7 günden eski olamaz": an older shipping date is sent as six days ago. */
const MAX_STATUS_AGE_MS = 6 * 24 * 3600_000;
/** intransit asks for an estimatedArrivalDate we are not told: shipping date + 3 days. */
const ESTIMATED_TRANSIT_MS = 3 * 24 * 3600_000;
/** The Paketleme page's documented refusal while the buyer's address change is pending: wait it out. */
const ADDRESS_CHANGE_PENDING = 'Order has an ongoing change address demand';
const ADDRESS_CHANGE_WAIT_MS = 10 * 60_000;
/** No Retry-After is documented: 429 waits X-RateLimit-Reset seconds, an outage (503) this long. */
const OUTAGE_WAIT_MS = 30_000;
const LABEL_NOT_READY_WAIT_MS = 60_000;
const TRANSIENT_STATUSES = new Set([408, 425, 500, 502, 504]);

/** Line statuses of a package already in a carrier's hands. */
const SHIPPED_STATUSES = new Set(['intransit', 'delivered', 'undelivered']);

/**
 * Customer-service numbers of carriers an own-carrier package may name: intransit requires `trackingPhoneNumber`, and
 * what was shipped does not carry one. `settings.tracking_phone_number` overrides.
 */
const CARRIER_PHONES: Readonly<Record<string, string>> = {
  YK: '4449999',
  AR: '4442552',
  MNG: '4440606',
  PTT: '4441788',
};

/** Our carriers' names (folded) → Hepsiburada's cargo company short names ("kargo firmasının shortname bilgisi"). */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  yurtici: 'YK',
  'yurtici kargo': 'YK',
  aras: 'AR',
  'aras kargo': 'AR',
  mng: 'MNG',
  'mng kargo': 'MNG',
  'dhl ecommerce': 'MNG',
  surat: 'SK',
  'surat kargo': 'SK',
  ptt: 'PTT',
  'ptt kargo': 'PTT',
  hepsijet: 'HX',
  'elden teslim': HAND_DELIVERY,
};

export interface HepsiburadaCredentials {
  /** "Mağaza ID" (a GUID): the Basic user name and the `{merchantid}` of every path */
  merchant_id: string;
  /** "Servis Anahtarı" (12 letters and digits): the Basic password */
  service_key: string;
}

export interface HepsiburadaSettings {
  /** default the production host; the SIT host is https://oms-external-sit.hepsiburada.com */
  base_url?: string;
  /** the integrator's developer user name, sent as User-Agent ("eskiden basic auth'ta kullanılan username") */
  user_agent: string;
  /** the carrier's phone number intransit requires, when our carrier is not in the built-in table */
  tracking_phone_number?: string;
}

export type HepsiburadaClientOptions = MarketplaceClientOptions<HepsiburadaCredentials, HepsiburadaSettings>;

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const pad = (n: number) => String(n).padStart(2, '0');

/** A date Hepsiburada answers (`2020-06-24T10:36:53.593`, no offset: Turkish time); one with an offset is taken as is. */
export function hepsiburadaDate(raw: unknown): Date | undefined {
  const value = text(raw)?.replace(/^(\d{4}-\d{2}-\d{2}) (?=\d{2}:)/, '$1T');
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value.replace(/(\.\d{3})\d+$/, '$1')}+03:00`;
  const at = new Date(zoned);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** A query date, `yyyy-MM-dd HH:mm` in Turkish time (the changelogs' form). */
export function hepsiburadaQueryDate(at: Date): string {
  const t = new Date(at.getTime() + TURKEY_OFFSET_MS);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
}

/**
 * The begindate/enddate pairs that cover a window: parts of at most 20 hours, each begun 3 hours early and rounded out
 * to whole minutes (see QUERY_SPAN_MS).
 */
export function hepsiburadaQueryWindows(window: PullWindow): { begindate: string; enddate: string }[] {
  const out: { begindate: string; enddate: string }[] = [];
  const end = window.to.getTime();
  for (let from = window.from.getTime(); from < end; from += QUERY_SPAN_MS) {
    const to = Math.min(from + QUERY_SPAN_MS, end);
    const begin = Math.floor((from - ZONE_SLACK_MS) / 60_000) * 60_000;
    const finish = Math.ceil(to / 60_000) * 60_000 + 60_000; // enddate is exclusive at minute precision
    out.push({ begindate: hepsiburadaQueryDate(new Date(begin)), enddate: hepsiburadaQueryDate(new Date(finish)) });
  }
  return out;
}

/** The short name Hepsiburada knows our carrier by: a short name as given, else our carrier's name looked up. */
export function hepsiburadaCarrier(carrierName: string): string {
  const given = carrierName.trim();
  if (/^[A-Z]{2,4}$/.test(given)) return given;
  const folded = foldText(given);
  return SHORT_NAMES[folded] ?? SHORT_NAMES[folded.split(' ')[0]] ?? given.toUpperCase();
}

/** One line of an order's detail, as a package is made of them. */
interface HbLine {
  id: string;
  status: string;
  quantity: number;
  packageNumber?: string;
  barcode?: string;
  cargoShortName?: string;
  cargoName?: string;
  changedAt?: Date;
  json: Json;
}

const lineOf = (json: Json): HbLine => {
  const cargo = object(json.cargoCompanyModel);
  return {
    id: text(json.id) ?? '',
    status: (text(json.status) ?? '').toLowerCase(),
    quantity: number(json.quantity) ?? 0,
    packageNumber: text(json.packageNumber),
    barcode: text(json.barcode),
    cargoShortName: text(cargo.shortName)?.toUpperCase(),
    cargoName: text(cargo.name) ?? text(json.cargoCompany),
    changedAt: hepsiburadaDate(json.lastStatusUpdateDate),
    json,
  };
};

/** The lines still to ship: a cancelled line (or one with nothing left) is no part of the package. */
const liveLines = (detail: Json): HbLine[] =>
  list(detail.items)
    .map(lineOf)
    .filter((l) => l.status !== 'cancelled' && l.quantity > 0);

const isOwnCarrier = (lines: HbLine[]) => lines.some((l) => l.cargoShortName === OWN_CARRIER);

/** The Hepsiburada packages the lines are in, in line order, with their status (the least advanced line's). */
function packagesOf(lines: HbLine[]): { packageNumber: string; barcode?: string; cargoName?: string; shipped: boolean }[] {
  const out = new Map<string, { packageNumber: string; barcode?: string; cargoName?: string; shipped: boolean }>();
  for (const l of lines) {
    if (!l.packageNumber || l.status === 'open') continue;
    const seen = out.get(l.packageNumber);
    const shipped = SHIPPED_STATUSES.has(l.status);
    if (seen) seen.shipped = seen.shipped && shipped;
    else out.set(l.packageNumber, { packageNumber: l.packageNumber, barcode: l.barcode, cargoName: l.cargoName, shipped });
  }
  return [...out.values()];
}

/** What became of an order, as an order source acts on it (see the file comment). */
export function hepsiburadaState(detail: Json): PackageState {
  const lines = liveLines(detail);
  if (lines.length === 0) return 'cancelled';
  if (lines.every((l) => SHIPPED_STATUSES.has(l.status))) return 'shipped';
  if (isOwnCarrier(lines)) return 'open';
  // Hepsiburada's carrier: shippable once every line is in a package (its barcode and label exist only then).
  return lines.some((l) => l.status === 'open') ? 'waiting' : 'open';
}

/** The delivery address and contact as a draft's consignee: town (ilçe) is the city, city (il) the state. */
export function hepsiburadaConsignee(detail: Json): PartyInput {
  const items = list(detail.items);
  const a = object(detail.deliveryAddress ?? items[0]?.shippingAddress);
  const invoice = object(detail.invoice ?? items[0]?.invoice);
  const address = text(a.address);
  const district = text(a.district);
  // the neighbourhood (district) is usually written in the address already ("Caferağa Mah. …")
  const lines = [address, district && !foldText(address ?? '').includes(foldText(district)) ? district : undefined].filter(Boolean);
  const consignee: PartyInput = {
    name: text(a.name) ?? text(object(detail.customer).name) ?? text(items[0]?.customerName) ?? null,
    address: lines.length ? lines.join(', ') : null,
    city: text(a.town) ?? null,
    state: text(a.city) ?? null,
    postal_code: text(a.postalCode) ?? null,
    country: text(a.countryCode)?.toUpperCase() ?? 'TR',
    phone_number: text(a.phoneNumber) ?? text(a.alternatePhoneNumber) ?? null,
    email: text(a.email) ?? null,
  };
  const taxNumber = text(invoice.taxNumber);
  if (taxNumber) consignee.tax_number = taxNumber;
  return consignee;
}

/** The lines to ship as a draft's items: product name, quantity, unit price and currency as sold. */
export function hepsiburadaItems(detail: Json): ItemInput[] {
  return liveLines(detail).map((l) => {
    const price = object(l.json.unitPrice);
    return {
      description: text(l.json.name) ?? text(l.json.productName) ?? text(l.json.merchantSKU) ?? text(l.json.sku) ?? null,
      quantity: l.quantity,
      unit_price: number(price.amount) ?? null,
      currency_code: text(price.currency)?.toUpperCase() ?? 'TRY',
    };
  });
}

/**
 * An order's detail as a MarketplacePackage. The version is a hash of what we map, the state and the packages the
 * lines are in (number, barcode, shipped or not): it changes with an address fix, a cancellation, a packaging or a
 * split, and not when a shipped package is merely delivered.
 */
export function hepsiburadaPackage(detail: Json, now: Date): MarketplacePackage {
  const orderNumber = text(detail.orderNumber) ?? '';
  const state = hepsiburadaState(detail);
  const consignee = hepsiburadaConsignee(detail);
  const items = hepsiburadaItems(detail);
  const lines = liveLines(detail);
  const packages = packagesOf(lines);
  const own = isOwnCarrier(lines);
  const unshipped = packages.find((p) => !p.shipped) ?? packages[0];
  const marketplaceCarrier =
    !own && state !== 'waiting' && unshipped?.barcode ? { name: unshipped.cargoName ?? 'Hepsiburada', trackingNumber: unshipped.barcode } : undefined;
  const all = list(detail.items).map(lineOf);
  const changes = all.map((l) => l.changedAt?.getTime() ?? 0).concat(hepsiburadaDate(detail.orderDate)?.getTime() ?? 0);
  const latest = Math.max(...changes);
  const version = createHash('sha256')
    .update(
      JSON.stringify({
        state,
        consignee,
        items,
        lines: all.map((l) => [
          l.id,
          l.status === 'open' || l.status === 'cancelled' ? l.status : SHIPPED_STATUSES.has(l.status) ? 'shipped' : 'packed',
          l.quantity,
        ]),
        packages,
        marketplaceCarrier,
      }),
    )
    .digest('hex')
    .slice(0, 32);
  return {
    id: orderNumber,
    orderNumber,
    version,
    state,
    changedAt: latest > 0 ? new Date(latest) : now,
    consignee,
    items,
    ...(marketplaceCarrier ? { marketplaceCarrier } : {}),
    raw: detail,
  };
}

/** A refusal Hepsiburada answered (4xx other than 401/403/429), with its words. */
class HepsiburadaRefusal extends Error {
  constructor(
    readonly status: number,
    readonly hbMessage: string,
    operation: string,
  ) {
    super(`Hepsiburada ${operation}: ${hbMessage} (HTTP ${status})`.slice(0, 500));
    this.name = 'HepsiburadaRefusal';
  }
}

export class HepsiburadaClient implements MarketplaceClient {
  private readonly base: string;
  private readonly authorization: string;

  constructor(private readonly options: HepsiburadaClientOptions) {
    this.base = (options.settings.base_url ?? HEPSIBURADA_URL).replace(/\/+$/, '');
    const { merchant_id, service_key } = options.credentials;
    // "username: merchantId … password: Servis Anahtarı" (Ocak 2024, the new integrator auth)
    this.authorization = `Basic ${Buffer.from(`${merchant_id}:${service_key}`).toString('base64')}`;
  }

  private get merchant(): string {
    return encodeURIComponent(this.options.credentials.merchant_id);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /**
   * Every order whose lines changed within the window, built from its detail, a page of orders at a time. Which
   * orders: every order with lines still to package (listed without dates: Hepsiburada's date filter is on when a line
   * was added, so an address fix or a line opened again by an unpack would not show in a window), and the orders of
   * the packages made, the lines cancelled and the packages shipped within the window (dated lists, in parts the 24
   * hour rule allows).
   */
  async pull(window: PullWindow, onPage: (packages: MarketplacePackage[]) => Promise<void>): Promise<void> {
    const seen = new Set<string>();
    const emit = async (orderNumbers: (string | undefined)[]) => {
      const fresh = [...new Set(orderNumbers.filter((n): n is string => !!n && !seen.has(n)))];
      if (fresh.length === 0) return;
      fresh.forEach((n) => seen.add(n));
      const found: MarketplacePackage[] = [];
      for (const n of fresh) {
        const detail = await this.orderDetail(n);
        if (detail) found.push(hepsiburadaPackage(detail, this.now()));
      }
      if (found.length) await onPage(found);
    };

    // Ödemesi tamamlanmış siparişler: open lines, limit + offset required, at most 100 a page.
    for (let offset = 0; ; offset += ORDERS_PAGE) {
      const page = object(await this.get(`/orders/merchantid/${this.merchant}`, { offset, limit: ORDERS_PAGE }, 'orders'));
      const items = list(page.items);
      await emit(items.map((x) => text(x.orderNumber)));
      const total = number(page.totalCount);
      if (items.length < ORDERS_PAGE || (total !== undefined && offset + ORDERS_PAGE >= total)) break;
    }

    for (const dates of hepsiburadaQueryWindows(window)) {
      // Packages made in the window (by the seller, the panel, automatic packaging or a split): a JSON array, at most 10
      // a page (the OpenAPI spells this list's parameter `Offset`).
      for (let offset = 0; ; offset += PACKAGES_PAGE) {
        const res = await this.send('GET', `/packages/merchantid/${this.merchant}`, { limit: PACKAGES_PAGE, Offset: offset, ...dates }, 'packages');
        const packages = list(res.body);
        await emit(packages.flatMap((p) => list(p.items).map((x) => text(x.orderNumber))));
        const pages = Number(header(res.headers, 'pagecount'));
        if (packages.length < PACKAGES_PAGE || (Number.isFinite(pages) && offset / PACKAGES_PAGE + 1 >= pages)) break;
      }
      // Lines cancelled (by the customer, customer service or us) and packages shipped in the window.
      for (const [path, numbers] of [
        ['/orders/merchantid/{m}/cancelled', (x: Json) => [text(x.orderNumber)]],
        ['/packages/merchantid/{m}/shipped', (x: Json) => [text(x.OrderNumber), ...(Array.isArray(x.OrderNumbers) ? x.OrderNumbers.map(text) : [])]],
      ] as const) {
        for (let offset = 0; ; offset += STATUS_LIST_PAGE) {
          const page = object(await this.get(path.replace('{m}', this.merchant), { offset, limit: STATUS_LIST_PAGE, ...dates }, path.split('/').at(-1)!));
          const items = list(page.items);
          await emit(items.flatMap(numbers));
          const total = number(page.totalCount);
          if (items.length < STATUS_LIST_PAGE || (total !== undefined && offset + STATUS_LIST_PAGE >= total)) break;
        }
      }
    }
  }

  /** The orders with these ids (order numbers) as they are now; an order Hepsiburada does not know is left out. */
  async packages(ids: string[]): Promise<MarketplacePackage[]> {
    const out: MarketplacePackage[] = [];
    for (const id of [...new Set(ids)].slice(0, PACKAGES_PER_CALL)) {
      const detail = await this.orderDetail(id);
      if (detail) out.push(hepsiburadaPackage(detail, this.now()));
    }
    return out;
  }

  /**
   * What a seller shipping with its own carrier ("Mağaza Hesabı") sends (Temmuz 2022: "önce intransit (Kargoda)"):
   * the order's open lines packaged with cargoCompany MP and our carrier's short name (with desi and parcels), then
   * `intransit` with the tracking number and URL for each package not yet in transit. Read from the order's detail
   * first, so a second call (or one after an answer lost on the way) packages nothing twice and skips what is in
   * transit already. Refusals come back in Hepsiburada's words.
   */
  async writeBack(shipped: ShippedPackage): Promise<WriteBackResult> {
    const calls: string[] = [];
    try {
      let detail = await this.orderDetail(shipped.packageId);
      if (!detail) return { done: false, reason: `Hepsiburada does not know order ${shipped.packageId}` };
      let lines = liveLines(detail);
      if (lines.length === 0) return { done: false, reason: `Hepsiburada order ${shipped.packageId} is cancelled` };
      if (!isOwnCarrier(lines))
        return { done: false, reason: `Hepsiburada's contracted carrier ships order ${shipped.packageId}: it takes no tracking number from the seller` };
      const carrier = shipped.carrierCode ?? hepsiburadaCarrier(SHORT_NAMES[shipped.carrierKind] ? shipped.carrierKind : shipped.carrierName);
      const phone = this.options.settings.tracking_phone_number ?? CARRIER_PHONES[carrier];
      if (!phone) return { done: false, reason: `no tracking phone number is known for carrier ${carrier} (settings.tracking_phone_number)` };

      const open = lines.filter((l) => l.status === 'open');
      let packagedNow = false;
      if (open.length > 0) {
        await this.send('POST', `/packages/merchantid/${this.merchant}`, undefined, 'packaging', {
          lineItemRequests: open.map((l) => ({ id: l.id, quantity: l.quantity })),
          cargoCompany: OWN_CARRIER,
          carrier,
          deci: shipped.desi,
          parcelQuantity: Math.max(1, shipped.parcels),
        });
        calls.push('packaging');
        packagedNow = true;
        detail = (await this.orderDetail(shipped.packageId)) ?? detail;
        lines = liveLines(detail);
      }

      // "Intransit statü tarihi, paketleme tarihinden önce olmamalıdır" and "7 günden eski olamaz": our shipping time,
      // but not before the package was made (just now, or its lines' last status change) nor more than 6 days ago.
      const now = this.now().getTime();
      for (const p of packagesOf(lines).filter((x) => !x.shipped)) {
        const packedAt = packagedNow ? now : Math.max(0, ...lines.filter((l) => l.packageNumber === p.packageNumber).map((l) => l.changedAt?.getTime() ?? 0));
        const shippedAt = Math.min(now, Math.max(shipped.shippedAt.getTime(), packedAt, now - MAX_STATUS_AGE_MS));
        await this.send(
          'POST',
          `/packages/merchantid/${this.merchant}/packagenumber/${encodeURIComponent(p.packageNumber)}/intransit`,
          undefined,
          'intransit',
          {
            shippedDate: new Date(shippedAt).toISOString(),
            estimatedArrivalDate: new Date(shippedAt + ESTIMATED_TRANSIT_MS).toISOString(),
            trackingUrl: shipped.trackingUrl,
            trackingNumber: shipped.trackingCode,
            trackingPhoneNumber: phone,
            tax: 0,
            cost: 0,
            deci: shipped.desi,
          },
        );
        calls.push(`intransit ${p.packageNumber}`);
      }
      return { done: true, calls };
    } catch (error) {
      if (error instanceof HepsiburadaRefusal) {
        if (error.hbMessage === ADDRESS_CHANGE_PENDING) throw new MarketplaceBusyError(ADDRESS_CHANGE_WAIT_MS, error.message);
        return { done: false, reason: error.message };
      }
      throw error;
    }
  }

  /**
   * The common barcode ("Ortak Barkod") of every package of the order Hepsiburada's carrier has not taken yet, one
   * ZPL per parcel, joined. Hepsiburada makes it on request; an order not packaged yet has none: wait.
   */
  async carrierLabel(pkg: { id: string; trackingNumber: string; parcels: number }): Promise<{ zpl: string }> {
    const detail = await this.orderDetail(pkg.id);
    if (!detail) throw new MarketplaceRefusedError(`Hepsiburada does not know order ${pkg.id}`);
    const lines = liveLines(detail);
    if (lines.some((l) => l.status === 'open')) throw new MarketplaceBusyError(LABEL_NOT_READY_WAIT_MS, `Hepsiburada order ${pkg.id} is not packaged yet`);
    const packages = packagesOf(lines).filter((p) => !p.shipped);
    if (packages.length === 0) throw new MarketplaceRefusedError(`Hepsiburada order ${pkg.id} has no package waiting for its carrier`);
    const labels: string[] = [];
    for (const p of packages) {
      try {
        const answer = object(
          await this.get(`/packages/merchantid/${this.merchant}/packagenumber/${encodeURIComponent(p.packageNumber)}/labels`, { format: 'ZPL' }, 'labels'),
        );
        labels.push(...(Array.isArray(answer.data) ? answer.data.map(text).filter((x): x is string => !!x) : []));
      } catch (error) {
        throw error instanceof HepsiburadaRefusal ? new MarketplaceRefusedError(error.message) : error;
      }
    }
    if (labels.length === 0) throw new MarketplaceBusyError(LABEL_NOT_READY_WAIT_MS, `Hepsiburada answered no label for order ${pkg.id} yet`);
    return { zpl: labels.join('\n') };
  }

  // ---- calls -------------------------------------------------------------------------------------------------------

  /** An order's detail, or undefined when Hepsiburada does not know it (404). */
  private async orderDetail(orderNumber: string): Promise<Json | undefined> {
    try {
      const detail = object(await this.get(`/orders/merchantid/${this.merchant}/ordernumber/${encodeURIComponent(orderNumber)}`, {}, 'order'));
      return text(detail.orderNumber) ? detail : undefined;
    } catch (error) {
      if (error instanceof HepsiburadaRefusal && error.status === 404) return undefined;
      throw error instanceof HepsiburadaRefusal ? new MarketplaceRefusedError(error.message) : error;
    }
  }

  private async get(path: string, query: Record<string, string | number>, operation: string): Promise<unknown> {
    try {
      return (await this.send('GET', path, query, operation)).body;
    } catch (error) {
      // A read refused (400/404) is our request, which a retry does not change.
      throw error instanceof HepsiburadaRefusal && error.status !== 404 ? new MarketplaceRefusedError(error.message) : error;
    }
  }

  /**
   * One call with the account's Basic auth and User-Agent, after taking it from the source's budget. Failures as the
   * activities understand them; texts name neither the host nor a secret.
   */
  private async send(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string | number> | undefined,
    operation: string,
    json?: unknown,
  ): Promise<OutboundResponse<unknown>> {
    await this.options.budget?.(HEPSIBURADA_BUDGET_GROUP);
    const search =
      query && Object.keys(query).length ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
    let res: OutboundResponse<unknown>;
    try {
      res = await this.options.http.json<unknown>({
        method,
        url: `${this.base}${path}${search}`,
        headers: { authorization: this.authorization, 'user-agent': this.options.settings.user_agent },
        ...(json === undefined ? {} : { json }),
      });
    } catch (error) {
      throw callFault(operation, error);
    }
    if (res.status >= 200 && res.status < 300) return res;
    const message = text(object(res.body).message);
    if (res.status === 429) throw new MarketplaceBusyError(resetMs(res), `Hepsiburada's request limit was reached (${operation})`);
    if (res.status === 503) throw new MarketplaceBusyError(retryAfter(res) ?? OUTAGE_WAIT_MS, `Hepsiburada is unavailable (${operation}, HTTP 503)`);
    if (res.status === 401) throw new MarketplaceRefusedError(`Hepsiburada refused the merchant id, service key or User-Agent (${operation}, HTTP 401)`);
    if (res.status === 403) throw new MarketplaceRefusedError(`Hepsiburada refused the merchant id for this account (${operation}, HTTP 403)`);
    if (TRANSIENT_STATUSES.has(res.status) || res.status >= 500) throw new Error(`Hepsiburada ${operation}: HTTP ${res.status}`);
    throw new HepsiburadaRefusal(res.status, message ?? `HTTP ${res.status}`, operation);
  }
}

const header = (headers: OutboundResponse['headers'], name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** No Retry-After is documented; X-RateLimit-Reset is "kalan saniye". At least a second. */
function resetMs(res: OutboundResponse<unknown>): number {
  const seconds = Number(header(res.headers, 'x-ratelimit-reset'));
  return retryAfter(res) ?? (Number.isFinite(seconds) && seconds >= 0 ? Math.max(1_000, seconds * 1_000) : 1_000);
}

function retryAfter(res: OutboundResponse<unknown>): number | undefined {
  const seconds = Number(header(res.headers, 'retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1_000 : undefined;
}

/** A call that got no usable answer: a refused target or a request we cannot send is for good, the rest is retried. */
function callFault(operation: string, error: unknown): Error {
  if (error instanceof TargetRefusedError)
    return new MarketplaceRefusedError(
      `Hepsiburada ${operation}: the host resolves to a private, loopback or link-local address (allowed only with WEBHOOK_ALLOW_PRIVATE=1)`,
    );
  if (error instanceof OutboundHttpError) {
    if (error.code === 'INVALID_REQUEST') return new MarketplaceRefusedError(`Hepsiburada ${operation}: the request could not be sent (${error.code})`);
    if (error.code === 'TIMEOUT') return new Error(`Hepsiburada ${operation}: no answer in time (${error.timeout ?? 'deadline'} timeout)`);
    return new Error(
      `Hepsiburada ${operation}: ${error.code === 'CONNECTION_FAILED' || error.code === 'RESPONSE_INTERRUPTED' ? 'not reachable' : 'answer not usable'} (${error.code})`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
