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
  }>(
    `SELECT provider_id, tracking_code, tracking_url, pickup_booked, base_cost, currency, service_name, carrier_reference, label_content IS NOT NULL AS carrier_label
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
    }
  );
}

/** Records a booking; replaces one under the same key only if that was cancelled or with another carrier. */
export async function saveBooking(q: Queryable, bookingKey: string, booking: BookedShipment, label?: CarrierLabel): Promise<void> {
  await q.query(
    `INSERT INTO carrier_bookings (booking_key, provider_id, tracking_code, tracking_url, pickup_booked, base_cost, currency, service_name, carrier_reference, label_content, label_content_type)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (booking_key) DO UPDATE SET provider_id = EXCLUDED.provider_id, tracking_code = EXCLUDED.tracking_code,
       tracking_url = EXCLUDED.tracking_url, pickup_booked = EXCLUDED.pickup_booked, base_cost = EXCLUDED.base_cost,
       currency = EXCLUDED.currency, service_name = EXCLUDED.service_name, carrier_reference = EXCLUDED.carrier_reference,
       label_content = EXCLUDED.label_content, label_content_type = EXCLUDED.label_content_type, booked_at = now(), cancelled_at = NULL
     WHERE carrier_bookings.cancelled_at IS NOT NULL OR carrier_bookings.provider_id <> EXCLUDED.provider_id`,
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
    ],
  );
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
