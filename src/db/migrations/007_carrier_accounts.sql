-- Carrier accounts: a customer's own carrier credentials. provider_id is unique across the service (the
-- sandbox carriers are 1 and 2), so a draft's provider_id names an account directly. Credentials are
-- sealed with AES-256-GCM by the application (key outside the database); only a masked hint is plain.
CREATE SEQUENCE carrier_account_provider_ids START 1001;

CREATE TABLE carrier_accounts (
  provider_id int PRIMARY KEY DEFAULT nextval('carrier_account_provider_ids'),
  customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  carrier text NOT NULL,
  description text NOT NULL DEFAULT '',
  credentials bytea NOT NULL,
  credentials_hint text NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}',
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

CREATE INDEX carrier_accounts_customer ON carrier_accounts (customer_id, provider_id) WHERE deleted_at IS NULL;
