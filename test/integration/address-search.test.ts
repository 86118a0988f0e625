import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureAddressData, storedVersion } from '../../src/address/address-data';
import { DATASETS } from '../../src/address/datasets';
import { foldName } from '../../src/address/fold';
import { buildAddressHttpApp, type AddressHttpApp } from '../support/address-http';
import type { Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { ERROR_MESSAGES, translate } from '../../src/i18n/messages';
import type { ErrorCode } from '../../src/domain/errors';
import { openTestDatabase } from '../support/test-service';
import type { AddressSearchPage } from '../../src/db/addresses.repository';

/**
 * GET /api/v1/address/search through HTTP (app.inject) on the real app stack when src/api/app.ts provides
 * it. PGlite in memory by default; a fresh database on the PostgreSQL server of DATABASE_URL when set.
 */

let database: { db: Database; drop(): Promise<void> };
let http: AddressHttpApp;

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.db);
  const { loaded } = await ensureAddressData(database.db);
  expect(loaded).toEqual(['TR', 'US', 'CA', 'FR']);
  http = await buildAddressHttpApp(database.db);
}, 180_000);

afterAll(async () => {
  await http?.app.close();
  await database?.drop();
});

type Params = Record<string, string | number | readonly (string | number)[] | undefined>;

function queryString(params: Params): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
  }
  return parts.join('&');
}

async function get(params: Params, lang?: string) {
  const res = await http.app.inject({
    method: 'GET',
    url: `/api/v1/address/search?${queryString(params)}`,
    headers: { ...http.headers, ...(lang && { 'accept-language': lang }) },
  });
  return {
    status: res.statusCode,
    body: res.json() as { status: boolean; message: null; data: AddressSearchPage; errors: { message: string; field?: string }[] },
  };
}

async function search(countryIso2: string, keyword: string, fields: string[], extra: Params = {}): Promise<AddressSearchPage> {
  const res = await get({ countryIso2, keyword, 'searchFields[]': fields, ...extra });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe(true);
  expect(res.body.message).toBeNull();
  return res.body.data;
}

const top = (page: AddressSearchPage) => page.results[0];

describe('acceptance (issue 5)', () => {
  it('kadikoy in city finds Kadıköy, İstanbul', async () => {
    const page = await search('TR', 'kadikoy', ['city']);
    expect(top(page)).toEqual({ stateCode: '34', countryIso2: 'TR', city: 'Kadıköy', state: 'İstanbul', postalCode: '', place: '' });
  });

  it('caferaga finds Caferağa in Kadıköy with postal code 34710', async () => {
    for (const fields of [['place'], ['place', 'city', 'state', 'postalCode']]) {
      const page = await search('TR', 'caferaga', fields);
      expect(top(page)).toEqual({ stateCode: '34', countryIso2: 'TR', city: 'Kadıköy', state: 'İstanbul', postalCode: '34710', place: 'Caferağa Mah' });
    }
  });

  it('a US ZIP code prefix finds its towns', async () => {
    const page = await search('US', '9021', ['postalCode']);
    expect(page.results.map((r) => [r.postalCode, r.city, r.stateCode])).toEqual([
      ['90210', 'Beverly Hills', 'CA'],
      ['90211', 'Beverly Hills', 'CA'],
      ['90212', 'Beverly Hills', 'CA'],
      ['90213', 'Beverly Hills', 'CA'],
    ]);
    expect(page.total).toBe(4);
    const towns = await search('us', '902', ['postalCode'], { limit: 100 });
    expect(towns.results.map((r) => r.city)).toEqual(expect.arrayContaining(['Bell Gardens', 'Beverly Hills', 'Compton']));
    expect(towns.results.map((r) => r.postalCode)).toEqual([...towns.results.map((r) => r.postalCode)].sort());
    expect(towns.results.every((r) => r.postalCode.startsWith('902'))).toBe(true);
  });
});

