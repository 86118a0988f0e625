import { CarrierRefusedError } from '../src/carriers/carrier';
import type { CarrierRegistry } from '../src/carriers/registry';
import { findBooking, markBookingCancelled, saveBooking } from '../src/db/carrier-bookings.repository';
import type { Database } from '../src/db/database';
import { DomainError } from '../src/domain/errors';
import type { BookedShipment } from '../src/domain/shipment';
import { providerEventId } from '../src/domain/tracking';
import type { CarrierActivities } from '../workflows/activities';
import { asActivity } from './failures';

export interface CarrierActivityDeps {
  db: Database;
  carriers: CarrierRegistry;
}

/** Calls to carriers. Bookings are keyed by the consignment uuid, so a retry never books twice. */
export function createCarrierActivities({ db, carriers }: CarrierActivityDeps) {
  return {
    bookShipment(request) {
      return asActivity(async () => {
        const existing = await findBooking(db, request.uuid);
        if (existing && existing.providerId === request.providerId) return existing;
        const carrier = carriers.require(request.providerId);
        let booking;
        try {
          booking = await carrier.book({ bookingKey: request.uuid, shipment: request.shipment, serviceBarcode: request.serviceBarcode });
        } catch (error) {
          if (error instanceof CarrierRefusedError) throw new DomainError('NO_CARRIER_AVAILABLE', { field: 'provider_id', params: { reason: error.reason } });
          throw error;
        }
        const booked: BookedShipment = {
          providerId: carrier.id,
          trackingCode: booking.trackingCode,
          trackingUrl: booking.trackingUrl,
          pickupBooked: booking.pickupBooked,
          baseCost: booking.cost.baseCost,
          currency: booking.cost.currency,
          serviceName: booking.cost.serviceName,
        };
        await saveBooking(db, request.uuid, booked);
        return booked;
      });
    },

    /** Polls a carrier without push for its tracking events (event ids made unique across carriers, as pushed ones are). */
    trackShipment(request) {
      return asActivity(async () => {
        const events = await carriers.require(request.providerId).track(request.trackingCode);
        return events.map((e) => ({
          eventId: providerEventId(request.providerId, e.eventId),
          event: e.event,
          occurredAt: e.occurredAt.toISOString(),
          location: e.location ?? null,
          message: e.message ?? null,
        }));
      });
    },

    /** Asks the carrier to cancel; a refusal is an answer (accepted: false), not a failure. */
    cancelBooking(request) {
      return asActivity(async () => {
        const result = await carriers.require(request.providerId).cancel({ bookingKey: request.uuid, trackingCode: request.trackingCode, inTransit: request.inTransit });
        if (result.accepted) await markBookingCancelled(db, request.uuid);
        return result;
      });
    },
  } satisfies CarrierActivities;
}
