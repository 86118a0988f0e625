import type { DraftInput, PartyInput } from '../domain/draft';
import type { TrackingEventName } from '../domain/tracking';
import type { OutboundResponse } from '../http/outbound';
import {
  CarrierRefusedError,
  type FoundBooking,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type Quote,
  type ShipmentRef,
  type TrackedShipment,
  type TrackingEvent,
  type TrackingLimits,
} from './carrier';
import { carrierCallFault, checkCarrierAnswer, RemoteUnavailableError } from './carrier-http';
import type { AccountRateSettings } from './rate-table';
import { RateTableCarrier, type RateTableCarrierOptions } from './rate-table-carrier';
import { plateCode } from './turkish-provinces';

/**
 * Kolay Gelsin through its REST API (`swagger.json`, OpenAPI 3.0, with `api-docs.md` and
 * `webhook.json`): `POST {base}/{Operation}` with the token Kolay Gelsin hands out in `Authorization`.
 * Operations used: SaveRecipient, SaveIntegrationShipment, CancelPickupAndDelivery,
 * GetCorporateShipmentsStatus. Domestic (Turkey) only. No rating operation (quotes come from the account's
 * rate table) and no label file (only an HTML label, optional): our label carries the piece barcodes
 * Kolay Gelsin scans, which we choose and send as `CustomerBarcode`.
 */

export const KOLAY_GELSIN_TEST_URL = 'https://apiintg.klyglsn.com/api/request';
export const KOLAY_GELSIN_PRODUCTION_URL = 'https://api.kolaygelsin.com/api/request';
/** The contract gives the link with each shipment; this is its form when an earlier booking is found again. */
const TRACKING_LINK = 'https://kolaygelsin.com/gonderi-takip?ShipmentId=';

export interface KolayGelsinCredentials {
  token: string;
  customer_id: number;
  /** the sender address id Kolay Gelsin registered for the account */
  address_id: number;
  /** the password (Basic auth) or hash value the account's webhook in Kolay Gelsin's portal sends */
  webhook_secret?: string;
}

export interface KolayGelsinSettings {
  base_url?: string;
  rates?: AccountRateSettings;
  /** 1 the sender pays (default), 2 the recipient */
  paying_party?: 1 | 2;
}

/** CargoEventType (swagger/webhook.json, api-docs.md) → our tracking event; the rest are informational. */
export const EVENT_OF_CARGO_EVENT: Readonly<Record<number, TrackingEventName>> = {
  12: 'PICKED_UP',
  13: 'IN_TRANSIT',
  14: 'IN_TRANSIT',
  17: 'IN_TRANSIT',
  18: 'OUT_FOR_DELIVERY',
  25: 'EXCEPTION',
  26: 'EXCEPTION',
  28: 'EXCEPTION',
  29: 'DELIVERED',
  32: 'RETURNED',
  33: 'EXCEPTION',
  35: 'EXCEPTION',
  46: 'RETURNED',
  58: 'EXCEPTION',
};

interface Envelope<P> {
  ResultCode?: number | string;
  ResultMessage?: string;
  Payload?: P | null;
}

interface ItemStatus {
  ShipmentId?: string | number;
  ShipmentItemId?: string | number;
  CustomerTrackingId?: string;
  CustomerBarcode?: string;
  CargoEventLogModelList?: { CargoEventType?: string | number; LocationName?: string; TimeStamp?: string }[];
}

/** A shipment's id at Kolay Gelsin: its carrier reference, else its tracking code (booking records the ShipmentId as both). */
const shipmentIdOf = (s: ShipmentRef) => s.carrierReference ?? s.trackingCode;

/** Answers a retry may fix (api-docs.md's generic failure); every other envelope error is a refusal. */
const TRANSIENT_MESSAGES = new Set(['SomethingWentWrong']);

