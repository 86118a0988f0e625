-- The routing text a carrier printed on its own label (MNG's destination branch, HepsiJet's cross-dock and zone),
-- kept with the booking so our PDF of the same shipment prints it too (docs/carriers.md, "Labels").
ALTER TABLE carrier_bookings ADD COLUMN IF NOT EXISTS routing text;
