-- Documents a customer uploads (POST /api/v1/documents: PDF, PNG or JPEG, told apart by content) for drafts
-- to reference in `documents[].id` (invoices, certificates). Kept in the database like labels, so every API
-- and worker process sees them.
CREATE TABLE documents (
  id bigserial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES customers(id),
  file_name text NOT NULL,
  content_type text NOT NULL,
  size int NOT NULL,
  sha256 text NOT NULL,
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documents_customer ON documents (customer_id, id);
