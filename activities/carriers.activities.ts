import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  CarrierBusyError,
  CarrierInputError,
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type Carrier,
  type FoundBooking,
} from '../src/carriers/carrier';
import { customsDataOf } from '../src/customs/customs-data';
import { customsDocuments } from '../src/customs/customs-forms';
import { renderCustomsDocument } from '../src/customs/customs-pdf';
import type { SdrRates } from '../src/customs/sdr';
import type { Logger } from 'pino';
import type { Metrics } from '../src/metrics';
import {
  closeIntent,
  findBooking,
  findIntents,
  markBookingCancelled,
  recordIntent,
  saveBooking,
  type BookingIntent,
} from '../src/db/carrier-bookings.repository';
import type { Database } from '../src/db/database';
import { DomainError } from '../src/domain/errors';
import type { BookedShipment } from '../src/domain/shipment';
import { carrierEventOf } from '../src/domain/tracking';
import type { Providers } from '../src/carriers/providers';
import type { BookingOrder, CarrierActivities } from '../workflows/activities';
import { asActivity } from './failures';

export interface CarrierActivityDeps {
  db: Database;
  /** the process's logger (tracking failures and voided duplicates; never credentials) */
  log?: Logger;
  /** the carrier factory: built-in carriers and accounts' carriers, by provider id */
  providers: Providers;
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
export function carrierCall<T>(fn: () => Promise<T>): Promise<T> {
  return asActivity(async () => {
    try {
      return await fn();
    } catch (error) {
      // Our data against the carrier's rules: a 400 naming each field, as the draft's own validation would.
      if (error instanceof CarrierInputError) {
        throw new DomainError(
          'VALIDATION_FAILED',
          error.issues.map((i) => ({ code: 'CARRIER_FIELD' as const, field: i.field, params: { reason: i.reason } })),
        );
      }
      if (error instanceof CarrierRefusedError) throw new DomainError('CARRIER_REFUSED', { field: 'provider_id', params: { reason: error.reason } });
      if (error instanceof CarrierBusyError)
        throw ApplicationFailure.create({
          message: error.message,
          type: 'CARRIER_BUSY',
          nextRetryDelay: error.retryAfterMs,
          // for the workflow, when the retries run out while the carrier still asks us to wait
          details: [{ retryAfterMs: error.retryAfterMs }],
        });
      throw error;
    }
  });
}

/** How often a booking activity tells Temporal it is alive (its workflow's heartbeat timeout is a few times this). */
const HEARTBEAT_EVERY_MS = 2_000;

/**
 * Runs a carrier call while telling Temporal the activity is alive, so a worker that dies mid-call (kill -9) is
 * noticed within the heartbeat timeout and the retry (which looks up first) runs within the caller's carrier
 * wait, not after the whole start-to-close timeout. Local activities run in the workflow's own task and do not heartbeat.
 */
async function alive<T>(fn: () => Promise<T>): Promise<T> {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return fn(); // not in an activity (unit tests)
  }
  if (context.info.isLocal) return fn();
  const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await fn();
  } finally {
    clearInterval(beat);
  }
}

