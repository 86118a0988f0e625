import type { Logger } from 'pino';
import type { Queryable } from '../db/database';
import { purgeExpiredIdempotencyKeys } from '../db/idempotency.repository';

/** How often the API process deletes expired Idempotency-Key claims (they live 24 h: an hour late is harmless). */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface IdempotencyPurge {
  /** one purge now: how many expired keys were deleted */
  run(): Promise<number>;
  stop(): void;
}

/**
 * Keeps `idempotency_keys` bounded: every API process purges the expired keys at start and then every
 * `intervalMs` (the DELETE is idempotent, so several API processes purging at once do no harm). A failed purge
 * is logged and tried again at the next tick; it never stops the process.
 */
export function startIdempotencyPurge(deps: { db: Queryable; intervalMs?: number; log?: Pick<Logger, 'info' | 'warn'> }): IdempotencyPurge {
  let running: Promise<number> | undefined;
  const run = (): Promise<number> =>
    (running ??= purgeExpiredIdempotencyKeys(deps.db)
      .then((deleted) => {
        if (deleted > 0) deps.log?.info({ deleted }, 'expired idempotency keys purged');
        return deleted;
      })
      .finally(() => (running = undefined)));
  const tick = () => void run().catch((err: unknown) => deps.log?.warn({ err }, 'idempotency key purge failed; trying again at the next interval'));
  const timer = setInterval(tick, deps.intervalMs ?? IDEMPOTENCY_PURGE_INTERVAL_MS);
  timer.unref();
  tick();
  return {
    run,
    stop: () => clearInterval(timer),
  };
}
