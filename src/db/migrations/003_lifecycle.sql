-- Processing, labels, carrier bookings, tracking and the outbox of status events.

ALTER TABLE consignments ADD COLUMN tracking_code text;
ALTER TABLE consignments ADD COLUMN tracking_url text;
ALTER TABLE consignments ADD COLUMN service_name text;
ALTER TABLE consignments ADD COLUMN provider_base_cost numeric(14, 2) NOT NULL DEFAULT 0;
ALTER TABLE consignments ADD COLUMN additional_cost numeric(14, 2) NOT NULL DEFAULT 0;
ALTER TABLE consignments ADD COLUMN rule_cost numeric(14, 2) NOT NULL DEFAULT 0;
ALTER TABLE consignments ADD COLUMN service_fee numeric(14, 2) NOT NULL DEFAULT 0;
ALTER TABLE consignments ADD COLUMN special_service_fee numeric(14, 2) NOT NULL DEFAULT 0;
ALTER TABLE consignments ADD COLUMN total_cost numeric(14, 2) NOT NULL DEFAULT 0;
ALTER TABLE consignments ADD COLUMN currency_code text NOT NULL DEFAULT 'TRY';
ALTER TABLE consignments ADD COLUMN currency_rate numeric(14, 6) NOT NULL DEFAULT 1;
ALTER TABLE consignments ADD COLUMN processed_at timestamptz;
CREATE INDEX consignments_customer_barcode ON consignments (customer_id, barcode) WHERE barcode IS NOT NULL;
CREATE INDEX consignments_tracking ON consignments (provider_id, tracking_code) WHERE tracking_code IS NOT NULL;

-- Our record of every booking made with a carrier, one per consignment: a retried activity finds it.
CREATE TABLE carrier_bookings (
  booking_key uuid PRIMARY KEY,
  provider_id int NOT NULL,
  tracking_code text NOT NULL,
  tracking_url text NOT NULL,
  pickup_booked boolean NOT NULL,
  base_cost numeric(14, 2) NOT NULL,
  currency text NOT NULL,
  service_name text NOT NULL,
  booked_at timestamptz NOT NULL DEFAULT now(),
  cancelled_at timestamptz
);

CREATE TABLE labels (
  id bigserial PRIMARY KEY,
  consignment_id bigint NOT NULL UNIQUE REFERENCES consignments(id) ON DELETE CASCADE,
  provider_id int NOT NULL,
  file_name text NOT NULL,
  tracking_code text NOT NULL,
  label_type smallint NOT NULL DEFAULT 1,
  tracking_type smallint NOT NULL DEFAULT 1,
  pdf bytea NOT NULL,
  zpl text NOT NULL,
  voided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- consignment.status.updated events, written in the same transaction as the status change (outbox);
-- webhook delivery reads them in `seq` order per consignment. `id` is the stable event id.
CREATE TABLE consignment_events (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  consignment_id bigint NOT NULL REFERENCES consignments(id) ON DELETE CASCADE,
  customer_id int NOT NULL,
  event text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX consignment_events_pending ON consignment_events (consignment_id, seq) WHERE dispatched_at IS NULL;

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);