describe('typos', () => {
  it.each([
    ['kadkoy', 'deletion'],
    ['kadioky', 'transposition'],
    ['kadikay', 'substitution'],
    ['kadiikoy', 'insertion'],
    ['kdaikoy', 'transposition at the start'],
  ])('%s (%s) finds Kadıköy', async (keyword) => {
    expect(top(await search('TR', keyword, ['city']))).toMatchObject({ city: 'Kadıköy', state: 'İstanbul' });
  });

  it.each([
    ['cafeaga', 'Caferağa Mah'],
    ['cafreaga', 'Caferağa Mah'],
    ['caferaha', 'Caferağa Mah'],
    ['fenrbahce', 'Fenerbahçe Mah'],
  ])('%s finds %s among places', async (keyword, place) => {
    const page = await search('TR', keyword, ['place']);
    expect(page.results.slice(0, 10).map((r) => r.place)).toContain(place);
  });

  it('finds a long name with two typos through trigram similarity', async () => {
    const page = await search('TR', 'kucukcekmece', ['city']);
    expect(top(page).city).toBe('Küçükçekmece');
    const twoTypos = await search('TR', 'kucukcekmce', ['city']);
    expect(twoTypos.results.map((r) => r.city)).toContain('Küçükçekmece');
  });

  it('finds misspelled US towns and French communes', async () => {
    expect(top(await search('US', 'bevrly hills', ['city'])).city).toBe('Beverly Hills');
    expect(top(await search('FR', 'mezavia', ['place'])).city).toBe('Ajaccio');
  });
});

describe('Turkish letters, case and suffixes', () => {
  it.each([
    ['sisli', 'city', 'Şişli'],
    ['uskudar', 'city', 'Üsküdar'],
    ['USKUDAR', 'city', 'Üsküdar'],
    ['üsküdar', 'city', 'Üsküdar'],
    ['KaDıKöY', 'city', 'Kadıköy'],
    ['KADIKÖY', 'city', 'Kadıköy'],
    ['igdir', 'state', 'Iğdır'],
    ['IĞDIR', 'state', 'Iğdır'],
    ['istanbul', 'state', 'İstanbul'],
    ['İSTANBUL', 'state', 'İstanbul'],
    ['ISTANBUL', 'state', 'İstanbul'],
    ['cankaya', 'city', 'Çankaya'],
  ])('%s in %s finds %s', async (keyword, field, expected) => {
    const result = top(await search('TR', keyword, [field]));
    expect(field === 'state' ? result.state : result.city).toBe(expected);
  });

  it.each(['Caferağa Mahallesi', 'caferaga mah.', 'CAFERAĞA MH', 'Caferağa Mah'])('%s finds Caferağa Mah first', async (keyword) => {
    expect(top(await search('TR', keyword, ['place']))).toMatchObject({ place: 'Caferağa Mah', postalCode: '34710' });
  });

  it('matches a village by its parent settlement too', async () => {
    const page = await search('TR', 'akdurak', ['place']);
    expect(page.results.map((r) => r.place)).toEqual(expect.arrayContaining(['Akdurak Köyü', 'Çakmak Mah (Akdurak Köyü)']));
    expect(page.results.findIndex((r) => r.place === 'Akdurak Köyü')).toBeLessThan(page.results.findIndex((r) => r.place === 'Çakmak Mah (Akdurak Köyü)'));
  });
});

