import { foldText } from '../address/fold';
import { cashOnDelivery } from '../domain/special-services';
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
  type TrackedShipment,
  type TrackingEvent,
  type TrackingLimits,
  type TrackingQuery,
} from './carrier';
import type { AccountRateSettings } from './rate-table';
import { RateTableCarrier, type RateTableCarrierOptions } from './rate-table-carrier';
import { callSoap, soapList, soapText, type SoapElement, type SoapOperation } from './soap';
import { piecePages, turkishConsignee } from './turkish-provinces';

/**
 * Yurtiçi Kargo through its SOAP service `ShippingOrderDispatcherServices` ("Giden Kargo"; public contract
 * `tcgunel/omniship-yurtici`, a rewrite of Yurtiçi's document). `createShipment` books under our `cargoKey` (the
 * service barcode printed on our label: Yurtiçi prints none through the API, its branch scans ours);
 * `queryShipment` finds a booking by that key and reads the statuses and movements of several keys at once (a key
 * at most once a minute); `cancelShipment` cancels before the branch has issued its document. The web service
 * user decides the payment type (sender or receiver pays, collection on delivery), so an account is one user.
 * docs/carriers.md, "Yurtiçi Kargo", says what is mapped and what is not supported.
 */

export const YURTICI_URL = 'https://ws.yurticikargo.com/KOPSWebServices/ShippingOrderDispatcherServices';
const NAMESPACE = 'http://yurticikargo.com.tr/ShippingOrderDispatcherServices';
/** Yurtiçi's clock: its dates and times carry no offset and are Turkish time (UTC+3 all year since 2016). */
const TURKEY_OFFSET = '+03:00';
/** The public shipment query page (a shipment's own link comes with its movements, once the branch issued its document). */
const TRACKING_PAGE = 'https://www.yurticikargo.com/tr/online-servisler/gonderi-sorgula';
/** Keys one queryShipment asks about: the contract sets no limit; we bound the request. */
const KEYS_PER_QUERY = 50;
/** "Rate limited: repeated queries within 1 minute are blocked." */
const REASK_MS = 60_000;
/** errCode of a key Yurtiçi holds nothing under (for this user). */
const KEY_NOT_FOUND = '82519';

export interface YurticiCredentials {
  /** wsUserName: the web service user, tied to one payment type */
  user_name: string;
  /** wsPassword */
  password: string;
}

export interface YurticiSettings {
  base_url?: string;
  /** userLanguage / wsLanguage: Yurtiçi's messages in Turkish (default) or English */
  language?: 'TR' | 'EN';
  /** the collection on delivery the user's contract allows (a COD user); default none */
  cash_on_delivery?: ('cash' | 'card')[];
  /** send the packages' desi and kg (only users Yurtiçi authorised for it may); default: the branch measures */
  send_measurements?: boolean;
  rates?: AccountRateSettings;
}

const operation = (name: string): SoapOperation => ({ version: '1.1', namespace: NAMESPACE, name, action: '', qualifiedChildren: false });
const CREATE = operation('createShipment');
const QUERY = operation('queryShipment');
const CANCEL = operation('cancelShipment');

type Vo = Record<string, unknown>;

/** A Yurtiçi date and time (`YYYYMMDD`, `HHMMSS`, Turkish time) as an instant. */
export function yurticiTime(date: unknown, time: unknown): Date | undefined {
  const d = soapText(date);
  const t = (soapText(time) ?? '000000').padStart(6, '0');
  if (!d || !/^\d{8}$/.test(d) || !/^\d{6}$/.test(t)) return undefined;
  const at = new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}${TURKEY_OFFSET}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * A movement's name (`eventName`) → our tracking event, by the first keyword found in the folded text (the
 * contract documents the movement fields, not a list of their codes): "not delivered" before "delivered", a
 * return before both. Any other movement of a parcel Yurtiçi holds is transit.
 */
const EVENT_OF_MOVEMENT: readonly [keyword: string, event: TrackingEventName][] = [
  ['iade', 'RETURNED'],
  ['teslim edilemedi', 'EXCEPTION'],
  ['teslim edildi', 'DELIVERED'],
  ['dagitim', 'OUT_FOR_DELIVERY'],
  ['kabul', 'PICKED_UP'],
];
export function yurticiMovementEvent(name: string): TrackingEventName {
  const folded = foldText(name);
  return EVENT_OF_MOVEMENT.find(([keyword]) => folded.includes(keyword))?.[1] ?? 'IN_TRANSIT';
}

