import { performance } from 'node:perf_hooks';
import type { Database } from '../db/database';
import { claimDraftStarts, completeDraftStarts, countDraftStarts, releaseDraftStarts, type DraftStart } from '../db/outbox.repository';
import type { ConsignmentStarter } from './consignment.starter';
import { startOutboxRelay, type OutboxRelay } from './outbox-relay';

export interface ConsignmentRelayOptions {
  db: Database;
  consignmentStarter: Pick<ConsignmentStarter, 'startDraft'> & Partial<Pick<ConsignmentStarter, 'workflowBacklog'>>;
  /**
   * The most workflow tasks the relay lets wait for a worker (default 100): it starts only as many workflows as
   * leave the engine's backlog below this (a brake on the engine's load; the server refreshes the figure every
   * few seconds). Without `consignmentStarter.workflowBacklog`, no brake.
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

export type ConsignmentRelay = OutboxRelay;

/**
 * The consignment outbox's relay (docs/architecture.md, principle 1): starts the workflows of created drafts
 * in batches, then removes their entries; a start that finds the workflow running (or closed) changes nothing.
 * Failed starts are given back at once: the engine may be back by the next round. Runs where the worker runs.
 */
export function startConsignmentRelay(options: ConsignmentRelayOptions): ConsignmentRelay {
  const { db, consignmentStarter } = options;
  const batchSize = options.batchSize ?? 200;
  const leaseSeconds = options.leaseSeconds ?? 30;
  const maxBacklog = options.maxBacklog ?? 100;
  const graceSeconds = (options.graceMs ?? 0) / 1000;
  const backlogReadMs = options.backlogReadMs ?? 1000;
  /** The engine's backlog as last read (the relay asks at most once every backlogReadMs). */
  let lastBacklog = { at: Number.NEGATIVE_INFINITY, value: 0 };
  const workflowBacklog = consignmentStarter.workflowBacklog?.bind(consignmentStarter);
  const ids = (drafts: DraftStart[]) => drafts.map((d) => d.id);
  return startOutboxRelay<DraftStart>({
    name: 'consignment',
    claim: (limit) => claimDraftStarts(db, limit, leaseSeconds, graceSeconds),
    start: (draft) => consignmentStarter.startDraft(draft),
    complete: (drafts) => completeDraftStarts(db, ids(drafts)),
    release: (drafts) => releaseDraftStarts(db, ids(drafts)),
    // With a grace time, entries too young to claim may still be queued.
    queued: graceSeconds > 0 ? () => countDraftStarts(db) : undefined,
    /** The room the engine's backlog leaves (all of a batch when it is not known). */
    room: workflowBacklog
      ? async () => {
          if (performance.now() - lastBacklog.at >= backlogReadMs) {
            lastBacklog = { at: performance.now(), value: await workflowBacklog().catch(() => 0) };
          }
          return Math.max(0, maxBacklog - lastBacklog.value);
        }
      : undefined,
    batchSize,
    concurrency: options.concurrency,
    idleMs: options.idleMs,
    log: options.log,
  });
}
