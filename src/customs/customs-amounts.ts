import type { CustomsItem } from './customs.types';

/** Money and weight arithmetic shared by the SDR check, the form decision and the PDFs, so all see the same numbers. */

/** A total in one currency. */
export interface CurrencyAmount {
  currency: string;
  amount: number;
}

/**
 * `n` rounded half up to `decimals` places. The product is first cut to 15 significant digits so that
 * binary noise does not decide the rounding (1.005 × 100 is 100.49999999999999 in floating point).
 */
export function roundTo(n: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(Number((n * scale).toPrecision(15))) / scale;
}

/** ISO 4217 codes compare case-insensitively and without stray spaces ("eur " is EUR). */
export function currencyCode(currency: string): string {
  return currency.trim().toUpperCase();
}

/** The line's value as printed: quantity × unit price, to the cent. */
export function lineValue(item: Pick<CustomsItem, 'quantity' | 'unitPrice'>): number {
  return roundTo(item.quantity * item.unitPrice, 2);
}

/**
 * The value per currency, in the order the currencies first appear. Sums of the printed (rounded) line
 * values, so a form's lines always add up to its totals. Currencies are never added together: a customs
 * form states each currency as declared, conversion is only for the CN22/CN23 decision (sdr.ts).
 */
export function valueByCurrency(items: readonly Pick<CustomsItem, 'quantity' | 'unitPrice' | 'currency'>[]): CurrencyAmount[] {
  const totals = new Map<string, number>();
  for (const item of items) {
    const code = currencyCode(item.currency);
    totals.set(code, (totals.get(code) ?? 0) + lineValue(item));
  }
  return [...totals].map(([currency, amount]) => ({ currency, amount: roundTo(amount, 2) }));
}

/** The sum of the lines' net weights, to the gram. */
export function totalNetWeightKg(items: readonly Pick<CustomsItem, 'netWeightKg'>[]): number {
  return roundTo(
    items.reduce((sum, item) => sum + item.netWeightKg, 0),
    3,
  );
}
