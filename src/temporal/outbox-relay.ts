import { setTimeout as sleep } from 'node:timers/promises';

/** How long a relay waits when it expects work soon: `room` was 0, or entries too young to claim are awaited. */
const SOON_MS = 50;

/**
 * One outbox: entries committed with the rows they stand for, each waiting for a workflow start. The relay
 * claims entries under a lease (so relays on several workers share the outbox and a relay that dies leaves
 * its entries to the others when the lease runs out), starts their workflows, then completes them.
 */
export interface OutboxRelayOptions<Entry> {
  /** Names the relay in its log lines ("<name> relay: …"). */
  name: string;
  /** Claims up to `limit` entries, oldest first, under a lease; none when nothing is claimable. */
  claim(limit: number): Promise<Entry[]>;
  /** Starts an entry's workflow. Must be idempotent: an entry may come round again after a crash. */
  start(entry: Entry): Promise<unknown>;
  /** Removes (or marks done) the entries whose workflows started. */
  complete(entries: Entry[]): Promise<void>;
  /**
   * Gives back claimed entries that were not started (a start failed): claimable again at once. Without it,
   * they wait for their lease to run out.
   */
  release?(entries: Entry[]): Promise<void>;
  /**
   * How many entries are queued, claimed or not. Given when entries must reach a minimum age before they can be
   * claimed: `drained()` then also waits for the ones too young to claim.
   */
  queued?(): Promise<number>;
  /**
   * How many entries the next round may claim (at most `batchSize`): a brake for the engine's load. At 0 the
   * relay asks again shortly instead of after the idle wait. Without it, always `batchSize`.
   */
  room?(): Promise<number>;
  /** entries claimed per round (default 200) */
  batchSize?: number;
  /** starts in flight (default 32) */
  concurrency?: number;
  /** how long an idle relay waits before it looks again, unless nudged; also the first wait after a failure (default 250 ms) */
  idleMs?: number;
  /** the longest wait after failed rounds, which double it each time (default 10 s) */
  maxBackoffMs?: number;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

export interface OutboxRelay {
  /** New entries were written in this process: look now instead of after the idle wait. */
  nudge(): void;
  /** Resolves once the outbox was found empty after this call (tests, benchmarks). */
  drained(): Promise<void>;
  /** Lets the round in flight finish (its starts, completions and releases), then ends the loop. */
  stop(): Promise<void>;
}

/**
 * Runs one outbox's relay: rounds of claim, start, complete, release, one after another while there is work;
 * an idle wait (cut short by `nudge`) when there is none; a doubling wait after a failed round. At least once:
 * an entry is completed only after its start succeeded, so a crash between the two starts it again, which
 * `start` makes harmless.
 */
export function startOutboxRelay<Entry>(options: OutboxRelayOptions<Entry>): OutboxRelay {
  const batchSize = options.batchSize ?? 200;
  const concurrency = Math.max(1, options.concurrency ?? 32);
  const idleMs = options.idleMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const stopping = new AbortController();
  let wake: (() => void) | undefined;
  /** Nudged (or asked for drained()) since the round began: the idle wait after it is skipped. */
  let nudged = false;
  /** Callers of drained(), each with the round after which an empty one counts. */
  let waiters: { after: number; resolve: () => void }[] = [];
  let rounds = 0;

  /** Waits `ms`, or less when the relay stops (or, if `wakeable`, when nudged). */
  const pause = async (ms: number, wakeable: boolean) => {
    if (!wakeable) return sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);
    if (nudged) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
      if (stopping.signal.aborted) wake();
    });
    wake = undefined;
  };

  /**
   * Starts the entries, `concurrency` at a time. After the first failure no new start begins (those in flight
   * end): a failed start is most often the engine being away, and the rest of the batch would only wait out
   * the same failure one by one. What did not start is given back (`release`), or else waits for its lease.
   */
  const startAll = async (claimed: Entry[]): Promise<void> => {
    const started: Entry[] = [];
    let failure: { error: unknown } | undefined;
    let next = 0;
    const lane = async () => {
      while (next < claimed.length && !failure) {
        const entry = claimed[next++];
        try {
          await options.start(entry);
          started.push(entry);
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, lane));
    if (started.length > 0) await options.complete(started);
    if (!failure) return;
    if (options.release) {
      const done = new Set(started);
      await options.release(claimed.filter((entry) => !done.has(entry)));
    }
    throw failure.error;
  };

  /** One round: how many entries it claimed; 'paced' when `room` allowed none. */
  const round = async (): Promise<number | 'paced'> => {
    const limit = options.room ? Math.min(batchSize, await options.room()) : batchSize;
    if (limit <= 0) return 'paced';
    const claimed = await options.claim(limit);
    if (claimed.length > 0) await startAll(claimed);
    return claimed.length;
  };

  /** An empty round ended: the waiters that came before it are answered, unless young entries still wait. */
  const answerWaiters = async (thisRound: number) => {
    if (waiters.length === 0) return;
    if (options.queued && (await options.queued().catch(() => 1)) > 0) return;
    for (const w of waiters) if (w.after < thisRound) w.resolve();
    waiters = waiters.filter((w) => w.after >= thisRound);
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      const thisRound = ++rounds;
      nudged = false;
      let claimed: number | 'paced';
      try {
        claimed = await round();
        failures = 0;
      } catch (error) {
        if (stopping.signal.aborted) break;
        const retryInMs = Math.min(idleMs * 2 ** failures, maxBackoffMs);
        failures++;
        options.log?.warn({ err: error, retryInMs }, `${options.name} relay: starting workflows failed; retrying`);
        // Not cut short by nudges: new entries must not bring back a failing engine's load at once.
        await pause(retryInMs, false);
        continue;
      }
      if (claimed === 'paced') {
        await pause(SOON_MS, false);
        continue;
      }
      if (claimed > 0) continue;
      await answerWaiters(thisRound);
      if (stopping.signal.aborted) break;
      // While someone waits for young entries to come of age, look more often than when idle.
      await pause(waiters.length > 0 && options.queued ? Math.min(idleMs, SOON_MS) : idleMs, true);
    }
    for (const w of waiters) w.resolve();
  })();

  const nudge = () => {
    nudged = true;
    wake?.();
  };
  return {
    nudge,
    drained: () =>
      new Promise<void>((resolve) => {
        if (stopping.signal.aborted) return resolve();
        waiters.push({ after: rounds, resolve });
        nudge();
      }),
    async stop() {
      stopping.abort();
      wake?.();
      await loop;
    },
  };
}
