-- Creation through an outbox (docs/architecture.md, principle 1): a draft's row and its outbox entry are
-- written in one transaction; the relay (where the worker runs) starts the consignment's workflow and then
-- deletes the entry. A claim is a lease: a relay that dies mid-batch leaves entries that another claims
-- once the lease ran out (starting is idempotent: deterministic workflow ids).
CREATE TABLE consignment_outbox (
  consignment_id bigint PRIMARY KEY REFERENCES consignments(id) ON DELETE CASCADE,
  enqueued_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz
);
CREATE INDEX consignment_outbox_claimable ON consignment_outbox (claimed_until NULLS FIRST, consignment_id);
