import {
  loadedAddressCountries,
  localitiesByCityKeys,
  localitiesByPostalCode,
  matchingNameKeys,
  postalCodesOf,
  statesByKeys,
  type AddressLocality,
} from '../db/addresses.repository';
import type { Queryable } from '../db/database';
import type { AddressCorrection, PartyRole, ResolvedField } from '../domain/address-correction';
import type { DraftInput, PartyInput } from '../domain/draft';
import type { Issue } from '../domain/errors';

/**
 * Address resolution (`address_resolver_type`, docs/api.md): each party's state, city and postal code checked
 * against the address data of its country, filled in or corrected when the data names exactly one place, and
 * — in the strict mode — a field error when it names none or several.
 *
 * The place is found from what the party gives, most specific first:
 * - a postal code names the (state, city) pairs it belongs to (one, mostly);
 * - a city name (its folded key, or names one typo away: "Cankya" → Çankaya) names the pairs with that city,
 *   narrowed by the state when the party gives one ("Merkez" is a district of many provinces);
 * - a city that is no district but a province ("Ankara", as Turkish addresses often put it) names only the
 *   state; with a postal code it narrows the code's places to that province.
 * Both given, both must agree. A country without address data is left as it is: there is nothing to judge by.
 */

export const ADDRESS_RESOLVER = { OFF: 0, CORRECT: 1, STRICT: 2 } as const;

export type { AddressCorrection } from '../domain/address-correction';

/** The lookups resolution needs; `addressLookups(q)` answers them from the database. */
export interface AddressLookups {
  loadedCountries(): Promise<Set<string>>;
  localitiesByPostalCode(country: string, postalCode: string): Promise<AddressLocality[]>;
  nameKeys(country: string, field: 'city' | 'state', name: string): Promise<{ keys: string[]; typo: boolean }>;
  localitiesByCityKeys(country: string, keys: string[]): Promise<AddressLocality[]>;
  statesByKeys(country: string, keys: string[]): Promise<string[]>;
  postalCodesOf(country: string, locality: AddressLocality): Promise<string[]>;
}

/**
 * The lookups from the database, each answer kept for the life of this object: one processing, or one batch
 * of an import, where every order's consignor is usually the same sender.
 */
export function addressLookups(q: Queryable): AddressLookups {
  const answers = new Map<string, Promise<unknown>>();
  const remembered = <T>(key: unknown[], ask: () => Promise<T>): Promise<T> => {
    const k = JSON.stringify(key);
    if (!answers.has(k)) answers.set(k, ask());
    return answers.get(k) as Promise<T>;
  };
  return {
    loadedCountries: () => remembered(['countries'], () => loadedAddressCountries(q)),
    localitiesByPostalCode: (country, postalCode) => remembered(['postal', country, postalCode], () => localitiesByPostalCode(q, country, postalCode)),
    nameKeys: (country, field, name) => remembered(['name', country, field, name], () => matchingNameKeys(q, country, field, name)),
    localitiesByCityKeys: (country, keys) => remembered(['cities', country, keys], () => localitiesByCityKeys(q, country, keys)),
    statesByKeys: (country, keys) => remembered(['states', country, keys], () => statesByKeys(q, country, keys)),
    postalCodesOf: (country, locality) => remembered(['codes', country, locality.state, locality.city], () => postalCodesOf(q, country, locality)),
  };
}

export interface PartyResolution {
  party: PartyInput;
  corrections: AddressCorrection[];
  /** why the party's place could not be told (the strict mode refuses with it) */
  problem?: Issue;
}

const same = (a: AddressLocality, b: AddressLocality) => a.state === b.state && a.city === b.city;
const describe = (places: AddressLocality[]) => places.map((p) => `${p.city} (${p.state})`).join(', ');
const blank = (value: string | null | undefined) => (value?.trim() ? value.trim() : undefined);

