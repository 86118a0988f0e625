import type { Caller } from '../../db/customers.repository';
import type { LabelSummary } from '../../db/labels.repository';
import type { ConsignmentRecord, HistoryEntry, StoredPackage } from '../../domain/consignment';
import { resolveCountry } from '../../domain/countries';
import type { PartyInput } from '../../domain/draft';
import { STATUS, statusMessage, statusName } from '../../domain/statuses';
import type { Locale } from '../../i18n/messages';

/** the API contract timestamps: `YYYY-MM-DD HH:MM:SS`, in UTC. */
export function formatTimestamp(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

export interface ProviderInfo {
  id: number;
  name: string;
  logo: string;
}
/** The provider of an id as lookups show it (built-in carriers and carrier accounts). */
export type ProviderDirectory = (id: number) => Promise<ProviderInfo | undefined>;

function party(p: PartyInput, form: 'create' | 'update' | 'detail') {
  const country = p.country ? resolveCountry(p.country) : undefined;
  return {
    name: p.name ?? null,
    ...(form !== 'update' ? { attention_name: p.attention_name ?? null } : {}),
    country: country?.name ?? null,
    ...(form === 'detail' ? { countryIso3: country?.iso3 ?? null } : { country_iso3: country?.iso3 ?? null }),
    state: p.state ?? null,
    city: p.city ?? null,
    address: p.address ?? null,
    postal_code: p.postal_code ?? null,
    phone: p.phone_number ?? null,
    email: p.email ?? null,
  };
}

function item(i: StoredPackage['items'][number], form: 'draft' | 'detail') {
  return {
    id: i.id,
    description: i.description ?? null,
    gtip: i.gtip ?? null,
    ...(form === 'detail' ? { category: i.category ?? null } : {}),
    origin: i.origin ?? null,
    currency: i.currency_code ?? null,
    unit_price: i.unit_price ?? null,
    quantity: i.quantity ?? null,
  };
}

/** the API (docs/api.md): the draft as create (`form` 'create', with attention_name) and update return it. */
export function toDraftResponse(c: ConsignmentRecord, locale: Locale, form: 'create' | 'update') {
  return {
    id: c.id,
    uuid: c.uuid,
    provider_id: c.provider_id,
    preference: c.preference,
    barcode: c.barcode,
    reference_no: c.reference_no,
    invoice_number: c.invoice_number,
    status: c.status,
    status_message: statusMessage(c.status, locale),
    weight: c.weight,
    desi: c.desi,
    consignor: party(c.consignor, form),
    consignee: party(c.consignee, form),
    packages: c.packages.map((p) => ({
      id: p.id,
      package_type: p.package_type ?? null,
      post_type: p.post_type ?? null,
      weight: p.weight ?? null,
      width: p.width ?? null,
      length: p.length ?? null,
      height: p.height ?? null,
      desi: p.desi,
      dangerous_goods: p.dangerous_goods ?? null,
      items: (p.items ?? []).map((i) => item(i, 'draft')),
    })),
    documents: c.documents,
    special_services: c.special_services,
    consignment_type: c.consignment_type,
    incoterms_type: c.incoterms_type,
    specific_shipping_method: c.specific_shipping_method,
    specific_provider_barcode: c.specific_provider_barcode,
    created_at: formatTimestamp(c.created_at),
    updated_at: formatTimestamp(c.updated_at),
  };
}

export interface DetailContext {
  history: HistoryEntry[];
  labels: LabelSummary[];
  labelUrl: (labelId: number, fileName: string) => string;
  caller: Caller;
  /** the consignment's provider, looked up by the caller */
  provider: ProviderInfo | undefined;
  locale: Locale;
}

/**
 * the API (docs/api.md), filled as far as the consignment's stage allows: a draft has no barcode, labels or costs yet
 * (costs are 0 in TRY, the service currency, until a carrier is booked). Customs documents (CN22, CN23,
 * proforma) are possible for a processed, not cancelled, international consignment.
 */
export function toDetailResponse(c: ConsignmentRecord, ctx: DetailContext) {
  const provider = ctx.provider && { id: ctx.provider.id, name: ctx.provider.name, logo: ctx.provider.logo };
  const customs = c.consignment_type === 2 && c.processed_at !== null && c.status !== STATUS.CANCELLED;
  return {
    id: c.id,
    uuid: c.uuid,
    parent: null,
    type: 'NORMAL',
    barcode: c.barcode,
    labels: ctx.labels.map((l) => ({
      id: l.id,
      provider: l.provider_id,
      file_name: l.file_name,
      file_url: ctx.labelUrl(l.id, l.file_name),
      tracking_code: l.tracking_code,
      label_type: l.label_type,
      tracking_type: l.tracking_type,
    })),
    reference_no: c.reference_no,
    consignmentType: c.consignment_type,
    status: c.status,
    status_message: statusMessage(c.status, ctx.locale),
    desi: c.desi,
    weight: c.weight,
    consignor: party(c.consignor, 'detail'),
    consignee: party(c.consignee, 'detail'),
    warehouse_id: null,
    consignee_id: null,
    details: ctx.history.map((h) => ({
      status: h.status,
      status_name: statusName(h.status),
      status_description: statusMessage(h.status, ctx.locale),
      message: h.message ?? statusMessage(h.status, ctx.locale),
      status_datetime: formatTimestamp(h.occurred_at),
      location: h.location,
    })),
    packages: c.packages.map((p) => ({
      id: p.id,
      package_type: p.package_type ?? null,
      post_type: p.post_type ?? null,
      quantity: p.quantity,
      dangerous_goods: p.dangerous_goods ?? null,
      items: (p.items ?? []).map((i) => item(i, 'detail')),
    })),
    documents: c.documents,
    created_at: formatTimestamp(c.created_at),
    updated_at: formatTimestamp(c.updated_at),
    provider_base_cost: c.provider_base_cost,
    additional_cost: c.additional_cost,
    rule_cost: c.rule_cost,
    service_fee: c.service_fee,
    special_service_fee: c.special_service_fee,
    total_cost: c.total_cost,
    currency_code: c.currency_code,
    currency_rate: c.currency_rate,
    permissions: {
      can_create_cn22: customs,
      can_create_cn23: customs,
      can_create_proforma_invoice: customs,
      can_send_to_provider_manually: false,
      can_recheck_manually: false,
    },
    customer: { id: ctx.caller.customerId, customer_code: ctx.caller.customerCode, name: ctx.caller.customerName, authorized_name: ctx.caller.authorizedName },
    user: { id: ctx.caller.userId, firstname: ctx.caller.firstname, lastname: ctx.caller.lastname },
    provider: provider ?? null,
    special_services: c.special_services,
    specific_shipping_method: c.specific_shipping_method,
  };
}