describe('search fields', () => {
  it('postalCode: exact code and prefix, rows', async () => {
    const exact = await search('TR', '34710', ['postalCode']);
    expect(exact.results).toEqual([{ stateCode: '34', countryIso2: 'TR', city: 'Kadıköy', state: 'İstanbul', postalCode: '34710', place: 'Caferağa Mah' }]);
    const prefix = await search('TR', '3471', ['postalCode'], { limit: 100 });
    expect(prefix.total).toBeGreaterThan(1);
    expect(prefix.results.every((r) => r.postalCode.startsWith('3471'))).toBe(true);
    expect(top(prefix).postalCode).toBe('34710');
  });

  it('postalCode: a full Canadian postcode finds its forward sortation area', async () => {
    expect(top(await search('CA', 'T6E 1A1', ['postalCode']))).toMatchObject({ postalCode: 'T6E', city: 'Edmonton', stateCode: 'AB', state: 'Alberta' });
  });

  it('city: one row per (state, city)', async () => {
    const page = await search('TR', 'kadikoy', ['city']);
    expect(page.total).toBe(1);
    const paris = await search('FR', 'paris', ['city'], { limit: 100 });
    expect(paris.results.filter((r) => r.city === 'Paris 15e Arrondissement')).toHaveLength(1);
  });

  it('state: one row per state', async () => {
    const page = await search('TR', 'istanbul', ['state']);
    expect(page.results).toEqual([{ stateCode: '34', countryIso2: 'TR', city: '', state: 'İstanbul', postalCode: '', place: '' }]);
  });

  it('city and state: the districts of a province', async () => {
    const page = await search('TR', 'istanbul', ['city', 'state'], { limit: 100 });
    expect(page.total).toBe(39);
    expect(page.results.every((r) => r.state === 'İstanbul' && r.city !== '' && r.place === '')).toBe(true);
    expect(new Set(page.results.map((r) => r.city)).size).toBe(39);
  });

  it('place: one row per neighbourhood, every field filled', async () => {
    const page = await search('TR', 'fenerbahce', ['place']);
    expect(page.results).toContainEqual({
      stateCode: '34',
      countryIso2: 'TR',
      city: 'Kadıköy',
      state: 'İstanbul',
      postalCode: '34726',
      place: 'Fenerbahçe Mah',
    });
    expect(foldName(top(page).place)).toBe('fenerbahce');
  });

  it('place and city: rows matched through either field, best match first', async () => {
    const page = await search('TR', 'kadikoy', ['place', 'city'], { limit: 100 });
    expect(page.results.filter((r) => r.city === 'Kadıköy').length).toBe(21);
    expect(page.results.slice(0, 21).every((r) => r.city === 'Kadıköy' || r.place.startsWith('Kadıköy'))).toBe(true);
  });

  it('ranks exact before prefix before similar', async () => {
    const page = await search('TR', 'kale', ['place'], { limit: 100 });
    const keys = page.results.map((r) => foldName(r.place));
    const tierOf = (k: string) => (k === 'kale' ? 0 : k.startsWith('kale') ? 1 : k.split(' ').some((w) => w.startsWith('kale')) ? 2 : 3);
    const tiers = keys.map(tierOf);
    expect(tiers[0]).toBe(0);
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(new Set(tiers)).toEqual(new Set([0, 1]));
    // A typo: names starting with "kalee" first, then names one edit away ("kale"), then trigram-similar ones.
    const similar = (await search('TR', 'kalee', ['place'], { limit: 100 })).results.map((r) => foldName(r.place));
    const firstTypo = similar.findIndex((k) => !k.startsWith('kalee'));
    expect(firstTypo).toBeGreaterThan(0); // some names do start with "kalee", and names one edit away follow them
    expect(similar.slice(0, firstTypo).every((k) => k.startsWith('kalee'))).toBe(true);
    expect(similar.slice(firstTypo, firstTypo + 10)).toContain('kale');
  });

  it('a valid country without data, or without a match, is an empty page', async () => {
    for (const [country, keyword] of [
      ['DE', 'berlin'],
      ['TR', 'zzqxwv'],
    ]) {
      const page = await search(country, keyword, ['city', 'place']);
      expect(page).toEqual({ results: [], page: 1, lastPage: 1, limit: 10, total: 0 });
    }
  });
});

