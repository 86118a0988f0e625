import type { CustomsDocumentKind } from '../customs/customs.types';

/**
 * The adapter every carrier implements (docs/api.md, "Carriers"): quote, book (with the label data the
 * carrier returns), cancel, track. Activities call it through the registry; nothing else talks to a
 * carrier.
 */
import type { DraftInput, PartyInput } from '../domain/draft';
import type { LabelFormat } from '../domain/label';
import type { CarrierLabel, ShipmentSpec } from '../domain/shipment';
import type { TrackingEventName } from '../domain/tracking';

export type { CarrierLabel, ShipmentSpec };

export interface Quote {
  providerId: number;
  baseCost: number;
  currency: 'TRY' | string;
  transitDays: number;
  serviceName: string;
}

export interface BookingRequest {
  /** The consignment uuid: booking is idempotent on it, so a retried activity never buys two labels. */
  bookingKey: string;
  shipment: ShipmentSpec;
  /** Our service barcode (barcode.ts), printed on the label next to the carrier's tracking code. */
  serviceBarcode: string;
  /** The draft being processed: what a carrier that keeps its own consignment record needs. */
  draft: DraftInput;
  /** Our consignment at the carrier: its reference_no, or the service barcode when it has none. */
  reference: string;
  /** The label format the caller asked for; a carrier that makes its own label makes this one (or refuses). */
  labelFormat: LabelFormat;
  /**
   * A customs document of this shipment as a PDF, made on demand (only carriers that take documents with the
   * booking ask); undefined when the shipment needs none (domestic, or no items declared).
   */
  customsDocument?: (kind: CustomsDocumentKind) => Promise<Buffer | undefined>;
}

/** The two parties of a shipment, for carriers that price by postal code or city. */
export interface QuoteParties {
  from: PartyInput;
  to: PartyInput;
}

export interface Booking {
  trackingCode: string;
  trackingUrl: string;
  /** true when the carrier collects from the consignor; false when the consignor drops the parcel off. */
  pickupBooked: boolean;
  bookedAt: Date;
  cost: Quote;
  /** The carrier's own id of the shipment, when tracking and cancelling go by it (e.g. a remote consignment id). */
  carrierReference?: string;
  /**
   * The carrier's label, when it makes one; otherwise we render ours. A ZPL label whose barcodes are `pieceBarcodes`
   * (one per package, as the carrier's ZPL encodes them) is kept as the ZPL, and our PDF, printing the same barcodes,
   * is rendered beside it; any other carrier label is the consignment's only label.
   */
  label?: CarrierLabel;
  /** The barcode the carrier scans on each piece, when it gives each package its own; ours prints one page per piece. */
  pieceBarcodes?: string[];
  /** The routing text the carrier prints on its own label (destination branch, cross-dock, zone), which ours prints too. */
  routing?: string;
  /** What the carrier did beyond booking that the consignment's history should tell (e.g. a stale barcode voided and made anew). */
  notes?: string[];
}

/** A booked shipment as tracking and cancelling address it. */
export interface ShipmentRef {
  bookingKey: string;
  trackingCode: string;
  carrierReference?: string | null;
}

/** What a look-up under a booking key found. */
export type FoundBooking =
  | { state: 'none' }
  /** an earlier try's booking, whole: it is the answer, nothing is booked again */
  | { state: 'found'; booking: Booking }
  /**
   * the carrier holds shipments under the key but cannot hand their labels out again: the caller books anew and
   * records these as unused (and voids them where the carrier can)
   */
  | { state: 'unusable'; trackingCodes: string[]; reason: string }
  /** the carrier could not be asked for good (e.g. the account may not use its look-up): booking goes on, noted */
  | { state: 'unknown'; reason: string };

/**
 * How tracking may ask a carrier (docs/carriers.md, "Tracking"): how many shipments one request names, and how
 * long before the same shipment may be asked again (a carrier's cache or its refusal of repeats).
 */
export interface TrackingLimits {
  batchSize: number;
  minReaskMs: number;
}

/** A shipment as batch tracking asks about it: with what is known of its events already (its newest, and how many). */
export type TrackingQuery = ShipmentRef & { known?: { newestEventId: string; count: number } };

/** One shipment's answer within a batch: its events, or the carrier's reason for giving none for it (the others still count). */
export type TrackedShipment = { shipment: ShipmentRef; events: TrackingEvent[] } | { shipment: ShipmentRef; error: string };

export interface CancelResult {
  accepted: boolean;
  reason?: string;
}

