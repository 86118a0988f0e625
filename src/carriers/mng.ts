import { foldText } from '../address/fold';
import type { DraftInput, PackageInput } from '../domain/draft';
import { cashOnDelivery } from '../domain/special-services';
import type { TrackingEventName } from '../domain/tracking';
import { totals } from '../domain/weights';
import type { OutboundResponse } from '../http/outbound';
import {
  CarrierBusyError,
  CarrierInputError,
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type CarrierFieldIssue,
  type FoundBooking,
  type ShipmentRef,
  type TrackingEvent,
} from './carrier';
import { AccountToken } from './account-token';
import { carrierCallFault, checkCarrierAnswer, RemoteUnavailableError } from './carrier-http';
import type { AccountRateSettings } from './rate-table';
import { RateTableCarrier, type RateTableCarrierOptions } from './rate-table-carrier';
import { turkishConsignee } from './turkish-provinces';

/**
 * MNG Kargo (DHL eCommerce Türkiye) through its REST API behind IBM API Connect (public contract
 * `tcgunel/omniship-mng`, the REST README and its tests). Every call carries the app's X-IBM-Client-Id and
 * -Secret; all but the token and CBS Info also the merchant's JWT (8 hours). A booking is MNG's three stages:
 * `createRecipient` (without it `createbarcode` answers 20001 for minutes), `createOrder` under our service
 * barcode as referenceId, then `createbarcode`, which invoices the order and answers a ZPL label per piece.
 * `getshipmentstatus` by our reference finds a booking after a lost answer; `trackshipment` reads its events;
 * `cancelshipment` then `cancelorder` cancel before the branch accepts the parcel, on the barcode's day.
 * CBS Info gives the city and district codes the recipient needs. docs/carriers.md, "MNG Kargo", says what is
 * mapped and what is not supported.
 */

export const MNG_URL = 'https://api.mngkargo.com.tr';
/** Every operation lives under this path, on the production and the test host alike. */
const API = '/mngapi/api';
/** README "JWT caching": "MNG JWTs are valid for 8 hours". Renewed half an hour early, and once on any 401. */
const TOKEN_LIFETIME_MS = 8 * 60 * 60 * 1000;
const TOKEN_RENEW_EARLY_MS = 30 * 60 * 1000;
/**
 * README trap 4: MNG enforces a TC Kimlik or tax number on every recipient; "`11111111110` (which passes the TC
 * Kimlik checksum) is a safe placeholder" for a consignee who gave none.
 */
export const MNG_PLACEHOLDER_TAX_NUMBER = '11111111110';
/** taxOffice of a private person (README createShipment: "SAHIS"). */
const PERSON_TAX_OFFICE = 'SAHIS';
/** 20001 VARIŞ ŞUBESİ BULUNAMADI: MNG has not resolved the destination branch yet ("MNG needs minutes"). */
const BRANCH_NOT_FOUND = '20001';
/** How long to wait before asking createbarcode again after a 20001. */
const BRANCH_RETRY_MS = 60_000;
/** getshipmentstatus's link, when an answer gives none (GetTrackingStatusRequestTest's trackingUrl). */
const TRACKING_PAGE = 'https://www.mngkargo.com.tr/track/';
/** MNG's clock: its dates carry no offset and are Turkish time (UTC+3 all year since 2016). */
const TURKEY_OFFSET = '+03:00';
const RETURN_TYPES = new Set(['return', 'return_pickup']);

export interface MngCredentials {
  /** X-IBM-Client-Id: the integrating app's key on MNG's API portal */
  client_id: string;
  /** X-IBM-Client-Secret */
  client_secret: string;
  /** the merchant's MNG customer number (the token's customerNumber) */
  customer_number: string;
  /** the merchant's panel password */
  password: string;
}

export interface MngSettings {
  base_url?: string;
  /** createOrder's paymentType: 1 the sender pays (default), 2 the receiver pays */
  payment_type?: 1 | 2;
  /** the recipient e-mail sent when a consignee has none (MNG refuses an order without one) */
  default_email?: string;
  rates?: AccountRateSettings;
}

/**
 * MNG's shipmentStatusCode (README "Status mapping") → our tracking events. 1, "Gönderi Hazırlandı", is the
 * barcode made at the merchant: nothing has moved, so it is no event.
 */
