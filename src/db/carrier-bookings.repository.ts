import type { BookedShipment, CarrierLabel } from '../domain/shipment';
import type { Queryable } from './database';

/**
 * Carrier bookings, keyed by the consignment uuid (the booking key): what a carrier booked, so a retried
 * booking activity returns the first booking instead of buying a second label.
 */

/** The live (not cancelled) booking under `bookingKey`. */
export async function findBooking(q: Queryable, bookingKey: string): Promise<BookedShipment | undefined> {
  const { rows } = await q.query<{
    provider_id: number;
    tracking_code: string;
    tracking_url: string;
    pickup_booked: boolean;
    base_cost: string;
    currency: string;
    service_name: string;
    carrier_reference: string | null;
    carrier_label: boolean;
    piece_barcodes: string[] | null;
    notes: string[] | null;
    routing: string | null;
  }>(
    `SELECT provider_id, tracking_code, tracking_url, pickup_booked, base_cost, currency, service_name, carrier_reference, label_content IS NOT NULL AS carrier_label, piece_barcodes, notes, routing
     FROM carrier_bookings WHERE booking_key = $1 AND cancelled_at IS NULL`,
    [bookingKey],
  );
  const row = rows[0];
  return (
    row && {
      providerId: Number(row.provider_id),
      trackingCode: row.tracking_code,
      trackingUrl: row.tracking_url,
      pickupBooked: row.pickup_booked,
      baseCost: Number(row.base_cost),
      currency: row.currency,
      serviceName: row.service_name,
      carrierReference: row.carrier_reference,
      carrierLabel: row.carrier_label,
      ...(row.piece_barcodes?.length ? { pieceBarcodes: row.piece_barcodes } : {}),
      ...(row.notes?.length ? { notes: row.notes } : {}),
      ...(row.routing ? { routing: row.routing } : {}),
    }
  );
}

/**
 * Records a booking; replaces one under the same key only if that was cancelled. A live booking stays: the
 * first one saved is the booking. True when this one was written; otherwise the caller reads the stored one.
 */
export async function saveBooking(q: Queryable, bookingKey: string, booking: BookedShipment, label?: CarrierLabel): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO carrier_bookings (booking_key, provider_id, tracking_code, tracking_url, pickup_booked, base_cost, currency, service_name, carrier_reference, label_content, label_content_type, piece_barcodes, notes, routing)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (booking_key) DO UPDATE SET provider_id = EXCLUDED.provider_id, tracking_code = EXCLUDED.tracking_code,
       tracking_url = EXCLUDED.tracking_url, pickup_booked = EXCLUDED.pickup_booked, base_cost = EXCLUDED.base_cost,
       currency = EXCLUDED.currency, service_name = EXCLUDED.service_name, carrier_reference = EXCLUDED.carrier_reference,
       label_content = EXCLUDED.label_content, label_content_type = EXCLUDED.label_content_type, piece_barcodes = EXCLUDED.piece_barcodes, notes = EXCLUDED.notes, routing = EXCLUDED.routing, booked_at = now(), cancelled_at = NULL
     WHERE carrier_bookings.cancelled_at IS NOT NULL
     RETURNING booking_key`,
    [
      bookingKey,
      booking.providerId,
      booking.trackingCode,
      booking.trackingUrl,
      booking.pickupBooked,
      booking.baseCost,
      booking.currency,
      booking.serviceName,
      booking.carrierReference ?? null,
      label?.content ?? null,
      label?.contentType ?? null,
      booking.pieceBarcodes?.length ? JSON.stringify(booking.pieceBarcodes) : null,
      booking.notes?.length ? JSON.stringify(booking.notes) : null,
      booking.routing ?? null,
    ],
  );
  return rows.length > 0;
}

/** The label the carrier made for the live booking under `bookingKey`, if it made one. */
export async function findCarrierLabel(q: Queryable, bookingKey: string): Promise<CarrierLabel | undefined> {
  const { rows } = await q.query<{ label_content: Uint8Array; label_content_type: string }>(
    'SELECT label_content, label_content_type FROM carrier_bookings WHERE booking_key = $1 AND cancelled_at IS NULL AND label_content IS NOT NULL',
    [bookingKey],
  );
  return rows[0] && { content: Buffer.from(rows[0].label_content), contentType: rows[0].label_content_type };
}

export async function markBookingCancelled(q: Queryable, bookingKey: string): Promise<void> {
  await q.query('UPDATE carrier_bookings SET cancelled_at = now() WHERE booking_key = $1 AND cancelled_at IS NULL', [bookingKey]);
}

/** A booking intent: a carrier was (or is about to be) asked to book under `sentKey`. */
export interface BookingIntent {
  providerId: number;
  sentKey: string;
  attempts: number;
  /** open: asked, outcome unknown; booked: its booking is saved; released: looked up and nothing held, or voided */
  state: 'open' | 'booked' | 'released';
}

export async function findIntents(q: Queryable, bookingKey: string): Promise<BookingIntent[]> {
  const { rows } = await q.query<{ provider_id: number; sent_key: string; attempts: number; state: BookingIntent['state'] }>(
    'SELECT provider_id, sent_key, attempts, state FROM carrier_booking_intents WHERE booking_key = $1 ORDER BY created_at',
    [bookingKey],
  );
  return rows.map((r) => ({ providerId: Number(r.provider_id), sentKey: r.sent_key, attempts: Number(r.attempts), state: r.state }));
}

/** Records, before the call, that `providerId` is asked to book under `sentKey` (committed on its own). */
export async function recordIntent(q: Queryable, intent: { bookingKey: string; providerId: number; sentKey: string }): Promise<void> {
  await q.query(
    `INSERT INTO carrier_booking_intents (booking_key, provider_id, sent_key) VALUES ($1, $2, $3)
     ON CONFLICT (booking_key, provider_id) DO UPDATE SET sent_key = EXCLUDED.sent_key, attempts = carrier_booking_intents.attempts + 1, state = 'open', updated_at = now()`,
    [intent.bookingKey, intent.providerId, intent.sentKey],
  );
}

export async function closeIntent(q: Queryable, bookingKey: string, providerId: number, state: 'booked' | 'released'): Promise<void> {
  await q.query('UPDATE carrier_booking_intents SET state = $3, updated_at = now() WHERE booking_key = $1 AND provider_id = $2', [
    bookingKey,
    providerId,
    state,
  ]);
}
