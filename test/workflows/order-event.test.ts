import { describe, expect, it } from '@jest/globals';
import type { OrderEventState } from '../../src/domain/order-source';
import type { OrderFeedActivities } from '../../workflows/activities';
import type { orderEventWorkflow } from '../../workflows/order-event.workflow';
import { useWorkflowTestEnvironment, uniqueId, withWorker } from './support';

/** The order-event workflow on a real dev server, its activities typed in-memory fakes. */
const ctx = useWorkflowTestEnvironment();

function fakes(applied: { state: OrderEventState; process: boolean }, options: { failFirstApply?: boolean } = {}) {
  const calls: string[] = [];
  let applyAttempts = 0;
  const activities: OrderFeedActivities = {
    async applyOrderEvent({ eventId }) {
      calls.push(`apply ${eventId}`);
      // A transient fault (the database away): retried by the workflow's policy.
      if (options.failFirstApply && applyAttempts++ === 0) throw new Error('database unavailable');
      return applied;
    },
    async processOrderEvent({ eventId }) {
      calls.push(`process ${eventId}`);
      return { state: 'processed' };
    },
  };
  return { calls, activities };
}

const run = (taskQueue: string, eventId: number) =>
  ctx.env.client.workflow.execute<typeof orderEventWorkflow>('orderEventWorkflow', { workflowId: uniqueId('order-event'), taskQueue, args: [{ eventId }] });

describe('orderEventWorkflow', () => {
  it('drafts, then processes when the source asks for it', async () => {
    const { calls, activities } = fakes({ state: 'drafted', process: true });
    const result = await withWorker(ctx, activities, (tq) => run(tq, 7));
    expect(result).toEqual({ state: 'processed' });
    expect(calls).toEqual(['apply 7', 'process 7']);
  });

  it('stops at the draft without process, and after any other outcome', async () => {
    for (const applied of [
      { state: 'drafted', process: false },
      { state: 'failed', process: true },
      { state: 'duplicate', process: true },
      { state: 'cancelled', process: true },
    ] as const) {
      const { calls, activities } = fakes(applied);
      expect(await withWorker(ctx, activities, (tq) => run(tq, 8))).toEqual({ state: applied.state });
      expect(calls).toEqual(['apply 8']);
    }
  });

  it('retries a transient fault of the draft step', async () => {
    const { calls, activities } = fakes({ state: 'drafted', process: false }, { failFirstApply: true });
    expect(await withWorker(ctx, activities, (tq) => run(tq, 9))).toEqual({ state: 'drafted' });
    expect(calls).toEqual(['apply 9', 'apply 9']);
  });
});