describe('pagination', () => {
  it('pages partition the results in a stable order', async () => {
    const all = await search('TR', 'kale', ['place'], { limit: 100 });
    expect(all.total).toBeGreaterThan(100);
    const pages: AddressSearchPage['results'] = [];
    for (let page = 1; page <= 4; page += 1) {
      const p = await search('TR', 'kale', ['place'], { limit: 25, page });
      expect(p).toMatchObject({ page, limit: 25, total: all.total, lastPage: Math.ceil(all.total / 25) });
      pages.push(...p.results);
    }
    expect(pages).toEqual(all.results);
    expect(await search('TR', 'kale', ['place'], { limit: 100 })).toEqual(all);
  });

  it('the last page is partial and a page past the end is empty with the right totals', async () => {
    const first = await search('TR', 'kadikoy', ['place', 'city'], { limit: 10 });
    const { total, lastPage } = first;
    expect(lastPage).toBe(Math.ceil(total / 10));
    const last = await search('TR', 'kadikoy', ['place', 'city'], { limit: 10, page: lastPage });
    expect(last.results).toHaveLength(total - (lastPage - 1) * 10);
    const past = await search('TR', 'kadikoy', ['place', 'city'], { limit: 10, page: lastPage + 1 });
    expect(past).toEqual({ results: [], page: lastPage + 1, lastPage, limit: 10, total });
    const farPast = await search('TR', 'kadikoy', ['city'], { page: 2_147_483_647 });
    expect(farPast).toEqual({ results: [], page: 2_147_483_647, lastPage: 1, limit: 10, total: 1 });
  });

  it('limit 1 and limit 100', async () => {
    expect((await search('TR', 'merkez', ['place'], { limit: 1 })).results).toHaveLength(1);
    const hundred = await search('TR', 'merkez', ['place'], { limit: 100 });
    expect(hundred.results).toHaveLength(100);
    expect(hundred.lastPage).toBe(Math.ceil(hundred.total / 100));
  });

  it('defaults to page 1 and limit 10', async () => {
    const page = await search('TR', 'merkez', ['place']);
    expect(page).toMatchObject({ page: 1, limit: 10 });
    expect(page.results).toHaveLength(10);
  });
});

describe('metacharacters are plain text', () => {
  it.each(['%', '_', '%%', '\\', "'", '"', "'; DROP TABLE addresses; --", '%_%', '\\%', 'caf%', '_aferaga', "caf'eraga", 'caf\\eraga'])(
    '%j is searched as text',
    async (keyword) => {
      const page = await search('TR', keyword, ['place', 'city', 'state', 'postalCode'], { limit: 100 });
      // Nothing matches everything: a wildcard would have returned thousands of rows.
      expect(page.total).toBeLessThan(1000);
    },
  );

  it('the table is still there and % or _ match nothing', async () => {
    expect((await search('TR', '%', ['place'])).total).toBe(0);
    expect((await search('TR', '_', ['postalCode'])).total).toBe(0);
    expect((await search('TR', '3471_', ['postalCode'])).results.every((r) => r.postalCode.startsWith('3471'))).toBe(true);
    expect(top(await search('TR', 'caferaga', ['place'])).place).toBe('Caferağa Mah');
  });
});