export interface TrackingEvent {
  /** Stable per event, so a redelivered event is recognised. */
  eventId: string;
  event: TrackingEventName;
  occurredAt: Date;
  location?: string;
  message?: string;
}

export interface Carrier {
  readonly id: number;
  readonly name: string;
  /** What speaks for it: `sandbox`, or the carrier account's type (`dhl_express`, `sendeo`, `consignment_api`); a metrics label. */
  readonly kind: string;
  /** Absolute URL (API field `provider.logo`). */
  readonly logoUrl: string;
  readonly supportsCancelInTransit: boolean;
  /** Tracking events arrive pushed (webhook, sandbox endpoint) rather than by polling `track`. */
  readonly supportsPush: boolean;
  /**
   * Prices shipments (`quote`), so cheapest/fastest preferences can choose it. A carrier that prices only
   * when booking (a remote service) is used when a draft names it.
   */
  readonly supportsQuotes: boolean;
  /**
   * Price and transit time, or null when the carrier cannot take the shipment (e.g. over its max weight or
   * outside its area). Carriers that price by address use `parties`.
   */
  quote(s: ShipmentSpec, parties?: QuoteParties): Promise<Quote | null>;
  /**
   * Books the shipment under the key the adapter sends for `bookingKey` (see `sentKey`). Not idempotent at
   * every carrier: the booking activity records its intent before calling and asks `findBooking` on any later
   * try. Throws CarrierRefusedError when the carrier cannot take the shipment, CarrierInputError (a subclass)
   * when our data breaks the carrier's rules, decided before any call.
   */
  book(req: BookingRequest): Promise<Booking>;
  /** The key this carrier is sent for the booking (its idempotency or reference field); what the intent records. */
  sentKey(req: BookingRequest): string;
  /**
   * Booking again under the same key gives the same booking, by construction (the sandbox carriers derive it
   * from the key): no intent needs recording and nothing needs looking up.
   */
  readonly idempotentBooking?: boolean;
  /**
   * What the carrier holds under the booking's key, asked before booking again after an earlier try that may
   * have booked. Absent where the carrier's contract offers no look-up (docs/carriers.md says which).
   */
  findBooking?(req: BookingRequest): Promise<FoundBooking>;
  cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult>;
  track(shipment: ShipmentRef): Promise<TrackingEvent[]>;
  /** How tracking may ask it; absent: one shipment a request, no re-ask limit of its own. */
  readonly trackingLimits?: TrackingLimits;
  /**
   * The events of up to `trackingLimits.batchSize` shipments in as few requests as the carrier's contract allows,
   * one answer per shipment given, in any order. A shipment the carrier does not know (yet) answers no events, and
   * so may one whose events are still those `known` describes (a carrier whose batch answer lacks what our events
   * need asks again only about the shipments that changed). A failure of the whole request throws (CarrierBusyError when
   * the carrier asks us to wait). Absent: `track` is asked for each.
   */
  trackMany?(shipments: TrackingQuery[]): Promise<TrackedShipment[]>;
}

/**
 * A carrier's definite "no" to a booking (not a transient fault): the caller should not retry.
 * Activities turn it into a non-retryable failure.
 */
export class CarrierRefusedError extends Error {
  constructor(
    readonly carrierId: number,
    readonly reason: string,
  ) {
    super(`carrier ${carrierId} refused the booking: ${reason}`);
    this.name = 'CarrierRefusedError';
  }
}

/** One field of our data that a carrier's rules refuse (a field path of the draft, e.g. `consignee.city`). */
export interface CarrierFieldIssue {
  field: string;
  reason: string;
}

/**
 * Our data breaks the carrier's published rules (a length, a district it does not know, an amount over its
 * limit): decided before any call, answered as a 400 naming each field.
 */
export class CarrierInputError extends CarrierRefusedError {
  constructor(
    carrierId: number,
    readonly issues: CarrierFieldIssue[],
  ) {
    super(carrierId, issues.map((i) => `${i.field}: ${i.reason}`).join('; '));
    this.name = 'CarrierInputError';
  }
}

/**
 * The carrier (or our own budget of calls to it) asks us to wait: a transient fault whose retry must not
 * come before `retryAfterMs`. Activities turn it into a retryable failure with that delay.
 */
export class CarrierBusyError extends Error {
  constructor(
    readonly carrierId: number,
    readonly retryAfterMs: number,
    reason: string,
  ) {
    super(`carrier ${carrierId}: ${reason}; retry in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = 'CarrierBusyError';
  }
}
