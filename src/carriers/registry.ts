import { PREFERENCE } from '../domain/draft';
import type { Carrier, Quote, ShipmentSpec } from './carrier';

/** Draft `preference`: 0 specific provider, 1 cheapest, 2 fastest . */
export type Preference = (typeof PREFERENCE)[keyof typeof PREFERENCE];

export interface CarrierChoice {
  carrier: Carrier;
  quote: Quote;
}

/** The carriers the service can book, by provider id, and the rule that picks one for a shipment. */
export class CarrierRegistry {
  private readonly byId = new Map<number, Carrier>();

  constructor(carriers: Carrier[]) {
    for (const carrier of carriers) {
      if (this.byId.has(carrier.id)) throw new Error(`duplicate carrier id ${carrier.id}`);
      this.byId.set(carrier.id, carrier);
    }
  }

  get(id: number): Carrier | undefined {
    return this.byId.get(id);
  }

  /** By ascending id. */
  all(): Carrier[] {
    return [...this.byId.values()].sort((a, b) => a.id - b.id);
  }

  /**
   * 0: the given provider, null when it is unknown or cannot take the shipment.
   * 1: the cheapest quote among carriers that can take it; tie → lower id.
   * 2: the shortest transit; tie → cheaper, then lower id.
   * null when no carrier can take it. Costs are compared as numbers: all carriers quote in TRY.
   */
  async choose(spec: ShipmentSpec, preference: Preference, providerId?: number | null): Promise<CarrierChoice | null> {
    if (preference === PREFERENCE.SPECIFIC) {
      const carrier = providerId == null ? undefined : this.byId.get(providerId);
      const quote = await carrier?.quote(spec);
      return carrier && quote ? { carrier, quote } : null;
    }
    const candidates: CarrierChoice[] = [];
    for (const carrier of this.all()) {
      const quote = await carrier.quote(spec);
      if (quote) candidates.push({ carrier, quote });
    }
    return bestQuote(candidates, preference);
  }
}

/**
 * The preferred of quoted candidates: 1 the cheapest (tie → lower id), 2 the shortest transit (tie →
 * cheaper, then lower id). Costs are compared as numbers: callers pass quotes in one currency.
 */
export function bestQuote<T extends { quote: Quote; carrier: { id: number } }>(candidates: readonly T[], preference: Preference): T | null {
  const order =
    preference === PREFERENCE.FASTEST
      ? (a: T, b: T) => a.quote.transitDays - b.quote.transitDays || a.quote.baseCost - b.quote.baseCost || a.carrier.id - b.carrier.id
      : (a: T, b: T) => a.quote.baseCost - b.quote.baseCost || a.carrier.id - b.carrier.id;
  return [...candidates].sort(order)[0] ?? null;
}
