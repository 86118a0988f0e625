import { createHash } from 'node:crypto';
import { foldText } from '../address/fold';
import type { DraftInput, PartyInput } from '../domain/draft';
import type { TrackingEventName } from '../domain/tracking';
import { totals } from '../domain/weights';
import type { OutboundResponse } from '../http/outbound';
import {
  CarrierInputError,
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type CarrierFieldIssue,
  type FoundBooking,
  type ShipmentRef,
  type TrackedShipment,
  type TrackingEvent,
  type TrackingLimits,
  type TrackingQuery,
} from './carrier';
import { AccountToken } from './account-token';
import { carrierCallFault, checkCarrierAnswer, RemoteUnavailableError } from './carrier-http';
import type { AccountRateSettings } from './rate-table';
import { RateTableCarrier, type RateTableCarrierOptions } from './rate-table-carrier';
import { plateCode, provinceName, turkishConsignee } from './turkish-provinces';

/**
 * HepsiJet through its integration REST API (HepsiJet's "Module Design Document — Integration (Customer Services)"
 * v2.0/v1.9.2 and its developers pages on developers.hepsiburada.com). An `X-Auth-Token` from `getToken` (Basic
 * auth), valid 60 minutes, cached per account; `sendDeliveryOrderEnhanced` books under our `customerDeliveryNo` (the
 * service barcode, which HepsiJet prints as the parcel barcode) and answers its ZPL labels, or `generateZplBarcode`
 * makes them; `getDeliveryTracking` finds a delivery by that number and reads the statuses of many at once;
 * `deleteDeliveryOrder` cancels before pickup, `externalRecallDeliveryOrder` recalls one HepsiJet holds until it is
 * out for delivery. docs/carriers.md, "HepsiJet", says what is mapped and what is not supported.
 */

export const HEPSIJET_URL = 'https://integration.hepsijet.com';
/** "Returns token expired in 60 minutes": renewed five minutes early, and once on any 401. */
const TOKEN_LIFETIME_MS = 60 * 60 * 1000;
const TOKEN_RENEW_EARLY_MS = 5 * 60 * 1000;
/** HepsiJet's clock: its dates carry +03:00; one without an offset is Turkish time too. */
const TURKEY_OFFSET = '+03:00';
/** Numbers one getDeliveryTracking asks about: "Bir limit bulunmamaktadır"; we bound the request. */
const NUMBERS_PER_QUERY = 50;
/** "customerDeliveryNo bilgisi 9-16 karakter arası", letters and digits (a path segment and a Code 128). */
const DELIVERY_NO = /^[A-Za-z0-9]{9,16}$/;
/** The refusal of a number HepsiJet does not hold (getDeliveryTracking's documented FAIL). */
const NOT_FOUND_MESSAGE = 'Gönderi numarası bulunamadı.';
/** A booking's refusal when the customerDeliveryNo is already in HepsiJet's system. */
const BARCODE_EXIST = 'BARCODE_EXIST';
/** The service types a draft asks a return (collection from the consignee) with: as `isReturn` reads them. */
const RETURN_TYPES = new Set(['return', 'return_pickup']);
const COD_TYPES = new Set(['cash_on_delivery', 'cod']);

export interface HepsijetCredentials {
  /** getToken's Basic user name */
  user_name: string;
  password: string;
  /** the `apikey` header, sent on every call when HepsiJet gave the account one */
  api_key?: string;
}

export interface HepsijetSettings {
  base_url?: string;
  /** company.name, fixed by HepsiJet for the account */
  company_name: string;
  /** company.abbreviationCode */
  company_code: string;
  /** delivery.senderAddress.companyAddressId: the sender address HepsiJet registered */
  sender_address_id: string;
  /** currentXDock.abbreviationCode: the cross-dock tied to that address */
  xdock_code: string;
  /** delivery.product.productCode (default HX_STD) */
  product_code?: 'HX_STD' | 'HX_SD' | 'HX_ND' | 'HX_EX' | 'HX_VIP1' | 'HX_VIP2' | 'HX_RND' | 'HX_CC' | '2HOURS';
  rates?: AccountRateSettings;
}

/**
 * A delivery's `deliveryStatus` (the contract's enum) → our event; `null`: it moves nothing (order received, deleted
 * by us). A recalled delivery (MARK_FOR_RETURN) is on its way back, an exception until it arrives as RETURNED.
 */