export const EVENT_OF_MNG_STATUS: Readonly<Record<number, TrackingEventName | undefined>> = {
  1: undefined, // Gönderi Hazırlandı
  2: 'PICKED_UP', // Transfer Aşamasında: the origin branch holds the parcel
  3: 'IN_TRANSIT', // Teslimat Birimine Ulaştı: at the delivery branch
  4: 'OUT_FOR_DELIVERY', // Alıcı Adresine Yönlendirildi
  5: 'DELIVERED', // Teslim Edildi
  6: 'EXCEPTION', // Teslim Edilemedi
  7: 'RETURNED', // Geri Geliyor: on its way back to the sender
  8: 'EXCEPTION', // Destek Gerekiyor
};

/** The names MNG gives each status: trackshipment's eventStatus and eventStatusEn, getshipmentstatus's shipmentStatus. */
const MNG_STATUS_NAMES: Readonly<Record<number, string[]>> = {
  1: ['Gönderi Hazırlandı', 'Shipment Created'],
  2: ['Transfer Aşamasında', 'In Transfer'],
  3: ['Teslimat Birimine Ulaştı', 'Arrived At Delivery Branch'],
  4: ['Alıcı Adresine Yönlendirildi', 'Out For Delivery'],
  5: ['Teslim Edildi', 'Delivered'],
  6: ['Teslim Edilemedi', 'Could Not Be Delivered'],
  7: ['Geri Geliyor', 'Returning To Sender'],
  8: ['Destek Gerekiyor', 'Support Required'],
};
const CODE_OF_STATUS_NAME = new Map(Object.entries(MNG_STATUS_NAMES).flatMap(([code, names]) => names.map((n) => [foldText(n), Number(code)] as const)));

/** A status name as MNG writes it (Turkish or English, `Teslim_Edildi` or `Teslim Edildi`) → its code; undefined when unknown. */
export function mngStatusCode(name: unknown): number | undefined {
  return typeof name === 'string' ? CODE_OF_STATUS_NAME.get(foldText(name)) : undefined;
}

/** The event of a status: a known code's; an unknown status is transit (a parcel MNG reports on is moving). */
export function mngStatusEvent(code: number | undefined): TrackingEventName | undefined {
  return code === undefined || !(code in EVENT_OF_MNG_STATUS) ? 'IN_TRANSIT' : EVENT_OF_MNG_STATUS[code];
}