/** SaveRecipient's body: a business as a corporate recipient, a person as an individual one. */
export function recipientRequest(p: PartyInput, carrierId: number) {
  const cityId = plateCode(p);
  if (cityId === undefined)
    throw new CarrierRefusedError(carrierId, 'consignee needs a Turkish province: state_code (plate code 1–81), a postal code, or the province as state');
  const address = {
    AddressText: p.address ?? '',
    CityId: cityId,
    TownName: p.city ?? '',
    AddressTypeId: p.party_type === 'business' ? 2 : 1,
    ...(p.postal_code ? { PostalCode: p.postal_code } : {}),
  };
  const contact = { ...(p.phone_number ? { Gsm: p.phone_number } : {}), ...(p.email ? { Email: p.email } : {}) };
  if (p.party_type === 'business') {
    const title = p.name ?? '';
    // The contract requires a building name for businesses; we have none of our own, so the business's name stands for it.
    return {
      RecipientType: 2,
      RecipientTitle: title,
      Address: { ...address, CompanyTitle: title, BuildingName: title },
      ...(p.tax_number ? { RecipientTaxIdentityNumber: p.tax_number } : {}),
      ...contact,
    };
  }
  const words = (p.attention_name || p.name || '').trim().split(/\s+/);
  // A one-word name has no surname: the contract requires one, so a dash stands for it.
  const surname = words.length > 1 ? words.pop()! : '-';
  return { RecipientType: 1, RecipientName: words.join(' '), RecipientSurname: surname, Address: address, ...contact };
}

/** The barcode of piece `n` (1-based): our service barcode, with `-n` from the second piece on. */
export const pieceBarcode = (serviceBarcode: string, n: number) => (n === 1 ? serviceBarcode : `${serviceBarcode}-${n}`);

/** SaveIntegrationShipment's body: one item per package, our piece barcodes as the customer's barcodes. */
export function shipmentRequest(req: BookingRequest, ctx: { credentials: KolayGelsinCredentials; settings: KolayGelsinSettings; recipientId: number }) {
  const draft: DraftInput = req.draft;
  const content = (draft.packages ?? [])
    .flatMap((p) => (p.items ?? []).map((i) => i.description))
    .filter(Boolean)
    .join(', ')
    .slice(0, 250);
  return {
    SenderCustomer: { CustomerId: ctx.credentials.customer_id, Address: { AddressId: ctx.credentials.address_id } },
    Recipient: { RecipientId: ctx.recipientId },
    PackageType: 2,
    PayingParty: ctx.settings.paying_party ?? 1,
    CustomerSpecificCode: req.reference,
    ShipmentItemList: (draft.packages ?? []).map((p, i) => ({
      CustomerTrackingId: pieceBarcode(req.serviceBarcode, i + 1),
      CustomerBarcode: pieceBarcode(req.serviceBarcode, i + 1),
      // Integers in the contract: rounded up, so a 0.4 kg parcel is not declared weightless.
      Weight: Math.ceil(p.weight ?? 0),
      ...(p.width ? { Width: Math.ceil(p.width) } : {}),
      ...(p.length ? { Length: Math.ceil(p.length) } : {}),
      ...(p.height ? { Height: Math.ceil(p.height) } : {}),
      ...(content ? { ContentText: content } : {}),
      ...(draft.invoice_number ? { DeliveryNote: draft.invoice_number } : {}),
    })),
  };
}

/**
 * The shipment ids a Kolay Gelsin webhook names: webhook.json's array of per-piece models, or api-docs.md's
 * single flat event object. Anything else names none.
 */
export function shipmentIdsInWebhook(body: unknown): string[] {
  const models = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : [];
  const ids = new Set<string>();
  for (const m of models.slice(0, 1000)) {
    const id = m && typeof m === 'object' ? (m as { ShipmentId?: unknown }).ShipmentId : undefined;
    if ((typeof id === 'string' && /^[0-9A-Za-z-]{1,40}$/.test(id)) || (typeof id === 'number' && Number.isSafeInteger(id))) ids.add(String(id));
  }
  return [...ids];
}

export type KolayGelsinCarrierOptions = RateTableCarrierOptions<KolayGelsinCredentials, KolayGelsinSettings>;

export class KolayGelsinCarrier extends RateTableCarrier<KolayGelsinCredentials, KolayGelsinSettings> implements Carrier {
  readonly kind = 'kolay_gelsin';
  /** The contract cancels in transit too: delivery stops and the parcel returns to the sender. */
  readonly supportsCancelInTransit = true;
  /** Its webhook only wakes the consignment, which then asks by status query; the query also runs on the polling schedule. */
  readonly supportsPush = false;
  /**
   * The contract sets no size for ShipmentIdList (swagger, api-docs.md): 100 is our choice, so one request and its
   * answer stay bounded. It says nothing against asking a shipment again, hence no wait.
   */
  readonly trackingLimits: TrackingLimits = { batchSize: 100, minReaskMs: 0 };

