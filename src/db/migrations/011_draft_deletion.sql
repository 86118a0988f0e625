-- Drafts can be deleted (DELETE /api/v1/consignments/draft/{id}); their row goes, with its packages,
-- history and outbox entry. The deletion's own webhook event must outlive the row until delivered, so the
-- events no longer cascade with their consignment (they keep its id; webhook deliveries order by it).
ALTER TABLE consignment_events DROP CONSTRAINT IF EXISTS consignment_events_consignment_id_fkey;
