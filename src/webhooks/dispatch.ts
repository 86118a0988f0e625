import type { Client } from '@temporalio/client';
import { webhookDeliveryWorkflowId } from '../../workflows/ids';
import { SA } from '../../workflows/search-attributes';
import { deliverEventSignal, type DeliveryPolicy } from '../../workflows/webhook-delivery.messages';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.workflow';

export interface DeliveryTarget {
  /** internal id */
  id: number;
  /** public `wh_…` id */
  webhookId: string;
}

export interface WebhookDispatcher {
  /**
   * Queues one event for one webhook: signal-with-start of the webhook × consignment delivery workflow,
   * so the events of a consignment reach the webhook in the order they are queued.
   */
  enqueue(request: { webhook: DeliveryTarget; customerCode: string; consignmentId: number; eventId: string; redelivery?: boolean }): Promise<void>;
}

export function createWebhookDispatcher(deps: { client: Client; taskQueue: string; policy: DeliveryPolicy }): WebhookDispatcher {
  return {
    async enqueue({ webhook, customerCode, consignmentId, eventId, redelivery = false }) {
      await deps.client.workflow.signalWithStart(webhookDeliveryWorkflow, {
        workflowId: webhookDeliveryWorkflowId(webhook.webhookId, consignmentId),
        taskQueue: deps.taskQueue,
        args: [{ webhookId: webhook.id, publicId: webhook.webhookId, consignmentId, policy: deps.policy }],
        signal: deliverEventSignal,
        signalArgs: [{ eventId, ...(redelivery ? { redelivery } : {}) }],
        staticSummary: `Webhook ${webhook.webhookId} deliveries for consignment ${consignmentId} of ${customerCode}`,
        typedSearchAttributes: [
          { key: SA.CustomerCode, value: customerCode },
          { key: SA.ConsignmentId, value: consignmentId },
        ],
      });
    },
  };
}