export async function resolveParty(lookups: AddressLookups, party: PartyInput, role: PartyRole, countries: Set<string>): Promise<PartyResolution> {
  const country = party.country?.trim().toUpperCase();
  if (!country || !countries.has(country)) return { party, corrections: [] };
  const postal = blank(party.postal_code);
  const city = blank(party.city);
  const state = blank(party.state);
  const field = (name: ResolvedField) => `${role}.${name}`;

  const byPostal = postal ? await lookups.localitiesByPostalCode(country, postal) : [];
  const states = state ? await lookups.statesByKeys(country, (await lookups.nameKeys(country, 'state', state)).keys) : [];
  let byCity: AddressLocality[] = [];
  let cityIsState: string | undefined;
  if (city) {
    const { keys } = await lookups.nameKeys(country, 'city', city);
    byCity = keys.length > 0 ? await lookups.localitiesByCityKeys(country, keys) : [];
    if (byCity.length === 0) {
      const provinces = await lookups.statesByKeys(country, (await lookups.nameKeys(country, 'state', city)).keys);
      if (provinces.length === 1) cityIsState = provinces[0];
    }
  }
  const inState = (places: AddressLocality[]) => (states.length > 0 ? places.filter((p) => states.includes(p.state)) : places);

  let candidates: AddressLocality[];
  if (byPostal.length > 0) {
    if (byCity.length > 0) candidates = byPostal.filter((p) => byCity.some((c) => same(p, c)));
    else if (cityIsState) candidates = byPostal.filter((p) => p.state === cityIsState);
    else candidates = byPostal;
    candidates = inState(candidates);
    if (candidates.length === 0) {
      return {
        party,
        corrections: [],
        problem: { code: 'ADDRESS_POSTAL_CODE_MISMATCH', field: field('postal_code'), params: { postal_code: postal!, places: describe(byPostal) } },
      };
    }
  } else {
    candidates = inState(byCity);
  }

  if (candidates.length > 1) {
    return {
      party,
      corrections: [],
      problem: { code: 'ADDRESS_AMBIGUOUS', field: field(city ? 'city' : 'postal_code'), params: { places: describe(candidates.slice(0, 5)) } },
    };
  }
  if (candidates.length === 0) {
    if (cityIsState && !postal) {
      // Only the province is known: the state can be filled in, the district cannot.
      const corrections: AddressCorrection[] = state ? [] : [{ party: role, field: 'state', from: party.state ?? null, to: cityIsState }];
      return { party: corrections.length ? { ...party, state: cityIsState } : party, corrections };
    }
    if (postal && !city)
      return { party, corrections: [], problem: { code: 'ADDRESS_POSTAL_CODE_UNKNOWN', field: field('postal_code'), params: { postal_code: postal } } };
    return { party, corrections: [], problem: { code: 'ADDRESS_CITY_UNKNOWN', field: field('city'), params: { city: city ?? '' } } };
  }

  const place = candidates[0];
  const corrections: AddressCorrection[] = [];
  const resolved: PartyInput = { ...party };
  const set = (name: ResolvedField, value: string) => {
    const current = name === 'postal_code' ? party.postal_code : party[name];
    if ((current ?? '') === value) return;
    corrections.push({ party: role, field: name, from: current ?? null, to: value });
    resolved[name] = value;
  };
  set('state', place.state);
  set('city', place.city);
  if (!postal || byPostal.length === 0) {
    const codes = await lookups.postalCodesOf(country, place);
    if (codes.length === 1) set('postal_code', codes[0]);
    else if (postal)
      return { party, corrections: [], problem: { code: 'ADDRESS_POSTAL_CODE_UNKNOWN', field: field('postal_code'), params: { postal_code: postal } } };
  }
  return { party: resolved, corrections };
}

export interface DraftResolution {
  draft: DraftInput;
  corrections: AddressCorrection[];
  problems: Issue[];
}

/**
 * Both parties of a draft, as its `address_resolver_type` asks: 0 nothing, 1 corrections only (a party that
 * cannot be told is left as given), 2 corrections and the problems (the caller refuses with them). A party
 * with a problem is never half corrected.
 */
export async function resolveDraftAddresses(
  lookups: AddressLookups,
  draft: DraftInput,
  mode = draft.address_resolver_type ?? ADDRESS_RESOLVER.OFF,
): Promise<DraftResolution> {
  if (mode !== ADDRESS_RESOLVER.CORRECT && mode !== ADDRESS_RESOLVER.STRICT) return { draft, corrections: [], problems: [] };
  const countries = await lookups.loadedCountries();
  const resolved: DraftInput = { ...draft };
  const corrections: AddressCorrection[] = [];
  const problems: Issue[] = [];
  for (const role of ['consignor', 'consignee'] as const) {
    const party = draft[role];
    if (!party) continue;
    const outcome = await resolveParty(lookups, party, role, countries);
    resolved[role] = outcome.party;
    corrections.push(...outcome.corrections);
    if (outcome.problem && mode === ADDRESS_RESOLVER.STRICT) problems.push(outcome.problem);
  }
  return { draft: resolved, corrections, problems };
}

/** A correction as the history tells it: `consignee city "Cankya" → "Çankaya" (address data)`. */
export function correctionText(c: AddressCorrection): string {
  return `Address corrected from the address data: ${c.party} ${c.field.replace('_', ' ')} ${c.from ? `"${c.from}"` : '(empty)'} → "${c.to}"`;
}
