import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { CarrierBusyError, CarrierRefusedError, type Carrier } from '../src/carriers/carrier';
import { findBooking, markBookingCancelled, saveBooking } from '../src/db/carrier-bookings.repository';
import type { Database } from '../src/db/database';
import { DomainError } from '../src/domain/errors';
import type { BookedShipment } from '../src/domain/shipment';
import { providerEventId } from '../src/domain/tracking';
import type { ProviderService } from '../src/services/providers.service';
import type { CarrierActivities } from '../workflows/activities';
import { asActivity } from './failures';

export interface CarrierActivityDeps {
  db: Database;
  providers: ProviderService;
}

/**
 * A carrier call as an activity: a refusal is a business error (not retried), a carrier asking us to wait is
 * retried no sooner than it asked (its Retry-After, or our shared budget's next window), anything else is
 * retried with the workflow's backoff.
 */
function carrierCall<T>(fn: () => Promise<T>): Promise<T> {
  return asActivity(async () => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof CarrierRefusedError) throw new DomainError('CARRIER_REFUSED', { field: 'provider_id', params: { reason: error.reason } });
      if (error instanceof CarrierBusyError) throw ApplicationFailure.create({ message: error.message, type: 'CARRIER_BUSY', nextRetryDelay: error.retryAfterMs });
      throw error;
    }
  });
}

/** The activity's attempt (1 outside an activity, e.g. when a test calls it directly). */
function currentAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

/** Calls to carriers. Bookings are keyed by the consignment uuid, so a retry never books twice. */
export function createCarrierActivities({ db, providers }: CarrierActivityDeps) {
  const carrierFor = async (providerId: number): Promise<Carrier> => {
    const carrier = await providers.carrierFor(providerId);
    if (!carrier) throw new DomainError('VALIDATION_FAILED', [{ code: 'PROVIDER_NOT_FOUND', field: 'provider_id', params: { provider_id: providerId } }]);
    return carrier;
  };

  return {
    bookShipment(request) {
      return carrierCall(async () => {
        const existing = await findBooking(db, request.uuid);
        if (existing && existing.providerId === request.providerId) return existing;
        const carrier = await carrierFor(request.providerId);
        const booking = await carrier.book({
          bookingKey: request.uuid,
          shipment: request.shipment,
          serviceBarcode: request.serviceBarcode,
          draft: request.draft,
          reference: request.reference,
          labelFormat: request.labelFormat,
          attempt: currentAttempt(),
        });
        const booked: BookedShipment = {
          providerId: carrier.id,
          trackingCode: booking.trackingCode,
          trackingUrl: booking.trackingUrl,
          pickupBooked: booking.pickupBooked,
          baseCost: booking.cost.baseCost,
          currency: booking.cost.currency,
          serviceName: booking.cost.serviceName,
          carrierReference: booking.carrierReference ?? null,
          carrierLabel: booking.label !== undefined,
          ...(booking.pieceBarcodes?.length ? { pieceBarcodes: booking.pieceBarcodes } : {}),
        };
        // The carrier's label stays here (bytes do not belong in the workflow history); processing stores it.
        await saveBooking(db, request.uuid, booked, booking.label);
        return booked;
      });
    },

    /** Asks a carrier without push for its tracking events (event ids made unique across carriers, as pushed ones are). */
    trackShipment(request) {
      return carrierCall(async () => {
        const events = await (await carrierFor(request.providerId)).track({ bookingKey: '', trackingCode: request.trackingCode, carrierReference: request.carrierReference });
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
      return carrierCall(async () => {
        const carrier = await carrierFor(request.providerId);
        const result = await carrier.cancel({ bookingKey: request.uuid, trackingCode: request.trackingCode, carrierReference: request.carrierReference, inTransit: request.inTransit });
        if (result.accepted) await markBookingCancelled(db, request.uuid);
        return result;
      });
    },
  } satisfies CarrierActivities;
}
