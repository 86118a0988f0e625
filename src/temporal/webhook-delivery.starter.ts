import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { SA } from '../../workflows/search-attributes';
import { deliverEventSignal, type DeliveryPolicy } from '../../workflows/webhook-delivery.messages';
import type { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.workflow';

const WORKFLOW_TYPE = 'webhookDeliveryWorkflow';

/** One delivery queue per webhook and consignment: the consignment's events reach that webhook in order. */
export const webhookDeliveryWorkflowId = (webhookId: string, consignmentId: number): string => `webhook-delivery:${webhookId}:${consignmentId}`;

export interface DeliveryTarget {
  /** internal id */
  id: number;
  /** public `wh_…` id */
  webhookId: string;
}

export interface WebhookDeliveryStarter {
  /**
   * Queues one event for one webhook: signal-with-start of the webhook × consignment delivery workflow,
   * so the events of a consignment reach the webhook in the order they are queued.
   */
  enqueue(request: { webhook: DeliveryTarget; customerCode: string; consignmentId: number; eventId: string; redelivery?: boolean }): Promise<void>;
  /**
   * When the delivery queue of this webhook and consignment next tries its first undelivered event (the pending
   * attempt's retry time), or undefined when nothing waits for a retry.
   */
  nextAttempt(webhookId: string, consignmentId: number): Promise<Date | undefined>;
}

/**
 * Deliveries are background work: below the priority of work a caller waits for (3), as the relay's starts and
 * status-event publishing are, and above tracking rounds (5). A workflow keeps the priority it started with.
 */
const DELIVERY_PRIORITY = { priorityKey: 4 };

/** How webhook delivery workflows are started and fed: the only code that does. */
export function createWebhookDeliveryStarter(deps: { client: Client; taskQueue: string; policy: DeliveryPolicy }): WebhookDeliveryStarter {
  return {
    async enqueue({ webhook, customerCode, consignmentId, eventId, redelivery = false }) {
      await deps.client.workflow.signalWithStart<typeof webhookDeliveryWorkflow, [{ eventId: string; redelivery?: boolean }]>(WORKFLOW_TYPE, {
        workflowId: webhookDeliveryWorkflowId(webhook.webhookId, consignmentId),
        taskQueue: deps.taskQueue,
        args: [{ webhookId: webhook.id, publicId: webhook.webhookId, consignmentId, policy: deps.policy }],
        signal: deliverEventSignal,
        signalArgs: [{ eventId, ...(redelivery ? { redelivery } : {}) }],
        priority: DELIVERY_PRIORITY,
        staticSummary: `Webhook ${webhook.webhookId} deliveries for consignment ${consignmentId} of ${customerCode}`,
        typedSearchAttributes: [
          { key: SA.CustomerCode, value: customerCode },
          { key: SA.ConsignmentId, value: consignmentId },
        ],
      });
    },

    async nextAttempt(webhookId, consignmentId) {
      try {
        const { status, raw } = await deps.client.workflow.getHandle(webhookDeliveryWorkflowId(webhookId, consignmentId)).describe();
        if (status.name !== 'RUNNING') return undefined;
        const next = raw.pendingActivities?.find((a) => a.nextAttemptScheduleTime)?.nextAttemptScheduleTime;
        return next ? new Date(Number(next.seconds ?? 0) * 1000 + Math.floor((next.nanos ?? 0) / 1e6)) : undefined;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return undefined;
        throw error;
      }
    },
  };
}