const TIME = String.raw`(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?$`;
const DMY = new RegExp(String.raw`^(\d{2})[-./](\d{2})[-./](\d{4})` + TIME);
const YMD = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2})` + TIME);

/** A date MNG reports: `yyyy-MM-dd HH:mm:ss`, `dd-MM-yyyy HH:mm[:ss]` or `dd.MM.yyyy …`; no offset means Turkish time. */
export function mngDate(raw: unknown): Date | undefined {
  const value = text(raw);
  if (!value) return undefined;
  const dmy = DMY.exec(value);
  const ymd = YMD.exec(value);
  const parts = dmy ? [dmy[3], dmy[2], dmy[1], ...dmy.slice(4)] : ymd?.slice(1);
  if (!parts) return undefined;
  const [y, mo, d, h = '00', mi = '00', s = '00', offset = TURKEY_OFFSET] = parts;
  const at = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** A TC Kimlik number: 11 digits, not starting with 0, with both check digits right. */
export function isTcKimlik(value: string): boolean {
  if (!/^[1-9]\d{10}$/.test(value)) return false;
  const d = [...value].map(Number);
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  if ((((odd * 7 - even) % 10) + 10) % 10 !== d[9]) return false;
  return d.slice(0, 10).reduce((a, b) => a + b, 0) % 10 === d[10];
}

/** The barcodes a piece's ZPL encodes in its Code 128 fields, in order (MNG-CONTRACT.md, "Label and barcode-in-ZPL"). */
export function mngZplBarcodes(zpl: string): string[] {
  return [...zpl.matchAll(/\^BC[^^]*\^FD([^^]*)\^FS/g)].map((m) => m[1]);
}

/** A key of a System.Text.Json answer, whatever its case (`Code` and `code` both appear). */
function field(object: unknown, name: string): unknown {
  if (!object || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === lower) return value;
  return undefined;
}
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
/** README trap 1: createOrder, createbarcode and getshipmentstatus answer one-element arrays, though the swagger says objects. Both are read. */
const one = (answer: unknown): unknown => (Array.isArray(answer) ? answer[0] : answer);

/** What MNG's error answers say: its code and words (field validation, the backend's <WERR>, ProblemDetails, or API Connect's). */
function errorOf(body: unknown): { code?: string; words?: string; gateway: boolean } {
  const error = field(body, 'error');
  if (error && typeof error === 'object') {
    const words =
      text(field(error, 'description'))
        ?.replace(/<\/?WERR>/g, '')
        .trim() ?? text(field(error, 'message'));
    return { code: text(field(error, 'code')), words, gateway: false };
  }
  if (field(body, 'httpCode') !== undefined) return { code: text(field(body, 'httpCode')), words: text(field(body, 'moreInformation')), gateway: true };
  const errors = field(body, 'errors');
  const list =
    errors && typeof errors === 'object'
      ? Object.entries(errors)
          .map(([name, messages]) => `${name}: ${Array.isArray(messages) ? messages.join(' ') : String(messages)}`)
          .join('; ')
      : undefined;
  return { words: text(field(body, 'detail')) ?? list ?? text(field(body, 'title')), gateway: false };
}

/** A refusal in MNG's words, with its code and HTTP status kept so callers can tell "not found" and "try later". */
class MngRefusal extends CarrierRefusedError {
  constructor(
    carrierId: number,
    reason: string,
    readonly code: string | undefined,
    /** the HTTP status: 400 our fields, 500 MNG's backend (its rules), 404 … */
    readonly status: number,
    /** a 404 from MNG's backend (not API Connect's "no such resource"): the order or shipment does not exist */
    readonly notFound = false,
  ) {
    super(carrierId, reason);
  }

  /** A rule of MNG's backend (500 `<WERR>`), as opposed to a field or a missing order. */
  get byBackend(): boolean {
    return this.status === 500;
  }
}

/** A 401 to a call with a JWT: renew the JWT and try once more. */
class TokenRefused extends CarrierRefusedError {
  constructor(carrierId: number) {
    super(carrierId, "MNG refused the account's token (HTTP 401)");
  }
}

interface Place {
  cityCode: number;
  cityName: string;
  districtCode: number;
  districtName: string;
}
type Rows = { code: number; name: string; cityName?: string }[];

/** CBS Info answers, shared by every account of a base URL (the codes are MNG's, not an account's). */
const cbsCache = new Map<string, Rows>();
const CBS_CACHE_MAX = 500;

/** A createbarcode answer read: the shipment, its labels in piece order. */
interface Issued {
  shipmentId: string;
  zpl: string[];
  /** what was done to get it, for the consignment's history */
  notes?: string[];
}

export type MngCarrierOptions = RateTableCarrierOptions<MngCredentials, MngSettings>;

export class MngCarrier extends RateTableCarrier<MngCredentials, MngSettings> implements Carrier {
  readonly kind = 'mng';
  /** cancelshipment works only until the branch accepts the parcel, on the day of the barcode. */
  readonly supportsCancelInTransit = false;
  /** The contract has no webhook: statuses are read by trackshipment on the polling schedule. */
  readonly supportsPush = false;
  private readonly token: AccountToken;

  constructor(options: MngCarrierOptions) {
    super(options, MNG_URL, 'MNG Kargo');
    this.token = new AccountToken(
      async () => {
        let answer: unknown;
        try {
          answer = await this.send('POST', '/token', {
            json: { customerNumber: options.credentials.customer_number, password: options.credentials.password, identityType: 1 },
          });
        } catch (error) {
          // README trap 8: another apizone's keys make the Identity API answer 500 with 20013.
          if (error instanceof MngRefusal && error.code === '20013')
            throw new CarrierRefusedError(this.id, `${error.reason}; the client id may be of the other apizone (sandbox keys on production or the reverse)`);
          throw error;
        }
        const value = text(field(one(answer), 'jwt'));
        if (!value) throw new CarrierRefusedError(this.id, 'MNG answered the token call without a jwt');
        return { value, lifetimeMs: TOKEN_LIFETIME_MS };
      },
      { renewEarlyMs: TOKEN_RENEW_EARLY_MS, now: () => this.now() },
    );
  }

  /**
   * Our service barcode: the order's referenceId (and barcode) at MNG, by which every later call finds it. Its 13
   * characters are within MNG's 30 ("unique, uppercased, ≤30 chars"), upper case already.
   */
  sentKey(req: BookingRequest): string {
    return req.serviceBarcode;
  }

  /**
   * The three stages: the recipient registered, the order created, its barcode made. A reference MNG already
   * holds (createOrder's duplicate refusal) is the order of an earlier try: that one is completed instead.
   */
  async book(req: BookingRequest): Promise<Booking> {
    const recipient = await this.recipientOf(req);
    const shipperBranch = await this.registerRecipient(recipient);
    const body = this.orderRequest(req, recipient);
    let order: unknown;
    try {
      order = await this.call('POST', '/standardcmdapi/createOrder', { json: body }, 'createOrder');
    } catch (error) {
      // A refusal of MNG's backend may be the used reference (the double answers 20002: its code is not in the
      // contract): an order under it is an earlier try's, and the only one this consignment may have.
      if (!(error instanceof MngRefusal) || !error.byBackend) throw error;
      const found = await this.findBooking(req);
      if (found.state === 'found') return found.booking;
      throw error;
    }
    const issued = await this.createBarcode(req);
    return this.booking(req, issued, text(field(one(order), 'shipperBranchCode')) ?? shipperBranch);
  }

  /**
   * getshipmentstatus by our reference. None (404); an order without a barcode yet is completed now; an order
   * with one answers its labels again from createbarcode, and where MNG refuses a repeated createbarcode, that
   * barcode (whose labels were lost with the answer, so printed nowhere) is cancelled and a new one made.
   */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    const reference = this.sentKey(req);
    let status: unknown;
    try {
      status = one(await this.call('GET', `/standardqueryapi/getshipmentstatus/${encodeURIComponent(reference)}`, {}, 'getshipmentstatus'));
    } catch (error) {
      if (error instanceof MngRefusal) return error.notFound ? { state: 'none' } : { state: 'unknown', reason: error.reason };
      throw error;
    }
    if (!status || typeof status !== 'object') return { state: 'none' };
    // The order exists: its recipient is registered again (idempotent at MNG), which also answers the branch code.
    const shipperBranch = await this.registerRecipient(await this.recipientOf(req));
    const held = text(field(status, 'shipmentId'));
    let issued: Issued;
    try {
      issued = await this.createBarcode(req);
    } catch (error) {
      if (!held || !(error instanceof MngRefusal) || !error.byBackend) throw error;
      const cancelled = await this.cancelBarcode(reference, held);
      if (!cancelled.accepted) return { state: 'unusable', trackingCodes: [held], reason: `${error.reason}; ${cancelled.reason}` };
      issued = await this.createBarcode(req);
      issued.notes = [`MNG would not hand out the labels of shipment ${held} again: that barcode was cancelled and shipment ${issued.shipmentId} made instead`];
    }
    return { state: 'found', booking: await this.booking(req, issued, shipperBranch, text(field(status, 'trackingUrl'))) };
  }

  /**
   * cancelshipment (the barcode), then cancelorder (the order), by our reference. MNG refuses once the branch
   * accepted the parcel or on a later day: its words are the reason. A 404 is a step done already.
   */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    const reference = req.carrierReference ?? req.trackingCode;
    const barcode = await this.cancelBarcode(reference, req.trackingCode);
    if (!barcode.accepted) return barcode;
    try {
      await this.call('PUT', `/standardcmdapi/cancelorder/${encodeURIComponent(reference)}`, {}, 'cancelorder');
    } catch (error) {
      if (!(error instanceof MngRefusal)) throw error;
      if (!error.notFound) return { accepted: false, reason: error.reason };
    }
    return { accepted: true };
  }

  /**
   * trackshipment by our reference: each event that moves a consignment, oldest first. For a delivery,
   * getshipmentstatus adds who received it. An order MNG does not know (yet) has no events.
   */
  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const path = shipment.carrierReference
      ? `trackshipment/${encodeURIComponent(shipment.carrierReference)}`
      : `trackshipmentByShipmentId/${encodeURIComponent(shipment.trackingCode)}`;
    const key = shipment.carrierReference ?? shipment.trackingCode;
    await this.options.lookupBudget?.();
    let answer: unknown;
    try {
      answer = await this.call('GET', `/standardqueryapi/${path}`, {}, 'trackshipment');
    } catch (error) {
      if (error instanceof MngRefusal && error.notFound) return [];
      throw error;
    }
    const events: TrackingEvent[] = [];
    for (const entry of Array.isArray(answer) ? answer : []) {
      const name = text(field(entry, 'eventStatus'));
      const code = mngStatusCode(name) ?? mngStatusCode(field(entry, 'eventStatusEn'));
      const event = mngStatusEvent(code);
      const at = mngDate(field(entry, 'eventDateTime2')) ?? mngDate(field(entry, 'eventDateTime'));
      if (!event || !at) continue;
      const location = [text(field(entry, 'location')), text(field(entry, 'locationAddress'))].filter(Boolean).join(', ');
      events.push({
        eventId: `${key}:${text(field(entry, 'eventSequence')) ?? '-'}:${code ?? foldText(name ?? '')}:${at.toISOString()}`,
        event,
        occurredAt: at,
        ...(name ? { message: name } : {}),
        ...(location ? { location } : {}),
      });
    }
    const delivered = events.find((e) => e.event === 'DELIVERED');
    if (delivered && shipment.carrierReference) {
      const receiver = await this.receiverOf(shipment.carrierReference);
      if (receiver) delivered.message = `${delivered.message ?? 'Teslim Edildi'}: ${receiver}`;
    }
    return events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  }

  /** Who signed for a delivered shipment (getshipmentstatus's deliveryTo), when MNG says. */
  private async receiverOf(reference: string): Promise<string | undefined> {
    await this.options.lookupBudget?.();
    try {
      const status = one(await this.call('GET', `/standardqueryapi/getshipmentstatus/${encodeURIComponent(reference)}`, {}, 'getshipmentstatus'));
      return text(field(status, 'deliveryTo'));
    } catch (error) {
      if (error instanceof MngRefusal && error.notFound) return undefined;
      throw error;
    }
  }

  /** cancelshipment: accepted, or MNG's refusal as the reason; a 404 (no such live barcode) is cancelled already. */
  private async cancelBarcode(reference: string, shipmentId: string): Promise<CancelResult> {
    try {
      await this.call('PUT', '/barcodecmdapi/cancelshipment', { json: { referenceId: reference, shipmentId } }, 'cancelshipment');
      return { accepted: true };
    } catch (error) {
      if (!(error instanceof MngRefusal)) throw error;
      return error.notFound ? { accepted: true } : { accepted: false, reason: error.reason };
    }
  }

  /**
   * The recipient as MNG takes it, everything it would refuse refused first naming the draft's field: Turkey
   * only, the province and district (CBS Info codes), a 10-digit phone, an e-mail, a TC Kimlik or tax number,
   * cash on delivery in TRY.
   */
  private async recipientOf(req: BookingRequest) {
    const { draft } = req;
    const issues: CarrierFieldIssue[] = [];
    const { to, province, district, phone } = turkishConsignee(draft, 'MNG', issues, { required: true });
    const mobile = phone.gsm ?? phone.phone;
    // README trap 6: "10 digits, no leading 0, no country code".
    if (mobile && !/^[1-9]\d{9}$/.test(mobile))
      issues.push({ field: 'consignee.phone_number', reason: 'MNG needs a Turkish phone number of 10 digits (with its area code)' });
    if (!to.name?.trim()) issues.push({ field: 'consignee.name', reason: "MNG needs the recipient's full name" });
    if (!to.address?.trim()) issues.push({ field: 'consignee.address', reason: 'MNG needs the full address' });
    const email = to.email?.trim() || this.options.settings.default_email;
    // README trap 5: "createOrder rejects empty emails".
    if (!email) issues.push({ field: 'consignee.email', reason: "MNG needs the recipient's e-mail (or the account's default_email setting)" });
    const taxNumber = to.tax_number?.replace(/\s/g, '');
    if (taxNumber && !isTcKimlik(taxNumber) && !/^\d{10}$/.test(taxNumber))
      issues.push({ field: 'consignee.tax_number', reason: 'MNG takes a valid TC Kimlik number (11 digits) or a tax number (10 digits)' });
    if ((draft.packages ?? []).length === 0) issues.push({ field: 'packages', reason: 'MNG needs at least one package' });
    const { cod, issue } = cashOnDelivery(draft);
    if (issue?.field) issues.push({ field: issue.field, reason: 'MNG collects cash on delivery of an amount above zero, in TRY' });
    if (cod && cod.currency !== 'TRY')
      issues.push({ field: `special_services.${cod.index}.details.currency`, reason: 'MNG collects cash on delivery in TRY only' });
    if (cod?.payment === 'card')
      issues.push({ field: `special_services.${cod.index}.details.payment`, reason: "MNG's order has no way to ask for payment by card at the door" });
    const returnIndex = (draft.special_services ?? []).findIndex((s) => RETURN_TYPES.has((s.service_type ?? '').trim().toLowerCase()));
    if (returnIndex >= 0)
      issues.push({ field: `special_services.${returnIndex}.service_type`, reason: 'MNG return orders (createReturnOrder) are not supported' });
    if (issues.length || !province || !district || !mobile || !email) throw new CarrierInputError(this.id, issues);
    // The codes cost a call each (cached), so only once the rest is right.
    const place = await this.placeOf(province, district);
    if (!place) throw new CarrierInputError(this.id, [{ field: 'consignee.city', reason: `MNG knows no district "${district}" in ${province}` }]);
    const isCompany = taxNumber !== undefined && /^\d{10}$/.test(taxNumber);
    return {
      refCustomerId: '',
      cityCode: place.cityCode,
      cityName: place.cityName,
      districtCode: place.districtCode,
      districtName: place.districtName,
      address: to.address!.trim(),
      bussinessPhoneNumber: '', // sic: the contract's spelling
      email,
      // Our drafts carry no tax office: a company's is left empty, a person's is "SAHIS".
      taxOffice: isCompany ? '' : PERSON_TAX_OFFICE,
      taxNumber: taxNumber ?? MNG_PLACEHOLDER_TAX_NUMBER,
      fullName: to.name!.trim(),
      homePhoneNumber: '',
      mobilePhoneNumber: mobile,
    };
  }

  /** MNG's city and district codes (CBS Info, cached per base URL): the city by its plate code, the district by name. */
  private async placeOf(province: string, district: string): Promise<Place | undefined> {
    const cities = await this.cbs('getcities', 'cities');
    const city = cities.find((c) => foldText(c.name.replace(/\s+\d+\s*$/, '')) === foldText(province));
    if (!city) return undefined;
    const code = String(city.code).padStart(2, '0');
    const districts = await this.cbs(`getdistricts/${code}`, `districts|${code}`);
    const found = districts.find((d) => foldText(d.name) === foldText(district));
    return found && { cityCode: city.code, cityName: found.cityName ?? province, districtCode: found.code, districtName: found.name };
  }

  /** A CBS Info list (no JWT: "These don't require a JWT — only the IBM headers"), rows with a numeric code. */
  private async cbs(path: string, key: string): Promise<Rows> {
    const cacheKey = `${this.base}|${key}`;
    const cached = cbsCache.get(cacheKey);
    if (cached) return cached;
    const answer = await this.send('GET', `/cbsinfoapi/${path}`, {});
    const rows: Rows = (Array.isArray(answer) ? answer : []).flatMap((row) => {
      const code = Number(text(field(row, 'code')));
      const name = text(field(row, 'name'));
      return Number.isSafeInteger(code) && code > 0 && name ? [{ code, name, cityName: text(field(row, 'cityName')) }] : [];
    });
    if (cbsCache.size >= CBS_CACHE_MAX) cbsCache.clear();
    cbsCache.set(cacheKey, rows);
    return rows;
  }

  /** createRecipient: without it createbarcode fails with 20001 for minutes (README "3-stage shipment flow"). */
  private async registerRecipient(recipient: Awaited<ReturnType<MngCarrier['recipientOf']>>): Promise<string | undefined> {
    const answer = await this.call('POST', '/pluscmdapi/createRecipient', { json: { recipient: { customerId: 0, ...recipient } } }, 'createRecipient');
    return text(field(one(answer), 'shipperBranchCode'));
  }

  /** createOrder's body (README createShipment; its spelling kept): one piece per package, MNG's defaults otherwise. */
  private orderRequest(req: BookingRequest, recipient: Awaited<ReturnType<MngCarrier['recipientOf']>>) {
    const reference = this.sentKey(req);
    const { cod } = cashOnDelivery(req.draft);
    return {
      order: {
        referenceId: reference,
        barcode: reference,
        billOfLandingId: '',
        isCOD: cod ? 1 : 0,
        codAmount: cod?.amount ?? 0,
        shipmentServiceType: 1, // STANDART
        packagingType: 3, // PAKET
        content: contentOf(req.draft.packages ?? []),
        smsPreference1: 0,
        smsPreference2: 0,
        smsPreference3: 0,
        paymentType: this.options.settings.payment_type ?? 1,
        deliveryType: 1, // ADRESE_TESLIM
        description: req.reference.slice(0, 100),
        marketPlaceShortCode: '',
        marketPlaceSaleCode: '',
      },
      orderPieceList: pieces(reference, req.draft),
      recipient,
    };
  }

  /**
   * createbarcode for our order: its pieces again ("parcel is packed, real kg/desi known"), answered with the
   * shipment and one ZPL label per piece. 20001 (the destination branch not resolved yet) asks us to wait: the
   * order exists, and the next try completes it.
   */
  private async createBarcode(req: BookingRequest): Promise<Issued> {
    const reference = this.sentKey(req);
    const { cod } = cashOnDelivery(req.draft);
    let answer: unknown;
    try {
      answer = await this.call(
        'POST',
        '/barcodecmdapi/createbarcode',
        {
          json: {
            referenceId: reference,
            billOfLandingId: '',
            isCOD: cod ? 1 : 0,
            codAmount: cod?.amount ?? 0,
            printReferenceBarcodeOnError: 0,
            message: '',
            additionalContent1: '',
            additionalContent2: '',
            additionalContent3: '',
            additionalContent4: '',
            orderPieceList: pieces(reference, req.draft),
            packagingType: 3,
          },
        },
        'createbarcode',
      );
    } catch (error) {
      if (error instanceof MngRefusal && error.code === BRANCH_NOT_FOUND) throw new CarrierBusyError(this.id, BRANCH_RETRY_MS, error.reason);
      throw error;
    }
    const issued = one(answer);
    const shipmentId = text(field(issued, 'shipmentId'));
    if (!shipmentId) throw new RemoteUnavailableError(this.id, 'MNG answered createbarcode without a shipmentId');
    const barcodes = field(issued, 'barcodes');
    const labels = (Array.isArray(barcodes) ? barcodes : [])
      .map((b, i) => ({ piece: Number(field(b, 'pieceNumber')) || i + 1, zpl: typeof field(b, 'value') === 'string' ? (field(b, 'value') as string) : '' }))
      .sort((a, b) => a.piece - b.piece);
    return { shipmentId, zpl: labels.map((l) => l.zpl).filter((z) => z.trim() !== '') };
  }

  /** The shipment as our booking: MNG's ZPL as the label, the barcode each piece's label encodes, the branch code. */
  private async booking(req: BookingRequest, issued: Issued, shipperBranch: string | undefined, trackingUrl?: string): Promise<Booking> {
    const packages = req.draft.packages?.length ?? 0;
    // One barcode per piece label, read from its ZPL; unreadable or not one per package: the ZPL alone is the label.
    const read = issued.zpl.map((zpl) => mngZplBarcodes(zpl)[0]);
    const pieceBarcodes = read.length === packages && read.every((b) => b && b.trim() !== '') ? read : undefined;
    return {
      trackingCode: issued.shipmentId,
      trackingUrl: trackingUrl ?? `${TRACKING_PAGE}${encodeURIComponent(issued.shipmentId)}`,
      // The contract has no pickup request: the parcel goes to MNG's branch, or its regular collection, as agreed with MNG.
      pickupBooked: false,
      bookedAt: this.now(),
      cost: await this.costOf(req.shipment),
      carrierReference: this.sentKey(req),
      ...(issued.zpl.length
        ? { label: { content: Buffer.from(issued.zpl.map((z) => (z.endsWith('\n') ? z : `${z}\n`)).join('')), contentType: 'application/zpl' } }
        : {}),
      ...(pieceBarcodes ? { pieceBarcodes } : {}),
      ...(shipperBranch ? { routing: shipperBranch } : {}),
      ...(issued.notes ? { notes: issued.notes } : {}),
    };
  }

  /** One call with the account's JWT; a 401 renews the JWT once (it may have expired early or been revoked). */
  private call(method: 'GET' | 'POST' | 'PUT', path: string, body: { json?: unknown }, operation: string): Promise<unknown> {
    return this.token.use(
      (token) => this.send(method, path, body, token, operation),
      (error) => error instanceof TokenRefused,
    );
  }

  /**
   * One request, with the app's IBM API Connect keys (every call) and the JWT (all but the token and CBS Info).
   * MNG answers a field it refuses as 400 `{error: {code, description}}`, its backend's refusals as 500 `{error:
   * {Code, Description: "<WERR> … </WERR>"}}`, an unknown order as a 404 ProblemDetails; API Connect answers with
   * `{httpCode, moreInformation}` (401: the app's keys or subscriptions; 404: no such resource, which is not "no such
   * order"). A 500 without a code of MNG's, other 5xx, 429 and network faults are worth a retry; a JWT's 401 has no body.
   */
  private async send(method: 'GET' | 'POST' | 'PUT', path: string, body: { json?: unknown }, token?: string, operation?: string): Promise<unknown> {
    const name = operation ?? path.split('/').filter(Boolean)[1] ?? path.slice(1);
    let res: OutboundResponse<unknown>;
    try {
      res = await this.options.http.json<unknown>({
        method,
        url: `${this.base}${API}${path}`,
        headers: {
          'x-ibm-client-id': this.options.credentials.client_id,
          'x-ibm-client-secret': this.options.credentials.client_secret,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body.json === undefined ? {} : { json: body.json }),
      });
    } catch (error) {
      throw carrierCallFault(this.id, error);
    }
    if (res.status >= 200 && res.status < 300) return res.body;
    const error = errorOf(res.body);
    const words = error.words?.slice(0, 400);
    if (res.status === 401 || res.status === 403) {
      if (error.gateway)
        throw new CarrierRefusedError(this.id, `MNG's API gateway refused the account's client id or secret${words ? `: ${words}` : ''} (HTTP ${res.status})`);
      if (token) throw new TokenRefused(this.id);
      throw new CarrierRefusedError(this.id, `MNG refused the account's customer number or password (HTTP ${res.status})`);
    }
    const reason = `MNG ${name}: ${words ?? `HTTP ${res.status}`}${error.code && error.code !== String(res.status) ? ` (${error.code})` : ''}`;
    if (res.status === 500 && !error.gateway && error.code && error.code !== '500') throw new MngRefusal(this.id, reason, error.code, 500);
    checkCarrierAnswer(this.id, res, { name: 'MNG', secret: 'client id or secret' });
    // A 4xx is our request, which a retry does not change; anything else may pass.
    if (res.status >= 400 && res.status < 500) throw new MngRefusal(this.id, reason, error.code, res.status, res.status === 404 && !error.gateway);
    throw new RemoteUnavailableError(this.id, reason);
  }
}

/** Each package as one piece, `<REF>_PARCA<n>`, its kg and desi whole numbers rounded up (never declared lighter). */
function pieces(reference: string, draft: DraftInput) {
  return (draft.packages ?? []).map((p, i) => {
    const { weight, desi } = totals([p]);
    return { barcode: `${reference}_PARCA${i + 1}`, desi: Math.ceil(desi), kg: Math.ceil(weight), content: contentOf([p]) };
  });
}

/** What the packages hold, from their items' descriptions. */
function contentOf(packages: PackageInput[]): string {
  return packages
    .flatMap((p) => (p.items ?? []).map((i) => i.description))
    .filter(Boolean)
    .join(', ')
    .slice(0, 250);
}
