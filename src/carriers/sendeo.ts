import { foldText } from '../address/fold';
import type { PartyInput } from '../domain/draft';
import { cashOnDelivery, isReturn } from '../domain/special-services';
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
  type TrackingEvent,
} from './carrier';
import { AccountToken } from './account-token';
import { carrierCallFault, checkCarrierAnswer, RemoteUnavailableError } from './carrier-http';
import type { AccountRateSettings } from './rate-table';
import { RateTableCarrier, type RateTableCarrierOptions } from './rate-table-carrier';
import { plateCode, provinceName, turkishPhone } from './turkish-provinces';

/**
 * Sendeo through its current web service API (public document `SendeoTeknoloji/web-service-doc`: README.md,
 * ENTEGRASYON.postman_collection.json, the DeliveryType examples; official C# client
 * `SendeoTeknoloji/Sendeo.Client.CSharp`). A Bearer token from `Token/LoginAES`, valid 20 hours, cached per
 * account; `SETDELIVERY` books under our `ReferenceNo` (the service barcode printed on our label: the
 * document's "own label" integration), `CARGOMEASUREMENTUPDATE` then sends pieces and desi as the document
 * asks, `GETBARCODE` finds a booking by its ReferenceNo, `TRACKDELIVERY` reads statuses, `CANCELDELIVERY`
 * cancels before pickup, `GetCityDistricts` gives the city and district ids SETDELIVERY needs.
 * docs/carriers.md, "Sendeo", says what is mapped and what is not supported.
 */

export const SENDEO_URL = 'https://api.sendeo.com.tr';
/** The document: "Token expire süremiz 20 saattir". Renewed half an hour early, and once on any 401. */
const TOKEN_LIFETIME_MS = 20 * 60 * 60 * 1000;
const TOKEN_RENEW_EARLY_MS = 30 * 60 * 1000;
/** SETDELIVERY's CollectionPrice limit ("Bu alan 5000 lira ile sınırlıdır"). */
export const SENDEO_MAX_COLLECTION_TRY = 5000;
/** Sendeo's clock: its dates carry no offset and are Turkish time (UTC+3 all year since 2016). */
const TURKEY_OFFSET = '+03:00';

export interface SendeoCredentials {
  /** `musteri`: the API user's customer code */
  customer_code: string;
  /** `sifre` */
  password: string;
}

export interface SendeoSettings {
  base_url?: string;
  /** 1 from your location to your customer (default), 2 from your customer to your location, 3 from a supplier to your customer */
  delivery_type?: 1 | 2 | 3;
  /** 1 standard (default), 2 express */
  service_type?: 1 | 2;
  rates?: AccountRateSettings;
}

/**
 * The document's status list → our tracking events. Informational statuses (order received, measured, a
 * return asked or approved, an appointment) move nothing and are absent.
 */
export const EVENT_OF_SENDEO_STATUS: Readonly<Record<number, TrackingEventName>> = {
  102: 'PICKED_UP', // Belge Düzenlendi: the shipment is created at the branch
  138: 'PICKED_UP', // Gönderi Alındı
  103: 'IN_TRANSIT', // Şube TM Yükleme
  104: 'IN_TRANSIT', // TM Şube İndirme
  105: 'IN_TRANSIT', // TM Hat Yükleme
  106: 'IN_TRANSIT', // TM Hat İndirme
  107: 'IN_TRANSIT', // TM Şube Yükleme
  108: 'IN_TRANSIT', // Şube TM İndirme
  110: 'IN_TRANSIT', // Şube Dağıtım İndirme: back at the branch from a delivery round
  119: 'IN_TRANSIT', // Devir
  123: 'IN_TRANSIT', // Randevulu Teslimat
  124: 'IN_TRANSIT', // Mobil Dağıtım Bölgesi
  126: 'IN_TRANSIT', // Yönlendirme
  109: 'OUT_FOR_DELIVERY', // Şube Dağıtım Yükleme: Dağıtıma Çıkarıldı
  140: 'OUT_FOR_DELIVERY', // Kurye Teslimatta
  141: 'OUT_FOR_DELIVERY', // Kurye Zimmete Aldı
  111: 'DELIVERED', // Teslim Edildi
  112: 'EXCEPTION', // Alıcı Telefonu Yanlış
  114: 'EXCEPTION', // Alıcı Adresinde Yok
  115: 'EXCEPTION', // Alıcı Adresi Yanlış
  117: 'EXCEPTION', // Hasarlı Gönderi
  118: 'EXCEPTION', // Kayıp Kargo
  120: 'EXCEPTION', // Eksik Teslim Edildi: delivered with pieces missing
  121: 'EXCEPTION', // Dağıtım Alanı Dışında
  122: 'EXCEPTION', // Ödeme Tipi Kabul Edilmedi
  125: 'EXCEPTION', // Eksik Kargo
  127: 'EXCEPTION', // Hat Aracı Gecikmesi
  128: 'EXCEPTION', // Olumsuz Hava Koşulları
  129: 'EXCEPTION', // Taşıma Fiyatı Yüksek Bulundu
  130: 'EXCEPTION', // Teslim Edilemedi
  133: 'EXCEPTION', // İptal Gönderi: cancelled at Sendeo
  136: 'EXCEPTION', // İade Red
  139: 'EXCEPTION', // İptal İş Emri: the order cancelled at Sendeo
  142: 'EXCEPTION', // Kurye Zimmetten Çıkardı: taken back from the courier undelivered
  143: 'EXCEPTION', // Kayıp Kargo İş Emri
  131: 'RETURNED', // İade Gönderi
  135: 'RETURNED', // İş Emri İadesi
  151: 'RETURNED', // İade Olarak Teslim
};

