import { proxyActivities } from '@temporalio/workflow';
import type { WrittenEvent } from '../src/domain/webhook';
import type { LifecycleActivities } from './activities';
import type { ConsignmentState } from './consignment.messages';
import { doublingRetry } from './retry';

/**
 * Handing a status event to webhook delivery must eventually happen, however long the outage. Nobody waits on it:
 * it runs below the priority of work a caller waits for (3), as the relay's starts do (docs/architecture.md).
 */
const EVENT_PUBLISHING = { startToCloseTimeout: '30 seconds', retry: doublingRetry('1 second', '1 minute'), priority: { priorityKey: 4 } } as const;

/**
 * Publishing stays a regular activity: it runs beside the workflow's ending, and a local activity there would
 * be run again whenever the final workflow task is refused for a signal that came in meanwhile.
 */
const events = proxyActivities<LifecycleActivities>(EVENT_PUBLISHING);

export interface PublishingQueue {
  /** Queues a written event (not one the write handed over already: nobody subscribed to it) and publishes what is queued. */
  publish(written?: WrittenEvent): void;
  /** Stops after the event being published (what is left carries over a continue-as-new), or lets `publish` go on. */
  hold(held: boolean): void;
  /** The publishing under way, if any: it ends when the queue is empty or held. */
  readonly running: Promise<void> | null;
}

/**
 * A consignment's status events, published one after another in the order of the changes (webhooks keep that
 * order). The queue is the state's `unpublished`, so what is not out yet carries over a continue-as-new. Nobody
 * waits for it: the HTTP caller has its answer when the change is written.
 */
export function publishingQueue(state: ConsignmentState): PublishingQueue {
  let running: Promise<void> | null = null;
  let held = false;
  const publish = (written?: WrittenEvent) => {
    const queue = (state.unpublished ??= []);
    if (written && !written.dispatched) queue.push(written.eventId);
    if (running || held || queue.length === 0) return;
    running = (async () => {
      try {
        while (!held && queue.length > 0) {
          await events.publishStatusEvent({ eventId: queue[0] });
          queue.shift();
        }
      } finally {
        running = null;
      }
    })();
  };
  return {
    publish,
    hold: (value) => {
      held = value;
    },
    get running() {
      return running;
    },
  };
}
