import { consignmentType, packageDesi, totals } from '../../../src/domain/weights';

describe('packageDesi', () => {
  it.each([
    [{ length: 50, width: 40, height: 30 }, 20],
    [{ length: 10, width: 10, height: 10 }, 0.33],
    [{ length: 20, width: 10, height: 10 }, 0.67],
    [{ length: 12.5, width: 8, height: 3 }, 0.1],
    [{ length: 0, width: 40, height: 30 }, 0],
  ])('%j → %d', (dimensions, desi) => {
    expect(packageDesi(dimensions)).toBe(desi);
  });

  it.each([{}, { length: 10, width: 10 }, { length: 10, width: null, height: 10 }])('is 0 while a dimension is missing (%j)', (dimensions) => {
    expect(packageDesi(dimensions)).toBe(0);
  });
});

describe('totals', () => {
  it('is 0 without packages', () => {
    expect(totals([])).toEqual({ weight: 0, desi: 0 });
  });

  it('sums weights, rounded to 2 decimals, counting a missing weight as 0', () => {
    expect(totals([{ weight: 1.1 }, { weight: 2.2 }, {}, { weight: null }])).toEqual({ weight: 3.3, desi: 0 });
  });

  it('sums the rounded package desi values', () => {
    const cube = { length: 10, width: 10, height: 10 };
    // 0.33 + 0.33, not round(0.666…) = 0.67
    expect(totals([cube, cube])).toEqual({ weight: 0, desi: 0.66 });
  });

  it('combines weight and desi', () => {
    expect(totals([{ weight: 4.25, length: 50, width: 40, height: 30 }, { weight: 0.75 }])).toEqual({ weight: 5, desi: 20 });
  });
});

describe('consignmentType', () => {
  it.each([
    ['TR', 'TR', 1],
    ['tr', 'TR', 1],
    ['TR', 'DE', 2],
    ['US', 'GB', 2],
    [null, 'DE', 1],
    ['TR', undefined, 1],
    ['', 'DE', 1],
    [undefined, undefined, 1],
  ])('%s → %s is %i', (from, to, type) => {
    expect(consignmentType(from, to)).toBe(type);
  });
});
