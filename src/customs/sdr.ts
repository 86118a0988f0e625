import { currencyCode, roundTo, valueByCurrency } from './customs-amounts';
import type { CustomsItem } from './customs.types';

/**
 * Special Drawing Rights: the IMF's unit of account, in which the UPU sets the CN22 ceiling (300 SDR).
 * A rate is the number of SDR one unit of the currency is worth (the IMF's "SDRs per currency unit" table).
 */
export type SdrRates = Readonly<Record<string, number>>;

/**
 * Built-in rates, as at 2024-12-31. There is no network access where this runs, so the table lives in code
 * and an operator overrides it with current IMF values (parseSdrRates). These are APPROXIMATE (within
 * about 1%): they are computed from the SDR basket in force since 2022-08-01 (USD 0.57813, EUR 0.37379,
 * CNY 1.0993, JPY 13.452, GBP 0.080870 per SDR, i.e. 1 SDR ≈ 1.3040 USD on that day) and the market
 * rates of 2024-12-31 (for TRY and RUB the central banks' rates of that day, for AED and SAR their USD
 * pegs). They are not a copy of the IMF's published table for that day.
 */
export const DEFAULT_SDR_RATES: SdrRates = Object.freeze({
  USD: 0.7669,
  EUR: 0.79673,
  GBP: 0.96084,
  TRY: 0.021688,
  CHF: 0.84516,
  JPY: 0.0048785,
  CNY: 0.10506,
  CAD: 0.53297,
  AUD: 0.47455,
  SEK: 0.069402,
  NOK: 0.067449,
  DKK: 0.10684,
  PLN: 0.18705,
  AED: 0.20882,
  SAR: 0.20451,
  RUB: 0.0075422,
});

const ENTRY = /^([A-Za-z]{3})\s*=\s*(\d+(?:\.\d+)?)$/;

/**
 * An operator's rate setting, `"USD=0.74,EUR=0.80"`: the entries replace or add to `defaults`; currencies
 * not named keep their default rate. Empty entries (a trailing comma) are ignored. Throws on an entry that
 * is not CODE=RATE with a positive decimal rate, or on a currency given twice, naming the entry: a wrong
 * rate would silently choose the wrong customs form, so the setting must not half-parse.
 */
export function parseSdrRates(text: string, defaults: SdrRates = DEFAULT_SDR_RATES): SdrRates {
  const parsed = new Map<string, { rate: number; entry: string }>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const match = ENTRY.exec(entry);
    const rate = match ? Number(match[2]) : NaN;
    if (!match || !(rate > 0) || !Number.isFinite(rate)) {
      throw new Error(`SDR rate entry "${entry}" is not CODE=RATE with a positive decimal rate (SDR per unit), e.g. "USD=0.74"`);
    }
    const code = match[1].toUpperCase();
    const earlier = parsed.get(code);
    if (earlier) throw new Error(`SDR rate for ${code} is given twice: "${earlier.entry}" and "${entry}"`);
    parsed.set(code, { rate, entry });
  }
  const rates: Record<string, number> = { ...defaults };
  for (const [code, { rate }] of parsed) rates[code] = rate;
  return Object.freeze(rates);
}

/** The declared value in SDR, or the first currency that has no rate (then CN22 vs CN23 cannot be decided). */
export type DeclaredValue = { sdr: number } | { unknownCurrency: string };

/**
 * The consignment's declared value (Σ quantity × unit price) in SDR. Each currency's total is taken to the
 * cent as it is printed, converted, and the sum kept to the hundredth of an SDR so floating-point noise
 * cannot move a value across the 300 SDR ceiling.
 */
export function declaredValueSdr(
  items: readonly Pick<CustomsItem, 'quantity' | 'unitPrice' | 'currency'>[],
  rates: SdrRates = DEFAULT_SDR_RATES,
): DeclaredValue {
  let sdr = 0;
  for (const { currency, amount } of valueByCurrency(items)) {
    const rate = sdrRate(rates, currency);
    if (rate === undefined) return { unknownCurrency: currency };
    sdr += amount * rate;
  }
  return { sdr: roundTo(sdr, 2) };
}

function sdrRate(rates: SdrRates, currency: string): number | undefined {
  const code = currencyCode(currency);
  // Own keys only: "constructor" or "__proto__" must not look like a rate.
  return Object.hasOwn(rates, code) ? rates[code] : undefined;
}
