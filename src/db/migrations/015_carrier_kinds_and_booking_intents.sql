-- The `sendeo` carrier kind now speaks Sendeo's current API (api.sendeo.com.tr); accounts made before it spoke
-- the older Kolay Gelsin integration API and keep doing so under the kind `kolay_gelsin`. Their sealed
-- credentials stay readable: the sealing context of `kolay_gelsin` keeps the name it was sealed under.
UPDATE carrier_accounts SET carrier = 'kolay_gelsin' WHERE carrier = 'sendeo';

-- Exactly-once booking: before a carrier is asked to book, the intent is recorded with the key it is sent
-- (DHL's shipment reference, Sendeo's ReferenceNo, …). A later try of the same consignment with the same
-- provider first asks the carrier what it holds under that key; an intent still open with another provider
-- is looked up too, so a booking the consignment moved away from is voided rather than kept.
CREATE TABLE IF NOT EXISTS carrier_booking_intents (
  booking_key text NOT NULL,
  provider_id int NOT NULL,
  sent_key text NOT NULL,
  attempts int NOT NULL DEFAULT 1,
  state text NOT NULL DEFAULT 'open',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (booking_key, provider_id)
);

-- The booking is answered as stored, so all of it is stored: the carrier's piece barcodes, and what booking found
-- beyond the booking itself (an earlier try's booking recovered, one voided: history entries).
ALTER TABLE carrier_bookings ADD COLUMN IF NOT EXISTS piece_barcodes jsonb;
ALTER TABLE carrier_bookings ADD COLUMN IF NOT EXISTS notes jsonb;
