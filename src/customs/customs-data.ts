import type { DraftInput, PartyInput } from '../domain/draft';
import { DEFAULT_INCOTERMS_TYPE, INCOTERM_OF_TYPE } from '../domain/incoterms';
import { consignmentType } from '../domain/weights';
import type { ConsignmentRecord } from '../domain/consignment';
import { STATUS } from '../domain/statuses';
import { labelParty } from '../labels/label.types';
import { allocateItemWeights, customsDocuments, type CustomsDocuments } from './customs-forms';
import { DEFAULT_SDR_RATES, type SdrRates } from './sdr';
import type { CustomsData, CustomsItem, CustomsParty } from './customs.types';

/** What the customs documents are made from: a draft, or a stored consignment (the same fields). */
export type CustomsSource = Pick<DraftInput, 'consignor' | 'consignee' | 'packages' | 'invoice_number' | 'incoterms_type' | 'reference_no'>;

/** The currency of an item that names none: the consignment's country's, as the API documents for prices. */
const DEFAULT_ITEM_CURRENCY = 'TRY';

function customsParty(p: PartyInput = {}): CustomsParty {
  return {
    ...labelParty(p),
    ...(p.email ? { email: p.email } : {}),
    ...(p.tax_number ? { taxNumber: p.tax_number } : {}),
    ...(p.eori_number ? { eoriNumber: p.eori_number } : {}),
  };
}

/**
 * The customs documents' data of an international consignment with contents; undefined for a domestic one
 * or one that declares no items (there is nothing to declare, and no form applies). Items carry no weight
 * of their own: each gets a share of its package's (allocateItemWeights).
 */
export function customsDataOf(source: CustomsSource, context: { barcode: string | null; date: Date; carrierName: string | null }): CustomsData | undefined {
  if (consignmentType(source.consignor?.country, source.consignee?.country) !== 2) return undefined;
  const packages = source.packages ?? [];
  const lines = packages.map((p) => (p.items ?? []).map((item) => ({ quantity: item.quantity ?? 1, unitPrice: item.unit_price ?? 0 })));
  if (lines.every((items) => items.length === 0)) return undefined;
  const weights = allocateItemWeights(packages.map((p, i) => ({ weightKg: p.weight ?? 0, items: lines[i] })));
  const items: CustomsItem[] = packages.flatMap((p, i) =>
    (p.items ?? []).map((item, j) => ({
      description: item.description ?? '',
      gtip: item.gtip ?? null,
      originIso2: item.origin ?? source.consignor?.country ?? null,
      quantity: lines[i][j].quantity,
      unitPrice: lines[i][j].unitPrice,
      currency: item.currency_code ?? DEFAULT_ITEM_CURRENCY,
      netWeightKg: weights[i][j],
      category: item.category ?? null,
    })),
  );
  return {
    barcode: context.barcode,
    referenceNo: source.reference_no ?? null,
    invoiceNumber: source.invoice_number ?? null,
    date: context.date,
    sender: customsParty(source.consignor),
    receiver: customsParty(source.consignee),
    items,
    grossWeightKg: packages.reduce((sum, p) => sum + (p.weight ?? 0), 0),
    packageCount: packages.length,
    incoterms: INCOTERM_OF_TYPE[source.incoterms_type ?? DEFAULT_INCOTERMS_TYPE] ?? null,
    carrierName: context.carrierName,
  };
}

/** The date a customs document carries: the day the consignment was processed, else today (a draft's papers). */
export const documentDate = (c: ConsignmentRecord) => new Date(c.processed_at ?? Date.now());

/**
 * Which customs documents apply to a consignment, as its lookup's `permissions` say and the documents route
 * honours: none for a domestic one, one without items, or a cancelled one; else the proforma invoice and
 * the CN22 or the CN23 by declared value (customsDocuments). Drafts have them too, to check before shipping.
 */
export function applicableCustomsDocuments(c: ConsignmentRecord, rates: SdrRates = DEFAULT_SDR_RATES): CustomsDocuments {
  if (c.status === STATUS.CANCELLED) return { cn22: false, cn23: false, proforma: false };
  return customsDocuments(customsDataOf(c, { barcode: c.barcode, date: documentDate(c), carrierName: null }), rates);
}