/** rejectStatus values of a parcel in the return process (README: 0, 1, 2, 3, 9, 10; the others resumed the delivery). */
const IN_RETURN = new Set(['0', '1', '2', '3', '9', '10']);

/**
 * A key's answer (`shippingDeliveryDetailVO`) as our events, oldest first: the branch's document (the parcel is
 * Yurtiçi's: picked up), each movement, the delivery, a return, or the branch cancelling its document.
 */
export function yurticiEvents(key: string, detail: Vo): TrackingEvent[] {
  const item = detail.shippingDeliveryItemDetailVO as Vo | undefined;
  if (!item) return [];
  const events: TrackingEvent[] = [];
  const add = (id: string, event: TrackingEventName, at: Date | undefined, message?: string, location?: string) => {
    if (at) events.push({ eventId: `${key}:${id}`, event, occurredAt: at, ...(message ? { message } : {}), ...(location ? { location } : {}) });
  };
  let last: Date | undefined;
  for (const m of soapList<Vo>(item.invDocCargoVOArray)) {
    const at = yurticiTime(m.eventDate, m.eventTime);
    const name = soapText(m.eventName) ?? '';
    const reason = soapText(m.reasonName);
    const place = [soapText(m.unitName), soapText(m.townName), soapText(m.cityName)].filter(Boolean).join(', ');
    add(
      `${soapText(m.eventId) ?? '?'}:${soapText(m.eventDate)}${soapText(m.eventTime)}`,
      yurticiMovementEvent(name),
      at,
      reason && reason !== 'Sorun Yok' ? `${name}: ${reason}` : name,
      place,
    );
    if (at && (!last || at > last)) last = at;
  }
  // What the status says, where no movement said it already (movements come only with addHistoricalData).
  const said = new Set(events.map((e) => e.event));
  const addUnsaid = (id: string, event: TrackingEventName, at: Date | undefined, message?: string, location?: string) => {
    if (!said.has(event)) add(id, event, at, message, location);
  };
  addUnsaid('document', 'PICKED_UP', yurticiTime(item.documentDate, item.documentTime), 'Yurtiçi Kargo issued its document', soapText(item.departureUnitName));
  const status = soapText(detail.operationStatus);
  if (status === 'DLV') addUnsaid('delivered', 'DELIVERED', yurticiTime(item.deliveryDate, item.deliveryTime) ?? last, soapText(item.receiverInfo));
  const returnStatus = soapText(item.returnStatus);
  const rejectStatus = soapText(item.rejectStatus);
  if (returnStatus === '3') addUnsaid('returned', 'RETURNED', last, soapText(item.rejectReasonExplanation) ?? soapText(item.returnStatusExplanation));
  else if (rejectStatus !== undefined && IN_RETURN.has(rejectStatus))
    add(
      `return:${rejectStatus}`,
      'EXCEPTION',
      last,
      [soapText(item.rejectStatusExplanation), soapText(item.rejectReasonExplanation)].filter(Boolean).join(': '),
    );
  if (status === 'BI') add('branch-cancelled', 'EXCEPTION', last, soapText(detail.operationMessage) ?? 'the branch cancelled its document');
  return events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
}

export type YurticiCarrierOptions = RateTableCarrierOptions<YurticiCredentials, YurticiSettings>;

export class YurticiCarrier extends RateTableCarrier<YurticiCredentials, YurticiSettings> implements Carrier {
  readonly kind = 'yurtici';
  /** cancelShipment works only before the branch has issued its document. */
  readonly supportsCancelInTransit = false;
  /** The contract has no webhook: the account's tracking poller asks, many keys a question. */
  readonly supportsPush = false;
  readonly trackingLimits: TrackingLimits = { batchSize: KEYS_PER_QUERY, minReaskMs: REASK_MS };

  constructor(options: YurticiCarrierOptions) {
    super(options, YURTICI_URL, 'Yurtiçi Kargo');
  }

  /** Our service barcode: the cargoKey Yurtiçi's branch scans on our label, and the key every later call names. */
  sentKey(req: BookingRequest): string {
    return req.serviceBarcode;
  }

  async book(req: BookingRequest): Promise<Booking> {
    const answer = await this.call(CREATE, { ...this.login('userLanguage'), ShippingOrderVO: this.order(req) });
    const result = (answer.ShippingOrderResultVO ?? {}) as Vo;
    const detail = soapList<Vo>(result.shippingOrderDetailVO).find((d) => soapText(d.cargoKey) === this.sentKey(req));
    if (!detail || soapText(detail.errCode) !== '0') throw new CarrierRefusedError(this.id, refusal(result, detail));
    return this.booking(req);
  }

