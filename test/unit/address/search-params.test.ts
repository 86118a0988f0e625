import { buildSearchSql, planOf } from '../../../src/db/addresses.repository';
import { isIso2Country, parseAddressSearchQuery } from '../../../src/address/search-params';
import { DomainError, type Issue } from '../../../src/domain/errors';

function issuesOf(query: Record<string, unknown>): Issue[] {
  try {
    parseAddressSearchQuery(query);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return (error as DomainError).issues;
  }
  throw new Error('expected a validation error');
}

const valid = { countryIso2: 'TR', keyword: 'kadikoy', 'searchFields[]': 'city' };

describe('parseAddressSearchQuery', () => {
  it('accepts a minimal query with defaults', () => {
    expect(parseAddressSearchQuery(valid)).toEqual({ countryIso2: 'TR', keyword: 'kadikoy', searchFields: ['city'], page: 1, limit: 10 });
  });

  it('accepts repeated, single and unbracketed searchFields, deduplicated', () => {
    expect(parseAddressSearchQuery({ ...valid, 'searchFields[]': ['city', 'place', 'city'] }).searchFields).toEqual(['city', 'place']);
    expect(parseAddressSearchQuery({ countryIso2: 'tr', keyword: 'x', searchFields: 'postalCode' }).searchFields).toEqual(['postalCode']);
    expect(parseAddressSearchQuery({ countryIso2: 'tr', keyword: 'x', searchFields: 'state', 'searchFields[]': ['place'] }).searchFields).toEqual([
      'place',
      'state',
    ]);
    expect(parseAddressSearchQuery({ ...valid, 'searchFields[]': 'postalcode,CITY' }).searchFields).toEqual(['postalCode', 'city']);
  });

  it('normalises country case and trims the keyword', () => {
    expect(parseAddressSearchQuery({ ...valid, countryIso2: ' us ', keyword: '  9021 ' })).toMatchObject({ countryIso2: 'US', keyword: '9021' });
  });

  it('accepts page and limit at their bounds', () => {
    expect(parseAddressSearchQuery({ ...valid, page: '3', limit: '100' })).toMatchObject({ page: 3, limit: 100 });
    expect(parseAddressSearchQuery({ ...valid, page: '1', limit: '1' })).toMatchObject({ page: 1, limit: 1 });
    expect(parseAddressSearchQuery({ ...valid, page: '', limit: '' })).toMatchObject({ page: 1, limit: 10 });
  });

  it('reports every missing parameter at once', () => {
    expect(issuesOf({})).toEqual([
      { code: 'NOT_BLANK', field: 'countryIso2' },
      { code: 'NOT_BLANK', field: 'keyword' },
      { code: 'NOT_BLANK', field: 'searchFields' },
    ]);
  });

  it('reports every invalid parameter at once, with fields', () => {
    expect(issuesOf({ countryIso2: 'XX', keyword: '   ', 'searchFields[]': ['city', 'zip', 'street'], page: '0', limit: '101' })).toEqual([
      { code: 'INVALID_COUNTRY_ISO2', field: 'countryIso2' },
      { code: 'NOT_BLANK', field: 'keyword' },
      { code: 'INVALID_SEARCH_FIELD', field: 'searchFields[1]' },
      { code: 'INVALID_SEARCH_FIELD', field: 'searchFields[2]' },
      { code: 'TOO_SMALL', field: 'page', params: { min: 1 } },
      { code: 'TOO_LARGE', field: 'limit', params: { max: 100 } },
    ]);
  });

  it.each([
    [{ countryIso2: 'TUR' }, { code: 'INVALID_COUNTRY_ISO2', field: 'countryIso2' }],
    [{ countryIso2: '792' }, { code: 'INVALID_COUNTRY_ISO2', field: 'countryIso2' }],
    [{ countryIso2: ['TR', 'US'] }, { code: 'INVALID_TYPE', field: 'countryIso2', params: { type: 'string' } }],
    [{ keyword: 'k'.repeat(101) }, { code: 'TOO_LONG', field: 'keyword', params: { max: 100 } }],
    [{ keyword: ['a', 'b'] }, { code: 'INVALID_TYPE', field: 'keyword', params: { type: 'string' } }],
    [{ 'searchFields[]': '' }, { code: 'NOT_BLANK', field: 'searchFields' }],
    [{ page: 'abc' }, { code: 'INVALID_TYPE', field: 'page', params: { type: 'integer' } }],
    [{ page: '1.5' }, { code: 'INVALID_TYPE', field: 'page', params: { type: 'integer' } }],
    [{ page: '-1' }, { code: 'TOO_SMALL', field: 'page', params: { min: 1 } }],
    [{ page: '99999999999' }, { code: 'TOO_LARGE', field: 'page', params: { max: 2147483647 } }],
    [{ page: ['1', '2'] }, { code: 'INVALID_TYPE', field: 'page', params: { type: 'integer' } }],
    [{ limit: '0' }, { code: 'TOO_SMALL', field: 'limit', params: { min: 1 } }],
    [{ limit: 'ten' }, { code: 'INVALID_TYPE', field: 'limit', params: { type: 'integer' } }],
  ])('%j → %j', (patch, issue) => {
    expect(issuesOf({ ...valid, ...patch })).toEqual([issue]);
  });

  it('counts keyword length in characters', () => {
    expect(parseAddressSearchQuery({ ...valid, keyword: 'ş'.repeat(100) }).keyword).toHaveLength(100);
  });
});

describe('isIso2Country', () => {
  it('accepts ISO 3166-1 alpha-2 codes in any case only', () => {
    expect(['TR', 'tr', 'Us', 'FR', 'DE'].every(isIso2Country)).toBe(true);
    expect(['XX', 'TUR', '', 'T', 'UK', '12'].some(isIso2Country)).toBe(false);
  });
});

describe('buildSearchSql', () => {
  it('picks rows, distinct cities or distinct states from the finest field', () => {
    expect(planOf(['place']).mode).toBe('rows');
    expect(planOf(['postalCode', 'city']).mode).toBe('rows');
    expect(planOf(['city']).mode).toBe('cities');
    expect(planOf(['state', 'city']).mode).toBe('cities');
    expect(planOf(['state']).mode).toBe('states');
  });

  it('keeps the keyword out of the SQL text', () => {
    const keyword = 'caf%_\'\\"raga; DROP TABLE addresses; --';
    const built = buildSearchSql(['place', 'city', 'state', 'postalCode'], keyword)!;
    expect(built.sql).not.toMatch(/caf|raga|DROP/i);
    expect(built.params).toContain('caf raga drop table addresses');
    expect(built.params).toContain('caf raga drop table addresses%');
  });

  it('escapes LIKE metacharacters that survive folding (postal codes keep none, names keep letters and digits)', () => {
    const built = buildSearchSql(['postalCode'], '34_7%')!;
    expect(built.params).toContain('347%');
  });

  it('needs something to match', () => {
    expect(buildSearchSql(['place'], '%_%')).toBeUndefined();
  });
});
