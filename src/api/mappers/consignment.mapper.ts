import type { ConsignmentDetails } from '../../db/consignments.repository';
import type { Caller } from '../../db/customers.repository';
import { applicableCustomsDocuments } from '../../customs/customs-data';
import type { SdrRates } from '../../customs/sdr';
import type { DocumentRecord } from '../../db/documents.repository';
import type { LabelSummary } from '../../db/labels.repository';
import type { ConsignmentRecord, HistoryEntry, StoredPackage } from '../../domain/consignment';
import { resolveCountry } from '../../domain/countries';
import { orNull } from '../../domain/nulls';
import type { PartyInput } from '../../domain/draft';
import { statusMessage, statusName } from '../../domain/statuses';
import type { Locale } from '../../i18n/messages';
import { z } from 'zod';
import { answerSchema } from '../openapi/operation';
import { toDocumentResponse } from './document.mapper';
import { formatTimestamp } from './timestamps';

// The answers' schemas (the OpenAPI document); the mappers' return types are derived from them.
const text = () => z.string().nullable();
const timestamp = () => z.string().meta({ description: 'UTC, `YYYY-MM-DD HH:MM:SS`', examples: ['2025-05-01 09:59:59'] });
const partyBase = {
  name: text(),
  country: text().meta({ description: 'English short name' }),
  state: text(),
  city: text(),
  address: text(),
  postal_code: text(),
  phone: text(),
  email: text(),
};
const DraftParty = answerSchema(
  'DraftParty',
  z.object({ ...partyBase, attention_name: text().optional().meta({ description: 'on create only' }), country_iso3: text() }),
);
const DetailParty = answerSchema('DetailParty', z.object({ ...partyBase, attention_name: text(), countryIso3: text() }));
const itemFields = {
  id: z.int(),
  description: text(),
  gtip: text(),
  origin: text().meta({ description: 'ISO 3166-1 alpha-2' }),
  currency: text(),
  unit_price: z.number().nullable(),
  quantity: z.int().nullable(),
};
const DraftItem = z.object(itemFields);
const DetailItem = z.object({ ...itemFields, category: text() });
const DocumentRef = z.object({ id: z.int() });
const SpecialService = z.object({ service_type: z.string(), details: z.record(z.string(), z.unknown()).optional() });

