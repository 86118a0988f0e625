-- Live order feeds (docs/order-feeds.md): a customer's shop connection (Shopify, WooCommerce) and the order
-- webhooks it delivers. The signing secret is sealed with AES-256-GCM by the application, as carrier
-- credentials are (key outside the database); only a masked hint is plain.
CREATE TABLE order_sources (
  id uuid PRIMARY KEY,
  customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  platform text NOT NULL,
  name text NOT NULL,
  secret bytea NOT NULL,
  secret_hint text NOT NULL,
  -- the draft defaults of the CSV import options (consignor, preference, provider_id, package, address resolution)
  defaults jsonb NOT NULL DEFAULT '{}',
  process boolean NOT NULL DEFAULT false,
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX order_sources_customer ON order_sources (customer_id, created_at) WHERE deleted_at IS NULL;

-- One row per delivered event, unique on the platform's event id (a redelivery finds the first row). The row is
-- its own outbox entry: `start_pending` until its workflow (order-event:<id>) was started; a relay starts what a
-- crash left pending once the claim (`claimed_until`) ran out. The raw body is kept as text, as signed.
CREATE TABLE order_events (
  id bigserial PRIMARY KEY,
  source_id uuid NOT NULL REFERENCES order_sources(id) ON DELETE CASCADE,
  dedup_key text NOT NULL,
  topic text NOT NULL,
  action text NOT NULL,
  order_id text,
  order_no text,
  payload text NOT NULL,
  state text NOT NULL DEFAULT 'received',
  consignment_id bigint REFERENCES consignments(id) ON DELETE SET NULL,
  errors jsonb,
  triggered_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  start_pending boolean NOT NULL DEFAULT true,
  claimed_until timestamptz,
  UNIQUE (source_id, dedup_key)
);
CREATE INDEX order_events_source ON order_events (source_id, id DESC);
CREATE INDEX order_events_order ON order_events (source_id, order_id);
CREATE INDEX order_events_to_start ON order_events (claimed_until NULLS FIRST, id) WHERE start_pending;
