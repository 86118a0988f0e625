import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/database';
import { claimOrderEventStarts, markOrderEventsStarted } from '../db/order-sources.repository';
import type { OrderEventStarter } from './order-event.starter';

export interface OrderEventRelay {
  stop(): Promise<void>;
}

/**
 * Starts the workflows of order events whose receiving request could not (Temporal away, or the process died
 * between the commit and the start): the event row is its own outbox entry (`start_pending`), claimed with a
 * lease, so relays on several workers share the work. Runs where the worker runs. At least once: starting is
 * idempotent (deterministic workflow id).
 */
export function startOrderEventRelay(options: {
  db: Database;
  starter: Pick<OrderEventStarter, 'start'>;
  intervalMs?: number;
  leaseSeconds?: number;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}): OrderEventRelay {
  const intervalMs = options.intervalMs ?? 2_000;
  const leaseSeconds = options.leaseSeconds ?? 30;
  let stopped = false;
  const stop = new AbortController();
  const loop = (async () => {
    while (!stopped) {
      try {
        const claimed = await claimOrderEventStarts(options.db, 50, leaseSeconds);
        const started: number[] = [];
        for (const event of claimed) {
          await options.starter.start({
            sourceId: event.sourceId,
            eventId: event.id,
            summary: `${event.platform} order event ${event.id} (restarted by the relay)`,
          });
          started.push(event.id);
        }
        await markOrderEventsStarted(options.db, started);
        if (claimed.length > 0) continue;
      } catch (error) {
        if (stopped) break;
        options.log?.warn({ err: error }, 'order event relay: starting workflows failed; retrying');
      }
      await sleep(intervalMs, undefined, { signal: stop.signal }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      stopped = true;
      stop.abort();
      await loop;
    },
  };
}
