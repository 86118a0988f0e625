import { proxyActivities } from '@temporalio/workflow';
import type { MarketplaceActivities } from './activities';
import { doublingRetry } from './retry';

/**
 * A pull is retried until the marketplace answers (an outage is waited out; 429s after their wait): its window
 * starts where the last finished pull ended, so nothing between two pulls is lost however long it takes. It reports
 * its progress by heartbeats, so a worker lost mid-pull is noticed within a minute.
 */
const PULL = { startToCloseTimeout: '15 minutes', heartbeatTimeout: '1 minute', retry: doublingRetry('5 seconds', '5 minutes') } as const;

const marketplace = proxyActivities<MarketplaceActivities>(PULL);

/**
 * One pull of a marketplace order source (docs/order-feeds.md, "Marketplaces"), started by the source's Temporal
 * Schedule every poll interval and at once on a webhook's ping: the packages changed since the last pull become order
 * events (each its own workflow: a draft made, updated or cancelled), then what was shipped with the seller's own
 * carrier is written back to the marketplace.
 */
export async function orderSourcePullWorkflow(input: { sourceId: string }): Promise<{ packages: number; events: number; writtenBack: number }> {
  const pulled = await marketplace.pullOrderSource({ sourceId: input.sourceId });
  const written = await marketplace.writeBackOrderSource({ sourceId: input.sourceId });
  return { packages: pulled.packages, events: pulled.events, writtenBack: written.done };
}
