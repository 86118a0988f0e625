import type { Quote, ShipmentSpec } from './carrier';

/**
 * Step rate tables by chargeable weight, as carriers publish them: a price per weight band, then a
 * price per started kilogram above the last band, and a maximum above which the carrier refuses.
 */

export type Zone = 'domestic' | 'international';

export interface RateStep {
  /** Upper bound of the band in kg, inclusive. Bands are ascending and start at 0. */
  upToKg: number;
  price: number;
}

export interface RateTable {
  steps: readonly RateStep[];
  /** Price of each started kg above the last band. */
  perKgAbove: number;
  /** Heaviest chargeable weight accepted; heavier shipments are refused. */
  maxKg: number;
  transitDays: number;
}

/** The billed weight: the greater of the actual weight and the volumetric weight (desi), in kg. */
export function chargeableWeight(s: Pick<ShipmentSpec, 'weightKg' | 'desi'>): number {
  return Math.max(s.weightKg, s.desi);
}

/** Domestic when both countries are the same (case-insensitive ISO2). */
export function zoneOf(s: Pick<ShipmentSpec, 'fromCountry' | 'toCountry'>): Zone {
  return s.fromCountry.trim().toUpperCase() === s.toCountry.trim().toUpperCase() ? 'domestic' : 'international';
}

const ISO2 = /^[A-Za-z]{2}$/;

/** True when the spec can be priced at all: countries look like ISO2, numbers are finite and not negative. */
export function isPriceable(s: ShipmentSpec): boolean {
  return (
    ISO2.test(s.fromCountry.trim()) &&
    ISO2.test(s.toCountry.trim()) &&
    Number.isFinite(s.weightKg) &&
    Number.isFinite(s.desi) &&
    s.weightKg >= 0 &&
    s.desi >= 0 &&
    Number.isInteger(s.packageCount) &&
    s.packageCount >= 0
  );
}

/** Price in the table's currency for a chargeable weight, or null above the maximum. Rounded to kuruş. */
export function priceFor(table: RateTable, kg: number): number | null {
  if (!(kg >= 0) || kg > table.maxKg) return null;
  for (const step of table.steps) if (kg <= step.upToKg) return step.price;
  const last = table.steps[table.steps.length - 1];
  // Work in grams so 30.1 − 30 does not come out as 0.1000000000000014 and round up a kilo.
  const extraKg = Math.ceil((Math.round(kg * 1000) - Math.round(last.upToKg * 1000)) / 1000);
  return Math.round((last.price + extraKg * table.perKgAbove) * 100) / 100;
}

/** A carrier account's rate table as its settings hold it (JSON, snake_case): for carriers without a rating operation. */
export interface AccountRateSettings {
  currency?: string;
  transit_days?: number;
  /** bands by chargeable weight (the greater of kg and desi), ascending */
  bands: { up_to: number; price: number }[];
  per_unit_above?: number;
  max?: number;
}

/** The account's rate table in the form rate-table.ts prices with. */
export function rateTableOf(rates: AccountRateSettings): RateTable {
  const steps = rates.bands.map((b) => ({ upToKg: b.up_to, price: b.price }));
  return { steps, perKgAbove: rates.per_unit_above ?? 0, maxKg: rates.max ?? steps[steps.length - 1]?.upToKg ?? 0, transitDays: rates.transit_days ?? 1 };
}

/**
 * The quote of an account's rate table, for carriers without a rating operation that carry within one
 * country: null without a table, abroad, outside `country`, or over the table's maximum.
 */
export function rateTableQuote(
  table: RateTable | undefined,
  spec: ShipmentSpec,
  quoted: { providerId: number; country: string; currency?: string; serviceName: string },
): Quote | null {
  if (!table || zoneOf(spec) !== 'domestic' || spec.toCountry.trim().toUpperCase() !== quoted.country) return null;
  const price = priceFor(table, chargeableWeight(spec));
  if (price === null) return null;
  return {
    providerId: quoted.providerId,
    baseCost: price,
    currency: quoted.currency ?? 'TRY',
    transitDays: table.transitDays,
    serviceName: quoted.serviceName,
  };
}
