import type { PackageInput } from './draft';

interface Dimensions {
  length?: number | null;
  width?: number | null;
  height?: number | null;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Volumetric weight of one package: L × W × H (cm) / 3000, or 0 until all three dimensions are known. */
export function packageDesi(p: Dimensions): number {
  if (p.length == null || p.width == null || p.height == null) return 0;
  return round2((p.length * p.width * p.height) / 3000);
}

/** Consignment totals. Desi sums the rounded package values so it matches the per-package figures shown. */
export function totals(packages: PackageInput[]): { weight: number; desi: number } {
  let weight = 0;
  let desi = 0;
  for (const p of packages) {
    weight += p.weight ?? 0;
    desi += packageDesi(p);
  }
  return { weight: round2(weight), desi: round2(desi) };
}

/**
 * 1 = domestic, 2 = international. Only two known, different countries make it international; a draft with an unknown country counts as domestic until
 * both are known.
 */
export function consignmentType(consignorCountry?: string | null, consigneeCountry?: string | null): 1 | 2 {
  if (!consignorCountry || !consigneeCountry) return 1;
  return consignorCountry.toUpperCase() === consigneeCountry.toUpperCase() ? 1 : 2;
}
