import type { DocumentInput, ItemInput, PackageInput, PartyInput, SpecialServiceInput } from './draft';
import { isDraft } from './statuses';

/** A stored package: what was sent plus the ids and desi the service assigns. */
export interface StoredItem extends ItemInput {
  id: number;
}
export interface StoredPackage extends Omit<PackageInput, 'items'> {
  id: number;
  desi: number;
  quantity: number;
  items: StoredItem[];
}

export interface HistoryEntry {
  status: number;
  message: string | null;
  location: string | null;
  occurred_at: string;
}

/**
 * The consignment as the read model holds it. Activities return it, the workflow passes it back to the
 * API as an update result, and the API's mappers turn it into the draft and detail shapes of the API (docs/api.md). Timestamps are ISO 8601 UTC.
 */
export interface ConsignmentRecord {
  id: number;
  uuid: string;
  customer_id: number;
  user_id: number | null;
  status: number;
  preference: number | null;
  provider_id: number | null;
  address_resolver_type: number;
  reference_no: string | null;
  invoice_number: string | null;
  incoterms_type: number;
  specific_shipping_method: string | null;
  generate_provider_barcode: boolean;
  specific_provider_barcode: string | null;
  barcode: string | null;
  consignor: PartyInput;
  consignee: PartyInput;
  packages: StoredPackage[];
  documents: DocumentInput[];
  special_services: SpecialServiceInput[];
  weight: number;
  desi: number;
  consignment_type: number;
  import_id: string | null;
  tracking_code: string | null;
  tracking_url: string | null;
  service_name: string | null;
  provider_base_cost: number;
  additional_cost: number;
  rule_cost: number;
  service_fee: number;
  special_service_fee: number;
  total_cost: number;
  currency_code: string;
  currency_rate: number;
  processed_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Processed already: no longer a draft, and labelled (it has our barcode). A retried processing (an import's
 * batch, an order event) that is refused NOT_DRAFT recognises its own earlier work by this.
 */
export function isProcessed(record: Pick<ConsignmentRecord, 'status' | 'barcode'>): boolean {
  return !isDraft(record.status) && record.barcode !== null;
}
