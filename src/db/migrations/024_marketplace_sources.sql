-- Marketplace order sources (docs/order-feeds.md, "Marketplaces"): Trendyol and Hepsiburada are pulled on a schedule
-- with the seller's API credentials (sealed by the application, as carrier credentials are; a masked hint is plain),
-- and their unsigned webhooks are checked against a credential we generate (kept in `secret`). `settings` holds the
-- non-secret connection settings and the poll interval; `pulled_until` is where the next pull's window starts (less
-- its overlap); `last_pull` what the last pull did or why it failed.
ALTER TABLE order_sources ADD COLUMN IF NOT EXISTS credentials bytea;
ALTER TABLE order_sources ADD COLUMN IF NOT EXISTS credentials_hint text;
ALTER TABLE order_sources ADD COLUMN IF NOT EXISTS settings jsonb NOT NULL DEFAULT '{}';
ALTER TABLE order_sources ADD COLUMN IF NOT EXISTS pulled_until timestamptz;
ALTER TABLE order_sources ADD COLUMN IF NOT EXISTS last_pull jsonb;

-- What was written back to the marketplace for the event's consignment: `{state: done|refused|pending, reason?, calls?, at}`.
ALTER TABLE order_events ADD COLUMN IF NOT EXISTS write_back jsonb;
CREATE INDEX IF NOT EXISTS order_events_to_write_back ON order_events (source_id, id) WHERE write_back IS NULL AND consignment_id IS NOT NULL;

-- A marketplace source's calls per time window, shared by every worker (the marketplaces limit each seller's API key
-- by groups of endpoints: Trendyol's package pulls, Hepsiburada's order lists, …).
CREATE TABLE IF NOT EXISTS order_source_call_windows (
  source_id uuid NOT NULL,
  call_group text NOT NULL,
  window_start timestamptz NOT NULL,
  calls int NOT NULL,
  PRIMARY KEY (source_id, call_group, window_start)
);
