/**
 * The adapter every carrier implements (docs/api.md, "Carriers"): quote, book (with the label data the
 * carrier returns), cancel, track. Activities call it through the registry; nothing else talks to a
 * carrier.
 */
import type { ShipmentSpec } from '../domain/shipment';
import type { TrackingEventName } from '../domain/tracking';

export type { ShipmentSpec };

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
}

export interface Booking {
  trackingCode: string;
  trackingUrl: string;
  /** true when the carrier collects from the consignor; false when the consignor drops the parcel off. */
  pickupBooked: boolean;
  bookedAt: Date;
  cost: Quote;
}

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
  /** Absolute URL (API field `provider.logo`). */
  readonly logoUrl: string;
  readonly supportsCancelInTransit: boolean;
  /** Tracking events arrive pushed (webhook, sandbox endpoint) rather than by polling `track`. */
  readonly supportsPush: boolean;
  /** Price and transit time, or null when the carrier cannot take the shipment (e.g. over its max weight). */
  quote(s: ShipmentSpec): Quote | null;
  /** Idempotent on `bookingKey`. Throws CarrierRefusedError when the carrier cannot take the shipment. */
  book(req: BookingRequest): Promise<Booking>;
  cancel(req: { bookingKey: string; trackingCode: string; inTransit: boolean }): Promise<CancelResult>;
  track(trackingCode: string): Promise<TrackingEvent[]>;
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
