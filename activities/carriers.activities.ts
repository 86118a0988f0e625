import type { CarrierRegistry } from '../src/carriers/registry';
import { CarrierRefusedError, type ShipmentSpec } from '../src/carriers/carrier';
import type { Database } from '../src/db/database';
import { DomainError } from '../src/domain/errors';
import type { CarrierEvent } from '../workflows/consignment.messages';
import { asActivity } from './failures';

export interface CarrierActivityDeps {
  db: Database;
  carriers: CarrierRegistry;
}

/** A booking as the workflow carries it (plain data: it is stored in the workflow history). */
export interface BookedShipment {
  providerId: number;
  trackingCode: string;
  trackingUrl: string;
  pickupBooked: boolean;
  baseCost: number;
  currency: string;
  serviceName: string;
}

function carrierOf(carriers: CarrierRegistry, providerId: number) {
  const carrier = carriers.get(providerId);
  if (!carrier) throw new DomainError('VALIDATION_FAILED', [{ code: 'PROVIDER_NOT_FOUND', field: 'provider_id', params: { provider_id: providerId } }]);
  return carrier;
}

/** Calls to carriers. Bookings are keyed by the consignment uuid, so a retry never books twice. */
export function createCarrierActivities({ db, carriers }: CarrierActivityDeps) {
  return {
    bookShipment(request: { uuid: string; providerId: number; shipment: ShipmentSpec; serviceBarcode: string }): Promise<BookedShipment> {
      return asActivity(async () => {
        const existing = await db.query<{ provider_id: number; tracking_code: string; tracking_url: string; pickup_booked: boolean; base_cost: string; currency: string; service_name: string }>(
          'SELECT * FROM carrier_bookings WHERE booking_key = $1 AND cancelled_at IS NULL',
          [request.uuid],
        );
        const row = existing.rows[0];
        if (row && row.provider_id === request.providerId) {
          return { providerId: row.provider_id, trackingCode: row.tracking_code, trackingUrl: row.tracking_url, pickupBooked: row.pickup_booked, baseCost: Number(row.base_cost), currency: row.currency, serviceName: row.service_name };
        }
        const carrier = carrierOf(carriers, request.providerId);
        let booking;
        try {
          booking = await carrier.book({ bookingKey: request.uuid, shipment: request.shipment, serviceBarcode: request.serviceBarcode });
        } catch (error) {
          if (error instanceof CarrierRefusedError) throw new DomainError('NO_CARRIER_AVAILABLE', { field: 'provider_id', params: { reason: error.reason } });
          throw error;
        }
        await db.query(
          `INSERT INTO carrier_bookings (booking_key, provider_id, tracking_code, tracking_url, pickup_booked, base_cost, currency, service_name)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (booking_key) DO UPDATE SET provider_id = EXCLUDED.provider_id, tracking_code = EXCLUDED.tracking_code,
             tracking_url = EXCLUDED.tracking_url, pickup_booked = EXCLUDED.pickup_booked, base_cost = EXCLUDED.base_cost,
             currency = EXCLUDED.currency, service_name = EXCLUDED.service_name, booked_at = now(), cancelled_at = NULL
           WHERE carrier_bookings.cancelled_at IS NOT NULL OR carrier_bookings.provider_id <> EXCLUDED.provider_id`,
          [request.uuid, carrier.id, booking.trackingCode, booking.trackingUrl, booking.pickupBooked, booking.cost.baseCost, booking.cost.currency, booking.cost.serviceName],
        );
        return {
          providerId: carrier.id,
          trackingCode: booking.trackingCode,
          trackingUrl: booking.trackingUrl,
          pickupBooked: booking.pickupBooked,
          baseCost: booking.cost.baseCost,
          currency: booking.cost.currency,
          serviceName: booking.cost.serviceName,
        };
      });
    },

    /** Polls a carrier without push for its tracking events (event ids prefixed by the provider, as pushed ones are). */
    trackShipment(request: { providerId: number; trackingCode: string }): Promise<CarrierEvent[]> {
      return asActivity(async () => {
        const events = await carrierOf(carriers, request.providerId).track(request.trackingCode);
        return events.map((e) => ({
          eventId: `${request.providerId}:${e.eventId}`,
          event: e.event,
          occurredAt: e.occurredAt.toISOString(),
          location: e.location ?? null,
          message: e.message ?? null,
        }));
      });
    },

    /** Asks the carrier to cancel; a refusal is an answer (accepted: false), not a failure. */
    cancelBooking(request: { uuid: string; providerId: number; trackingCode: string; inTransit: boolean }): Promise<{ accepted: boolean; reason?: string }> {
      return asActivity(async () => {
        const result = await carrierOf(carriers, request.providerId).cancel({ bookingKey: request.uuid, trackingCode: request.trackingCode, inTransit: request.inTransit });
        if (result.accepted) await db.query('UPDATE carrier_bookings SET cancelled_at = now() WHERE booking_key = $1 AND cancelled_at IS NULL', [request.uuid]);
        return result;
      });
    },
  };
}
