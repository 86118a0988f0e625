/** Our fees on top of the carrier's price (TRY): a flat service fee and one per special service. */
export const FEES = { serviceFee: 7.5, perSpecialService: 25 } as const;

export interface Costs {
  baseCost: number;
  serviceFee: number;
  specialServiceFee: number;
  totalCost: number;
}

/** What the customer pays for a booking: the carrier's price plus our fees. */
export function costsOf(baseCost: number, specialServices: number): Costs {
  const specialServiceFee = FEES.perSpecialService * specialServices;
  return { baseCost, serviceFee: FEES.serviceFee, specialServiceFee, totalCost: baseCost + FEES.serviceFee + specialServiceFee };
}