/** Calls to carriers. Bookings are keyed by the consignment uuid, so a retry never books twice. */
export function createCarrierActivities({ db, providers, sdrRates, metrics, log }: CarrierActivityDeps) {
  const carrierFor = providers.requireCarrier;
  /** One call to a carrier, counted by its kind, the operation and how it ended, and timed. */
  const measured = async <T>(carrier: Carrier, operation: 'book' | 'find' | 'track' | 'cancel', call: () => Promise<T>): Promise<T> => {
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

  /**
   * Saves the booking (the carrier's label with it) and closes its intent, then answers with what is stored.
   * Another try that saved first wins: this booking is then a duplicate and is cancelled at the carrier.
   */
  const keep = async (uuid: string, carrier: Carrier, booking: Booking, notes: string[]): Promise<BookedShipment> => {
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
      ...(booking.routing ? { routing: booking.routing } : {}),
      ...(notes.length || booking.notes?.length ? { notes: [...notes, ...(booking.notes ?? [])] } : {}),
    };
    // The carrier's label stays here (bytes do not belong in the workflow history); processing stores it.
    const wrote = carrier.idempotentBooking
      ? await saveBooking(db, uuid, booked, booking.label)
      : await db.transaction(async (tx) => {
          const saved = await saveBooking(tx, uuid, booked, booking.label);
          await closeIntent(tx, uuid, carrier.id, 'booked');
          return saved;
        });
    if (wrote) return booked;
    const stored = (await findBooking(db, uuid))!;
    if (stored.trackingCode !== booked.trackingCode || stored.providerId !== booked.providerId) {
      const result = await measured(carrier, 'cancel', () =>
        carrier.cancel({ bookingKey: uuid, trackingCode: booked.trackingCode, carrierReference: booked.carrierReference, inTransit: false }),
      );
      log?.warn(
        { providerId: carrier.id, carrier: carrier.kind, duplicate: booked.trackingCode, kept: stored.trackingCode, voided: result.accepted },
        'a concurrent try booked first: duplicate booking cancelled',
      );
    }
    return stored;
  };

  /** Cancels a live stored booking with another carrier, so the consignment never holds two. */
  const voidStored = async (uuid: string, stored: BookedShipment): Promise<string> => {
    const other = await carrierFor(stored.providerId);
    const result = await measured(other, 'cancel', () =>
      other.cancel({ bookingKey: uuid, trackingCode: stored.trackingCode, carrierReference: stored.carrierReference, inTransit: false }),
    );
    if (!result.accepted)
      throw new DomainError('CARRIER_REFUSED', {
        field: 'provider_id',
        params: { reason: `the booking ${stored.trackingCode} with ${other.name} could not be cancelled: ${result.reason ?? 'refused'}` },
      });
    await markBookingCancelled(db, uuid);
    return `Earlier booking ${stored.trackingCode} with ${other.name} cancelled before booking with another carrier`;
  };

  /**
   * An earlier try that may have booked (its answer never came): what its carrier holds under the key is cancelled
   * there, so moving to another carrier, or changing the draft, leaves no booking behind.
   */
  const releaseIntent = async (booking: BookingRequest, intent: BookingIntent): Promise<string[]> => {
    const other = await carrierFor(intent.providerId).catch(() => undefined);
    if (!other?.findBooking) {
      await closeIntent(db, booking.bookingKey, intent.providerId, 'released');
      return other ? [`${other.name} offers no look-up: a booking a try whose answer was lost may have made there cannot be checked`] : [];
    }
    let found;
    try {
      found = await measured(other, 'find', () => other.findBooking!(booking));
    } catch (error) {
      // A refusal to look is final for this try; a transient fault retries the whole booking.
      if (!(error instanceof CarrierRefusedError)) throw error;
      found = { state: 'unknown' as const, reason: error.reason };
    }
    await closeIntent(db, booking.bookingKey, intent.providerId, 'released');
    if (found.state === 'found') {
      const { trackingCode, carrierReference } = found.booking;
      const result = await measured(other, 'cancel', () => other.cancel({ bookingKey: booking.bookingKey, trackingCode, carrierReference, inTransit: false }));
      return [
        result.accepted
          ? `Earlier booking ${trackingCode} with ${other.name}, made by a try whose answer was lost, cancelled`
          : `Earlier booking ${trackingCode} with ${other.name}, made by a try whose answer was lost, could not be cancelled: ${result.reason ?? 'refused'}`,
      ];
    }
    if (found.state === 'unusable')
      return [`${other.name} holds an earlier booking (${found.trackingCodes.join(', ')}) made by a try whose answer was lost; left unused: ${found.reason}`];
    if (found.state === 'unknown') return [`${other.name} could not be asked for an earlier booking (${found.reason})`];
    return [`${other.name} holds no booking from a try whose answer was lost`];
  };

  /** The carrier's request: the order as the adapter takes it, customs documents made on demand. */
  const bookingRequestOf = (request: BookingOrder, carrier: Carrier): BookingRequest => ({
    bookingKey: request.uuid,
    shipment: request.shipment,
    serviceBarcode: request.serviceBarcode,
    draft: request.draft,
    reference: request.reference,
    labelFormat: request.labelFormat,
    // Made here, not carried in the workflow: documents are bytes, and a history holds no bytes.
    customsDocument: async (kind) => {
      const data = customsDataOf(request.draft, {
        barcode: request.serviceBarcode,
        date: new Date(),
        carrierName: (await providers.describe(carrier.id))?.name ?? null,
      });
      // In English: the language of the carrier and of the customs of the destination, more often than Turkish.
      return data && customsDocuments(data, sdrRates)[kind] ? renderCustomsDocument(kind, data, { lang: 'en' }) : undefined;
    },
  });

  /**
   * What earlier tries of this consignment left behind, settled before anything new happens: a live booking
   * stored with another carrier is voided, and every open intent (asked, its answer never saved) is looked up at
   * its carrier. With `adopt`, what `carrier` itself holds under the key is the answer (`found`); otherwise, and
   * at other carriers, what is held is cancelled there. `notes` say what was found, for the history. `stored`: the
   * booking stored for the consignment, as the caller read it (one read a processing, not two).
   */
  const reconcile = async (
    uuid: string,
    carrier: Carrier,
    booking: BookingRequest,
    adopt: boolean,
    stored: BookedShipment | undefined,
  ): Promise<{ found?: BookedShipment; ownLookup?: FoundBooking['state']; notes: string[] }> => {
    const notes: string[] = [];
    if (stored && adopt && stored.providerId === carrier.id) return { found: stored, notes };
    // A live booking with another carrier (processing moved on after a failure), or one being released.
    if (stored) notes.push(await voidStored(uuid, stored));
    const open = (await findIntents(db, uuid)).filter((i) => i.state === 'open');
    for (const intent of open.filter((i) => !adopt || i.providerId !== carrier.id)) notes.push(...(await releaseIntent(booking, intent)));
    if (!adopt || !carrier.findBooking || !open.some((i) => i.providerId === carrier.id)) return { notes };
    const found = await measured(carrier, 'find', () => carrier.findBooking!(booking));
    const key = carrier.sentKey(booking);
    if (found.state === 'found') {
      notes.push(`Booking recovered: ${carrier.name} already held this consignment under ${key} (${found.booking.trackingCode}); an earlier answer was lost`);
      return { found: await keep(uuid, carrier, found.booking, notes), ownLookup: found.state, notes };
    }
    if (found.state === 'unusable') {
      notes.push(
        `${carrier.name} holds an earlier booking under ${key} (${found.trackingCodes.join(', ')}) whose answer was lost; left unused: ${found.reason}`,
      );
    } else if (found.state === 'unknown') {
      notes.push(`${carrier.name} could not be asked for an earlier booking under ${key} (${found.reason})`);
    }
    return { ownLookup: found.state, notes };
  };

  return {
    /**
     * Books exactly once (docs/carriers.md, "Booking exactly once"): a booking stored for the consignment is the
     * answer; otherwise every earlier try that may have booked is looked up at its carrier first (the same
     * carrier's booking is recovered, another carrier's is voided), the intent is recorded with the key the
     * carrier is sent, and only then is the carrier asked. The answer is the booking as stored.
     */
    bookShipment(request) {
      return carrierCall(() =>
        alive(async () => {
          const stored = await findBooking(db, request.uuid);
          if (stored && stored.providerId === request.providerId) return stored;
          const carrier = await carrierFor(request.providerId);
          const booking = bookingRequestOf(request, carrier);
          const { found, notes } = await reconcile(request.uuid, carrier, booking, true, stored);
          if (found) return found;
          // Durable before the call: whatever happens to the answer, a later try knows to look first.
          if (!carrier.idempotentBooking) await recordIntent(db, { bookingKey: request.uuid, providerId: carrier.id, sentKey: carrier.sentKey(booking) });
          const made = await measured(carrier, 'book', () => carrier.book(booking));
          return keep(request.uuid, carrier, made, notes);
        }),
      );
    },

    /**
     * Settles what a processing that gave up on its carrier (CARRIER_UNAVAILABLE) may have left there, without
     * booking anything: `adopt` answers the booking the carrier turns out to hold (the processing is then
     * finished by the workflow), `release` cancels it (the draft is about to change). Lookups that find nothing
     * close the intent; `notes` say what was found, for the draft's history.
     */
    settleBooking({ mode, ...request }) {
      return carrierCall(async () => {
        const carrier = await carrierFor(request.providerId);
        const settled = await alive(async () =>
          reconcile(request.uuid, carrier, bookingRequestOf(request, carrier), mode === 'adopt', await findBooking(db, request.uuid)),
        );
        if (settled.found)
          return {
            booking: settled.found,
            notes: [`Processed without a request: the processing answered CARRIER_UNAVAILABLE, and ${carrier.name} turned out to hold its booking`],
          };
        if (settled.ownLookup === 'none') {
          await closeIntent(db, request.uuid, carrier.id, 'released');
          settled.notes.push(`${carrier.name} holds no booking of the processing that answered CARRIER_UNAVAILABLE; the draft stays a draft`);
        }
        return { notes: settled.notes };
      });
    },

    /** Asks a carrier without push for its tracking events (event ids made unique across carriers, as pushed ones are). */
    trackShipment(request) {
      return carrierCall(async () => {
        const carrier = await carrierFor(request.providerId);
        const events = await measured(carrier, 'track', () =>
          carrier.track({ bookingKey: '', trackingCode: request.trackingCode, carrierReference: request.carrierReference }),
        );
        return events.map((e) => carrierEventOf(request.providerId, e));
      });
    },

    /** Asks the carrier to cancel; a refusal is an answer (accepted: false), not a failure. */
    cancelBooking(request) {
      return carrierCall(async () => {
        const carrier = await carrierFor(request.providerId);
        const result = await measured(carrier, 'cancel', () =>
          carrier.cancel({
            bookingKey: request.uuid,
            trackingCode: request.trackingCode,
            carrierReference: request.carrierReference,
            inTransit: request.inTransit,
          }),
        );
        if (result.accepted) await markBookingCancelled(db, request.uuid);
        return result;
      });
    },
  } satisfies CarrierActivities;
}
