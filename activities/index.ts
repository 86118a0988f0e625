import { createCarrierActivities, type CarrierActivityDeps } from './carriers.activities';
import { createConsignmentActivities, type ConsignmentActivityDeps } from './consignments.activities';
import { createImportActivities, type ImportActivityDeps } from './imports.activities';
import { createMarketplaceActivities, type MarketplaceActivityDeps } from './marketplaces.activities';
import { createOrderFeedActivities, type OrderFeedActivityDeps } from './order-feeds.activities';
import { createTrackingActivities, type TrackingActivityDeps } from './tracking.activities';
import { createWebhookActivities, type WebhookActivityDeps } from './webhooks.activities';

export type ActivityDeps = ConsignmentActivityDeps &
  WebhookActivityDeps &
  ImportActivityDeps &
  CarrierActivityDeps &
  OrderFeedActivityDeps &
  TrackingActivityDeps &
  MarketplaceActivityDeps;

/** Every activity the worker registers, built from explicit dependencies (no module singletons). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createConsignmentActivities(deps),
    ...createCarrierActivities(deps),
    ...createWebhookActivities(deps),
    ...createImportActivities(deps),
    ...createOrderFeedActivities(deps),
    ...createTrackingActivities(deps),
    ...createMarketplaceActivities(deps),
  };
}
