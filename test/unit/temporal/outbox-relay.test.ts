import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { startOutboxRelay, type OutboxRelayOptions } from '../../../src/temporal/outbox-relay';

/**
 * The relay's loop on an outbox in memory: what it claims, starts, completes and gives back, how it waits
 * after failures, and how it stops. The two real outboxes (consignment drafts, order events) are tested on
 * real databases and Temporal in test/integration/outbox.test.ts and order-feeds.test.ts.
 */

/** An outbox in memory: claimed entries stay claimed (a lease that never runs out) until completed or released. */
function memoryOutbox(ids: number[]) {
  const queued = new Map(ids.map((id) => [id, { claimed: false }]));
  const calls = { claims: [] as number[][], completed: [] as number[][], released: [] as number[][] };
  return {
    queued,
    calls,
    add: (id: number) => queued.set(id, { claimed: false }),
    claim: async (limit: number) => {
      const claimed = [...queued].filter(([, e]) => !e.claimed).slice(0, limit);
      for (const [, e] of claimed) e.claimed = true;
      calls.claims.push(claimed.map(([id]) => id));
      return claimed.map(([id]) => id);
    },
    complete: async (done: number[]) => {
      calls.completed.push(done);
      for (const id of done) queued.delete(id);
    },
    release: async (back: number[]) => {
      calls.released.push(back);
      for (const id of back) queued.get(id)!.claimed = false;
    },
  };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Polls until `check` holds (or fails the test after two seconds). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await sleep(10);
  expect(check()).toBe(true);
}

function relayOf(outbox: ReturnType<typeof memoryOutbox>, overrides: Partial<OutboxRelayOptions<number>> = {}) {
  const warnings: Record<string, unknown>[] = [];
  const started: number[] = [];
  const relay = startOutboxRelay<number>({
    name: 'test',
    claim: outbox.claim,
    start: async (id) => void started.push(id),
    complete: outbox.complete,
    release: outbox.release,
    idleMs: 20,
    log: { warn: (fields) => void warnings.push(fields) },
    ...overrides,
  });
  return { relay, started, warnings };
}

