import {
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { WebhookDeliveryActivities } from './activities';
import {
  deliverEventSignal,
  deliveryStateQuery,
  type DeliveryPolicy,
  type DeliveryState,
  type QueuedEvent,
  type WebhookDeliveryInput,
} from './webhook-delivery.messages';
import { doublingRetry } from './retry';

/** Bookkeeping on our own database: local, short, retried briefly. */
const BOOKKEEPING = { startToCloseTimeout: '10 seconds', retry: doublingRetry('200 ms', '5 seconds', 10) } as const;

/**
 * Delivery activities: each POST has connect 5 s + response 10 s at most; an activity that failed on its
 * first event is retried after initialInterval (5 s), doubling, at most 1 h apart, until `windowMs` (24 h)
 * has passed since it was scheduled. 2xx, 410 and a failure after delivered events end it (it returns).
 */
function deliveryAttempts(policy: DeliveryPolicy): ActivityOptions {
  return {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: policy.windowMs,
    retry: doublingRetry(policy.initialIntervalMs, '1 hour'),
  };
}

const DEFAULT_HISTORY_LIMIT = 2_000;

const queueKey = (e: QueuedEvent) => `${e.eventId}${e.redelivery ? ':redelivery' : ''}`;

/** Events one activity takes: a redelivery alone (it is sent even if delivered), else the leading run of others. */
const MAX_BATCH = 25;
function nextBatch(queue: QueuedEvent[]): QueuedEvent[] {
  if (queue[0].redelivery) return [queue[0]];
  const batch: QueuedEvent[] = [];
  for (const event of queue) {
    if (event.redelivery || batch.length === MAX_BATCH) break;
    batch.push(event);
  }
  return batch;
}

/**
 * Delivers the status events of one consignment to one webhook, in the order they were published (docs/webhooks.md): a FIFO queue fed by signals; an
 * event is sent only once the one before it was delivered.
 * One activity takes the events queued at that moment (each its own POST), so a backlog costs one activity,
 * not one per event. Ends when the queue is empty (the next event starts it again through signal-with-start), when
 * the webhook stops being active (410, deactivated, deleted), or when an event could not be delivered for
 * the whole retry window, which disables the webhook with the reason.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<DeliveryState> {
  const queue: QueuedEvent[] = [...(input.pending ?? [])];
  const queued = new Set(queue.map(queueKey));
  const state: DeliveryState = { pending: [], delivered: input.delivered ?? 0, outcome: 'running' };

  const attempts = proxyActivities<WebhookDeliveryActivities>(deliveryAttempts(input.policy));
  const bookkeeping = proxyLocalActivities<WebhookDeliveryActivities>(BOOKKEEPING);

  setHandler(deliverEventSignal, (event) => {
    // A publish retried after it had signalled already: the event is queued once.
    if (queued.has(queueKey(event))) return;
    queued.add(queueKey(event));
    queue.push(event);
  });
  setHandler(deliveryStateQuery, () => ({ ...state, pending: queue.map((e) => e.eventId) }));

  let batches = 0;
  for (;;) {
    while (queue.length > 0) {
      const info = workflowInfo();
      // At least one batch per run, so even a tiny limit makes progress.
      if (batches > 0 && (info.continueAsNewSuggested || info.historyLength >= (input.historyLimit ?? DEFAULT_HISTORY_LIMIT))) {
        await condition(allHandlersFinished);
        return continueAsNew<typeof webhookDeliveryWorkflow>({ ...input, pending: [...queue], delivered: state.delivered });
      }
      const batch = nextBatch(queue);
      batches++;
      let stop: string | undefined;
      try {
        const result = await attempts.deliverWebhookEvents({ webhookId: input.webhookId, events: batch });
        state.delivered += result.delivered;
        for (const event of queue.splice(0, result.completed)) queued.delete(queueKey(event));
        if (result.outcome === 'gone') stop = 'the endpoint answered 410 Gone: webhook disabled';
        else if (result.outcome === 'inactive') stop = 'the webhook is no longer active';
        // The event after the delivered ones failed: its own retry schedule starts with the first interval.
        else if (result.outcome === 'failed') await sleep(input.policy.initialIntervalMs);
      } catch (error) {
        if (isCancellation(error)) throw error; // an operator cancelled the workflow: not the endpoint's fault
        // The retry window ran out (or the attempt failed for good): the webhook is disabled, with the reason.
        await bookkeeping.disableFailingWebhook({ webhookId: input.webhookId, eventId: queue[0].eventId, windowMs: input.policy.windowMs });
        stop = 'delivery failed for the whole retry window: webhook disabled';
      }
      if (stop) {
        await condition(allHandlersFinished);
        return { outcome: 'stopped', stopReason: stop, delivered: state.delivered, pending: queue.map((e) => e.eventId) };
      }
    }
    // Idle: finish, unless a signal arrived in the same workflow task (checked once its handlers ran).
    await condition(allHandlersFinished);
    if (queue.length === 0) return { ...state, outcome: 'idle', pending: [] };
  }
}
