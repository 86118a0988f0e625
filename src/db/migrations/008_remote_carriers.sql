-- Carriers behind carrier accounts (the remote consignment service first).
-- A booking keeps the carrier's own reference (the remote consignment id) and, when the carrier made the
-- label, its bytes as received: the label stored for the consignment is then the carrier's, not ours.
ALTER TABLE carrier_bookings ADD COLUMN carrier_reference text;
ALTER TABLE carrier_bookings ADD COLUMN label_content bytea;
ALTER TABLE carrier_bookings ADD COLUMN label_content_type text;

-- A carrier's label comes in one format (PDF or ZPL); the other column is then empty.
ALTER TABLE labels ALTER COLUMN pdf DROP NOT NULL;
ALTER TABLE labels ALTER COLUMN zpl DROP NOT NULL;

-- The status webhook registered at the remote for an account: its id there, and the hash of the secret
-- header value it sends back (the value itself is only in the remote's webhook).
ALTER TABLE carrier_accounts ADD COLUMN status_webhook_id text;
ALTER TABLE carrier_accounts ADD COLUMN status_webhook_secret_hash text;
ALTER TABLE carrier_accounts ADD COLUMN status_webhook_error text;

-- A remote's status update names the consignment by its barcode there (our tracking code).
CREATE INDEX consignments_provider_tracking ON consignments (provider_id, tracking_code) WHERE tracking_code IS NOT NULL;

-- Calls to one carrier account, per minute, shared by every worker (the remote limits each API key).
CREATE TABLE carrier_call_windows (
  provider_id int NOT NULL,
  kind text NOT NULL,
  window_start timestamptz NOT NULL,
  calls int NOT NULL,
  PRIMARY KEY (provider_id, kind, window_start)
);
