import { deletionVariants, escapeLike, foldName, foldPostalCode } from '../address/fold';
import type { Queryable } from './database';

/**
 * The address tables: the fuzzy search (its query planning and SQL) and the statements that load a
 * country's dataset. src/address derives the records and keys; every statement is here.
 */

export const SEARCH_FIELDS = ['postalCode', 'city', 'state', 'place'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export interface AddressSearchQuery {
  /** ISO2, any case. */
  countryIso2: string;
  keyword: string;
  searchFields: readonly SearchField[];
  page: number;
  limit: number;
}

/** One address search result, as the API answers it (docs/api.md, "Address search"). */
export interface AddressResult {
  stateCode: string;
  countryIso2: string;
  city: string;
  state: string;
  postalCode: string;
  place: string;
}

export interface AddressSearchPage {
  results: AddressResult[];
  page: number;
  lastPage: number;
  limit: number;
  total: number;
}

/**
 * Minimum trigram `word_similarity(keyword, name)` for a fuzzy match: pg_trgm's `<%` operator (GIN-indexed)
 * with a fixed threshold, 0.6, which is pg_trgm's default `word_similarity_threshold`, so a search needs
 * no transaction to set it; an explicit `word_similarity(…) >= 0.6` beside `<%` keeps the results the
 * same on a server configured lower. Single typos are found by the deletion-variant index whatever the
 * threshold; trigrams add names with several typos, missing or extra words. A lower threshold lets more
 * similar names crowd the top ten, and needs a transaction to set (bench/address-search.ts; docs/address-data.md).
 */
export const WORD_SIMILARITY_THRESHOLD: number = 0.6;
const PG_TRGM_DEFAULT_THRESHOLD: number = 0.6;
/** Keywords shorter than this (folded) skip trigram matching: a 4-letter keyword shares 3 of its 5 trigrams with every name starting like it. */
export const MIN_TRIGRAM_LENGTH = 5;
/** Keywords at least this long (and shorter than MIN_TRIGRAM_LENGTH) also match later words of a name by prefix ("akd" → "Çakmak Mah (Akdurak Köyü)"). */
const MIN_WORD_PREFIX_LENGTH = 3;
/** A postal keyword longer than this also finds records whose code is a prefix of it (Canadian FSAs). */
const MIN_POSTAL_PREFIX = 3;

type Mode = 'rows' | 'cities' | 'states';
type TextField = 'place' | 'city' | 'state';

interface Plan {
  mode: Mode;
  /** Table whose rows are the results; its ids follow the folded keys' byte order (the loader inserts sorted). */
  table: 'addresses' | 'address_cities' | 'address_states';
  /** Result columns (absent ones as ''). */
  select: string;
  textFields: TextField[];
  postal: boolean;
}

/**
 * What a result row is depends on the finest field searched, as an address autocomplete expects:
 * - place or postalCode among the fields → one row per postal record (Turkish neighbourhood or village,
 *   US ZIP code, …) with every field filled;
 * - city (and maybe state), no finer field → one row per distinct (state, city), place and postalCode "";
 * - state alone → one row per state, city, place and postalCode "".
 */
export function planOf(fields: readonly SearchField[]): Plan {
  const has = (f: SearchField) => fields.includes(f);
  if (has('place') || has('postalCode')) {
    return {
      mode: 'rows',
      table: 'addresses',
      select: 'a.state_code, a.state, a.city, a.place, a.postal_code',
      textFields: (['place', 'city', 'state'] as const).filter((f) => has(f)),
      postal: has('postalCode'),
    };
  }
  if (has('city')) {
    return {
      mode: 'cities',
      table: 'address_cities',
      select: "a.state_code, a.state, a.city, '' AS place, '' AS postal_code",
      textFields: has('state') ? ['city', 'state'] : ['city'],
      postal: false,
    };
  }
  return {
    mode: 'states',
    table: 'address_states',
    select: "a.state_code, a.state, '' AS city, '' AS place, '' AS postal_code",
    textFields: ['state'],
    postal: false,
  };
}

/** Smallest string greater than every string starting with `prefix`, in byte order (for a btree range). */
function prefixUpperBound(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop() as string;
  return chars.join('') + String.fromCodePoint(last.codePointAt(0)! + 1);
}

export interface SearchSql {
  sql: string;
  /** $1 is the country and the last two are limit and offset: the caller fills them. */
  params: unknown[];
  mode: Mode;
}

/**
 * Builds the one SQL statement of a search. Every keyword-derived value is a parameter and LIKE patterns
 * are escaped, so `%`, `_`, quotes and backslashes are plain text.
 *
 * 1. Candidate names (the distinct folded values of the searched fields, table address_names): names
 *    starting with the keyword (btree range); names one typo away (address_name_variants: symmetric
 *    deletion, btree); names whose trigram word similarity with the keyword reaches the threshold
 *    (`<%`, GIN); for 3–4 letter keywords, names with a later word starting with it (LIKE, GIN).
 * 2. Each name gets a tier: 0 equal, 1 starts with the keyword, 2 a later word starts with it,
 *    3 one typo away, 4 trigram-similar only; plus word similarity and similarity to the keyword.
 * 3. Names join back to result rows (a row matched through several fields keeps its best match);
 *    postal codes match by prefix (tier 0 equal, 1 prefix).
 * 4. Order: tier; then the first row of each name before the second row of any name (one name with
 *    hundreds of records does not bury the next one); word similarity; similarity (shorter names
 *    first); the name (or postal code) in byte order; id. Ids follow the folded state/city/place/postal
 *    keys in byte order, so the order is total and identical on PGlite and PostgreSQL.
 */
export function buildSearchSql(fields: readonly SearchField[], keyword: string): SearchSql | undefined {
  const plan = planOf(fields);
  const key = foldName(keyword);
  const postalKey = plan.postal ? foldPostalCode(keyword) : '';
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const country = param(null);

  const ctes: string[] = [];
  const hits: string[] = [];
  if (key && plan.textFields.length > 0) {
    const length = [...key].length;
    const kw = param(key);
    const prefix = param(`${escapeLike(key)}%`);
    const wordPrefix = param(`% ${escapeLike(key)}%`);
    const upper = param(prefixUpperBound(key));
    const variants = deletionVariants(key);
    const fieldList = plan.textFields.map((f) => `'${f}'`).join(', ');
    const candidates = [
      `SELECT field, key, main, false AS typo FROM address_names
        WHERE country_iso2 = ${country} AND field IN (${fieldList}) AND key ~>=~ ${kw} AND key ~<~ ${upper}`,
    ];
    for (const field of plan.textFields) {
      // One branch per field so each uses its partial GIN index.
      if (length >= MIN_TRIGRAM_LENGTH) {
        candidates.push(
          `SELECT field, key, main, false FROM address_names
            WHERE country_iso2 = ${country} AND field = '${field}' AND ${kw} <% key AND word_similarity(${kw}, key) >= ${WORD_SIMILARITY_THRESHOLD}`,
        );
      } else if (length >= MIN_WORD_PREFIX_LENGTH) {
        candidates.push(`SELECT field, key, main, false FROM address_names WHERE country_iso2 = ${country} AND field = '${field}' AND key LIKE ${wordPrefix}`);
      }
    }
    if (variants.length > 0) {
      candidates.push(
        `SELECT n.field, n.key, n.main, true FROM address_name_variants v
           JOIN address_names n ON n.country_iso2 = ${country} AND n.main = v.main AND n.field IN (${fieldList})
          WHERE v.country_iso2 = ${country} AND v.variant = ANY(${param(variants)}::text[])`,
      );
    }
    ctes.push(`cand AS (\n  ${candidates.join('\n  UNION ALL\n  ')}\n)`);
    ctes.push(`names AS MATERIALIZED (
  SELECT field, key, main,
         CASE WHEN key = ${kw} THEN 0 WHEN key LIKE ${prefix} THEN 1 WHEN key LIKE ${wordPrefix} THEN 2 WHEN bool_or(typo) THEN 3 ELSE 4 END AS tier,
         word_similarity(${kw}, key) AS score, similarity(${kw}, key) AS sim
    FROM cand GROUP BY field, key, main
)`);
    for (const field of plan.textFields) {
      hits.push(
        `SELECT a.id, n.tier, n.score, n.sim, n.main AS name FROM names n JOIN ${plan.table} a ON a.country_iso2 = ${country} AND a.${field}_key = n.key WHERE n.field = '${field}'`,
      );
    }
  }
  if (postalKey) {
    const pk = param(postalKey);
    const postalPrefix = param(`${escapeLike(postalKey)}%`);
    // A full code typed where the data holds shorter codes (Canadian FSAs): "T6E 1A1" finds "T6E".
    const shorter: string[] = [];
    for (let n = MIN_POSTAL_PREFIX; n < postalKey.length; n += 1) shorter.push(postalKey.slice(0, n));
    hits.push(
      `SELECT a.id, CASE WHEN a.postal_key = ${pk} THEN 0 ELSE 1 END AS tier, 0::real AS score, 0::real AS sim, a.postal_key AS name FROM ${plan.table} a
        WHERE a.country_iso2 = ${country} AND (a.postal_key LIKE ${postalPrefix} OR a.postal_key = ANY(${param(shorter)}::text[]))`,
    );
  }
  if (hits.length === 0) return undefined;

  const limit = param(null);
  const offset = param(null);
  ctes.push(
    hits.length === 1
      ? `hits AS MATERIALIZED (\n  ${hits[0]}\n)`
      : `hits AS MATERIALIZED (
  SELECT DISTINCT ON (id) id, tier, score, sim, name FROM (
    ${hits.join('\n    UNION ALL\n    ')}
  ) h ORDER BY id, tier, score DESC, sim DESC
)`,
  );
  ctes.push(`page AS (
  SELECT id, tier, score, sim, name, row_number() OVER (PARTITION BY tier, name ORDER BY id) AS name_rank FROM hits
   ORDER BY tier, name_rank, score DESC, sim DESC, name COLLATE "C", id LIMIT ${limit} OFFSET ${offset}
)`);
  const sql = `WITH ${ctes.join(',\n')}
SELECT t.total, ${plan.select}
  FROM (SELECT count(*)::int AS total FROM hits) t
  LEFT JOIN (page p JOIN ${plan.table} a ON a.id = p.id) ON true
 ORDER BY p.tier, p.name_rank, p.score DESC, p.sim DESC, p.name COLLATE "C", p.id`;
  return { sql, params, mode: plan.mode };
}

interface Row {
  total: number;
  state_code: string | null;
  state: string;
  city: string;
  place: string;
  postal_code: string;
}

/** Something that can run statements in one transaction (a `Database`); a bare `Queryable` is used as is. */
interface MaybeTransactional extends Queryable {
  transaction?: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>;
}

/**
 * Searches one country. A valid country without data, a keyword that folds to nothing, or no match
 * gives an empty page (never an error); a page past the end gives no results with the right total.
 */
export async function searchAddresses(db: MaybeTransactional, query: AddressSearchQuery): Promise<AddressSearchPage> {
  const country = query.countryIso2.toUpperCase();
  const built = buildSearchSql(query.searchFields, query.keyword);
  let total = 0;
  let results: AddressResult[] = [];
  if (built) {
    const { sql, params } = built;
    params[0] = country;
    params[params.length - 2] = query.limit;
    params[params.length - 1] = (query.page - 1) * query.limit;
    let rows: Row[];
    if (WORD_SIMILARITY_THRESHOLD === PG_TRGM_DEFAULT_THRESHOLD || typeof db.transaction !== 'function') {
      rows = (await db.query<Row>(sql, params)).rows;
    } else {
      // A threshold other than pg_trgm's default: SET LOCAL semantics, for this transaction only.
      rows = await db.transaction(async (tx) => {
        await tx.query(`SELECT set_config('pg_trgm.word_similarity_threshold', $1, true)`, [String(WORD_SIMILARITY_THRESHOLD)]);
        return (await tx.query<Row>(sql, params)).rows;
      });
    }
    total = rows[0]?.total ?? 0;
    results = rows
      .filter((r) => r.state_code !== null)
      .map((r) => ({ stateCode: r.state_code as string, countryIso2: country, city: r.city, state: r.state, postalCode: r.postal_code, place: r.place }));
  }
  return { results, page: query.page, lastPage: Math.max(1, Math.ceil(total / query.limit)), limit: query.limit, total };
}

/** Each loaded country's stored dataset version. */
export async function storedDatasetVersions(q: Queryable): Promise<Map<string, string>> {
  const { rows } = await q.query<{ country_iso2: string; version: string }>('SELECT country_iso2, version FROM address_datasets');
  return new Map(rows.map((r) => [r.country_iso2, r.version]));
}

/** Removes a country's rows from every address table (the first step of reloading it). */
export async function clearCountry(tx: Queryable, country: string): Promise<void> {
  for (const table of ['addresses', 'address_cities', 'address_states', 'address_names', 'address_name_variants']) {
    await tx.query(`DELETE FROM ${table} WHERE country_iso2 = $1`, [country]);
  }
}

/** One batch of address records, as columns: state_code, state, city, place, postal_code and the four folded keys. */
export async function insertAddressColumns(tx: Queryable, country: string, columns: string[][]): Promise<void> {
  await tx.query(
    `INSERT INTO addresses (country_iso2, state_code, state, city, place, postal_code, state_key, city_key, place_key, postal_key)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`,
    [country, ...columns],
  );
}

/** The city and state tables, derived from the country's addresses (ids in key order: the search's tie-break). */
export async function deriveCitiesAndStates(tx: Queryable, country: string): Promise<void> {
  await tx.query(
    `INSERT INTO address_cities (country_iso2, state_code, state, city, state_key, city_key)
     SELECT country_iso2, state_code, min(state), city, min(state_key), min(city_key)
       FROM addresses WHERE country_iso2 = $1
      GROUP BY country_iso2, state_code, city
      ORDER BY min(state_key) COLLATE "C", min(city_key) COLLATE "C", state_code, city`,
    [country],
  );
  await tx.query(
    `INSERT INTO address_states (country_iso2, state_code, state, state_key)
     SELECT country_iso2, state_code, min(state), min(state_key)
       FROM addresses WHERE country_iso2 = $1
      GROUP BY country_iso2, state_code
      ORDER BY min(state_key) COLLATE "C", state_code`,
    [country],
  );
}

/** Distinct name keys per field with their main names (for the single-typo index). */
export async function insertNames(tx: Queryable, country: string, rows: [field: string, key: string, main: string][]): Promise<void> {
  await tx.query(`INSERT INTO address_names (country_iso2, field, key, main) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])`, [
    country,
    rows.map((r) => r[0]),
    rows.map((r) => r[1]),
    rows.map((r) => r[2]),
  ]);
}

export async function insertNameVariants(tx: Queryable, country: string, variants: string[], mains: string[]): Promise<void> {
  await tx.query(`INSERT INTO address_name_variants (country_iso2, variant, main) SELECT $1, * FROM unnest($2::text[], $3::text[])`, [
    country,
    variants,
    mains,
  ]);
}

export async function recordDataset(tx: Queryable, dataset: { country: string; source: string; version: string; rowCount: number }): Promise<void> {
  await tx.query(
    `INSERT INTO address_datasets (country_iso2, source, version, row_count, loaded_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (country_iso2) DO UPDATE SET source = EXCLUDED.source, version = EXCLUDED.version, row_count = EXCLUDED.row_count, loaded_at = now()`,
    [dataset.country, dataset.source, dataset.version, dataset.rowCount],
  );
}

/**
 * After a load: fresh planner statistics (outside the load transactions, PGlite and PostgreSQL alike), and
 * GIN's fast-update pending lists merged, which otherwise hold the new names unsorted and make every
 * trigram search scan them until autovacuum runs.
 */
export async function refreshAddressIndexes(q: Queryable, log: (msg: string) => void): Promise<void> {
  for (const table of ['addresses', 'address_cities', 'address_states', 'address_names', 'address_name_variants']) await q.query(`ANALYZE ${table}`);
  for (const index of ['address_names_place_trgm', 'address_names_city_trgm', 'address_names_state_trgm']) {
    await q.query(`SELECT gin_clean_pending_list($1::regclass)`, [index]).catch((error: unknown) => log(`could not merge ${index}: ${String(error)}`));
  }
}

/** Address resolution (src/address/address-resolver.ts): exact lookups by folded key, and names one typo away. */

/** The countries whose address data is loaded. */
export async function loadedAddressCountries(q: Queryable): Promise<Set<string>> {
  const { rows } = await q.query<{ country_iso2: string }>('SELECT country_iso2 FROM address_datasets');
  return new Set(rows.map((r) => r.country_iso2));
}

/** A (state, city) of the address data. */
export interface AddressLocality {
  state: string;
  city: string;
}

/** The (state, city) pairs a postal code belongs to. */
export async function localitiesByPostalCode(q: Queryable, country: string, postalCode: string): Promise<AddressLocality[]> {
  const { rows } = await q.query<AddressLocality>(
    'SELECT DISTINCT state, city FROM addresses WHERE country_iso2 = $1 AND postal_key = $2 ORDER BY state, city LIMIT 20',
    [country, foldPostalCode(postalCode)],
  );
  return rows;
}

/**
 * The folded keys of `field` that `name` names: its own key when the data has it, else the keys one typo
 * away (the deletion-variant index of the search); `typo` says which.
 */
export async function matchingNameKeys(q: Queryable, country: string, field: 'city' | 'state', name: string): Promise<{ keys: string[]; typo: boolean }> {
  const key = foldName(name);
  if (!key) return { keys: [], typo: false };
  const exact = await q.query<{ key: string }>('SELECT key FROM address_names WHERE country_iso2 = $1 AND field = $2 AND key = $3', [country, field, key]);
  if (exact.rows.length > 0) return { keys: [key], typo: false };
  const variants = deletionVariants(key);
  if (variants.length === 0) return { keys: [], typo: false };
  const { rows } = await q.query<{ key: string }>(
    `SELECT DISTINCT n.key FROM address_name_variants v
       JOIN address_names n ON n.country_iso2 = $1 AND n.main = v.main AND n.field = $2
      WHERE v.country_iso2 = $1 AND v.variant = ANY($3::text[]) ORDER BY n.key LIMIT 20`,
    [country, field, variants],
  );
  return { keys: rows.map((r) => r.key), typo: true };
}

/** The (state, city) pairs whose city key is one of `cityKeys`. */
export async function localitiesByCityKeys(q: Queryable, country: string, cityKeys: string[]): Promise<AddressLocality[]> {
  const { rows } = await q.query<AddressLocality>(
    'SELECT DISTINCT state, city FROM address_cities WHERE country_iso2 = $1 AND city_key = ANY($2::text[]) ORDER BY state, city LIMIT 50',
    [country, cityKeys],
  );
  return rows;
}

/** The states whose key is one of `stateKeys`. */
export async function statesByKeys(q: Queryable, country: string, stateKeys: string[]): Promise<string[]> {
  const { rows } = await q.query<{ state: string }>(
    'SELECT DISTINCT state FROM address_states WHERE country_iso2 = $1 AND state_key = ANY($2::text[]) ORDER BY state LIMIT 20',
    [country, stateKeys],
  );
  return rows.map((r) => r.state);
}

/** Up to two postal codes of a (state, city): one means the city has a single code. */
export async function postalCodesOf(q: Queryable, country: string, locality: AddressLocality): Promise<string[]> {
  const { rows } = await q.query<{ postal_code: string }>(
    'SELECT DISTINCT postal_code FROM addresses WHERE country_iso2 = $1 AND state = $2 AND city = $3 ORDER BY postal_code LIMIT 2',
    [country, locality.state, locality.city],
  );
  return rows.map((r) => r.postal_code);
}
