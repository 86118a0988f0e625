import { proxyActivities } from '@temporalio/workflow';
import type { OrderEventState } from '../src/domain/order-source';
import type { OrderFeedActivities } from './activities';
import { doublingRetry } from './retry';

/** Read-model writes and draft creation: short, retried until the database answers. */
const APPLY = { startToCloseTimeout: '1 minute', retry: doublingRetry('1 second', '1 minute') } as const;

/** Processing waits for the carrier (IMPORT_CARRIER_WAIT_MS) inside the consignment's own workflow. */
const PROCESS = { startToCloseTimeout: '10 minutes', retry: doublingRetry('5 seconds', '5 minutes') } as const;

const apply = proxyActivities<OrderFeedActivities>(APPLY);
const processing = proxyActivities<OrderFeedActivities>(PROCESS);

/**
 * One received order event (docs/order-feeds.md): its draft is created through the one draft path (row and
 * outbox entry together; the consignment's own workflow then owns it), or the order's draft or consignment
 * is cancelled by the carrier rules; then, when the source asks for it, the draft is processed into a label.
 * Each step records its outcome on the event, guarded, so retries and restarts repeat nothing.
 */
export async function orderEventWorkflow(input: { eventId: number }): Promise<{ state: OrderEventState }> {
  const applied = await apply.applyOrderEvent({ eventId: input.eventId });
  if (applied.state === 'drafted' && applied.process) return processing.processOrderEvent({ eventId: input.eventId });
  return { state: applied.state };
}
