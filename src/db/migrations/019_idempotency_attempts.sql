-- Which try of a request's processing an Idempotency-Key is on. A processing that ended CARRIER_UNAVAILABLE
-- is no outcome to replay: the next request with the key runs it again as the next attempt, under a workflow
-- update id of its own (docs/api.md, "Idempotency").
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS attempt integer NOT NULL DEFAULT 1;