export const EVENT_OF_HEPSIJET_STATUS: Readonly<Record<string, TrackingEventName | null>> = {
  NEO: null,
  DELETED: null,
  READY: 'PICKED_UP',
  TRANSFERRING: 'IN_TRANSIT',
  DISPATCHING: 'IN_TRANSIT',
  DELIVERING: 'OUT_FOR_DELIVERY',
  DELIVERED: 'DELIVERED',
  RETRY: 'EXCEPTION',
  UNDELIVERED: 'EXCEPTION',
  UNDELIVERABLE: 'EXCEPTION',
  REFUSED: 'EXCEPTION',
  DAMAGED: 'EXCEPTION',
  MISSING: 'EXCEPTION',
  CANCELLED: 'EXCEPTION',
  MARK_FOR_RETURN: 'EXCEPTION',
  RETURNED: 'RETURNED',
};

/** A transaction's `transactionType`, for a transaction whose deliveryStatus is absent or not in the table above. */
export const EVENT_OF_HEPSIJET_TRANSACTION: Readonly<Record<string, TrackingEventName | null>> = {
  RECEIVE_ORDER: null,
  DELETE: null,
  TAKE_CUSTODY: 'PICKED_UP',
  LOAD_RING_VEHICLE: 'IN_TRANSIT',
  UNLOAD_RING_VEHICLE: 'IN_TRANSIT',
  APPROVE_COURIER_DEPART: 'OUT_FOR_DELIVERY',
  DELIVERY_ATTEMPT: 'EXCEPTION',
  SET_DAMAGED: 'EXCEPTION',
  SET_MISSING: 'EXCEPTION',
  RECALL_DELIVERY: 'EXCEPTION',
  RETURN: 'RETURNED',
};

