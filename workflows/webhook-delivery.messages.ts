import { defineQuery, defineSignal } from '@temporalio/workflow';

/** The retry schedule of one delivery (docs/webhooks.md): exponential from `initialIntervalMs`, for `windowMs` in all. */
export interface DeliveryPolicy {
  initialIntervalMs: number;
  windowMs: number;
}

/** One event waiting in a delivery queue. `redelivery` marks a customer's redeliver request (sent even if delivered before). */
export interface QueuedEvent {
  eventId: string;
  redelivery?: boolean;
}

/**
 * What one delivery activity did with a batch: `completed` events from the front of the batch are done
 * (delivered, or nothing to send), `delivered` of them were POSTed with success. `done`: all of them, or
 * as many as the activity's sending time allowed (the rest go in the next batch);
 * `failed`: the next one failed after others were delivered (it gets its own retry schedule); `gone`: 410,
 * the webhook is disabled; `inactive`: the webhook is no longer active (or was deleted).
 */
export interface DeliveryBatchResult {
  completed: number;
  delivered: number;
  outcome: 'done' | 'failed' | 'gone' | 'inactive';
}

export interface WebhookDeliveryInput {
  /** internal id of the webhook (`webhooks.id`) */
  webhookId: number;
  /** its public id (`wh_…`), for people reading the Temporal UI */
  publicId: string;
  consignmentId: number;
  policy: DeliveryPolicy;
  /** continue as new once the history has this many events (Temporal's own suggestion also counts) */
  historyLimit?: number;
  /** carried over by continue-as-new */
  pending?: QueuedEvent[];
  delivered?: number;
}

export interface DeliveryState {
  /** event ids still to deliver, in order */
  pending: string[];
  /** events delivered by this workflow chain */
  delivered: number;
  /** `stopped` when the webhook was disabled, deactivated or deleted: the pending events were not sent */
  outcome: 'running' | 'idle' | 'stopped';
  stopReason?: string;
}

/** Appends an event to the queue of one webhook × consignment (signal-with-start: the first one starts the workflow). */
export const deliverEventSignal = defineSignal<[QueuedEvent]>('deliverEvent');
export const deliveryStateQuery = defineQuery<DeliveryState>('state');
