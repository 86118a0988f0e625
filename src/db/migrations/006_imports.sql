-- Order imports (CSV order feeds): the uploaded file, the import and one row per order with its outcome.

-- The uploaded CSV, in fixed-size chunks (the last one shorter), so the import workflow can stream it from
-- any byte offset whichever process runs it. Removed with its import.
CREATE TABLE import_files (
  file_id uuid NOT NULL,
  chunk int NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (file_id, chunk)
);

-- `id` is the workflow's (`import:<id>`). Counters change in the same transaction as the orders they count.
-- `parse_cursor` is where parsing stopped: {offset (bytes), row, seq} of the next order.
CREATE TABLE imports (
  id uuid PRIMARY KEY,
  customer_id int NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  user_id int REFERENCES users(id) ON DELETE SET NULL,
  file_id uuid NOT NULL,
  file_name text,
  file_bytes bigint NOT NULL,
  file_sha256 text NOT NULL,
  delimiter text NOT NULL DEFAULT ',',
  header jsonb NOT NULL,
  total_rows int NOT NULL,
  options jsonb NOT NULL,
  state text NOT NULL DEFAULT 'queued',
  rows_read int NOT NULL DEFAULT 0,
  orders int NOT NULL DEFAULT 0,
  created int NOT NULL DEFAULT 0,
  processed int NOT NULL DEFAULT 0,
  failed int NOT NULL DEFAULT 0,
  duplicates int NOT NULL DEFAULT 0,
  cancelled int NOT NULL DEFAULT 0,
  orders_done int NOT NULL DEFAULT 0,
  rows_done int NOT NULL DEFAULT 0,
  parsed boolean NOT NULL DEFAULT false,
  parse_cursor jsonb,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX imports_customer_created ON imports (customer_id, created_at DESC, id);

-- One row per order of the file, `seq` its position (0, 1, …). `state`: pending (valid, not yet created),
-- invalid, duplicate (its reference_no already exists), created, processed, failed (refused at creation or
-- processing), cancelled. `draft` holds the validated draft until the order is created.
CREATE TABLE import_orders (
  import_id uuid NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
  seq int NOT NULL,
  first_row int NOT NULL,
  row_count int NOT NULL,
  order_no text,
  state text NOT NULL,
  draft jsonb,
  consignment_id bigint,
  errors jsonb,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (import_id, seq)
);
-- Error listings read the orders that have errors, in file order.
CREATE INDEX import_orders_errors ON import_orders (import_id, seq) WHERE errors IS NOT NULL;