/** A transaction as our event: by its deliveryStatus, else its transactionType; any other value is transit. */
export function hepsijetEvent(deliveryStatus: string | undefined, transactionType: string | undefined): TrackingEventName | null {
  if (deliveryStatus && deliveryStatus in EVENT_OF_HEPSIJET_STATUS) return EVENT_OF_HEPSIJET_STATUS[deliveryStatus];
  if (transactionType && transactionType in EVENT_OF_HEPSIJET_TRANSACTION) return EVENT_OF_HEPSIJET_TRANSACTION[transactionType];
  return 'IN_TRANSIT';
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : undefined;

/** The barcode of a HepsiJet ZPL label: the Code 128 field's data, without the subset-B start code `>:`. */
export function readHepsijetBarcode(zpl: string): string | undefined {
  return /\^BC[^^]*\^FD(?:>:)?([^^]+)\^FS/.exec(zpl)?.[1]?.trim() || undefined;
}

/** A date HepsiJet reports (`2019-03-02T11:31:25+03:00`); one without an offset is Turkish time. */
export function hepsijetDate(raw: unknown): Date | undefined {
  const value = text(raw)?.replace(/^(\d{4}-\d{2}-\d{2}) (?=\d{2}:)/, '$1T');
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}${TURKEY_OFFSET}`;
  const at = new Date(zoned);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** A short stable id of what `parts` name, as HepsiJet's customer and address ids of ours (letters and digits). */
function stableId(prefix: string, parts: (string | undefined)[]): string {
  const digest = createHash('sha256')
    .update(parts.map((p) => foldText(p ?? '')).join('|'))
    .digest('hex');
  return `${prefix}${digest.slice(0, 15).toUpperCase()}`;
}

/** Today in Türkiye, `yyyy-MM-dd` (deliveryDateOriginal: "Gönderi oluşturulan tarih"). */
const turkishDay = (at: Date) => new Date(at.getTime() + 3 * 3600_000).toISOString().slice(0, 10);

/** A HepsiJet refusal (`status: "FAIL"`), with its message and `detailStatus` kept for the look-ups. */
class HepsijetRefusal extends CarrierRefusedError {
  constructor(
    carrierId: number,
    reason: string,
    readonly carrierMessage: string,
    readonly detailStatus: string | undefined,
  ) {
    super(carrierId, reason);
  }

  get notFound(): boolean {
    return foldText(this.carrierMessage) === foldText(NOT_FOUND_MESSAGE);
  }
}

/** A 401 to a call with a token: renew the token and try once more. */
class TokenRefused extends CarrierRefusedError {
  constructor(carrierId: number) {
    super(carrierId, "HepsiJet refused the account's token (HTTP 401)");
  }
}

export type HepsijetCarrierOptions = RateTableCarrierOptions<HepsijetCredentials, HepsijetSettings>;

export class HepsijetCarrier extends RateTableCarrier<HepsijetCredentials, HepsijetSettings> implements Carrier {
  readonly kind = 'hepsijet';
  /** deleteDeliveryOrder before pickup; externalRecallDeliveryOrder after it, until the parcel is out for delivery. */
  readonly supportsCancelInTransit = true;
  /** The contract has no webhook: the account's tracking poller asks, many numbers a question. */
  readonly supportsPush = false;
  /** The contract sets neither a batch limit nor a re-ask limit; we bound the batch. */
  readonly trackingLimits: TrackingLimits = { batchSize: NUMBERS_PER_QUERY, minReaskMs: 0 };
  private readonly token: AccountToken;

  constructor(options: HepsijetCarrierOptions) {
    super(options, HEPSIJET_URL, 'HepsiJet');
    const basic = Buffer.from(`${options.credentials.user_name}:${options.credentials.password}`).toString('base64');
    this.token = new AccountToken(
      async () => {
        const res = await this.send('GET', '/auth/getToken', undefined, { authorization: `Basic ${basic}` });
        const header = res.headers['x-auth-token'];
        const value = text(Array.isArray(header) ? header[0] : header) ?? text(object(object(res.body).data).token);
        if (!value) throw new CarrierRefusedError(this.id, 'HepsiJet answered getToken without a token');
        return { value, lifetimeMs: TOKEN_LIFETIME_MS };
      },
      { renewEarlyMs: TOKEN_RENEW_EARLY_MS, now: () => this.now() },
    );
  }

  /** Our service barcode: the customerDeliveryNo HepsiJet prints as the parcel barcode, and the number every later call names. */
  sentKey(req: BookingRequest): string {
    return req.serviceBarcode;
  }

  async book(req: BookingRequest): Promise<Booking> {
    const body = this.order(req);
    let answer: Json;
    try {
      answer = await this.call('POST', '/rest/delivery/sendDeliveryOrderEnhanced', body);
    } catch (error) {
      // The number is already HepsiJet's (an earlier try booked it): that delivery is the booking, never a second one.
      if (error instanceof HepsijetRefusal && error.detailStatus === BARCODE_EXIST) {
        const found = await this.findBooking(req);
        if (found.state === 'found') return found.booking;
        throw new CarrierRefusedError(
          this.id,
          `HepsiJet holds delivery ${this.sentKey(req)} already but it cannot be used (${found.state === 'unknown' ? found.reason : 'not found'})`,
        );
      }
      throw error;
    }
    const data = object(answer.data);
    const labels = list(data.zplBarcodeDTOList);
    return this.booking(req, labels.length > 0 ? labels : undefined);
  }

  /**
   * getDeliveryTracking by our customerDeliveryNo: a delivery found is the booking (its labels made again with
   * generateZplBarcode); "Gönderi numarası bulunamadı." is none; a deleted delivery or another refusal leaves it unknown.
   */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    const no = this.sentKey(req);
    let entries: Json[];
    try {
      entries = await this.tracking([no]);
    } catch (error) {
      if (error instanceof HepsijetRefusal) return error.notFound ? { state: 'none' } : { state: 'unknown', reason: error.reason };
      throw error;
    }
    const entry = entries.find((e) => numberOf(e) === no);
    if (!entry) return { state: 'none' };
    if (text(entry.deliveryStatus) === 'DELETED') return { state: 'unknown', reason: `HepsiJet holds delivery ${no} as deleted` };
    return { state: 'found', booking: await this.booking(req) };
  }

  /**
   * Before pickup deleteDeliveryOrder; in transit externalRecallDeliveryOrder (HepsiJet refuses it once the parcel is
   * out for delivery: its message is the reason). A refusal of a retried cancel is checked against the delivery's
   * status: deleted (or already recalled, for a recall) is the cancel done.
   */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    const no = encodeURIComponent(this.numberOf(req));
    try {
      if (req.inTransit) await this.call('POST', `/deliveryReturn/externalRecallDeliveryOrder/${no}`, {});
      else await this.call('POST', `/rest/delivery/deleteDeliveryOrder/${no}`, { deleteReason: 'IPTAL' });
      return { accepted: true };
    } catch (error) {
      if (!(error instanceof HepsijetRefusal)) throw error;
      const status = await this.statusOf(this.numberOf(req));
      if (status === 'DELETED' || (req.inTransit && status === 'MARK_FOR_RETURN')) return { accepted: true };
      return { accepted: false, reason: error.reason };
    }
  }

  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const [answer] = await this.trackMany([shipment]);
    if ('error' in answer) throw new CarrierRefusedError(this.id, answer.error);
    return answer.events;
  }

  /** One getDeliveryTracking for up to 50 numbers; a number HepsiJet does not know (yet) answers no events. */
  async trackMany(shipments: TrackingQuery[]): Promise<TrackedShipment[]> {
    await this.options.lookupBudget?.();
    const numbers = shipments.map((s) => this.numberOf(s));
    let entries: Json[];
    try {
      entries = await this.tracking(numbers);
    } catch (error) {
      // None of them known: "Gönderi numarası bulunamadı."
      if (error instanceof HepsijetRefusal && error.notFound) entries = [];
      else throw error;
    }
    const byNumber = new Map(entries.map((e) => [numberOf(e), e]));
    return shipments.map((shipment, i) => {
      const entry = byNumber.get(numbers[i]);
      return { shipment, events: entry ? hepsijetEvents(numbers[i], entry) : [] };
    });
  }

  /** A booked delivery's customerDeliveryNo (kept as the carrier reference, and the tracking code). */
  private numberOf(shipment: Pick<ShipmentRef, 'carrierReference' | 'trackingCode'>): string {
    return shipment.carrierReference ?? shipment.trackingCode;
  }

  /** The delivery's latest deliveryStatus, or undefined when HepsiJet does not know it (or cannot be asked now). */
  private async statusOf(no: string): Promise<string | undefined> {
    try {
      const entry = (await this.tracking([no])).find((e) => numberOf(e) === no);
      return text(entry?.deliveryStatus);
    } catch (error) {
      if (error instanceof HepsijetRefusal) return undefined;
      throw error;
    }
  }

  /** getDeliveryTracking's `data` for `numbers`. */
  private async tracking(numbers: string[]): Promise<Json[]> {
    const answer = await this.call('POST', '/rest/deliveryTransaction/getDeliveryTracking', {
      deliveries: numbers.map((customerDeliveryNo) => ({ customerDeliveryNo })),
    });
    return list(answer.data);
  }

  /**
   * The sendDeliveryOrderEnhanced body (the contract's field table, its spelling kept): the account's company,
   * cross-dock and sender address id; our service barcode as customerDeliveryNo; both addresses by province and
   * district name. Every field HepsiJet would refuse is refused here first, naming the draft's field.
   */
  private order(req: BookingRequest): Json {
    const { draft } = req;
    const settings = this.options.settings;
    const issues: CarrierFieldIssue[] = [];
    const { to, province, district, phone } = turkishConsignee(draft, 'HepsiJet', issues, { required: true });
    const name = splitName(to.name);
    if (!name) issues.push({ field: 'consignee.name', reason: 'HepsiJet needs the receiver’s first and last name' });
    if (!to.address?.trim()) issues.push({ field: 'consignee.address', reason: 'HepsiJet needs the full address' });
    const email = to.email?.trim();
    if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) issues.push({ field: 'consignee.email', reason: 'HepsiJet needs a valid e-mail address' });
    const from: PartyInput = draft.consignor ?? {};
    const fromPlate = plateCode(from);
    const fromProvince = fromPlate === undefined ? undefined : provinceName(fromPlate);
    const fromDistrict = from.city?.trim() && fromProvince && foldText(from.city) !== foldText(fromProvince) ? from.city.trim() : undefined;
    if (!fromProvince) issues.push({ field: 'consignor.state', reason: 'HepsiJet needs the province: state (or state_code, its plate code)' });
    else if (!fromDistrict) issues.push({ field: 'consignor.city', reason: `HepsiJet needs the district (ilçe) of ${fromProvince} as the city` });
    if (!from.address?.trim()) issues.push({ field: 'consignor.address', reason: 'HepsiJet needs the full address' });
    const packages = draft.packages ?? [];
    if (packages.length === 0) issues.push({ field: 'packages', reason: 'HepsiJet needs at least one package' });
    issues.push(...unsupportedServices(draft));
    if (issues.length) throw new CarrierInputError(this.id, issues);
    const no = this.sentKey(req);
    if (!DELIVERY_NO.test(no)) throw new CarrierRefusedError(this.id, `HepsiJet takes a customerDeliveryNo of 9 to 16 letters and digits, not ${no}`);

    const receiverPhone = phone.gsm ?? phone.phone!;
    const { weight, desi } = totals(packages);
    const address = (p: PartyInput, city: string, town: string, id: string) => ({
      companyAddressId: id,
      country: { name: 'Türkiye' },
      city: { name: city },
      town: { name: town },
      addressLine1: [p.address?.trim(), p.postal_code?.trim()].filter(Boolean).join(' '),
    });
    const content = packages.flatMap((p) => p.items ?? []).filter((i) => i.description?.trim());
    return {
      company: { name: settings.company_name, abbreviationCode: settings.company_code },
      currentXDock: { abbreviationCode: settings.xdock_code },
      delivery: {
        customerDeliveryNo: no,
        customerOrderId: req.reference,
        deliveryType: 'RETAIL',
        product: { productCode: settings.product_code ?? 'HX_STD' },
        totalParcels: String(packages.length),
        desi,
        weight,
        deliverySlotOriginal: '0',
        deliveryDateOriginal: turkishDay(this.now()),
        receiver: {
          // Ours for the customer and the address (HepsiJet's "M" fields): the same person, the same id.
          companyCustomerId: stableId('C', [to.name ?? undefined, receiverPhone]),
          firstName: name!.first,
          lastName: name!.last,
          phone1: receiverPhone,
          ...(email ? { email } : {}),
        },
        recipientPerson: to.attention_name?.trim() || to.name!.trim(),
        recipientPersonPhone1: receiverPhone,
        recipientAddress: address(to, province!, district!, stableId('A', [province, district, to.address ?? undefined])),
        senderAddress: address(from, fromProvince!, fromDistrict!, settings.sender_address_id),
      },
      ...(content.length
        ? { deliveryContent: content.map((i) => ({ description: i.description!.trim().slice(0, 250), quantity: Math.max(1, Math.round(i.quantity ?? 1)) })) }
        : {}),
    };
  }

  /**
   * The delivery HepsiJet holds under our number as our booking: its labels (those the booking answered, else
   * generateZplBarcode for every package), the barcode each carries, and the routing they print.
   */
  private async booking(req: BookingRequest, answered?: Json[]): Promise<Booking> {
    const no = this.sentKey(req);
    const parcels = Math.max(1, req.draft.packages?.length ?? 0);
    const labels = answered ?? list((await this.call('GET', `/delivery/generateZplBarcode/${encodeURIComponent(no)}/${parcels}`)).data);
    const zpl = labels.map((l) => text(l.zplBarcode)).filter((z): z is string => z !== undefined);
    if (zpl.length === 0) throw new RemoteUnavailableError(this.id, `HepsiJet answered no label for delivery ${no}`);
    // Every parcel's label carries the same number; the pieces are ours to print only when each label is readable.
    const barcodes = zpl.map(readHepsijetBarcode);
    const readable = barcodes.every((b): b is string => b !== undefined) && barcodes.length === parcels;
    return {
      trackingCode: no,
      trackingUrl: `https://hepsijet.com/gonderi-takibi/${encodeURIComponent(no)}`,
      // HepsiJet collects from the account's registered sender address (its cross-dock's round).
      pickupBooked: true,
      bookedAt: this.now(),
      cost: await this.costOf(req.shipment),
      carrierReference: no,
      label: { content: Buffer.from(zpl.map((z) => (z.endsWith('\n') ? z : `${z}\n`)).join('')), contentType: 'application/zpl' },
      ...(readable ? { pieceBarcodes: barcodes as string[] } : {}),
      ...routingOf(labels[0]),
    };
  }

  /** One call with the account's token; a 401 renews the token once (it may have expired early or been revoked). */
  private call(method: 'GET' | 'POST', path: string, json?: unknown): Promise<Json> {
    return this.token.use(
      async (token) => object((await this.send(method, path, json, { 'x-auth-token': token })).body),
      (error) => error instanceof TokenRefused,
    );
  }

  /**
   * One request. HepsiJet answers `status: "OK"` or `"FAIL"` with its message, and the documents do not say with
   * which HTTP status: a FAIL is a refusal whatever the status but 5xx (a fault a retry may fix), 401 the token (or,
   * for getToken, the credentials), 403 the apikey; 429, 5xx and network faults are retried.
   */
  private async send(method: 'GET' | 'POST', path: string, json: unknown, headers: Record<string, string>): Promise<OutboundResponse<unknown>> {
    const apiKey = this.options.credentials.api_key;
    let res: OutboundResponse<unknown>;
    try {
      res = await this.options.http.json<unknown>({
        method,
        url: `${this.base}${path}`,
        headers: { ...headers, ...(apiKey ? { apikey: apiKey } : {}) },
        ...(json === undefined ? {} : { json }),
      });
    } catch (error) {
      throw carrierCallFault(this.id, error);
    }
    const operation = path.split('/').filter(Boolean)[path.startsWith('/rest/') ? 2 : 1] ?? path;
    if (res.status === 401) {
      if (headers['x-auth-token']) throw new TokenRefused(this.id);
      throw new CarrierRefusedError(this.id, "HepsiJet refused the account's user name or password (HTTP 401)");
    }
    const body = object(res.body);
    const status = typeof body.status === 'string' ? body.status.toUpperCase() : undefined;
    if (status === 'OK' && res.status >= 200 && res.status < 300) return res;
    checkCarrierAnswer(this.id, res, { name: 'HepsiJet', secret: 'user name, password or apikey' });
    const message = text(body.message);
    if (status === 'FAIL' && message) {
      const detail = text(body.detailStatus);
      throw new HepsijetRefusal(this.id, `HepsiJet ${operation}: ${message}${detail ? ` (${detail})` : ''}`.slice(0, 500), message, detail);
    }
    const reason = `HepsiJet ${operation}: HTTP ${res.status}${text(body.error) ? ` ${text(body.error)}` : ''}`;
    // Any other 4xx is our request, which a retry does not change; anything else may pass.
    throw res.status >= 400 && res.status < 500 ? new CarrierRefusedError(this.id, reason) : new RemoteUnavailableError(this.id, reason);
  }
}