  constructor(options: KolayGelsinCarrierOptions) {
    super(options, KOLAY_GELSIN_TEST_URL, 'Kolay Gelsin');
  }

  async book(req: BookingRequest): Promise<Booking> {
    if (req.shipment.fromCountry.toUpperCase() !== 'TR' || req.shipment.toCountry.toUpperCase() !== 'TR')
      throw new CarrierRefusedError(this.id, 'Kolay Gelsin carries within Turkey only');
    if (!req.draft.packages?.length) throw new CarrierRefusedError(this.id, 'Kolay Gelsin needs at least one package');
    const cost = await this.costOf(req.shipment);
    // The create is not idempotent: the booking activity asks findBooking first whenever an earlier try may have booked.
    const recipient = await this.call<{ RecipientId?: number }>('SaveRecipient', recipientRequest(req.draft.consignee ?? {}, this.id));
    if (!recipient?.RecipientId) throw new CarrierRefusedError(this.id, 'Kolay Gelsin answered SaveRecipient without a RecipientId');
    const body = shipmentRequest(req, { credentials: this.options.credentials, settings: this.options.settings, recipientId: recipient.RecipientId });
    const created = await this.call<{ ShipmentId?: string | number; ShipmentTrackingLink?: string }>('SaveIntegrationShipment', body);
    if (created?.ShipmentId === undefined || created.ShipmentId === null)
      throw new CarrierRefusedError(this.id, 'Kolay Gelsin answered SaveIntegrationShipment without a ShipmentId');
    return this.bookingOf(req, cost, String(created.ShipmentId), created.ShipmentTrackingLink);
  }

  /** Our first piece barcode, sent as the first item's CustomerTrackingId: what an earlier booking is found by. */
  sentKey(req: BookingRequest): string {
    return pieceBarcode(req.serviceBarcode, 1);
  }

  /**
   * GetCorporateShipmentsStatus by the first piece's CustomerTrackingId. Our label carries Kolay Gelsin's piece
   * barcodes, which are ours, so a shipment found is the whole booking. Kolay Gelsin answers status queries
   * only for accounts with a webhook definition: without one the look-up is refused, and booking goes on.
   */
  async findBooking(req: BookingRequest): Promise<FoundBooking> {
    let models: ItemStatus[];
    try {
      models = await this.statuses({ OnlyLatestEvents: true, CustomerTrackingIdList: [this.sentKey(req)] });
    } catch (error) {
      if (error instanceof CarrierRefusedError) return { state: 'unknown', reason: error.reason };
      throw error;
    }
    const found = models.find((m) => m.CustomerTrackingId === this.sentKey(req) && m.ShipmentId !== undefined && m.ShipmentId !== null);
    if (!found) return { state: 'none' };
    const cost = await this.costOf(req.shipment);
    return { state: 'found', booking: this.bookingOf(req, cost, String(found.ShipmentId)) };
  }

  private bookingOf(req: BookingRequest, cost: Quote, shipmentId: string, link?: string): Booking {
    return {
      trackingCode: shipmentId,
      trackingUrl: link ?? `${TRACKING_LINK}${encodeURIComponent(shipmentId)}`,
      // Kolay Gelsin's courier collects from the sender address registered with the account.
      pickupBooked: true,
      bookedAt: this.now(),
      cost,
      carrierReference: shipmentId,
      pieceBarcodes: (req.draft.packages ?? []).map((_p, i) => pieceBarcode(req.serviceBarcode, i + 1)),
    };
  }

