import { describe, expect, it } from '@jest/globals';
import { resolveDraftAddresses, resolveParty, type AddressLookups } from '../../../src/address/address-resolver';
import type { AddressLocality } from '../../../src/db/addresses.repository';
import { foldName, foldPostalCode } from '../../../src/address/fold';

/** A tiny address data set behind the lookups: records of (state, city, postal code). */
function lookupsOf(records: [state: string, city: string, postal: string][], countries = ['TR']): AddressLookups & { calls: number } {
  // Distinct and in (state, city) order, as the database answers.
  const localities = (rows: typeof records): AddressLocality[] =>
    [...new Map(rows.map(([state, city]) => [`${state}|${city}`, { state, city }])).values()].sort((a, b) => (a.state + a.city < b.state + b.city ? -1 : 1));
  const lookups = {
    calls: 0,
    loadedCountries: async () => {
      lookups.calls++;
      return new Set(countries);
    },
    localitiesByPostalCode: async (_c: string, postal: string) => localities(records.filter((r) => foldPostalCode(r[2]) === foldPostalCode(postal))),
    // Exact keys only here: typo matching is the database's (tested through the API).
    nameKeys: async (_c: string, field: 'city' | 'state', name: string) => {
      const key = foldName(name);
      const known = records.some((r) => foldName(field === 'city' ? r[1] : r[0]) === key);
      return { keys: known ? [key] : [], typo: false };
    },
    localitiesByCityKeys: async (_c: string, keys: string[]) => localities(records.filter((r) => keys.includes(foldName(r[1])))),
    statesByKeys: async (_c: string, keys: string[]) => [...new Set(records.filter((r) => keys.includes(foldName(r[0]))).map((r) => r[0]))],
    postalCodesOf: async (_c: string, l: AddressLocality) =>
      [...new Set(records.filter((r) => r[0] === l.state && r[1] === l.city).map((r) => r[2]))].slice(0, 2),
  };
  return lookups;
}

const DATA: [string, string, string][] = [
  ['İstanbul', 'Kadıköy', '34710'],
  ['İstanbul', 'Kadıköy', '34726'],
  ['Ankara', 'Çankaya', '06690'],
  ['Amasya', 'Merkez', '05000'],
  ['Aksaray', 'Merkez', '68000'],
  ['Aksaray', 'Sultanhanı', '68190'],
];
const TR = new Set(['TR']);

describe('resolveParty', () => {
  it('fills in the state and a city’s only postal code, and fixes the spelling of names', async () => {
    const r = await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'sultanhani' }, 'consignee', TR);
    expect(r.party).toMatchObject({ state: 'Aksaray', city: 'Sultanhanı', postal_code: '68190' });
    expect(r.corrections.map((c) => [c.field, c.from, c.to])).toEqual([
      ['state', null, 'Aksaray'],
      ['city', 'sultanhani', 'Sultanhanı'],
      ['postal_code', null, '68190'],
    ]);
    expect(r.problem).toBeUndefined();
  });

  it('lets the state or the postal code tell apart cities of one name, and reports the ambiguity otherwise', async () => {
    expect((await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'Merkez', state: 'amasya' }, 'consignee', TR)).party).toMatchObject({
      state: 'Amasya',
      postal_code: '05000',
    });
    expect((await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'Merkez', postal_code: '68000' }, 'consignee', TR)).party.state).toBe('Aksaray');
    const unclear = await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'Merkez' }, 'consignor', TR);
    expect(unclear.corrections).toEqual([]);
    expect(unclear.problem).toEqual({ code: 'ADDRESS_AMBIGUOUS', field: 'consignor.city', params: { places: 'Merkez (Aksaray), Merkez (Amasya)' } });
  });

  it('refuses a postal code that contradicts the city, and one the data does not have', async () => {
    const conflict = await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'Çankaya', postal_code: '34710' }, 'consignee', TR);
    expect(conflict.problem).toMatchObject({ code: 'ADDRESS_POSTAL_CODE_MISMATCH', field: 'consignee.postal_code' });
    expect(conflict.party.city).toBe('Çankaya');
    // Kadıköy has two codes: an unknown one cannot be replaced.
    const unknown = await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'Kadıköy', postal_code: '99999' }, 'consignee', TR);
    expect(unknown.problem).toEqual({ code: 'ADDRESS_POSTAL_CODE_UNKNOWN', field: 'consignee.postal_code', params: { postal_code: '99999' } });
    expect(unknown.corrections).toEqual([]);
  });

  it('takes a province written as the city as the state, and leaves a country without data alone', async () => {
    const province = await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'ANKARA' }, 'consignee', TR);
    expect(province.party).toMatchObject({ city: 'ANKARA', state: 'Ankara' });
    expect((await resolveParty(lookupsOf(DATA), { country: 'TR', city: 'Ankara', postal_code: '06690' }, 'consignee', TR)).party).toMatchObject({
      city: 'Çankaya',
      state: 'Ankara',
    });
    const abroad = { country: 'DE', city: 'Berlni' };
    expect(await resolveParty(lookupsOf(DATA), abroad, 'consignee', TR)).toEqual({ party: abroad, corrections: [] });
  });
});

describe('resolveDraftAddresses', () => {
  const draft = { consignor: { country: 'TR', city: 'Merkez' }, consignee: { country: 'TR', city: 'kadıköy', postal_code: '34726' } };

  it('1 corrects what it can and reports nothing; 2 also reports every party it cannot place', async () => {
    const one = await resolveDraftAddresses(lookupsOf(DATA), { ...draft, address_resolver_type: 1 });
    expect(one.problems).toEqual([]);
    expect(one.draft.consignee).toMatchObject({ city: 'Kadıköy', state: 'İstanbul', postal_code: '34726' });
    expect(one.draft.consignor).toEqual(draft.consignor);
    const two = await resolveDraftAddresses(lookupsOf(DATA), { ...draft, address_resolver_type: 2 });
    expect(two.problems.map((p) => p.field)).toEqual(['consignor.city']);
    expect(two.corrections).toHaveLength(2);
  });

  it('0, absent or an unknown mode does not look at the data at all', async () => {
    for (const mode of [0, undefined, 7]) {
      const lookups = lookupsOf(DATA);
      const r = await resolveDraftAddresses(lookups, { ...draft, address_resolver_type: mode });
      expect(r).toEqual({ draft: { ...draft, address_resolver_type: mode }, corrections: [], problems: [] });
      expect(lookups.calls).toBe(0);
    }
  });
});
