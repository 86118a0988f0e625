import { foldText } from '../address/fold';
import { cashOnDelivery, isReturn } from '../domain/special-services';
import type { TrackingEventName } from '../domain/tracking';
import { totals } from '../domain/weights';
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
import { RemoteUnavailableError } from './carrier-http';
import type { AccountRateSettings } from './rate-table';
import { RateTableCarrier, type RateTableCarrierOptions } from './rate-table-carrier';
import { callSoap, soapDecimal, soapList, soapText, type SoapElement, type SoapOperation } from './soap';
import { piecePages, turkishConsignee } from './turkish-provinces';

/**
 * Sürat Kargo through its SOAP service `services.asmx` (public contract `tcgunel/omniship-surat`: README and
 * request classes; the production WSDL for element names and types). `GonderiyiKargoyaGonderYeniSiparisBarkodOlustur`
 * books under our `OzelKargoTakipNo` (the service barcode printed on our label; Sürat prints no label through this
 * operation) and answers Sürat's 14-digit barcode; `WebSiparisKodu` finds what is held under our code;
 * `KargoTakipHareketDetayliV2` reads the movements; `GonderiGeriCek` withdraws a shipment before pickup, with a
 * reason. docs/carriers.md, "Sürat Kargo", says what is mapped and what is not supported.
 */

export const SURAT_URL = 'https://webservices.suratkargo.com.tr/services.asmx';
const NAMESPACE = 'http://tempuri.org/';
/** Sürat's clock: its times carry no offset and are Turkish time (UTC+3 all year since 2016). */
const TURKEY_OFFSET = '+03:00';
/** The public tracking page, by Sürat's barcode. */
const TRACKING_PAGE = 'https://suratkargo.com.tr/KargoTakip/?kargotakipno=';

export interface SuratCredentials {
  /** Cari Kodu: the account code every operation takes */
  account_code: string;
  /** Cari Şifresi: what booking and withdrawing take */
  password: string;
  /** Web Servis Şifresi (set on Sürat's e-kargo site): what tracking and look-ups take */
  web_service_password: string;
}

export interface SuratSettings {
  base_url?: string;
  /** OdemeTipi: 1 the sender pays (default), 2 the receiver pays */
  payment_type?: 1 | 2;
  /** KargoTuru: 1 document (dosya), 2 small parcel (mi), 3 parcel (koli, the default) */
  cargo_type?: 1 | 2 | 3;
  /** the account is Sürat's cash-on-delivery account ("COD Cari Kodu"): only such an account books COD */
  cash_on_delivery?: boolean;
  /** a Sürat courier collects each shipment (the extra service AdrestenAlim); default: handed in at a branch */
  pickup?: boolean;
  rates?: AccountRateSettings;
}

/** What one operation sends and how the service names it (document/literal, qualified: .asmx). */
const operation = (name: string): SoapOperation => ({ version: '1.1', namespace: NAMESPACE, name, action: `${NAMESPACE}${name}`, qualifiedChildren: true });
const CREATE = operation('GonderiyiKargoyaGonderYeniSiparisBarkodOlustur');
const MOVEMENTS = operation('KargoTakipHareketDetayliV2');
const WITHDRAW = operation('GonderiGeriCek');
const LOOK_UP = operation('WebSiparisKodu');

/**
 * Sürat's movement texts (the contract's tracking lines, `Durum|time|unit`) → our tracking events, by the first
 * keyword found in the folded text: a return before a delivery ("İade olarak teslim"), a withdrawal before both.
 */
const EVENT_OF_MOVEMENT: readonly [keyword: string, event: TrackingEventName][] = [
  ['iptal', 'EXCEPTION'],
  ['iade', 'RETURNED'],
  ['teslim edildi', 'DELIVERED'],
  ['dagitim', 'OUT_FOR_DELIVERY'],
  ['kabul', 'PICKED_UP'],
  ['aktarma', 'IN_TRANSIT'],
  ['transfer', 'IN_TRANSIT'],
  ['yolda', 'IN_TRANSIT'],
  ['sube', 'IN_TRANSIT'],
];

/** The event a movement text stands for; undefined for texts that move nothing (or that we do not know). */
export function suratMovementEvent(text: string): TrackingEventName | undefined {
  const folded = foldText(text);
  return EVENT_OF_MOVEMENT.find(([keyword]) => folded.includes(keyword))?.[1];
}

