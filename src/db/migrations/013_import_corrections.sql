-- Address resolution in imports (issue 15): what it corrected in each order's parties, reported per row
-- (GET /api/v1/imports/{id}/corrections) beside the errors.
ALTER TABLE import_orders ADD COLUMN IF NOT EXISTS corrections jsonb;
CREATE INDEX IF NOT EXISTS import_orders_corrections ON import_orders (import_id, seq) WHERE corrections IS NOT NULL;
