-- Core schema: customers and their API keys, consignments (the read model the lifecycle workflow writes), idempotency.

CREATE TABLE customers (
  id serial PRIMARY KEY,
  customer_code text NOT NULL UNIQUE,
  name text NOT NULL,
  authorized_name text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  firstname text NOT NULL,
  lastname text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Keys are 190-bit random tokens, so one SHA-256 is enough to store them safely (no slow hash needed).
CREATE TABLE api_keys (
  id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  user_id int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE consignments (
  id bigserial PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE,
  customer_id int NOT NULL REFERENCES customers(id),
  user_id int REFERENCES users(id),
  status smallint NOT NULL,
  preference smallint,
  provider_id int,
  address_resolver_type smallint NOT NULL DEFAULT 0,
  reference_no text,
  invoice_number text,
  incoterms_type smallint NOT NULL DEFAULT 2,
  specific_shipping_method text,
  generate_provider_barcode boolean NOT NULL DEFAULT false,
  specific_provider_barcode text,
  barcode text UNIQUE,
  consignor jsonb NOT NULL,
  consignee jsonb NOT NULL,
  documents jsonb NOT NULL DEFAULT '[]',
  special_services jsonb NOT NULL DEFAULT '[]',
  weight numeric(12, 2) NOT NULL DEFAULT 0,
  desi numeric(12, 2) NOT NULL DEFAULT 0,
  consignment_type smallint NOT NULL,
  import_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- reference_no is unique per customer (docs/api.md); the index also serves lookups by reference.
CREATE UNIQUE INDEX consignments_customer_reference ON consignments (customer_id, reference_no) WHERE reference_no IS NOT NULL;
CREATE INDEX consignments_customer_created ON consignments (customer_id, created_at DESC);

CREATE TABLE consignment_packages (
  id bigserial PRIMARY KEY,
  consignment_id bigint NOT NULL REFERENCES consignments(id) ON DELETE CASCADE,
  position int NOT NULL,
  package_type smallint,
  provider_packaging_type text,
  post_type int,
  weight numeric(12, 3),
  length numeric(12, 2),
  width numeric(12, 2),
  height numeric(12, 2),
  desi numeric(12, 2) NOT NULL DEFAULT 0,
  dangerous_goods boolean,
  quantity int NOT NULL DEFAULT 1
);
CREATE INDEX consignment_packages_consignment ON consignment_packages (consignment_id, position);

CREATE TABLE package_items (
  id bigserial PRIMARY KEY,
  package_id bigint NOT NULL REFERENCES consignment_packages(id) ON DELETE CASCADE,
  position int NOT NULL,
  description text,
  gtip text,
  origin text,
  currency_code text,
  unit_price numeric(14, 2),
  quantity int,
  category text
);
CREATE INDEX package_items_package ON package_items (package_id, position);

-- Status history (`details[]` of the API (docs/api.md)), appended by the lifecycle workflow's activities.
CREATE TABLE consignment_history (
  id bigserial PRIMARY KEY,
  consignment_id bigint NOT NULL REFERENCES consignments(id) ON DELETE CASCADE,
  status smallint NOT NULL,
  message text,
  location text,
  event_key text,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (consignment_id, event_key)
);
CREATE INDEX consignment_history_consignment ON consignment_history (consignment_id, occurred_at, id);

-- Idempotency-Key on draft creation: scoped to the customer, kept 24 h. The row fixes the consignment uuid,
-- so concurrent duplicates reach the same lifecycle workflow and produce one record.
CREATE TABLE idempotency_keys (
  customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  resource_uuid uuid NOT NULL,
  response_status int,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, scope, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
