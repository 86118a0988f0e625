import { Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import { CarrierBusyError, CarrierRefusedError, type Carrier, type TrackedShipment, type TrackingQuery } from '../src/carriers/carrier';
import type { Providers } from '../src/carriers/providers';
import type { Database } from '../src/db/database';
import {
  dueTracking,
  nextTrackingDueInMs,
  noteTrackingFailure,
  recordTrackingOutcomes,
  soonDueTracking,
  type TrackedConsignment,
  type TrackingOutcome,
} from '../src/db/tracking.repository';
import { carrierEventOf, newEvents } from '../src/domain/tracking';
import { describeWait, nextCheckIn, type TrackingPace } from '../src/domain/tracking-schedule';
import type { Metrics } from '../src/metrics';
import type { ConsignmentStarter } from '../src/temporal/consignment.starter';
import type { TrackingActivities, TrackingRound } from '../workflows/activities';
import { carrierCall } from './carriers.activities';
import { asActivity } from './failures';

export interface TrackingActivityDeps {
  db: Database;
  providers: Providers;
  /** hands new carrier events to the consignments' workflows (signals) */
  consignmentStarter: Pick<ConsignmentStarter, 'carrierEvent'>;
  metrics?: Metrics;
  log?: Logger;
  /** CARRIER_POLL_INTERVAL_MS of this process */
  trackingIntervalMs?: number;
}

/** Consignments read from the read model per page of a round. */
const PAGE = 500;
/** Rounds one worker process runs at once, whatever the number of accounts: tracking is background work. */
const ROUNDS_AT_ONCE = 2;

/** A small semaphore: rounds beyond ROUNDS_AT_ONCE wait their turn (heartbeating) instead of taking the CPU from requests. */
function limiter(max: number) {
  let running = 0;
  const queue: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => queue.push(resolve));
    running += 1;
    try {
      return await fn();
    } finally {
      running -= 1;
      queue.shift()?.();
    }
  };
}

function heartbeat(details?: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // not in an activity (unit tests)
  }
}

/** Beats every few seconds while `fn` runs (waiting its turn, or on a slow carrier): a dead worker's round is noticed soon. */
async function alive<T>(fn: () => Promise<T>): Promise<T> {
  const beat = setInterval(() => heartbeat(), 5_000);
  try {
    return await fn();
  } finally {
    clearInterval(beat);
  }
}

/** Several shipments' events: in the carrier's batches where it has them, otherwise one question each. */
export async function trackBatch(carrier: Carrier, shipments: TrackingQuery[]): Promise<{ answers: TrackedShipment[]; requests: number }> {
  if (carrier.trackMany) return { answers: await carrier.trackMany(shipments), requests: 1 };
  const answers: TrackedShipment[] = [];
  for (const shipment of shipments) {
    try {
      answers.push({ shipment, events: await carrier.track(shipment) });
    } catch (error) {
      // A carrier asking us to wait, or a fault of the request, ends the round; a refusal is this shipment's answer.
      if (!(error instanceof CarrierRefusedError) || error instanceof CarrierBusyError) throw error;
      answers.push({ shipment, error: error.reason });
    }
  }
  return { answers, requests: shipments.length };
}

/**
 * The tracking poller's work (docs/carriers.md, "Tracking"): one round asks the account's carrier about every
 * consignment due, in the carrier's batches, and signals only the workflows whose carrier said something new.
 */
