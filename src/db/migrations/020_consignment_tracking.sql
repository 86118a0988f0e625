-- What tracking needs of each consignment in flight with a carrier that does not push its events: the
-- account's poller pages through these rows by provider and due time (docs/carriers.md, "Tracking"). The
-- last carrier event kept here decides whether a round changed anything; only then is the consignment's
-- workflow signalled. A row goes when the consignment reaches a final status.
CREATE TABLE IF NOT EXISTS consignment_tracking (
  consignment_id bigint PRIMARY KEY REFERENCES consignments(id) ON DELETE CASCADE,
  uuid uuid NOT NULL,
  provider_id int NOT NULL,
  tracking_code text NOT NULL,
  carrier_reference text,
  -- the id of the newest carrier event handed to the workflow, and how many the carrier listed then: a late scan
  -- (an event dated before the newest) changes the count
  last_event_id text,
  events_seen int NOT NULL DEFAULT 0,
  -- when the carrier last said something new (or the consignment was handed over)
  last_change_at timestamptz NOT NULL DEFAULT now(),
  next_check_at timestamptz NOT NULL DEFAULT now(),
  -- rounds in a row whose answer for this shipment was an error
  failures int NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS consignment_tracking_due ON consignment_tracking (provider_id, next_check_at, consignment_id);

-- Consignments in flight with a carrier account before the pollers existed: their workflows polled on a timer
-- of their own; the account's poller takes them over.
INSERT INTO consignment_tracking (consignment_id, uuid, provider_id, tracking_code, carrier_reference, last_change_at, next_check_at)
SELECT c.id, c.uuid, c.provider_id, c.tracking_code, b.carrier_reference, COALESCE(c.processed_at, c.updated_at), now()
FROM consignments c
JOIN carrier_accounts a ON a.provider_id = c.provider_id
LEFT JOIN carrier_bookings b ON b.booking_key = c.uuid AND b.cancelled_at IS NULL
WHERE c.tracking_code IS NOT NULL AND c.status IN (1, 2, 3, 4, 5, 6, 9)
ON CONFLICT (consignment_id) DO NOTHING;
