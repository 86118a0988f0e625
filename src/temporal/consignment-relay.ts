import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/database';
import { claimDraftStarts, completeDraftStarts, countDraftStarts, releaseDraftStarts, type DraftStart } from '../db/outbox.repository';
import { forEachLimit } from '../domain/concurrency';
import type { ConsignmentStarter } from './consignment.starter';

/** How long a paced relay waits before it looks at the engine's backlog again. */
const PACING_MS = 50;

export interface ConsignmentRelayOptions {
  db: Database;
  lifecycles: Pick<ConsignmentStarter, 'startDraft'> & Partial<Pick<ConsignmentStarter, 'workflowBacklog'>>;
  /**
   * The most workflow tasks the relay lets wait for a worker (default 100): it starts only as many workflows as
   * leave the engine's backlog below this (a brake on the engine's load; the server refreshes the figure every
   * few seconds). Without `lifecycles.workflowBacklog`, no brake.
   */
  maxBacklog?: number;
  /** How often the relay asks the engine for its backlog (default 1000 ms; the server refreshes it every few seconds anyway) */
  backlogReadMs?: number;
  /**
   * How long a created draft is left to its client before the relay starts its workflow (default 0). A draft
   * processed or changed within this time is started by that request (update-with-start) at the default
   * priority, ahead of the relay's starts, which run at a lower one: its request never waits behind them.
   */
  graceMs?: number;
  /** entries claimed per round (default 200) */
  batchSize?: number;
  /** workflow starts in flight (default 32) */
  concurrency?: number;
  /** how long an idle relay waits before it looks again, unless nudged (default 250 ms) */
  idleMs?: number;
  /** how long a claim holds: a relay that died mid-batch leaves its entries to others after it (default 30 s) */
  leaseSeconds?: number;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

export interface ConsignmentRelay {
  /** New entries were written in this process: look now instead of after the idle wait. */
  nudge(): void;
  /** Resolves once the outbox was found empty after this call (tests, benchmarks). */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The outbox relay (docs/architecture.md, principle 1): starts the workflows of created drafts from the
 * outbox in batches, then removes their entries. At least once: an entry is removed only after its start
 * succeeded, and a start that finds the workflow running (or closed) changes nothing, so a crash between
 * the two starts nothing twice. Runs where the worker runs; several relays share the outbox by leases.
 */
export function startConsignmentRelay(options: ConsignmentRelayOptions): ConsignmentRelay {
  const batchSize = options.batchSize ?? 200;
  const concurrency = options.concurrency ?? 32;
  const idleMs = options.idleMs ?? 250;
  const leaseSeconds = options.leaseSeconds ?? 30;
  const maxBacklog = options.maxBacklog ?? 100;
  const graceSeconds = (options.graceMs ?? 0) / 1000;
  const backlogReadMs = options.backlogReadMs ?? 1000;
  /** The engine's backlog as last read (the relay asks at most once every backlogReadMs). */
  let lastBacklog = { at: Number.NEGATIVE_INFINITY, value: 0 };
  /** How many entries this round may start: the room the engine's backlog leaves (all when it is not known). */
  const room = async (): Promise<number> => {
    if (!options.lifecycles.workflowBacklog) return batchSize;
    if (performance.now() - lastBacklog.at >= backlogReadMs) {
      lastBacklog = { at: performance.now(), value: await options.lifecycles.workflowBacklog().catch(() => 0) };
    }
    return Math.min(batchSize, Math.max(0, maxBacklog - lastBacklog.value));
  };
  let stopped = false;
  let wake: (() => void) | undefined;
  /** Callers of drained(), each with the round after which an empty one counts. */
  let waiters: { after: number; resolve: () => void }[] = [];
  let rounds = 0;

  /** One round: claim, start, complete. How many entries it claimed; 'paced' when the engine had no room. */
  const round = async (): Promise<number | 'paced'> => {
    const limit = await room();
    if (limit === 0) return 'paced';
    const claimed = await claimDraftStarts(options.db, limit, leaseSeconds, graceSeconds);
    if (claimed.length === 0) return 0;
    const started: number[] = [];
    const failed: DraftStart[] = [];
    let firstError: unknown;
    await forEachLimit(claimed, concurrency, async (draft) => {
      try {
        await options.lifecycles.startDraft(draft);
        started.push(draft.id);
      } catch (error) {
        failed.push(draft);
        firstError ??= error;
      }
    });
    await completeDraftStarts(options.db, started);
    if (failed.length) {
      // Claimable again at once: the engine may be back by the next round.
      await releaseDraftStarts(
        options.db,
        failed.map((d) => d.id),
      );
      throw firstError;
    }
    return claimed.length;
  };

  const loop = (async () => {
    let backoffMs = idleMs;
    while (!stopped) {
      let claimed: number | 'paced' = 0;
      const thisRound = ++rounds;
      try {
        claimed = await round();
        backoffMs = idleMs;
        if (claimed === 'paced') {
          // The engine is busy with workflow tasks already: look again shortly, not after the idle wait.
          await sleep(PACING_MS);
          continue;
        }
      } catch (error) {
        if (stopped) break;
        options.log?.warn({ err: error, retryInMs: backoffMs }, 'consignment relay: starting workflows failed; retrying');
        await sleep(backoffMs);
        backoffMs = Math.min(backoffMs * 2, 10_000);
        continue;
      }
      if (claimed > 0) continue;
      // Nothing claimable; with a grace time, entries too young to claim may still be queued.
      const empty = waiters.length > 0 && (graceSeconds === 0 || (await countDraftStarts(options.db).catch(() => 1)) === 0);
      if (empty) {
        for (const w of waiters) if (w.after < thisRound) w.resolve();
        waiters = waiters.filter((w) => w.after >= thisRound);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waiters.length > 0 && graceSeconds > 0 ? Math.min(idleMs, 50) : idleMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    nudge: () => wake?.(),
    drained: () =>
      new Promise<void>((resolve) => {
        waiters.push({ after: rounds, resolve });
        wake?.();
      }),
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      for (const w of waiters) w.resolve();
    },
  };
}