/** A movement line's time (`yyyy-MM-dd HH:mm:ss` or `dd.MM.yyyy HH:mm:ss`, Turkish time). */
export function suratTime(raw: string): Date | undefined {
  const dmy = /^(\d{2})[./](\d{2})[./](\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(raw.trim());
  const iso = dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}T${dmy[4]}:${dmy[5]}:${dmy[6] ?? '00'}` : raw.trim().replace(' ', 'T');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(iso)) return undefined;
  const at = new Date(`${iso}${TURKEY_OFFSET}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

export type SuratCarrierOptions = RateTableCarrierOptions<SuratCredentials, SuratSettings>;

export class SuratCarrier extends RateTableCarrier<SuratCredentials, SuratSettings> implements Carrier {
  readonly kind = 'surat';
  /** GonderiGeriCek works only before Sürat has taken the shipment in. */
  readonly supportsCancelInTransit = false;
  /** The contract has no webhook: movements are read by the account's tracking poller. */
  readonly supportsPush = false;

  constructor(options: SuratCarrierOptions) {
    super(options, SURAT_URL, 'Sürat Kargo');
  }

  /** Our service barcode: the OzelKargoTakipNo the booking takes, printed on our label, by which Sürat finds the shipment. */
  sentKey(req: BookingRequest): string {
    return req.serviceBarcode;
  }

  async book(req: BookingRequest): Promise<Booking> {
    const answer = await this.call(CREATE, {
      KullaniciAdi: this.options.credentials.account_code,
      Sifre: this.options.credentials.password,
      Gonderi: this.shipment(req),
    });
    const result = (answer[`${CREATE.name}Result`] ?? {}) as Record<string, unknown>;
    const barcode = soapText(result.Barcode);
    if (soapText(result.isError) !== 'false' || !barcode)
      throw new CarrierRefusedError(this.id, `Sürat Kargo: ${soapText(result.Message) ?? 'the shipment was not created'}`.slice(0, 500));
    return this.booking(req, barcode);
  }

  /**
   * WebSiparisKodu by our code: a row with Sürat's barcode (`TakipNo`) is the booking; no row is none. A row
   * without it (the refusal of the account's web service password) leaves it unknown.
   */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    const answer = await this.call(LOOK_UP, {
      GonderenCariKodu: this.options.credentials.account_code,
      Sifre: this.options.credentials.web_service_password,
      WebSiparisKodu: this.sentKey(req),
    });
    const result = answer[`${LOOK_UP.name}Result`] as Record<string, unknown> | undefined;
    const dataSet = (result?.diffgram as Record<string, unknown> | undefined)?.NewDataSet as Record<string, unknown> | undefined;
    const rows = soapList<Record<string, unknown>>(dataSet?.Table);
    if (rows.length === 0) return { state: 'none' };
    const barcode = rows.map((r) => soapText(r.TakipNo)).find((b) => b);
    if (!barcode) return { state: 'unknown', reason: `Sürat Kargo: ${soapText(rows[0].Mesaj) ?? 'the look-up answered no barcode'}` };
    return { state: 'found', booking: await this.booking(req, barcode) };
  }

  /** GonderiGeriCek by our code, before pickup only; Sürat's refusal (`HATA …`) is the reason. */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    if (req.inTransit) return { accepted: false, reason: 'Sürat Kargo withdraws a shipment only before it has taken it in' };
    const answer = await this.call(WITHDRAW, {
      KullaniciAdi: this.options.credentials.account_code,
      Sifre: this.options.credentials.password,
      OzelKargoTakipNo: this.referenceOf(req),
      IptalNeden: 'Gönderici isteğiyle iptal (cancelled at the sender’s request)',
    });
    const result = soapText(answer[`${WITHDRAW.name}Result`]) ?? '';
    if (/^hata/i.test(result) || result === '') return { accepted: false, reason: `Sürat Kargo: ${result || 'no answer to the withdrawal'}`.slice(0, 500) };
    return { accepted: true };
  }

  /**
   * KargoTakipHareketDetayliV2 by our code: each movement line (`Durum|yyyy-MM-dd HH:mm:ss|Birim`) that moves a
   * consignment, oldest first. An empty answer is a shipment with no movement yet. A line that cannot be read fails
   * the question rather than being skipped: the contract does not describe the string, so a change must show.
   */
  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const reference = this.referenceOf(shipment);
    await this.options.lookupBudget?.();
    const answer = await this.call(MOVEMENTS, {
      CariKodu: this.options.credentials.account_code,
      Sifre: this.options.credentials.web_service_password,
      WebSiparisKodu: reference,
    });
    const text = soapText(answer[`${MOVEMENTS.name}Result`]) ?? '';
    const events: TrackingEvent[] = [];
    for (const line of text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)) {
      if (/^hata/i.test(line)) throw new CarrierRefusedError(this.id, `Sürat Kargo: ${line}`.slice(0, 500));
      const [status, time, unit] = line.split('|').map((part) => part.trim());
      const at = time === undefined ? undefined : suratTime(time);
      if (!status || !at) throw new RemoteUnavailableError(this.id, `Sürat Kargo answered a movement line we cannot read: ${line.slice(0, 200)}`);
      const event = suratMovementEvent(status);
      if (!event) continue;
      events.push({ eventId: `${reference}:${foldText(status)}:${at.toISOString()}`, event, occurredAt: at, location: unit || undefined, message: status });
    }
    return events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  }

  /** A booked shipment's code at Sürat: ours (kept as the carrier reference). */
  private referenceOf(shipment: Pick<ShipmentRef, 'carrierReference' | 'trackingCode'>): string {
    return shipment.carrierReference ?? shipment.trackingCode;
  }

  /**
   * The `Gonderi` (the WSDL's GonderiModel) of a draft: the consignee (the sender is the account's registered
   * address), its province and district, phones in Sürat's ten digits, the pieces with their mean desi and weight,
   * cash on delivery when the draft asks for it. Every field Sürat would refuse is refused here first, naming the
   * draft's field.
   */
  private shipment(req: BookingRequest): SoapElement {
    const { draft } = req;
    const settings = this.options.settings;
    const issues: CarrierFieldIssue[] = [];
    const { to, province, district, phone } = turkishConsignee(draft, 'Sürat Kargo', issues, { required: true });
    const packages = draft.packages ?? [];
    if (packages.length === 0) issues.push({ field: 'packages', reason: 'Sürat Kargo needs at least one package' });
    if (!to.name?.trim()) issues.push({ field: 'consignee.name', reason: 'Sürat Kargo needs the consignee’s name' });
    if (!to.address?.trim()) issues.push({ field: 'consignee.address', reason: 'Sürat Kargo needs the consignee’s address' });
    const { cod } = cashOnDelivery(draft);
    const waybill = /^([A-Za-z]*)\s*-?\s*(\d{1,20})$/.exec(draft.invoice_number?.trim() ?? '');
    if (cod) {
      const field = (name: string) => `special_services.${cod.index}.details.${name}`;
      if (!settings.cash_on_delivery)
        issues.push({
          field: `special_services.${cod.index}`,
          reason: 'this Sürat Kargo account is not its cash-on-delivery account (settings.cash_on_delivery)',
        });
      if (cod.currency !== 'TRY') issues.push({ field: field('currency'), reason: 'Sürat Kargo collects cash on delivery in TRY only' });
      if (!waybill)
        issues.push({ field: 'invoice_number', reason: 'Sürat Kargo needs the waybill (irsaliye) serial and number for cash on delivery, e.g. "A 123456"' });
    }
    if (issues.length) throw new CarrierInputError(this.id, issues);
    const { weight, desi } = totals(packages);
    const content = packages
      .flatMap((p) => (p.items ?? []).map((i) => i.description))
      .filter(Boolean)
      .join(', ');
    return {
      KisiKurum: to.name!.trim().slice(0, 100),
      SahisBirim: to.attention_name?.trim().slice(0, 100),
      AliciAdresi: [to.address, to.postal_code].filter(Boolean).join(' ').slice(0, 250),
      Il: province,
      Ilce: district,
      TelefonCep: phone.gsm,
      TelefonEv: phone.phone,
      Email: to.email?.trim() || undefined,
      KargoTuru: settings.cargo_type ?? 3,
      OdemeTipi: settings.payment_type ?? 1,
      IrsaliyeSeriNo: cod ? waybill![1] : undefined,
      IrsaliyeSiraNo: cod ? waybill![2] : undefined,
      ...(req.reference !== req.serviceBarcode ? { ReferansNo: req.reference.slice(0, 50) } : {}),
      OzelKargoTakipNo: this.sentKey(req),
      Adet: packages.length,
      // Per piece, as the model names them: the mean of the packages (Sürat's branch measures each anyway).
      BirimDesi: soapDecimal(desi / packages.length),
      BirimKg: soapDecimal(weight / packages.length),
      KargoIcerigi: content ? content.slice(0, 100) : undefined,
      KapidanOdemeTahsilatTipi: cod ? (cod.payment === 'card' ? 2 : 1) : 0,
      KapidanOdemeTutari: cod ? soapDecimal(cod.amount) : undefined,
      EkHizmetler: settings.pickup ? 'AdrestenAlim' : undefined,
      TeslimSekli: 1,
      Iademi: isReturn(draft),
    };
  }

  /** A shipment Sürat holds under our code as our booking. */
  private async booking(req: BookingRequest, barcode: string): Promise<Booking> {
    return {
      trackingCode: barcode,
      trackingUrl: `${TRACKING_PAGE}${encodeURIComponent(barcode)}`,
      pickupBooked: this.options.settings.pickup === true,
      bookedAt: this.now(),
      cost: await this.costOf(req.shipment),
      carrierReference: this.sentKey(req),
      // One code for every package (Adet counts them): a page per package, each with it.
      ...piecePages(this.sentKey(req), req.draft.packages?.length ?? 0),
    };
  }

  private call(op: SoapOperation, body: SoapElement): Promise<Record<string, unknown>> {
    return callSoap(
      { http: this.options.http, url: this.base, carrierId: this.id, who: { name: 'Sürat Kargo', secret: 'account code or passwords' } },
      op,
      body,
    );
  }
}