export const DraftAnswer = answerSchema(
  'Draft',
  z.object({
    id: z.int(),
    uuid: z.uuid(),
    provider_id: z.int().nullable(),
    preference: z.int().nullable(),
    barcode: text(),
    reference_no: text(),
    invoice_number: text(),
    status: z.int().meta({ description: '24 (draft)' }),
    status_message: z.string(),
    weight: z.number(),
    desi: z.number(),
    consignor: DraftParty,
    consignee: DraftParty,
    packages: z.array(
      z.object({
        id: z.int(),
        package_type: z.int().nullable(),
        post_type: z.int().nullable(),
        weight: z.number().nullable(),
        width: z.number().nullable(),
        length: z.number().nullable(),
        height: z.number().nullable(),
        desi: z.number(),
        dangerous_goods: z.boolean().nullable(),
        items: z.array(DraftItem),
      }),
    ),
    documents: z.array(DocumentRef),
    special_services: z.array(SpecialService),
    consignment_type: z.int().meta({ description: '1 domestic, 2 international' }),
    incoterms_type: z.int(),
    specific_shipping_method: text(),
    specific_provider_barcode: text(),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
  { description: 'A draft consignment (status 24).' },
);

export const DetailAnswer = answerSchema(
  'ConsignmentDetail',
  z.object({
    id: z.int(),
    uuid: z.uuid(),
    parent: z.null(),
    type: z.literal('NORMAL'),
    barcode: text(),
    labels: z.array(
      z.object({
        id: z.int(),
        provider: z.int(),
        file_name: z.string(),
        file_url: z.string().meta({ description: 'signed download link (no API key needed)' }),
        tracking_code: z.string(),
        label_type: z.int(),
        tracking_type: z.int(),
      }),
    ),
    reference_no: text(),
    consignmentType: z.int(),
    status: z.int(),
    status_message: z.string(),
    desi: z.number(),
    weight: z.number(),
    consignor: DetailParty,
    consignee: DetailParty,
    warehouse_id: z.null(),
    consignee_id: z.null(),
    details: z
      .array(
        z.object({
          status: z.int(),
          status_name: z.string(),
          status_description: z.string(),
          message: z.string(),
          status_datetime: timestamp(),
          location: text(),
        }),
      )
      .meta({ description: 'the status history, oldest first' }),
    packages: z.array(
      z.object({
        id: z.int(),
        package_type: z.int().nullable(),
        post_type: z.int().nullable(),
        quantity: z.int(),
        dangerous_goods: z.boolean().nullable(),
        items: z.array(DetailItem),
      }),
    ),
    documents: z
      .array(
        z.object({
          id: z.int(),
          file_name: text(),
          content_type: text(),
          size: z.int().nullable(),
          file_url: text().meta({ description: 'signed download link (no API key needed); null for an id that names no uploaded document' }),
          created_at: text(),
        }),
      )
      .meta({ description: 'the uploaded documents the consignment references (POST /documents)' }),
    created_at: timestamp(),
    updated_at: timestamp(),
    provider_base_cost: z.number(),
    additional_cost: z.number(),
    rule_cost: z.number(),
    service_fee: z.number(),
    special_service_fee: z.number(),
    total_cost: z.number(),
    currency_code: z.string(),
    currency_rate: z.number(),
    permissions: z.object({
      can_create_cn22: z.boolean(),
      can_create_cn23: z.boolean(),
      can_create_proforma_invoice: z.boolean(),
      can_send_to_provider_manually: z.boolean(),
      can_recheck_manually: z.boolean(),
    }),
    customer: z.object({ id: z.int(), customer_code: z.string(), name: z.string(), authorized_name: text() }),
    user: z.object({ id: z.int().nullable(), firstname: text(), lastname: text() }),
    provider: z.object({ id: z.int(), name: z.string(), logo: z.string() }).nullable(),
    special_services: z.array(SpecialService),
    specific_shipping_method: text(),
  }),
  { description: 'A consignment in detail form, filled as far as its stage allows.' },
);

export interface ProviderInfo {
  id: number;
  name: string;
  logo: string;
}
/** The provider of an id as lookups show it (built-in carriers and carrier accounts). */
export type ProviderDirectory = (id: number) => Promise<ProviderInfo | undefined>;

/** A party in the draft form (`attention_name` on create only) or the detail form (`countryIso3`). */
function party(p: PartyInput, form: 'create' | 'update'): z.output<typeof DraftParty>;
function party(p: PartyInput, form: 'detail'): z.output<typeof DetailParty>;
function party(p: PartyInput, form: 'create' | 'update' | 'detail') {
  const country = p.country ? resolveCountry(p.country) : undefined;
  return {
    name: p.name ?? null,
    ...(form !== 'update' ? { attention_name: p.attention_name ?? null } : {}),
    country: country?.name ?? null,
    ...(form === 'detail' ? { countryIso3: country?.iso3 ?? null } : { country_iso3: country?.iso3 ?? null }),
    ...orNull(p, ['state', 'city', 'address', 'postal_code']),
    phone: p.phone_number ?? null,
    email: p.email ?? null,
  };
}

function item(i: StoredPackage['items'][number]): z.output<typeof DraftItem> {
  return {
    id: i.id,
    ...orNull(i, ['description', 'gtip', 'origin']),
    currency: i.currency_code ?? null,
    ...orNull(i, ['unit_price', 'quantity']),
  };
}

/** the API (docs/api.md): the draft as create (`form` 'create', with attention_name) and update return it. */
export function toDraftResponse(c: ConsignmentRecord, locale: Locale, form: 'create' | 'update'): z.output<typeof DraftAnswer> {
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
      ...orNull(p, ['package_type', 'post_type', 'weight', 'width', 'length', 'height']),
      desi: p.desi,
      dangerous_goods: p.dangerous_goods ?? null,
      items: (p.items ?? []).map(item),
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
  /** the uploaded documents among `documents[].id` */
  documents: DocumentRecord[];
  labelUrl: (labelId: number, fileName: string) => string;
  documentUrl: (documentId: number, fileName: string) => string;
  caller: Caller;
  /** the consignment's provider, looked up by the caller */
  provider: ProviderInfo | undefined;
  locale: Locale;
  /** SDR rates of the operator's setting (CUSTOMS_SDR_RATES), for which customs documents apply */
  sdrRates?: SdrRates;
}

/**
 * the API (docs/api.md), filled as far as the consignment's stage allows: a draft has no barcode, labels or costs yet
 * (costs are 0 in TRY, the service currency, until a carrier is booked). `permissions` name the customs
 * documents that apply (applicableCustomsDocuments), as GET /consignments/{id}/documents/{kind}.pdf honours them.
 */
export function toDetailResponse(c: ConsignmentRecord, ctx: DetailContext): z.output<typeof DetailAnswer> {
  const provider = ctx.provider && { id: ctx.provider.id, name: ctx.provider.name, logo: ctx.provider.logo };
  const customs = applicableCustomsDocuments(c, ctx.sdrRates);
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
      ...orNull(p, ['package_type', 'post_type']),
      quantity: p.quantity,
      dangerous_goods: p.dangerous_goods ?? null,
      items: (p.items ?? []).map((i) => ({ ...item(i), category: i.category ?? null })),
    })),
    documents: c.documents.map(({ id }) => {
      const file = ctx.documents.find((d) => d.id === id);
      return file ? toDocumentResponse(file, ctx.documentUrl) : { id, file_name: null, content_type: null, size: null, file_url: null, created_at: null };
    }),
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
      can_create_cn22: customs.cn22,
      can_create_cn23: customs.cn23,
      can_create_proforma_invoice: customs.proforma,
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

export type ConsignmentDetail = z.output<typeof DetailAnswer>;

/**
 * The detail form of found consignments for one caller, as the API's lookups and list answer it and the console
 * shows it. Each provider is looked up once per mapper (a page of a hundred names a few): make one per request.
 */
export function detailMapper(
  deps: { describeProvider: ProviderDirectory; labelUrl: DetailContext['labelUrl']; documentUrl: DetailContext['documentUrl']; sdrRates?: SdrRates },
  request: { caller: Caller; locale: Locale },
) {
  const seen = new Map<number, Promise<ProviderInfo | undefined>>();
  const provider = (id: number) => seen.get(id) ?? seen.set(id, deps.describeProvider(id)).get(id)!;
  return {
    provider,
    detail: async (found: ConsignmentDetails, known?: ProviderInfo): Promise<ConsignmentDetail> =>
      toDetailResponse(found.consignment, {
        ...found,
        caller: request.caller,
        provider: known ?? (found.consignment.provider_id !== null ? await provider(found.consignment.provider_id) : undefined),
        locale: request.locale,
        labelUrl: deps.labelUrl,
        documentUrl: deps.documentUrl,
        sdrRates: deps.sdrRates,
      }),
  };
}