export function createTrackingActivities({ db, providers, consignmentStarter, metrics, log, trackingIntervalMs }: TrackingActivityDeps) {
  const inTurn = limiter(ROUNDS_AT_ONCE);

  /** One batch: the carrier's answers, new events signalled, each consignment's next question written. */
  const askBatch = async (carrier: Carrier, providerId: number, rows: TrackedConsignment[], pace: TrackingPace) => {
    const shipments = rows.map((r) => ({
      bookingKey: r.uuid,
      trackingCode: r.trackingCode,
      carrierReference: r.carrierReference,
      // What was handed over already, in the carrier's own ids (ours carry the provider: providerEventId).
      ...(r.lastEventId?.startsWith(`${providerId}:`) ? { known: { newestEventId: r.lastEventId.slice(`${providerId}:`.length), count: r.eventsSeen } } : {}),
    }));
    const { answers, requests } = await trackBatch(carrier, shipments);
    const byCode = new Map(answers.map((a) => [a.shipment.trackingCode, a]));
    const outcomes: TrackingOutcome[] = [];
    let changed = 0;
    for (const row of rows) {
      const answer = byCode.get(row.trackingCode) ?? { shipment: shipments[0], events: [] };
      if ('error' in answer) {
        const next = nextCheckIn(pace, Date.now() - row.lastChangeAt.getTime(), row.failures + 1) ?? pace.intervalMs;
        // The first error of a run is worth a line in the history; the ones after it repeat it.
        if (row.failures === 0) {
          const message = `Tracking at ${carrier.name} failed: ${answer.error}. Asking again in ${describeWait(next)}`;
          await noteTrackingFailure(db, { consignmentId: row.consignmentId }, message.slice(0, 1000), `tracking-error:${Date.now()}`);
        }
        outcomes.push({ consignmentId: row.consignmentId, failed: true, nextCheckInMs: next });
        continue;
      }
      const events = answer.events.map((e) => carrierEventOf(providerId, e));
      const fresh = newEvents(events, row);
      // Signalled before the newest id is written: a crash in between signals again, and the workflow drops repeats.
      for (const event of fresh) await consignmentStarter.carrierEvent(row.uuid, event);
      if (fresh.length > 0) changed += 1;
      const quietFor = fresh.length > 0 ? 0 : Date.now() - row.lastChangeAt.getTime();
      const newest =
        fresh.length > 0
          ? { newestEventId: [...events].sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt)).at(-1)!.eventId, count: events.length }
          : undefined;
      outcomes.push({ consignmentId: row.consignmentId, seen: newest, failed: false, nextCheckInMs: nextCheckIn(pace, quietFor, 0) });
    }
    await recordTrackingOutcomes(db, outcomes);
    return { requests, changed, failed: outcomes.filter((o) => o.failed).length };
  };

  /**
   * Consignments due within half an interval and not asked in the last half (nor within the carrier's minimum), to
   * fill a short batch: the request costs the same, and asked now they fall due together with the rest, so the
   * carrier is asked in full batches (rounds cost in flight ÷ batch size requests, not one per wake-up).
   */
  const dueSoon = (providerId: number, startedAt: Date, pace: TrackingPace, room: number) => {
    const half = pace.intervalMs / 2;
    const at = startedAt.getTime();
    const window = { after: startedAt, dueBy: new Date(at + half), askedBefore: new Date(at - Math.max(half, pace.minReaskMs)) };
    return soonDueTracking(db, providerId, window, room);
  };

  /**
   * One round: every consignment of the provider due when it began, page by page, in the carrier's batches. What a
   * round asked before the carrier stopped it (its rate limit, a fault) is kept; the rest is asked in the next.
   */
  const runRound = async (providerId: number, startedWith: number): Promise<TrackingRound> => {
    const carrier = await providers.carrierFor(providerId);
    if (!carrier) return { gone: true, asked: 0, requests: 0, changed: 0, failed: 0, intervalMs: startedWith };
    const limits = carrier.trackingLimits ?? { batchSize: 1, minReaskMs: 0 };
    // The process's setting, when it has one: a poller started under another one follows today's.
    const intervalMs = trackingIntervalMs ?? startedWith;
    const pace = { intervalMs, minReaskMs: limits.minReaskMs };
    const round = { asked: 0, requests: 0, changed: 0, failed: 0 };
    // What a round reschedules is not due again within it, however short the interval.
    const startedAt = new Date();
    // Pages of whole batches: only a round's last batch can be short, and that one is filled.
    const pageSize = Math.ceil(PAGE / limits.batchSize) * limits.batchSize;
    for (;;) {
      const page = await dueTracking(db, providerId, startedAt, pageSize);
      for (let i = 0; i < page.length; i += limits.batchSize) {
        let batch = page.slice(i, i + limits.batchSize);
        if (batch.length < limits.batchSize) batch = batch.concat(await dueSoon(providerId, startedAt, pace, limits.batchSize - batch.length));
        const done = await askBatch(carrier, providerId, batch, pace);
        round.asked += batch.length;
        round.requests += done.requests;
        round.changed += done.changed;
        round.failed += done.failed;
        heartbeat(round);
      }
      if (page.length < pageSize) break;
    }
    metrics?.carrierCalls.inc({ carrier: carrier.kind, operation: 'track', outcome: 'ok' }, round.requests);
    return { gone: false, ...round, intervalMs, nextDueInMs: await nextTrackingDueInMs(db, providerId) };
  };

  return {
    trackingRound({ providerId, intervalMs: startedWith }) {
      return carrierCall(() => alive(() => inTurn(() => runRound(providerId, startedWith))));
    },

    /**
     * A round the carrier refused or never answered, after its retries: counted and logged once for the account,
     * and, on the first round of a run of failures, written into the history of each consignment it left unasked.
     */
    recordTrackingRoundFailure({ providerId, reason, refused, failures, retryInMs, since }) {
      return asActivity(async () => {
        const info = await providers.describe(providerId);
        const name = info?.name ?? `Provider ${providerId}`;
        metrics?.trackingFailures.inc({ carrier: info?.carrier ?? 'unknown', outcome: refused ? 'refused' : 'failed' });
        log?.warn({ providerId, carrier: info?.carrier, reason, failures, retryInMs }, 'a tracking round failed; the poller asks again with backoff');
        const message = `Tracking at ${name} ${refused ? 'refused' : 'failed'}: ${reason}. Asking again in ${describeWait(retryInMs)}`;
        await noteTrackingFailure(db, { providerId }, message.slice(0, 1000), `tracking-failure:${since}`);
      });
    },
  } satisfies TrackingActivities;
}