  /**
   * CancelPickupAndDelivery: before pickup the shipment is cancelled; after it, delivery stops and the parcel
   * returns to the sender (the contract's words). Kolay Gelsin's refusal (delivered, lost) is passed on.
   */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    try {
      await this.call('CancelPickupAndDelivery', { ShipmentId: req.carrierReference ?? req.trackingCode, DeliveryCancellationReason: 1 });
      return { accepted: true };
    } catch (error) {
      if (error instanceof CarrierRefusedError) return { accepted: false, reason: error.reason };
      throw error;
    }
  }

  /** GetCorporateShipmentsStatus by shipment id: every event Kolay Gelsin lists that moves a consignment. */
  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const shipmentId = shipmentIdOf(shipment);
    await this.options.lookupBudget?.();
    const models = await this.statuses({ OnlyLatestEvents: false, ShipmentIdList: [shipmentId] });
    return this.eventsOf(
      shipmentId,
      models.find((m) => String(m.ShipmentId) === shipmentId),
    );
  }

  /**
   * One GetCorporateShipmentsStatus names every shipment's id (more than `batchSize` are split). The answer has a
   * model per piece, so a shipment's first model speaks for it, as in `track`; a shipment absent from the answer
   * (not known yet) has no events. The contract has no per-shipment error: an error envelope fails the whole request.
   */
  async trackMany(shipments: ShipmentRef[]): Promise<TrackedShipment[]> {
    const answers: TrackedShipment[] = [];
    for (let start = 0; start < shipments.length; start += this.trackingLimits.batchSize) {
      const batch = shipments.slice(start, start + this.trackingLimits.batchSize);
      await this.options.lookupBudget?.();
      const models = await this.statuses({ OnlyLatestEvents: false, ShipmentIdList: [...new Set(batch.map(shipmentIdOf))] });
      const first = new Map<string, ItemStatus>();
      for (const m of models) if (!first.has(String(m.ShipmentId))) first.set(String(m.ShipmentId), m);
      answers.push(...batch.map((shipment) => ({ shipment, events: this.eventsOf(shipmentIdOf(shipment), first.get(shipmentIdOf(shipment))) })));
    }
    return answers;
  }

  /** A shipment's status model as our events: the event types that move a consignment, in Kolay Gelsin's order. */
  private eventsOf(shipmentId: string, model: ItemStatus | undefined): TrackingEvent[] {
    const events: TrackingEvent[] = [];
    (model?.CargoEventLogModelList ?? []).forEach((e, index) => {
      const code = Number(e.CargoEventType);
      const event = EVENT_OF_CARGO_EVENT[code];
      if (!event) return;
      const at = e.TimeStamp ? new Date(e.TimeStamp) : undefined;
      const valid = at && !Number.isNaN(at.getTime());
      events.push({
        // Events carry no id; their place in the shipment's list (or their time, when given) is stable.
        eventId: `${shipmentId}:${code}:${valid ? at.toISOString() : index}`,
        event,
        occurredAt: valid ? at : this.now(),
        location: e.LocationName || undefined,
      });
    });
    return events;
  }

  private async statuses(body: Record<string, unknown>): Promise<ItemStatus[]> {
    const payload = await this.call<ItemStatus[] | { ShipmentModelList?: ItemStatus[] }>('GetCorporateShipmentsStatus', body);
    return Array.isArray(payload) ? payload : (payload?.ShipmentModelList ?? []);
  }

  /**
   * One operation. Kolay Gelsin answers errors as its envelope (ResultCode ≠ 200) with HTTP 500 or 200: those
   * are refusals, except its generic failure; a 5xx without an envelope, 429 and network faults are retried.
   */
  private async call<P>(operation: string, json: unknown): Promise<P | null | undefined> {
    let res: OutboundResponse<Envelope<P> | null>;
    try {
      res = await this.options.http.json<Envelope<P>>({
        method: 'POST',
        url: `${this.base}/${operation}`,
        headers: { authorization: `Bearer ${this.options.credentials.token}` },
        json,
      });
    } catch (error) {
      throw carrierCallFault(this.id, error);
    }
    const envelope = res.body && typeof res.body === 'object' && 'ResultCode' in res.body ? res.body : undefined;
    if (!envelope) {
      checkCarrierAnswer(this.id, res, { name: 'Kolay Gelsin', secret: 'token' });
      const text = `Kolay Gelsin answered ${operation} with HTTP ${res.status} and no result`;
      // A 4xx without an envelope is our request or the base_url, which a retry does not change.
      throw res.status >= 400 && res.status < 500 ? new CarrierRefusedError(this.id, text) : new RemoteUnavailableError(this.id, text);
    }
    if (Number(envelope.ResultCode) === 200) return envelope.Payload;
    const message = envelope.ResultMessage ?? `ResultCode ${envelope.ResultCode}`;
    if (TRANSIENT_MESSAGES.has(message)) throw new RemoteUnavailableError(this.id, `Kolay Gelsin ${operation}: ${message}`);
    throw new CarrierRefusedError(this.id, `Kolay Gelsin ${operation}: ${message}`);
  }
}
