import type { CustomsData, CustomsItem } from './customs.types';
import { DEFAULT_SDR_RATES, declaredValueSdr, type SdrRates } from './sdr';

/** Which customs documents a consignment needs. */
export interface CustomsDocuments {
  cn22: boolean;
  cn23: boolean;
  proforma: boolean;
}

/** UPU Convention: the CN22 may declare contents worth up to 300 SDR; above that the CN23 is required. */
export const CN22_CEILING_SDR = 300;

/**
 * The documents for a consignment's customs data; `undefined` (a domestic consignment) or no items needs
 * none. A proforma invoice goes with every international consignment with contents; exactly one of CN22
 * (≤ 300 SDR) and CN23 (> 300 SDR) is declared.
 *
 * When a currency has no SDR rate the value cannot be compared with the ceiling. Then CN23, not nothing:
 * the CN23 has no value ceiling, so it is a valid declaration at any value, while a CN22 for goods that may
 * be worth more than 300 SDR would be a wrong declaration. (declaredValueSdr tells the caller which
 * currency to add a rate for.)
 */
export function customsDocuments(data: CustomsData | undefined, rates: SdrRates = DEFAULT_SDR_RATES): CustomsDocuments {
  if (!data || data.items.length === 0) return { cn22: false, cn23: false, proforma: false };
  const value = declaredValueSdr(data.items, rates);
  const withinCn22 = 'sdr' in value && value.sdr <= CN22_CEILING_SDR;
  return { cn22: withinCn22, cn23: !withinCn22, proforma: true };
}

/** A draft's package as weight allocation sees it: only the package is weighed, its items are not. */
export interface WeighedPackage {
  weightKg: number;
  items: readonly { quantity: number }[];
}

/**
 * A net weight for every item line, per package: `result[p][i]` is the share of package p's weight for its
 * item i. Customs forms need a net weight per line and the lines must not add up to more than the gross
 * weight, but drafts weigh only packages. So each package's weight is split over its items in proportion
 * to their quantities (every unit counts alike: nothing better is known), in whole grams, the grams left
 * over by rounding down going to the largest remainders (Hamilton's method). Each package's shares then
 * sum to its weight cut to the gram, never more. A package whose items have no positive quantity is split
 * evenly; a package without a positive weight gives zeros.
 */
export function allocateItemWeights(packages: readonly WeighedPackage[]): number[][] {
  return packages.map((pkg) =>
    splitGrams(
      packageGrams(pkg.weightKg),
      pkg.items.map((item) => positive(item.quantity)),
    ).map((g) => g / 1000),
  );
}

/** The package weight in whole grams, rounded down so the shares never exceed it. */
function packageGrams(weightKg: number): number {
  if (!(weightKg > 0) || !Number.isFinite(weightKg)) return 0;
  // Through micrograms first: 1.2 × 1000 must be 1200, not 1199.9999999999998 rounded down to 1199.
  return Math.floor(Math.round(weightKg * 1e6) / 1000);
}

function positive(n: number): number {
  return n > 0 && Number.isFinite(n) ? n : 0;
}

/** `grams` split in proportion to `weights` (equally when none is positive), summing exactly to `grams`. */
function splitGrams(grams: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  const total = weights.reduce((sum, w) => sum + w, 0);
  const basis = total > 0 ? weights : weights.map(() => 1);
  const basisTotal = total > 0 ? total : weights.length;
  const exact = basis.map((w) => (grams * w) / basisTotal);
  const shares = exact.map(Math.floor);
  let left = grams - shares.reduce((sum, g) => sum + g, 0);
  // Largest remainder first; on ties the earlier line, so the result does not depend on sort stability.
  const order = exact.map((e, i) => ({ i, remainder: e - Math.floor(e) })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]++;
    left--;
  }
  return shares;
}

/** The content categories of the CN22 and CN23 ("Sale of goods" also stands for "Other"). */
export const CUSTOMS_CATEGORIES = ['gift', 'documents', 'commercialSample', 'returnedGoods', 'saleOfGoods'] as const;
export type CustomsCategory = (typeof CUSTOMS_CATEGORIES)[number];

/** Words an item's free-text category may hold for each form category, in English and Turkish (folded, see fold). */
const CATEGORY_WORDS: Record<CustomsCategory, string[]> = {
  gift: ['gift', 'gifts', 'hediye'],
  documents: ['document', 'documents', 'dokuman', 'dokumanlar', 'belge', 'belgeler', 'evrak'],
  commercialSample: ['commercial sample', 'commercial samples', 'sample', 'samples', 'ticari numune', 'numune'],
  returnedGoods: ['returned goods', 'returned good', 'return', 'returns', 'iade', 'iade mal', 'iade esya', 'iade edilen esya'],
  saleOfGoods: ['sale of goods', 'sale', 'sold goods', 'merchandise', 'other', 'mal satisi', 'satis', 'ticari esya', 'diger'],
};

/**
 * The form category of an item: its `category` when that names one of the form's categories, in English
 * or Turkish, ignoring case, accents and separators ("HEDİYE", "Doküman", "returned_goods"); otherwise
 * "Sale of goods", which is what a shop's consignment is.
 */
export function itemCategory(category: string | null): CustomsCategory {
  if (!category) return 'saleOfGoods';
  const folded = fold(category);
  return CUSTOMS_CATEGORIES.find((c) => CATEGORY_WORDS[c].includes(folded)) ?? 'saleOfGoods';
}

/** The categories to tick for a consignment: each item's. */
export function consignmentCategories(items: readonly Pick<CustomsItem, 'category'>[]): Set<CustomsCategory> {
  return new Set(items.map((item) => itemCategory(item.category)));
}

/**
 * Lower case without accents or separators. Turkish dotted and dotless i both become "i" because a
 * category may be typed with either locale's casing ("GIFT" lowered the Turkish way is "gıft").
 */
function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/[\s_\-/]+/g, ' ')
    .trim();
}
