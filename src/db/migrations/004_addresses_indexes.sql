-- Address search (issue 5), second step: the btree indexes that join matched names to records carry
-- the record id (index-only scans), and the names' key index is unique and in byte order, serving
-- equality, uniqueness and prefix ranges (key ~>=~ kw AND key ~<~ next(kw)) at once.
-- Ids follow the folded keys in byte order (the loader inserts sorted), so `ORDER BY id` is the search's
-- deterministic tie-break without reading the rows.
DROP INDEX IF EXISTS addresses_place_key;
DROP INDEX IF EXISTS addresses_city_key;
DROP INDEX IF EXISTS addresses_state_key;
DROP INDEX IF EXISTS addresses_postal_key;
CREATE INDEX addresses_place_key ON addresses (country_iso2, place_key) INCLUDE (id);
CREATE INDEX addresses_city_key ON addresses (country_iso2, city_key) INCLUDE (id);
CREATE INDEX addresses_state_key ON addresses (country_iso2, state_key) INCLUDE (id);
CREATE INDEX addresses_postal_key ON addresses (country_iso2, postal_key text_pattern_ops) INCLUDE (id);

DROP INDEX IF EXISTS address_cities_city_key;
DROP INDEX IF EXISTS address_cities_state_key;
CREATE INDEX address_cities_city_key ON address_cities (country_iso2, city_key) INCLUDE (id);
CREATE INDEX address_cities_state_key ON address_cities (country_iso2, state_key) INCLUDE (id);

DROP INDEX IF EXISTS address_states_state_key;
CREATE INDEX address_states_state_key ON address_states (country_iso2, state_key) INCLUDE (id);

ALTER TABLE address_names DROP CONSTRAINT IF EXISTS address_names_pkey;
DROP INDEX IF EXISTS address_names_prefix;
CREATE UNIQUE INDEX IF NOT EXISTS address_names_key ON address_names (country_iso2, field, key text_pattern_ops);
