-- The consignment list (GET /api/v1/consignments, newest first) and its filters: each filter narrows one
-- customer's rows, so every index leads with customer_id. Barcode lookups already have
-- consignments_customer_barcode and plain lists consignments_customer_created.
CREATE INDEX consignments_customer_status_created ON consignments (customer_id, status, created_at DESC);
CREATE INDEX consignments_customer_provider_created ON consignments (customer_id, provider_id, created_at DESC) WHERE provider_id IS NOT NULL;
CREATE INDEX consignments_customer_reference_prefix ON consignments (customer_id, reference_no text_pattern_ops) WHERE reference_no IS NOT NULL;
CREATE INDEX consignments_customer_import ON consignments (customer_id, import_id, created_at DESC) WHERE import_id IS NOT NULL;
