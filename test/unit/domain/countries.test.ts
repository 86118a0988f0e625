import { isCountryIso2, resolveCountry } from '../../../src/domain/countries';

describe('resolveCountry', () => {
  it.each(['TR', 'tr', 'TUR', 'tur', ' Tur '])('resolves %j to Türkiye', (code) => {
    expect(resolveCountry(code)).toEqual({ iso2: 'TR', iso3: 'TUR', name: 'Türkiye' });
  });

  it.each([
    ['DE', 'DEU', 'Germany'],
    ['gbr', 'GBR', 'United Kingdom'],
  ])('resolves %s with its English name', (code, iso3, name) => {
    expect(resolveCountry(code)).toMatchObject({ iso3, name });
  });

  it.each(['XX', 'ZZZ', '792', 'T', 'TURK', '', 'T1'])('does not resolve %j', (code) => {
    expect(resolveCountry(code)).toBeUndefined();
  });
});

describe('isCountryIso2', () => {
  it.each([
    ['TR', true],
    ['us', true],
    ['TUR', false],
    ['XX', false],
    ['', false],
  ])('%j → %s', (code, expected) => {
    expect(isCountryIso2(code)).toBe(expected);
  });
});