describe('the outbox relay', () => {
  it('claims batch after batch until the outbox is empty, completing what it started', async () => {
    const outbox = memoryOutbox(range(25));
    const { relay, started } = relayOf(outbox, { batchSize: 10, concurrency: 3 });
    try {
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(started.sort((a, b) => a - b)).toEqual(range(25));
    expect(outbox.queued.size).toBe(0);
    expect(outbox.calls.claims.slice(0, 3).map((c) => c.length)).toEqual([10, 10, 5]);
    expect(outbox.calls.completed.map((c) => c.length)).toEqual([10, 10, 5]);
    expect(outbox.calls.released).toEqual([]);
  });

  it('after a failed start begins no other start of the round, gives back what did not start, and retries', async () => {
    const outbox = memoryOutbox(range(6));
    let failing = true;
    const attempted: number[] = [];
    const { relay, started, warnings } = relayOf(outbox, {
      concurrency: 1,
      start: async (id) => {
        attempted.push(id);
        if (id === 3 && failing) throw new Error('engine away');
        started.push(id);
      },
    });
    try {
      await until(() => warnings.length === 1);
      // 1 and 2 started and completed; 3 failed; 4 to 6 were not tried against the failing engine.
      expect(attempted).toEqual([1, 2, 3]);
      expect(outbox.calls.completed).toEqual([[1, 2]]);
      expect(outbox.calls.released).toEqual([[3, 4, 5, 6]]);
      failing = false;
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(started).toEqual(range(6));
    expect(outbox.queued.size).toBe(0);
  });

  it('without a release, entries whose start failed stay claimed (their lease gives them back)', async () => {
    const outbox = memoryOutbox(range(3));
    const { relay, warnings } = relayOf(outbox, {
      release: undefined,
      start: async (id) => {
        if (id === 2) throw new Error('engine away');
      },
      concurrency: 1,
    });
    try {
      await until(() => warnings.length === 1 && outbox.calls.claims.length >= 3);
    } finally {
      await relay.stop();
    }
    expect(outbox.calls.completed).toEqual([[1]]);
    expect([...outbox.queued].map(([id, e]) => [id, e.claimed])).toEqual([
      [2, true],
      [3, true],
    ]);
    // Later rounds find nothing claimable: the failed entries are never retried before their lease runs out.
    expect(outbox.calls.claims.slice(1).every((c) => c.length === 0)).toBe(true);
  });

  it('backs off after failed rounds, doubling its wait up to the maximum, and starts over after a good one', async () => {
    const outbox = memoryOutbox([1, 2]);
    // Five failed rounds, a good one (it claims 1), one more failed, then good ones.
    const script = ['fail', 'fail', 'fail', 'fail', 'fail', 'ok', 'fail'];
    const { relay, warnings } = relayOf(outbox, {
      idleMs: 5,
      maxBackoffMs: 40,
      batchSize: 1,
      claim: async (limit) => {
        if (script.shift() === 'fail') throw new Error('database away');
        return outbox.claim(limit);
      },
    });
    try {
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(warnings.map((w) => w.retryInMs)).toEqual([5, 10, 20, 40, 40, 5]);
    expect(warnings.every((w) => (w.err as Error).message === 'database away')).toBe(true);
    expect(outbox.queued.size).toBe(0);
  });

  it('stops with a start in flight: waits for it, completes it, and claims nothing after', async () => {
    const outbox = memoryOutbox(range(3));
    let finish!: () => void;
    const inFlight = new Promise<void>((resolve) => (finish = resolve));
    const { relay } = relayOf(outbox, { concurrency: 3, start: (id) => (id === 2 ? inFlight : Promise.resolve()) });
    await until(() => outbox.calls.claims.length === 1);
    let stopped = false;
    const stopping = relay.stop().then(() => (stopped = true));
    await sleep(30);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(outbox.calls.completed).toEqual([[1, 3, 2]]);
    expect(outbox.calls.claims).toHaveLength(1);
    expect(outbox.queued.size).toBe(0);
  });

  it('stops at once while it waits: idle, or backing off after a failure', async () => {
    const idle = relayOf(memoryOutbox([]), { idleMs: 60_000 });
    await idle.relay.drained();
    let at = Date.now();
    await idle.relay.stop();
    expect(Date.now() - at).toBeLessThan(1000);

    const failing = relayOf(memoryOutbox([1]), {
      idleMs: 60_000,
      start: async () => {
        throw new Error('engine away');
      },
    });
    await until(() => failing.warnings.length === 1);
    at = Date.now();
    await failing.relay.stop();
    expect(Date.now() - at).toBeLessThan(1000);
    // drained() of a stopped relay does not wait for a loop that no longer runs.
    await failing.relay.drained();
  });

  it('an idle relay looks again at once when nudged, not after its idle wait', async () => {
    const outbox = memoryOutbox([]);
    const { relay, started } = relayOf(outbox, { idleMs: 60_000 });
    try {
      await relay.drained();
      outbox.add(7);
      relay.nudge();
      await until(() => started.length === 1);
    } finally {
      await relay.stop();
    }
    expect(started).toEqual([7]);
  });

  it('claims no more than its room allows, and nothing while the room is 0', async () => {
    const outbox = memoryOutbox(range(5));
    let room = 0;
    let asked = 0;
    const { relay, started } = relayOf(outbox, { room: async () => (asked++, room) });
    try {
      await until(() => asked >= 3);
      expect(outbox.calls.claims).toEqual([]);
      room = 2;
      await until(() => started.length >= 2);
      expect(outbox.calls.claims[0]).toEqual([1, 2]);
      room = 100;
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(started).toEqual(range(5));
  });

  it('with entries too young to claim, drained() waits until none is queued', async () => {
    const outbox = memoryOutbox([]);
    // An entry that becomes claimable only after a while (its minimum age).
    const young = { id: 9, claimableAt: Date.now() + 150 };
    const { relay, started } = relayOf(outbox, {
      idleMs: 60_000,
      claim: async (limit) => {
        if (Date.now() >= young.claimableAt && !outbox.queued.has(young.id) && started.length === 0) outbox.add(young.id);
        return outbox.claim(limit);
      },
      queued: async () => (started.includes(young.id) ? outbox.queued.size : 1),
    });
    try {
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(started).toEqual([9]);
    expect(Date.now()).toBeGreaterThanOrEqual(young.claimableAt);
  });
});
