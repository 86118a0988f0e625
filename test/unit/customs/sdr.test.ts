import { customsDocuments } from '../../../src/customs/customs-forms';
import { DEFAULT_SDR_RATES, declaredValueSdr, parseSdrRates } from '../../../src/customs/sdr';
import { customsData, item } from './fixtures';

const REQUIRED = ['USD', 'EUR', 'GBP', 'TRY', 'CHF', 'JPY', 'CNY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'AED', 'SAR', 'RUB'];

describe('DEFAULT_SDR_RATES', () => {
  it('has a plausible rate for every required currency', () => {
    for (const code of REQUIRED) {
      expect(DEFAULT_SDR_RATES[code]).toBeGreaterThan(0);
    }
    // Sanity against the basket: 1 SDR is worth more than 1 USD and 1 EUR but less than 1 GBP... a GBP is ~0.96 SDR.
    expect(DEFAULT_SDR_RATES.USD).toBeGreaterThan(0.7);
    expect(DEFAULT_SDR_RATES.USD).toBeLessThan(0.8);
    expect(DEFAULT_SDR_RATES.EUR).toBeGreaterThan(DEFAULT_SDR_RATES.USD);
    expect(DEFAULT_SDR_RATES.GBP).toBeGreaterThan(DEFAULT_SDR_RATES.EUR);
    expect(DEFAULT_SDR_RATES.JPY).toBeLessThan(0.01);
    expect(Object.isFrozen(DEFAULT_SDR_RATES)).toBe(true);
  });
});

describe('declaredValueSdr', () => {
  it('converts quantity × unit price at the currency rate', () => {
    expect(declaredValueSdr([item({ quantity: 3, unitPrice: 10, currency: 'USD' })], { USD: 0.75 })).toEqual({ sdr: 22.5 });
  });

  it('adds up lines in several currencies, each at its own rate, currency codes in any case', () => {
    const items = [
      item({ quantity: 2, unitPrice: 50, currency: 'EUR' }),
      item({ quantity: 1, unitPrice: 100, currency: 'usd' }),
      item({ quantity: 4, unitPrice: 250, currency: ' TRY ' }),
      item({ quantity: 1, unitPrice: 25, currency: 'EUR' }),
    ];
    // EUR 125 × 0.8 + USD 100 × 0.75 + TRY 1000 × 0.02 = 100 + 75 + 20
    expect(declaredValueSdr(items, { EUR: 0.8, USD: 0.75, TRY: 0.02 })).toEqual({ sdr: 195 });
  });

  it('uses the built-in table by default', () => {
    const value = declaredValueSdr([item({ quantity: 1, unitPrice: 100, currency: 'USD' })]);
    expect(value).toEqual({ sdr: Math.round(100 * DEFAULT_SDR_RATES.USD * 100) / 100 });
  });

  it('names the currency that has no rate', () => {
    const items = [item({ currency: 'EUR' }), item({ currency: 'xts' })];
    expect(declaredValueSdr(items, { EUR: 0.8 })).toEqual({ unknownCurrency: 'XTS' });
    // inherited object keys are not rates
    expect(declaredValueSdr([item({ currency: 'constructor' })], DEFAULT_SDR_RATES)).toEqual({ unknownCurrency: 'CONSTRUCTOR' });
  });

  it('is 0 for no items', () => {
    expect(declaredValueSdr([], DEFAULT_SDR_RATES)).toEqual({ sdr: 0 });
  });
});

describe('customsDocuments and the 300 SDR ceiling', () => {
  const withItems = (...items: ReturnType<typeof item>[]) => customsData({ items });

  it('chooses CN22 at exactly 300 SDR and CN23 at 300.01 SDR', () => {
    const rates = { USD: 0.5 };
    expect(customsDocuments(withItems(item({ quantity: 2, unitPrice: 300, currency: 'USD' })), rates)).toEqual({ cn22: true, cn23: false, proforma: true });
    expect(customsDocuments(withItems(item({ quantity: 1, unitPrice: 600.02, currency: 'USD' })), rates)).toEqual({ cn22: false, cn23: true, proforma: true });
  });

  it('is not pushed over the ceiling by floating-point noise', () => {
    // 1 × 0.1 + 1499.5 × 0.2 is 300.00000000000006 in binary floating point
    expect(1 * 0.1 + 1499.5 * 0.2).toBeGreaterThan(300);
    const items = [item({ quantity: 1, unitPrice: 1, currency: 'AAA' }), item({ quantity: 1, unitPrice: 1499.5, currency: 'BBB' })];
    expect(customsDocuments(withItems(...items), { AAA: 0.1, BBB: 0.2 }).cn22).toBe(true);
  });

  it('sums mixed currencies before comparing', () => {
    const rates = { EUR: 0.8, USD: 0.75 };
    const under = withItems(item({ quantity: 1, unitPrice: 200, currency: 'EUR' }), item({ quantity: 1, unitPrice: 186.66, currency: 'USD' })); // 160 + 139.995 → 300.00
    const over = withItems(item({ quantity: 1, unitPrice: 200, currency: 'EUR' }), item({ quantity: 1, unitPrice: 186.68, currency: 'USD' })); // 160 + 140.01
    expect(customsDocuments(under, rates)).toMatchObject({ cn22: true, cn23: false });
    expect(customsDocuments(over, rates)).toMatchObject({ cn22: false, cn23: true });
  });

  it('falls back to CN23 (no value ceiling) when a currency has no rate', () => {
    expect(customsDocuments(withItems(item({ unitPrice: 1, currency: 'XAU' })), { EUR: 0.8 })).toEqual({ cn22: false, cn23: true, proforma: true });
  });

  it('needs no document for a domestic consignment or one without items', () => {
    expect(customsDocuments(undefined, DEFAULT_SDR_RATES)).toEqual({ cn22: false, cn23: false, proforma: false });
    expect(customsDocuments(withItems(), DEFAULT_SDR_RATES)).toEqual({ cn22: false, cn23: false, proforma: false });
  });
});

describe('parseSdrRates', () => {
  it('overrides and adds to the defaults, keeping the rest', () => {
    const rates = parseSdrRates(' usd = 0.74 , EUR=0.80,XTS=1.5,');
    expect(rates.USD).toBe(0.74);
    expect(rates.EUR).toBe(0.8);
    expect(rates.XTS).toBe(1.5);
    expect(rates.GBP).toBe(DEFAULT_SDR_RATES.GBP);
    expect(DEFAULT_SDR_RATES.USD).not.toBe(0.74);
  });

  it('takes other defaults, or none', () => {
    expect(parseSdrRates('USD=0.7', {})).toEqual({ USD: 0.7 });
    expect(parseSdrRates('', { EUR: 0.8 })).toEqual({ EUR: 0.8 });
  });

  it.each([
    ['USD', '"USD"'],
    ['USD=', '"USD="'],
    ['USD=abc', '"USD=abc"'],
    ['USD=-0.7', '"USD=-0.7"'],
    ['USD=0', '"USD=0"'],
    ['USD=0x10', '"USD=0x10"'],
    ['US=0.7', '"US=0.7"'],
    ['EUR=0.8,DOLLAR=0.7', '"DOLLAR=0.7"'],
    ['EUR=0.8;USD=0.7', '"EUR=0.8;USD=0.7"'],
  ])('rejects %s, naming the entry', (setting, named) => {
    expect(() => parseSdrRates(setting)).toThrow(named);
  });

  it('rejects a currency given twice', () => {
    expect(() => parseSdrRates('USD=0.7,usd=0.8')).toThrow('SDR rate for USD is given twice: "USD=0.7" and "usd=0.8"');
  });
});
