import { describe, expect, it } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import type { TrackingActivities, TrackingRound } from '../../workflows/activities';
import { trackingPollerStateQuery } from '../../workflows/tracking-poller.messages';
import type { trackingPollerWorkflow } from '../../workflows/tracking-poller.workflow';
import { uniqueId, useWorkflowTestEnvironment, waitFor, withWorker } from './support';

/**
 * A carrier account's tracking poller on a real dev server, its round faked: rounds follow what is due, a
 * failed round is recorded once and slows the poller (never a consignment), the carrier's rate limit is waited
 * out without counting as a failure, and the poller ends with its account.
 */
const ctx = useWorkflowTestEnvironment();

const ROUND: TrackingRound = { gone: false, asked: 3, requests: 1, changed: 1, failed: 0, nextDueInMs: 200 };

function roundFakes(answer: (n: number) => TrackingRound | Error) {
  const rounds: number[] = [];
  const failures: Parameters<TrackingActivities['recordTrackingRoundFailure']>[0][] = [];
  const fakes: TrackingActivities = {
    async trackingRound() {
      rounds.push(Date.now());
      const a = answer(rounds.length);
      if (a instanceof Error) throw a;
      return a;
    },
    async recordTrackingRoundFailure(failure) {
      failures.push(failure);
    },
  };
  return { rounds, failures, fakes };
}

const start = (taskQueue: string, input: { intervalMs: number; historyLimit?: number }) =>
  ctx.env.client.workflow.start<typeof trackingPollerWorkflow>('trackingPollerWorkflow', {
    workflowId: uniqueId('tracking-poller'),
    taskQueue,
    args: [{ providerId: 1001, ...input }],
  });

describe('tracking poller workflow', () => {
  it('asks again when the next consignment is due, at most a third of the interval later, and continues as new', async () => {
    const { rounds, fakes } = roundFakes(() => ROUND);
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await start(taskQueue, { intervalMs: 60_000, historyLimit: 40 });
      await waitFor('rounds past a continue-as-new', () => rounds.length >= 8, { timeoutMs: 20_000 });
      const gaps = rounds.slice(1).map((t, i) => t - rounds[i]);
      // nextDueInMs 200 ms, but never closer than a second apart.
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900);
      expect((await handle.describe()).runId).not.toBe(handle.firstExecutionRunId);
      expect((await handle.query(trackingPollerStateQuery)).lastRound).toMatchObject({ asked: 3, requests: 1, changed: 1 });
      await handle.terminate();
    });
  }, 30_000);

  it('records a failed round once for the account and waits twice as long after each, then resets on success', async () => {
    const refusal = ApplicationFailure.create({ message: 'DHL Express refused the credentials (HTTP 401)', type: 'CARRIER_REFUSED', nonRetryable: true });
    const { rounds, failures, fakes } = roundFakes((n) => (n <= 2 ? refusal : ROUND));
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await start(taskQueue, { intervalMs: 500 });
      await waitFor('a round after two failed', () => rounds.length >= 3, { timeoutMs: 20_000 });
      expect(failures.map((f) => [f.failures, f.retryInMs, f.refused])).toEqual([
        [1, 1_000, true],
        [2, 2_000, true],
      ]);
      // One run of failures: both carry its start, which keys their history entries.
      expect(failures[1].since).toBe(failures[0].since);
      expect(rounds[2] - rounds[1]).toBeGreaterThanOrEqual(1_900);
      expect(await handle.query(trackingPollerStateQuery)).toMatchObject({ failures: 0 });
      await handle.terminate();
    });
  }, 30_000);

  it('waits out the carrier’s rate limit without counting it as a failure', async () => {
    const busy = ApplicationFailure.create({ message: 'rate limited', type: 'CARRIER_BUSY', nonRetryable: true, details: [{ retryAfterMs: 1_500 }] });
    const { rounds, failures, fakes } = roundFakes((n) => (n === 1 ? busy : ROUND));
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await start(taskQueue, { intervalMs: 600_000 });
      await waitFor('the round after the wait', () => rounds.length >= 2, { timeoutMs: 20_000 });
      expect(rounds[1] - rounds[0]).toBeGreaterThanOrEqual(1_400);
      expect(failures).toEqual([]);
      await handle.terminate();
    });
  }, 30_000);

  it('ends when its provider has no carrier any more (the account is gone)', async () => {
    const { fakes } = roundFakes(() => ({ ...ROUND, gone: true }));
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await start(taskQueue, { intervalMs: 1_000 });
      await handle.result();
      expect((await handle.describe()).status.name).toBe('COMPLETED');
    });
  });
});
