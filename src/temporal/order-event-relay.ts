import type { Database } from '../db/database';
import { claimOrderEventStarts, markOrderEventsStarted } from '../db/order-sources.repository';
import type { OrderEventStarter } from './order-event.starter';
import { startOutboxRelay, type OutboxRelay } from './outbox-relay';

export type OrderEventRelay = OutboxRelay;

/**
 * Starts the workflows of order events whose receiving request could not (Temporal away, or the process died
 * between the commit and the start): the event row is its own outbox entry (`start_pending`), claimed with a
 * lease, so relays on several workers share the work. Runs where the worker runs. At least once: starting is
 * idempotent (deterministic workflow id). Few events ever need it: small batches, one start at a time, a look
 * every two seconds, and an event whose start failed waits for its lease to run out.
 */
export function startOrderEventRelay(options: {
  db: Database;
  starter: Pick<OrderEventStarter, 'start'>;
  intervalMs?: number;
  leaseSeconds?: number;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}): OrderEventRelay {
  const { db, starter } = options;
  const leaseSeconds = options.leaseSeconds ?? 30;
  return startOutboxRelay({
    name: 'order event',
    claim: (limit) => claimOrderEventStarts(db, limit, leaseSeconds),
    start: (event) =>
      starter.start({
        sourceId: event.sourceId,
        eventId: event.id,
        summary: `${event.platform} order event ${event.id} (restarted by the relay)`,
      }),
    complete: (events) =>
      markOrderEventsStarted(
        db,
        events.map((e) => e.id),
      ),
    batchSize: 50,
    concurrency: 1,
    idleMs: options.intervalMs ?? 2_000,
    log: options.log,
  });
}