/** A getDeliveryTracking entry's number: its customerDeliveryNo (or the same as `barcode`). */
const numberOf = (entry: Json): string | undefined => text(entry.customerDeliveryNo) ?? text(entry.barcode);

/** A getDeliveryTracking entry's transactions as our events, oldest first, with stable ids. */
export function hepsijetEvents(no: string, entry: Json): TrackingEvent[] {
  const events: TrackingEvent[] = [];
  for (const t of list(entry.transactions)) {
    const deliveryStatus = text(t.deliveryStatus);
    const transactionType = text(t.transactionType);
    const event = hepsijetEvent(deliveryStatus, transactionType);
    const at = hepsijetDate(t.transactionDateTime);
    if (!event || !at) continue;
    const message = [text(t.transaction), text(t.nonDeliveryReason)].filter(Boolean).join(' · ');
    const location = text(t.location);
    events.push({
      eventId: `${no}:${transactionType ?? '-'}:${deliveryStatus ?? '-'}:${at.toISOString()}`,
      event,
      occurredAt: at,
      ...(location ? { location } : {}),
      ...(message ? { message } : {}),
    });
  }
  return events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
}

/** The routing a HepsiJet label prints to sort the parcel by: the receiving cross-dock and the distribution zone. */
function routingOf(label: Json | undefined): { routing?: string } {
  const parts = [text(label?.receiverXDock), text(label?.distributionZoneName)].filter((p): p is string => !!p);
  const unique = [...new Set(parts)];
  return unique.length ? { routing: unique.join(' · ').slice(0, 120) } : {};
}

/** "Şükrü Öztürk" → first "Şükrü", last "Öztürk"; the given names all go first. One word is not a full name. */
function splitName(name: string | null | undefined): { first: string; last: string } | undefined {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return undefined;
  return { first: words.slice(0, -1).join(' '), last: words[words.length - 1] };
}

/**
 * What HepsiJet's contract does not carry: cash on delivery (no collection field at all) and a return from the
 * consignee ("Dış müşteri entegrasyonunda gönderi tipi RETAIL gelmelidir": an integration books RETAIL only).
 */
function unsupportedServices(draft: DraftInput): CarrierFieldIssue[] {
  const issues: CarrierFieldIssue[] = [];
  (draft.special_services ?? []).forEach((s, i) => {
    const type = (s.service_type ?? '').trim().toLowerCase();
    if (COD_TYPES.has(type)) issues.push({ field: `special_services.${i}.service_type`, reason: 'HepsiJet does not collect cash on delivery' });
    if (RETURN_TYPES.has(type))
      issues.push({
        field: `special_services.${i}.service_type`,
        reason: 'HepsiJet books deliveries to the consignee only (deliveryType RETAIL), not returns',
      });
  });
  return issues;
}
