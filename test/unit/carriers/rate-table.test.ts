import { chargeableWeight, isPriceable, priceFor, type RateTable, zoneOf } from '../../../src/carriers/rate-table';

const table: RateTable = {
  steps: [
    { upToKg: 1, price: 100 },
    { upToKg: 5, price: 150 },
    { upToKg: 10, price: 200 },
    { upToKg: 30, price: 300 },
  ],
  perKgAbove: 10,
  maxKg: 50,
  transitDays: 2,
};

describe('rate tables', () => {
  it('bills the greater of actual weight and desi', () => {
    expect(chargeableWeight({ weightKg: 2, desi: 7.5 })).toBe(7.5);
    expect(chargeableWeight({ weightKg: 12, desi: 3 })).toBe(12);
    expect(chargeableWeight({ weightKg: 0, desi: 0 })).toBe(0);
  });

  it('prices by inclusive band upper bounds', () => {
    expect(priceFor(table, 0)).toBe(100);
    expect(priceFor(table, 1)).toBe(100);
    expect(priceFor(table, 1.01)).toBe(150);
    expect(priceFor(table, 5)).toBe(150);
    expect(priceFor(table, 10)).toBe(200);
    expect(priceFor(table, 10.5)).toBe(300);
    expect(priceFor(table, 30)).toBe(300);
  });

  it('adds a price per started kg above the last band', () => {
    expect(priceFor(table, 30.1)).toBe(310);
    expect(priceFor(table, 31)).toBe(310);
    expect(priceFor(table, 31.2)).toBe(320);
    expect(priceFor(table, 50)).toBe(500);
  });

  it('refuses above the maximum and nonsense weights', () => {
    expect(priceFor(table, 50.01)).toBeNull();
    expect(priceFor(table, -1)).toBeNull();
    expect(priceFor(table, Number.NaN)).toBeNull();
  });

  it('tells domestic from international by country, case-insensitively', () => {
    expect(zoneOf({ fromCountry: 'TR', toCountry: 'tr' })).toBe('domestic');
    expect(zoneOf({ fromCountry: 'TR', toCountry: 'DE' })).toBe('international');
  });

  it('only prices well-formed shipments', () => {
    const ok = { fromCountry: 'TR', toCountry: 'DE', weightKg: 1, desi: 0, packageCount: 1 };
    expect(isPriceable(ok)).toBe(true);
    expect(isPriceable({ ...ok, toCountry: 'DEU' })).toBe(false);
    expect(isPriceable({ ...ok, weightKg: -1 })).toBe(false);
    expect(isPriceable({ ...ok, desi: Number.POSITIVE_INFINITY })).toBe(false);
    expect(isPriceable({ ...ok, packageCount: 1.5 })).toBe(false);
  });
});
