import { foldText } from '../fold';
import { DATA_FILES, packageVersion, requireUncached } from './files';
import type { AddressDataset, AddressRecord } from './types';

/** Bump when a mapping below changes: every database reloads the country at its next start. */
const LOADER_VERSION = 1;

interface ZipEntry {
  zip: string;
  city: string;
  state: string;
  country: string;
}

/** USPS state and territory codes used by the `zipcodes` data (military "states" AA, AE, AP included). */
export const US_STATES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  AS: 'American Samoa',
  GU: 'Guam',
  MP: 'Northern Mariana Islands',
  PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands',
  FM: 'Federated States of Micronesia',
  MH: 'Marshall Islands',
  PW: 'Palau',
  AA: 'Armed Forces Americas',
  AE: 'Armed Forces Europe',
  AP: 'Armed Forces Pacific',
};

/** Canadian provinces and territories by the first letter of the postal code (X splits into NU and NT). */
const CANADA_BY_LETTER: Record<string, [code: string, name: string]> = {
  A: ['NL', 'Newfoundland and Labrador'],
  B: ['NS', 'Nova Scotia'],
  C: ['PE', 'Prince Edward Island'],
  E: ['NB', 'New Brunswick'],
  G: ['QC', 'Quebec'],
  H: ['QC', 'Quebec'],
  J: ['QC', 'Quebec'],
  K: ['ON', 'Ontario'],
  L: ['ON', 'Ontario'],
  M: ['ON', 'Ontario'],
  N: ['ON', 'Ontario'],
  P: ['ON', 'Ontario'],
  R: ['MB', 'Manitoba'],
  S: ['SK', 'Saskatchewan'],
  T: ['AB', 'Alberta'],
  V: ['BC', 'British Columbia'],
  X: ['NT', 'Northwest Territories'],
  Y: ['YT', 'Yukon'],
};
const NUNAVUT_FSAS = new Set(['X0A', 'X0B', 'X0C']);

/** United States from `zipcodes`: one record per ZIP code; the town is both city and place. */
export const unitedStatesDataset: AddressDataset = {
  country: 'US',
  source: 'zipcodes',
  get version() {
    return `zipcodes@${packageVersion('zipcodes')}+loader.${LOADER_VERSION}`;
  },
  read(): AddressRecord[] {
    const { codes } = requireUncached<{ codes: Record<string, ZipEntry> }>(DATA_FILES.zipcodesUs());
    return Object.values(codes).map((e) => ({
      stateCode: e.state,
      state: US_STATES[e.state] ?? e.state,
      city: e.city,
      place: e.city,
      postalCode: e.zip,
    }));
  },
};

/**
 * Canada from `zipcodes`: one record per forward sortation area (the first three characters of a
 * postal code). "Edmonton (south Bonnie Doon / East University)" → city "Edmonton", place
 * "South Bonnie Doon / East University"; the province comes from the first letter (the package's
 * own state column is unreliable).
 */
export const canadaDataset: AddressDataset = {
  country: 'CA',
  source: 'zipcodes',
  get version() {
    return `zipcodes@${packageVersion('zipcodes')}+loader.${LOADER_VERSION}`;
  },
  read(): AddressRecord[] {
    const { codes } = requireUncached<{ codes: Record<string, ZipEntry> }>(DATA_FILES.zipcodesCanada());
    const records: AddressRecord[] = [];
    for (const e of Object.values(codes)) {
      const province = NUNAVUT_FSAS.has(e.zip) ? (['NU', 'Nunavut'] as const) : CANADA_BY_LETTER[e.zip.charAt(0)];
      if (!province) continue;
      const match = /^(.*?)\s*\((.*)\)\s*$/.exec(e.city);
      const city = (match ? match[1] : e.city).trim();
      const inner = match ? match[2].trim() : '';
      const place = inner && foldText(inner) !== foldText(city) ? inner.charAt(0).toUpperCase() + inner.slice(1) : city;
      records.push({ stateCode: province[0], state: province[1], city, place, postalCode: e.zip });
    }
    return records;
  },
};
