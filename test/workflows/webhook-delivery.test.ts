import { describe, expect, it } from '@jest/globals';
import type { WebhookDeliveryActivities } from '../../workflows/activities';
import {
  deliverEventSignal,
  deliveryStateQuery,
  type DeliveryBatchResult,
  type DeliveryPolicy,
  type QueuedEvent,
  type WebhookDeliveryInput,
} from '../../workflows/webhook-delivery.messages';
import type { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.workflow';
import { Gate, historyEventTypes, useWorkflowTestEnvironment, uniqueId, waitFor, withWorker } from './support';

/** Webhook delivery on a real dev server; the POSTs are a typed fake that fails, answers or delivers as each test says. */
const ctx = useWorkflowTestEnvironment();

const WEBHOOK_ID = 11;
const FAST: DeliveryPolicy = { initialIntervalMs: 100, windowMs: 60_000 };

/**
 * The delivery activities as fakes. `answer(batch, call)` decides each activity attempt: throw to fail it (the
 * activity is retried), or return the batch result; by default every event of the batch is delivered.
 * `delivered` is what reached the endpoint, in order.
 */
function deliveryFakes(
  answer: (batch: string[], call: number) => Promise<DeliveryBatchResult | undefined> | DeliveryBatchResult | undefined = () => undefined,
) {
  const attempts: string[][] = [];
  const delivered: string[] = [];
  const disabled: { webhookId: number; eventId: string; windowMs: number }[] = [];
  const webhookIds = new Set<number>();
  const fakes: WebhookDeliveryActivities = {
    async deliverWebhookEvents({ webhookId, events }) {
      webhookIds.add(webhookId);
      const batch = events.map((e) => e.eventId);
      attempts.push(batch);
      const result = (await answer(batch, attempts.length)) ?? { completed: batch.length, delivered: batch.length, outcome: 'done' };
      delivered.push(...batch.slice(0, result.delivered));
      return result;
    },
    async disableFailingWebhook(request) {
      disabled.push(request);
    },
  };
  return { attempts, delivered, disabled, webhookIds, fakes };
}

function input(policy: DeliveryPolicy, pending?: QueuedEvent[]): WebhookDeliveryInput {
  return { webhookId: WEBHOOK_ID, publicId: 'wh_test', consignmentId: 1001, policy, ...(pending && { pending }) };
}

/** Queues an event the way the service does: signal-with-start of the webhook × consignment workflow. */
function enqueue(workflowId: string, taskQueue: string, policy: DeliveryPolicy, eventId: string) {
  return ctx.env.client.workflow.signalWithStart<typeof webhookDeliveryWorkflow, [QueuedEvent]>('webhookDeliveryWorkflow', {
    workflowId,
    taskQueue,
    args: [input(policy)],
    signal: deliverEventSignal,
    signalArgs: [{ eventId }],
  });
}

describe('webhook delivery workflow', () => {
  it('retries the first event until it is delivered, and sends the next ones only after it, each once', async () => {
    const connecting = new Gate();
    const { attempts, delivered, webhookIds, fakes } = deliveryFakes(async (_batch, call) => {
      if (call === 1) await connecting.wait(); // until e2 and e3 are queued
      if (call <= 3) throw new Error(`connect ECONNREFUSED (attempt ${call})`);
      return undefined;
    });
    await withWorker(
      ctx,
      fakes,
      async (taskQueue) => {
        const workflowId = uniqueId('webhook-delivery');
        const handle = await enqueue(workflowId, taskQueue, FAST, 'e1');
        await waitFor('the first attempt', () => connecting.waiting === 1);
        await enqueue(workflowId, taskQueue, FAST, 'e2');
        await enqueue(workflowId, taskQueue, FAST, 'e3');
        expect((await handle.query(deliveryStateQuery)).pending).toEqual(['e1', 'e2', 'e3']);
        connecting.open();

        expect(await handle.result()).toEqual({ outcome: 'idle', delivered: 3, pending: [] });
        // Three failed attempts and the successful one carry e1 alone; e2 and e3 follow in one batch.
        expect(attempts).toEqual([['e1'], ['e1'], ['e1'], ['e1'], ['e2', 'e3']]);
        expect(delivered).toEqual(['e1', 'e2', 'e3']);
        expect([...webhookIds]).toEqual([WEBHOOK_ID]);
      },
      { onStop: () => connecting.open() },
    );
  });

  it("retries the rest in order after a 'failed' batch (an event failed after others were delivered)", async () => {
    const { attempts, delivered, fakes } = deliveryFakes((_batch, call) => (call === 1 ? { completed: 1, delivered: 1, outcome: 'failed' } : undefined));
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await ctx.env.client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
        workflowId: uniqueId('webhook-delivery'),
        taskQueue,
        args: [input(FAST, [{ eventId: 'e1' }, { eventId: 'e2' }, { eventId: 'e3' }])],
      });
      expect(await handle.result()).toEqual({ outcome: 'idle', delivered: 3, pending: [] });
      expect(attempts).toEqual([
        ['e1', 'e2', 'e3'],
        ['e2', 'e3'],
      ]);
      expect(delivered).toEqual(['e1', 'e2', 'e3']);
      // The failed event got its own retry schedule: the first interval was waited before the next batch.
      const history = await historyEventTypes(handle);
      expect(history.filter((t) => t === 'timerFired')).toHaveLength(1);
    });
  });

  it("stops at 410 Gone: outcome 'stopped', the rest not sent", async () => {
    const { attempts, delivered, disabled, fakes } = deliveryFakes(() => ({ completed: 1, delivered: 1, outcome: 'gone' }));
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await ctx.env.client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
        workflowId: uniqueId('webhook-delivery'),
        taskQueue,
        args: [input(FAST, [{ eventId: 'e1' }, { eventId: 'e2' }, { eventId: 'e3' }])],
      });
      expect(await handle.result()).toEqual({
        outcome: 'stopped',
        stopReason: 'the endpoint answered 410 Gone: webhook disabled',
        delivered: 1,
        pending: ['e2', 'e3'],
      });
      expect(attempts).toEqual([['e1', 'e2', 'e3']]);
      expect(delivered).toEqual(['e1']);
      expect(disabled).toEqual([]);
    });
  });

  it('disables the webhook when the first event fails for the whole retry window', async () => {
    const policy: DeliveryPolicy = { initialIntervalMs: 200, windowMs: 1500 };
    const { attempts, delivered, disabled, fakes } = deliveryFakes(() => {
      throw new Error('503 Service Unavailable');
    });
    await withWorker(ctx, fakes, async (taskQueue) => {
      const handle = await ctx.env.client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
        workflowId: uniqueId('webhook-delivery'),
        taskQueue,
        args: [input(policy, [{ eventId: 'e1' }, { eventId: 'e2' }])],
      });
      expect(await handle.result()).toEqual({
        outcome: 'stopped',
        stopReason: 'delivery failed for the whole retry window: webhook disabled',
        delivered: 0,
        pending: ['e1', 'e2'],
      });
      expect(disabled).toEqual([{ webhookId: WEBHOOK_ID, eventId: 'e1', windowMs: 1500 }]);
      expect(attempts.length).toBeGreaterThan(1);
      expect(attempts.every((batch) => batch.join() === 'e1,e2')).toBe(true);
      expect(delivered).toEqual([]);
    });
  });
});
