import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/database';
import { trackedProviders } from '../db/tracking.repository';
import type { TrackingPollerStarter } from './tracking-poller.starter';

/** How often the keeper looks for providers with consignments to track and no poller started by it. */
const LOOK_EVERY_MS = 5_000;
/** How long a poller this process made sure of is taken as running before the keeper makes sure (and wakes it) again. */
const TRUST_FOR_MS = 10 * 60_000;

export interface TrackingPollerKeeper {
  /** Consignments were handed to a carrier in this process: look now. */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * Runs where the worker runs: every provider with consignments in flight to track has its poller. Making sure of
 * one that runs wakes it (a round now, at this worker's interval), so a restarted worker's setting applies at once;
 * several workers may keep the same providers.
 */
export function startTrackingPollerKeeper(options: {
  db: Database;
  pollers: Pick<TrackingPollerStarter, 'ensure'>;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}): TrackingPollerKeeper {
  const ensuredAt = new Map<number, number>();
  let stopped = false;
  let wake: (() => void) | undefined;
  const look = async () => {
    for (const providerId of await trackedProviders(options.db)) {
      if (Date.now() - (ensuredAt.get(providerId) ?? 0) < TRUST_FOR_MS) continue;
      await options.pollers.ensure(providerId);
      ensuredAt.set(providerId, Date.now());
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await look().catch((error: unknown) => options.log?.warn({ err: error }, 'tracking pollers could not be checked; trying again'));
      const abort = new AbortController();
      wake = () => abort.abort();
      await sleep(LOOK_EVERY_MS, undefined, { signal: abort.signal }).catch(() => undefined);
    }
  })();
  return {
    nudge: () => wake?.(),
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
