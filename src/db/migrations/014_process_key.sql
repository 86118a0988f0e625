-- The id of the workflow update that processed a consignment (a request's Idempotency-Key, or the SDK's own
-- id). When a crash loses that update from the engine after its writes committed, a retry of the same update
-- recognises the processing as its own and answers it instead of refusing a consignment that is no longer a
-- draft (docs/api.md, "Idempotency").
ALTER TABLE consignments ADD COLUMN IF NOT EXISTS process_key text;