  /** queryShipment by our cargoKey: a key Yurtiçi knows is the booking; "not found" is none; another answer leaves it unknown. */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    const key = this.sentKey(req);
    const [answer] = await this.query([key], false);
    if (!answer) return { state: 'none' };
    if (soapText(answer.errCode) === '0') return { state: 'found', booking: await this.booking(req) };
    if (soapText(answer.errCode) === KEY_NOT_FOUND) return { state: 'none' };
    return { state: 'unknown', reason: `Yurtiçi Kargo: ${soapText(answer.errMessage) ?? `error ${soapText(answer.errCode)}`}` };
  }

  /** cancelShipment by our cargoKey: cancelled only when Yurtiçi answers CNL for it (after pickup it answers the status it has). */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    if (req.inTransit) return { accepted: false, reason: 'Yurtiçi Kargo cancels a shipment only before its branch has issued the document' };
    const key = this.keyOf(req);
    const answer = await this.call(CANCEL, { ...this.login('userLanguage'), cargoKeys: [key] });
    const result = (answer.ShippingOrderResultVO ?? {}) as Vo;
    const detail = soapList<Vo>(result.shippingCancelDetailVO).find((d) => soapText(d.cargoKey) === key);
    if (detail && soapText(detail.errCode) === '0' && soapText(detail.operationStatus) === 'CNL') return { accepted: true };
    const status =
      detail && soapText(detail.errCode) === '0' ? `${soapText(detail.operationStatus)}: ${soapText(detail.operationMessage) ?? ''}`.trim() : undefined;
    return { accepted: false, reason: `Yurtiçi Kargo did not cancel the shipment (${status ?? refusal(result, detail)})`.slice(0, 500) };
  }

  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const [answer] = await this.trackMany([shipment]);
    if ('error' in answer) throw new CarrierRefusedError(this.id, answer.error);
    return answer.events;
  }

  /**
   * One queryShipment for up to 50 keys, with their movements. A key Yurtiçi does not know (yet) answers no
   * events; any other error of a key is that shipment's answer, the others still count.
   */
  async trackMany(shipments: TrackingQuery[]): Promise<TrackedShipment[]> {
    await this.options.lookupBudget?.();
    const keys = shipments.map((s) => this.keyOf(s));
    const details = await this.query(keys, true);
    const byKey = new Map(details.map((d) => [soapText(d.cargoKey), d]));
    return shipments.map((shipment, i) => {
      const detail = byKey.get(keys[i]);
      const code = soapText(detail?.errCode);
      if (!detail || code === KEY_NOT_FOUND) return { shipment, events: [] };
      if (code !== '0') return { shipment, error: `Yurtiçi Kargo: ${soapText(detail.errMessage) ?? `error ${code}`}` };
      return { shipment, events: yurticiEvents(keys[i], detail) };
    });
  }

  /** The details queryShipment answers for `keys` (by cargoKey); a refusal of the whole call throws. */
  private async query(keys: string[], withMovements: boolean): Promise<Vo[]> {
    const answer = await this.call(QUERY, {
      ...this.login('wsLanguage'),
      keys,
      keyType: 0,
      addHistoricalData: withMovements,
      onlyTracking: false,
    });
    const result = (answer.ShippingDeliveryVO ?? {}) as Vo;
    const details = soapList<Vo>(result.shippingDeliveryDetailVO);
    if (details.length === 0 && soapText(result.outFlag) !== '0') throw new CarrierRefusedError(this.id, refusal(result, undefined));
    return details;
  }

  /** A shipment's key at Yurtiçi: ours (kept as the carrier reference). */
  private keyOf(shipment: Pick<ShipmentRef, 'carrierReference' | 'trackingCode'>): string {
    return shipment.carrierReference ?? shipment.trackingCode;
  }

  private login(languageField: 'userLanguage' | 'wsLanguage'): SoapElement {
    return {
      wsUserName: this.options.credentials.user_name,
      wsPassword: this.options.credentials.password,
      [languageField]: this.options.settings.language ?? 'TR',
    };
  }

  /**
   * The ShippingOrderVO of a draft, invoice-based (one cargoKey for the consignment, its pieces counted): the
   * consignee (the sender is the user's registered address), its address without the city and district, which
   * go apart, the phone in Yurtiçi's ten digits, collection on delivery when the draft asks and the user may.
   * Every field Yurtiçi would refuse is refused here first, naming the draft's field.
   */
  private order(req: BookingRequest): SoapElement {
    const { draft } = req;
    const settings = this.options.settings;
    const issues: CarrierFieldIssue[] = [];
    const { to, province, district, phone } = turkishConsignee(draft, 'Yurtiçi Kargo', issues, { required: false });
    const name = to.name?.trim() ?? '';
    if (name.length < 5 || name.length > 200 || (name.match(/\p{L}/gu) ?? []).length < 4)
      issues.push({ field: 'consignee.name', reason: 'Yurtiçi Kargo needs a name of 5 to 200 characters with at least 4 letters' });
    const address = to.address?.trim() ?? '';
    if (address.length < 10 || address.length > 200)
      issues.push({ field: 'consignee.address', reason: 'Yurtiçi Kargo needs an address of 10 to 200 characters (without the city and district)' });
    const { cod } = cashOnDelivery(draft);
    const documentId = draft.invoice_number?.replace(/\D/g, '') ?? '';
    if (cod) {
      const kind = cod.payment === 'card' ? 'card' : 'cash';
      if (!(settings.cash_on_delivery ?? []).includes(kind))
        issues.push({
          field: `special_services.${cod.index}.details.payment`,
          reason: `this Yurtiçi Kargo user may not collect ${kind === 'card' ? 'by card' : 'in cash'} on delivery (settings.cash_on_delivery)`,
        });
      if (cod.currency !== 'TRY')
        issues.push({ field: `special_services.${cod.index}.details.currency`, reason: 'Yurtiçi Kargo collects on delivery in TRY only' });
      if (documentId.length < 1 || documentId.length > 12)
        issues.push({ field: 'invoice_number', reason: 'Yurtiçi Kargo needs the invoice number (up to 12 digits) for a collection on delivery' });
    }
    if (issues.length) throw new CarrierInputError(this.id, issues);
    const packages = draft.packages ?? [];
    const { weight, desi } = totals(packages);
    const content = packages
      .flatMap((p) => (p.items ?? []).map((i) => i.description))
      .filter(Boolean)
      .join(', ');
    const key = this.sentKey(req);
    return {
      cargoKey: key,
      invoiceKey: key,
      receiverCustName: name,
      receiverAddress: address,
      cityName: province,
      townName: district?.slice(0, 40),
      receiverPhone1: phone.gsm ?? phone.phone,
      emailAddress: to.email?.trim() || undefined,
      ...(settings.send_measurements ? { desi: Math.round(desi * 1000) / 1000, kg: Math.round(weight * 1000) / 1000 } : {}),
      cargoCount: Math.max(1, packages.length),
      waybillNo: draft.invoice_number?.trim().slice(0, 20) || undefined,
      description: content ? content.slice(0, 255) : undefined,
      ...(req.reference !== req.serviceBarcode ? { orgReceiverCustId: req.reference.slice(0, 50) } : {}),
      ...(cod
        ? {
            ttInvoiceAmount: cod.amount.toFixed(2),
            ttCollectionType: cod.payment === 'card' ? '1' : '0',
            ttDocumentId: documentId,
            ttDocumentSaveType: '0',
            ...(cod.payment === 'card' ? { dcSelectedCredit: 1, dcCreditRule: 1 } : {}),
          }
        : {}),
    };
  }

  /** What Yurtiçi holds under our key, as our booking: the key is the tracking code until its branch issues a document. */
  private async booking(req: BookingRequest): Promise<Booking> {
    return {
      trackingCode: this.sentKey(req),
      trackingUrl: TRACKING_PAGE,
      pickupBooked: false,
      bookedAt: this.now(),
      cost: await this.costOf(req.shipment),
      carrierReference: this.sentKey(req),
      // One cargoKey for every package (the branch counts them): a page per package, each with it.
      ...piecePages(this.sentKey(req), req.draft.packages?.length ?? 0),
    };
  }

  private call(op: SoapOperation, body: SoapElement): Promise<Vo> {
    return callSoap(
      { http: this.options.http, url: this.base, carrierId: this.id, who: { name: 'Yurtiçi Kargo', secret: 'web service user or password' } },
      op,
      body,
    );
  }
}

/** A refusal in Yurtiçi's words: the record's errCode and errMessage, else the call's outResult. */
function refusal(result: Vo, detail: Vo | undefined): string {
  const code = soapText(detail?.errCode) ?? soapText(result.errCode);
  const text = soapText(detail?.errMessage) ?? soapText(result.outResult) ?? 'the call was refused';
  return `Yurtiçi Kargo: ${text}${code && code !== '0' ? ` (${code})` : ''}`.slice(0, 500);
}