/** Sendeo's envelope (C# client `ResponseBase<T>`), read ignoring the case of its keys. */
type Envelope = Record<string, unknown>;

/** A key of a .NET answer, whatever its case (`StatusCode`, `statusCode`; `result`, `Result`). */
function field(object: unknown, name: string): unknown {
  if (!object || typeof object !== 'object') return undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === lower) return value;
  return undefined;
}
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(text).filter((v): v is string => v !== undefined) : []);

/** The answer that means "no such delivery" (CANCELDELIVERY's 702, which its look-ups answer too). */
const NOT_FOUND_CODE = 702;

/** A Sendeo refusal with its status code (the document's tables) kept, so look-ups can tell "not found". */
class SendeoRefusal extends CarrierRefusedError {
  constructor(
    carrierId: number,
    reason: string,
    readonly code: number | undefined,
  ) {
    super(carrierId, reason);
  }
}

/** A Turkish phone as the document wants it: 10 digits, a GSM when it starts with 5. */
export const sendeoPhone = turkishPhone;

/** A date Sendeo reports: ISO with or without an offset (none means Turkish time), or its `dd/MM/yyyy HH:mm:ss`. */
export function sendeoDate(raw: unknown): Date | undefined {
  const value = text(raw);
  if (!value) return undefined;
  const dmy = /^(\d{2})[./](\d{2})[./](\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  const iso = dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}T${dmy[4]}:${dmy[5]}:${dmy[6] ?? '00'}` : value;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}${TURKEY_OFFSET}`;
  const at = new Date(zoned);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

interface District {
  cityId: number;
  districtId: number;
}

/** GetCityDistricts answers, shared by every account of a base URL (the ids are Sendeo's, not an account's). */
const districtCache = new Map<string, District | null>();
const DISTRICT_CACHE_MAX = 5000;

export type SendeoCarrierOptions = RateTableCarrierOptions<SendeoCredentials, SendeoSettings>;

export class SendeoCarrier extends RateTableCarrier<SendeoCredentials, SendeoSettings> implements Carrier {
  readonly kind = 'sendeo';
  /** CANCELDELIVERY works only before pickup (status 101). */
  readonly supportsCancelInTransit = false;
  /** The document has no webhook: statuses are read by TRACKDELIVERY on the polling schedule. */
  readonly supportsPush = false;
  private readonly token: AccountToken;

  constructor(options: SendeoCarrierOptions) {
    super(options, SENDEO_URL, 'Sendeo');
    // Cached until half an hour before its 20 hours run out.
    this.token = new AccountToken(
      async () => {
        const answer = await this.send(
          'POST',
          '/api/Token/LoginAES',
          { json: { musteri: options.credentials.customer_code, sifre: options.credentials.password } },
          undefined,
        );
        const value = text(field(answer, 'Token'));
        if (!value) throw new CarrierRefusedError(this.id, 'Sendeo answered LoginAES without a token');
        return { value, lifetimeMs: TOKEN_LIFETIME_MS };
      },
      { renewEarlyMs: TOKEN_RENEW_EARLY_MS, now: () => this.now() },
    );
  }

  /** Our service barcode: the ReferenceNo SETDELIVERY takes, printed on our label, by which Sendeo finds the delivery. */
  sentKey(req: BookingRequest): string {
    return req.serviceBarcode;
  }

  async book(req: BookingRequest): Promise<Booking> {
    const body = await this.deliveryRequest(req);
    const answer = await this.call('POST', '/api/Cargo/SETDELIVERY', { json: body });
    return this.completed(req, answer);
  }

  /**
   * GETBARCODE by our ReferenceNo: a delivery found is the whole booking (completed with its measurements). "No
   * delivery" (702, or an answer without a tracking number) is none; another refusal leaves it unknown (noted).
   */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    let answer: unknown;
    try {
      answer = await this.call('POST', '/api/Cargo/GETBARCODE', { json: { barcodeLabelType: 2, referenceNo: this.sentKey(req) } });
    } catch (error) {
      if (error instanceof SendeoRefusal) return error.code === NOT_FOUND_CODE ? { state: 'none' } : { state: 'unknown', reason: error.reason };
      throw error;
    }
    if (!text(field(answer, 'TrackingNumber'))) return { state: 'none' };
    return { state: 'found', booking: await this.completed(req, answer) };
  }

  /** CANCELDELIVERY by our ReferenceNo (query string, as the document and its Postman collection send it). */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    if (req.inTransit) return { accepted: false, reason: 'Sendeo cancels a delivery only before it is picked up' };
    try {
      const answer = await this.call('POST', `/api/Cargo/CANCELDELIVERY?referenceNo=${encodeURIComponent(this.referenceOf(req))}`, {});
      const ok = field(answer, 'IsSuccess');
      return ok === false ? { accepted: false, reason: 'Sendeo did not cancel the delivery' } : { accepted: true };
    } catch (error) {
      if (error instanceof SendeoRefusal) return { accepted: false, reason: error.reason };
      throw error;
    }
  }

  /** TRACKDELIVERY by our ReferenceNo: every status in its history that moves a consignment, oldest first. */
  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const reference = this.referenceOf(shipment);
    await this.options.lookupBudget?.();
    let answer: unknown;
    try {
      answer = await this.call('GET', `/api/Cargo/TRACKDELIVERY?referenceNo=${encodeURIComponent(reference)}`, {});
    } catch (error) {
      // Known to us but not (yet) to its tracking: nothing has happened there.
      if (error instanceof SendeoRefusal && error.code === NOT_FOUND_CODE) return [];
      throw error;
    }
    const histories = field(answer, 'StatusHistories');
    const entries =
      Array.isArray(histories) && histories.length > 0
        ? histories
        : [{ StatusId: field(answer, 'State'), StatusDate: field(answer, 'UpdateDate'), Status: field(answer, 'StateText') }];
    const events: TrackingEvent[] = [];
    for (const entry of entries) {
      const code = Number(field(entry, 'StatusId'));
      const event = EVENT_OF_SENDEO_STATUS[code];
      const at = sendeoDate(field(entry, 'StatusDate'));
      if (!event || !at) continue;
      events.push({
        eventId: `${reference}:${code}:${at.toISOString()}`,
        event,
        occurredAt: at,
        message: text(field(entry, 'Description')) ?? text(field(entry, 'Status')),
      });
    }
    return events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  }

  /** A booked delivery's ReferenceNo (kept as the carrier reference; the tracking code for bookings made before it was). */
  private referenceOf(shipment: Pick<ShipmentRef, 'carrierReference' | 'trackingCode'>): string {
    return shipment.carrierReference ?? shipment.trackingCode;
  }

  /**
   * SETDELIVERY's body (the document's parameter table, its spelling kept): both parties with Sendeo's city
   * and district ids, one product line per package, cash on delivery when the draft asks for it. Every
   * field Sendeo would refuse is refused here first, naming the draft's field.
   */
  private async deliveryRequest(req: BookingRequest) {
    const { draft } = req;
    const issues: CarrierFieldIssue[] = [];
    for (const side of ['consignor', 'consignee'] as const) {
      const country = draft[side]?.country?.trim().toUpperCase();
      if (country !== 'TR') issues.push({ field: `${side}.country`, reason: 'Sendeo carries within Turkey only' });
    }
    const packages = draft.packages ?? [];
    if (packages.length === 0) issues.push({ field: 'packages', reason: 'Sendeo needs at least one package' });
    const { cod } = cashOnDelivery(draft);
    if (cod && cod.currency !== 'TRY')
      issues.push({ field: `special_services.${cod.index}.details.currency`, reason: 'Sendeo collects cash on delivery in TRY only' });
    if (cod && cod.amount > SENDEO_MAX_COLLECTION_TRY) {
      issues.push({ field: `special_services.${cod.index}.details.amount`, reason: `Sendeo collects at most ${SENDEO_MAX_COLLECTION_TRY} TRY on delivery` });
    }
    const parties = { consignor: draft.consignor ?? {}, consignee: draft.consignee ?? {} };
    for (const side of ['consignor', 'consignee'] as const) {
      const p = parties[side];
      if (!p.address?.trim()) issues.push({ field: `${side}.address`, reason: 'Sendeo needs the full address' });
      const phone = sendeoPhone(p.phone_number);
      if (!phone.gsm && !phone.phone) issues.push({ field: `${side}.phone_number`, reason: 'Sendeo needs a Turkish phone or GSM number of 10 digits' });
    }
    if (issues.length) throw new CarrierInputError(this.id, issues);
    // District ids only once the rest is right: they cost a call each (cached).
    const [from, to] = await Promise.all([this.districtOf(parties.consignor, 'consignor', issues), this.districtOf(parties.consignee, 'consignee', issues)]);
    if (issues.length || !from || !to) throw new CarrierInputError(this.id, issues);
    const deliveryType = isReturn(draft) ? 2 : (this.options.settings.delivery_type ?? 1);
    const content = packages
      .flatMap((p) => (p.items ?? []).map((i) => i.description))
      .filter(Boolean)
      .join(', ');
    const party = (p: PartyInput, d: District, role: 'Sender' | 'Receiver') => {
      const phone = sendeoPhone(p.phone_number);
      const tc = p.tax_number && /^[1-9]\d{10}$/.test(p.tax_number) ? p.tax_number : undefined;
      return {
        [role]: (p.name ?? '').slice(0, 200),
        ...(p.attention_name ? { [`${role}Authority`]: p.attention_name.slice(0, 200) } : {}),
        [`${role}Address`]: [p.address, p.postal_code].filter(Boolean).join(' ').slice(0, 500),
        [`${role}CityId`]: d.cityId,
        [`${role}DistrictId`]: d.districtId,
        // The document's own spelling: `senderPhone`, `receiverPhone`; GSM in capitals.
        ...(phone.phone ? { [role === 'Sender' ? 'senderPhone' : 'receiverPhone']: phone.phone } : {}),
        ...(phone.gsm ? { [`${role}GSM`]: phone.gsm } : {}),
        ...(p.email ? { [`${role}Email`]: p.email } : {}),
        ...(tc ? { [role === 'Sender' ? 'senderTc' : 'receiverTC']: tc } : {}),
      };
    };
    // COD: the document refuses a zero product price with a collection (410), so the amount is spread over the lines.
    const prices = cod ? spread(cod.amount, packages.length) : packages.map(() => 0);
    return {
      DeliveryType: deliveryType,
      ReferenceNo: this.sentKey(req),
      ...(content ? { Description: content.slice(0, 250) } : {}),
      ...party(parties.consignor, from, 'Sender'),
      ...party(parties.consignee, to, 'Receiver'),
      PaymentType: 1,
      CollectionType: cod ? (cod.payment === 'card' ? 2 : 1) : 0,
      CollectionPrice: cod?.amount ?? 0,
      ServiceType: this.options.settings.service_type ?? 1,
      // ZPL: the smallest answer. Our label is printed, with the ReferenceNo Sendeo scans at pickup.
      BarcodeLabelType: 2,
      ...(req.reference !== req.serviceBarcode ? { customerReferenceType: req.reference.slice(0, 100) } : {}),
      Products: packages.map((p, i) => {
        const { weight, desi } = totals([p]);
        return {
          Count: 1,
          ProductCode: '',
          Description: (p.items ?? [])
            .map((item) => item.description)
            .filter(Boolean)
            .join(', ')
            .slice(0, 250),
          // Whole numbers in the document; rounded up, so a parcel is never declared lighter than it is.
          Deci: Math.ceil(desi),
          Weigth: Math.ceil(weight),
          DeciWeight: Math.ceil(Math.max(desi, weight)),
          Price: prices[i],
        };
      }),
    };
  }

  /** Sendeo's city and district ids of a party: the province from its plate code, the district by name (GetCityDistricts). */
  private async districtOf(p: PartyInput, side: 'consignor' | 'consignee', issues: CarrierFieldIssue[]): Promise<District | undefined> {
    const plate = plateCode(p);
    const province = plate === undefined ? undefined : provinceName(plate);
    if (!province) {
      issues.push({ field: `${side}.state`, reason: 'Sendeo needs the province: state (or state_code, its plate code)' });
      return undefined;
    }
    // A draft names the district as its city; a city that is the province itself names no district.
    const district = p.city?.trim();
    if (!district || foldText(district) === foldText(province)) {
      issues.push({ field: `${side}.city`, reason: `Sendeo needs the district (ilçe) of ${province} as the city` });
      return undefined;
    }
    const key = `${this.base}|${foldText(province)}|${foldText(district)}`;
    let found = districtCache.get(key);
    if (found === undefined) {
      const answer = await this.call(
        'GET',
        `/api/Cargo/GetCityDistricts?CityName=${encodeURIComponent(province)}&DistrictName=${encodeURIComponent(district)}`,
        {},
      );
      const match = districtRows(answer).find((r) => foldText(r.name) === foldText(district));
      found =
        match && Number.isSafeInteger(match.cityId ?? plate) && Number.isSafeInteger(match.districtId) && match.districtId > 0
          ? { cityId: match.cityId ?? plate!, districtId: match.districtId }
          : null;
      if (districtCache.size >= DISTRICT_CACHE_MAX) districtCache.clear();
      districtCache.set(key, found);
    }
    if (!found) issues.push({ field: `${side}.city`, reason: `Sendeo knows no district "${district}" in ${province}` });
    return found ?? undefined;
  }

  /**
   * A delivery Sendeo holds (SETDELIVERY's or GETBARCODE's answer) as our booking, after sending its pieces and
   * desi with CARGOMEASUREMENTUPDATE (the document asks for it after every SETDELIVERY that gives them).
   */
  private async completed(req: BookingRequest, answer: unknown): Promise<Booking> {
    const trackingCode = text(field(answer, 'TrackingNumber'));
    if (!trackingCode) throw new CarrierRefusedError(this.id, 'Sendeo answered without a TrackingNumber');
    const reference = this.sentKey(req);
    await this.call('POST', '/api/Cargo/CARGOMEASUREMENTUPDATE', {
      json: {
        CustomerReferenceNo: reference,
        Measurements: (req.draft.packages ?? []).map((p) => {
          const { weight, desi } = totals([p]);
          return {
            Quantity: 1,
            Width: Math.ceil(p.width ?? 0),
            Length: Math.ceil(p.length ?? 0),
            Height: Math.ceil(p.height ?? 0),
            Deci: desi,
            Weight: weight,
          };
        }),
      },
    });
    const pieces = strings(field(answer, 'BarcodeNumbers'));
    const cost = await this.costOf(req.shipment);
    return {
      trackingCode,
      trackingUrl: text(field(answer, 'TrackingUrl')) ?? `https://sube.sendeo.com.tr/takip?musref=${encodeURIComponent(reference)}`,
      // DeliveryType 1 and 3: Sendeo collects from the sender; 2: from the customer. A pickup either way.
      pickupBooked: true,
      bookedAt: this.now(),
      cost,
      carrierReference: reference,
      // Sendeo numbers each piece; our label prints them, one page per package, when they match the packages.
      ...(pieces.length === (req.draft.packages?.length ?? 0) && pieces.length > 0 ? { pieceBarcodes: pieces } : {}),
    };
  }

  /** One call with the account's token; a 401 renews the token once (it may have expired early or been revoked). */
  private call(method: 'GET' | 'POST', path: string, body: { json?: unknown }): Promise<unknown> {
    return this.token.use(
      (token) => this.send(method, path, body, token),
      (error) => error instanceof TokenRefused,
    );
  }

  /**
   * One request. Sendeo answers success as HTTP 200 with `result`; a refusal as HTTP 500 with its status code
   * (the document's tables: 102, 205, 702, …) and `exceptionMessage`; a 500 without such a code, other 5xx,
   * 429 and network faults are worth a retry; 401 is the token (or, for LoginAES, the credentials).
   */
  private async send(method: 'GET' | 'POST', path: string, body: { json?: unknown }, token: string | undefined): Promise<unknown> {
    let res: OutboundResponse<Envelope | null>;
    try {
      res = await this.options.http.json<Envelope>({
        method,
        url: `${this.base}${path}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(body.json === undefined ? {} : { json: body.json }),
      });
    } catch (error) {
      throw carrierCallFault(this.id, error);
    }
    const operation = path.split('?')[0].split('/').pop();
    if (res.status === 401) {
      if (token) throw new TokenRefused(this.id);
      throw new CarrierRefusedError(this.id, "Sendeo refused the account's customer code or password (HTTP 401)");
    }
    const code = Number(field(res.body, 'StatusCode'));
    const message = text(field(res.body, 'exceptionMessage')) ?? text(field(res.body, 'exceptionDescription'));
    // The C# client's envelope keeps the answer in `result`; an answer without the envelope is the answer itself.
    if (res.status === 200 && (!Number.isFinite(code) || code === 200 || code === 0)) return field(res.body, 'result') ?? res.body;
    if (res.status === 500 && message && Number.isFinite(code) && code !== 200 && (code < 500 || code > 599)) {
      throw new SendeoRefusal(this.id, `Sendeo ${operation}: ${message} (${code})`, code);
    }
    checkCarrierAnswer(this.id, res, { name: 'Sendeo', secret: 'customer code or password' });
    const reason = `Sendeo ${operation}: ${message ?? validationText(res.body) ?? `HTTP ${res.status}`}`;
    // A 4xx is our request, which a retry does not change; anything else may pass.
    throw res.status >= 400 && res.status < 500 ? new SendeoRefusal(this.id, reason, code) : new RemoteUnavailableError(this.id, reason);
  }
}

/** A 401 to a call with a token: renew the token and try once more. */
class TokenRefused extends CarrierRefusedError {
  constructor(carrierId: number) {
    super(carrierId, "Sendeo refused the account's token (HTTP 401)");
  }
}

/**
 * The districts in a GetCityDistricts answer, whatever its nesting: rows `{CityId, DistrictId, DistrictName}`
 * (our reading of the document, which shows the answer only as an image), or a city with its districts inside
 * (`{CityId, Districts: [{DistrictId, DistrictName|Name}]}`). Keys in any case.
 */
export function districtRows(answer: unknown, cityId?: number, depth = 0): { cityId?: number; districtId: number; name: string }[] {
  if (depth > 4 || !answer || typeof answer !== 'object') return [];
  if (Array.isArray(answer)) return answer.flatMap((a) => districtRows(a, cityId, depth + 1));
  const city = Number(field(answer, 'CityId'));
  const here = Number.isSafeInteger(city) && city > 0 ? city : cityId;
  const districtId = Number(field(answer, 'DistrictId'));
  const name = text(field(answer, 'DistrictName')) ?? text(field(answer, 'Name'));
  const own = Number.isSafeInteger(districtId) && districtId > 0 && name ? [{ cityId: here, districtId, name }] : [];
  const nested = Object.values(answer).filter((v) => v && typeof v === 'object');
  return [...own, ...nested.flatMap((v) => districtRows(v, here, depth + 1))];
}

/** An ASP.NET validation answer (`errors: {Field: [messages]}`) in one line. */
function validationText(body: unknown): string | undefined {
  const errors = field(body, 'errors');
  if (!errors || typeof errors !== 'object') return undefined;
  return Object.entries(errors)
    .map(([name, messages]) => `${name}: ${strings(messages).join(' ')}`)
    .join('; ')
    .slice(0, 500);
}

/** `amount` in `parts` prices to the kuruş, the remainder on the first, so they add up exactly. */
function spread(amount: number, parts: number): number[] {
  if (parts <= 0) return [];
  const cents = Math.round(amount * 100);
  const each = Math.floor(cents / parts);
  return Array.from({ length: parts }, (_, i) => (i === 0 ? each + (cents - each * parts) : each) / 100);
}