describe('validation errors (docs/api.md) in en and tr', () => {
  const message = (code: ErrorCode, lang: 'en' | 'tr', params?: Record<string, string | number>) => translate(ERROR_MESSAGES[code], lang, params);
  const base = { countryIso2: 'TR', keyword: 'kadikoy', 'searchFields[]': 'city' };

  it.each([
    ['missing country', { countryIso2: undefined }, 'countryIso2', 'NOT_BLANK', undefined],
    ['unknown country', { countryIso2: 'XX' }, 'countryIso2', 'INVALID_COUNTRY_ISO2', undefined],
    ['alpha-3 country', { countryIso2: 'TUR' }, 'countryIso2', 'INVALID_COUNTRY_ISO2', undefined],
    ['missing keyword', { keyword: undefined }, 'keyword', 'NOT_BLANK', undefined],
    ['blank keyword', { keyword: '   ' }, 'keyword', 'NOT_BLANK', undefined],
    ['long keyword', { keyword: 'k'.repeat(101) }, 'keyword', 'TOO_LONG', { max: 100 }],
    ['missing searchFields[]', { 'searchFields[]': undefined }, 'searchFields', 'NOT_BLANK', undefined],
    ['unknown search field', { 'searchFields[]': ['city', 'street'] }, 'searchFields[1]', 'INVALID_SEARCH_FIELD', undefined],
    ['page 0', { page: 0 }, 'page', 'TOO_SMALL', { min: 1 }],
    ['page not a number', { page: 'two' }, 'page', 'INVALID_TYPE', { type: 'integer' }],
    ['limit 0', { limit: 0 }, 'limit', 'TOO_SMALL', { min: 1 }],
    ['limit 101', { limit: 101 }, 'limit', 'TOO_LARGE', { max: 100 }],
    ['limit not an integer', { limit: '2.5' }, 'limit', 'INVALID_TYPE', { type: 'integer' }],
  ] as const)('%s', async (_name, patch, field, code, params) => {
    for (const lang of ['en', 'tr'] as const) {
      const res = await get({ ...base, ...patch }, lang);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: false, errors: [{ message: message(code, lang, params), field }] });
    }
  });

  it('says "Invalid countryIso2 code" as the API (docs/api.md) words it, and in Turkish', async () => {
    expect((await get({ ...base, countryIso2: 'ZZ' }, 'en')).body.errors).toEqual([{ message: 'Invalid countryIso2 code', field: 'countryIso2' }]);
    expect((await get({ ...base, countryIso2: 'ZZ' }, 'tr')).body.errors).toEqual([{ message: 'Geçersiz countryIso2 kodu', field: 'countryIso2' }]);
  });

  it('reports every problem at once', async () => {
    const res = await get({ countryIso2: 'XX', 'searchFields[]': ['nope'], page: '0', limit: '500' }, 'tr');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e) => e.field)).toEqual(['countryIso2', 'keyword', 'searchFields[0]', 'page', 'limit']);
    expect(res.body.errors[0].message).toBe('Geçersiz countryIso2 kodu');
  });

  it('accepts the unbracketed searchFields and a lower-case country', async () => {
    const res = await get({ countryIso2: 'tr', keyword: 'kadikoy', searchFields: 'city' });
    expect(res.status).toBe(200);
    expect(res.body.data.results[0].countryIso2).toBe('TR');
  });
});

describe('data loading', () => {
  it('is a no-op when every dataset is current', async () => {
    const started = Date.now();
    expect(await ensureAddressData(database.db)).toEqual({ loaded: [] });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reloads a country whose stored version differs, and only that one', async () => {
    const count = async () => (await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM addresses WHERE country_iso2 = 'CA'`)).rows[0].n;
    const before = await count();
    await database.db.query(`UPDATE address_datasets SET version = 'zipcodes@7.0.0+loader.1+index.1' WHERE country_iso2 = 'CA'`);
    expect(await ensureAddressData(database.db)).toEqual({ loaded: ['CA'] });
    expect(await count()).toBe(before);
    const ca = DATASETS.find((d) => d.country === 'CA')!;
    const stored = await database.db.query<{ version: string }>(`SELECT version FROM address_datasets WHERE country_iso2 = 'CA'`);
    expect(stored.rows[0].version).toBe(storedVersion(ca));
    expect(top(await search('CA', 'T6E', ['postalCode'])).city).toBe('Edmonton');
  }, 60_000);

  it('refuses a country it has no dataset for', async () => {
    await expect(ensureAddressData(database.db, { countries: ['DE'] })).rejects.toThrow(/No address dataset for DE/);
  });
});

describe('authentication', () => {
  it('needs an API key', async () => {
    const res = await http.app.inject({
      method: 'GET',
      url: `/api/v1/address/search?${queryString({ countryIso2: 'TR', keyword: 'x', 'searchFields[]': 'city' })}`,
    });
    expect(res.statusCode).toBe(401);
  });
});
