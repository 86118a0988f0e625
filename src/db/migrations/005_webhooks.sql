-- Webhooks (docs/api.md) and every delivery attempt made to them.

-- `webhook_id` is the public id (`wh_…`); `id` stays internal (foreign keys, workflow inputs).
-- `secret` signs deliveries (Standard Webhooks); the API returns it once, at creation.
-- `status` 1 active, 0 inactive; the service sets 0 itself after a 410 or a day of failures, with the reason.
CREATE TABLE webhooks (
  id bigserial PRIMARY KEY,
  webhook_id text NOT NULL UNIQUE,
  customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  description text NOT NULL,
  endpoint text NOT NULL,
  subscribed_event text NOT NULL,
  security_type text NOT NULL,
  data_type text NOT NULL,
  data text NOT NULL DEFAULT '',
  security_data jsonb NOT NULL DEFAULT '[]',
  status smallint NOT NULL,
  secret text NOT NULL,
  disabled_reason text,
  disabled_at timestamptz,
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_customer ON webhooks (customer_id, id);
-- Publishing a status event looks up the customer's active subscribers of that event.
CREATE INDEX webhooks_subscribers ON webhooks (customer_id, subscribed_event) WHERE status = 1;

-- One row per HTTP attempt (or refusal before sending), newest read first.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  webhook_id bigint NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  attempt int NOT NULL,
  redelivery boolean NOT NULL DEFAULT false,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  http_status int,
  latency_ms int NOT NULL,
  success boolean NOT NULL,
  error text,
  response_body text
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_id, event_id, success);
