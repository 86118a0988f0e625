-- When the poller last asked the carrier about the shipment: a round that fills a carrier's batch with
-- consignments due soon asks only those not asked lately (docs/carriers.md, "Tracking").
ALTER TABLE consignment_tracking ADD COLUMN IF NOT EXISTS asked_at timestamptz;
