import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { CarrierBusyError, CarrierRefusedError, type Carrier } from '../src/carriers/carrier';
import { customsDataOf } from '../src/customs/customs-data';
import { customsDocuments } from '../src/customs/customs-forms';
import { renderCustomsDocument } from '../src/customs/customs-pdf';
import type { SdrRates } from '../src/customs/sdr';
import type { Metrics } from '../src/metrics';
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
  /** SDR rates for the CN22/CN23 choice (CUSTOMS_SDR_RATES); default the built-in table */
  sdrRates?: SdrRates;
  /** the process's metrics (carrier calls and their latency) */
  metrics?: Metrics;
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
export function createCarrierActivities({ db, providers, sdrRates, metrics }: CarrierActivityDeps) {
  const carrierFor = async (providerId: number): Promise<Carrier> => {
    const carrier = await providers.carrierFor(providerId);
    if (!carrier) throw new DomainError('VALIDATION_FAILED', [{ code: 'PROVIDER_NOT_FOUND', field: 'provider_id', params: { provider_id: providerId } }]);
    return carrier;
  };
  /** One call to a carrier, counted by its kind, the operation and how it ended, and timed. */
  const measured = async <T>(carrier: Carrier, operation: 'book' | 'track' | 'cancel', call: () => Promise<T>): Promise<T> => {
    const stop = metrics?.carrierDuration.startTimer({ carrier: carrier.kind, operation });
    let outcome = 'ok';
    try {
      return await call();
    } catch (error) {
      outcome = error instanceof CarrierRefusedError ? 'refused' : error instanceof CarrierBusyError ? 'busy' : 'error';
      throw error;
    } finally {
      stop?.();
      metrics?.carrierCalls.inc({ carrier: carrier.kind, operation, outcome });
    }
  };

  return {
    bookShipment(request) {
      return carrierCall(async () => {
        const existing = await findBooking(db, request.uuid);
        if (existing && existing.providerId === request.providerId) return existing;
        const carrier = await carrierFor(request.providerId);
        const booking = await measured(carrier, 'book', () => carrier.book({
          bookingKey: request.uuid,
          shipment: request.shipment,
          serviceBarcode: request.serviceBarcode,
          draft: request.draft,
          reference: request.reference,
          labelFormat: request.labelFormat,
          attempt: currentAttempt(),
          // Made here, not carried in the workflow: documents are bytes, and a history holds no bytes.
          customsDocument: async (kind) => {
            const data = customsDataOf(request.draft, { barcode: request.serviceBarcode, date: new Date(), carrierName: (await providers.describe(carrier.id))?.name ?? null });
            // In English: the language of the carrier and of the customs of the destination, more often than Turkish.
            return data && customsDocuments(data, sdrRates)[kind] ? renderCustomsDocument(kind, data, { lang: 'en' }) : undefined;
          },
        }));
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
        const carrier = await carrierFor(request.providerId);
        const events = await measured(carrier, 'track', () => carrier.track({ bookingKey: '', trackingCode: request.trackingCode, carrierReference: request.carrierReference }));
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
        const result = await measured(carrier, 'cancel', () => carrier.cancel({ bookingKey: request.uuid, trackingCode: request.trackingCode, carrierReference: request.carrierReference, inTransit: request.inTransit }));
        if (result.accepted) await markBookingCancelled(db, request.uuid);
        return result;
      });
    },
  } satisfies CarrierActivities;
}
