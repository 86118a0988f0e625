import { z } from 'zod';
import { resolveCountry } from './countries';
import { DomainError, type Issue } from './errors';
import { STATUS, statusMessage } from './statuses';
import { isCleanText } from './text';
import { EXPECTED_INTEGER, zodIssue } from './validation';

export interface PartyInput {
  name?: string | null;
  attention_name?: string | null;
  country?: string | null;
  state?: string | null;
  city?: string | null;
  postal_code?: string | null;
  address?: string | null;
  phone_number?: string | null;
  email?: string | null;
  tax_number?: string | null;
  eori_number?: string | null;
  state_code?: string | null;
  party_type?: 'individual' | 'business' | null;
}

export interface ItemInput {
  description?: string | null;
  gtip?: string | null;
  origin?: string | null;
  currency_code?: string | null;
  unit_price?: number | null;
  quantity?: number | null;
  category?: string | null;
}

export interface PackageInput {
  package_type?: 1 | 2 | null;
  provider_packaging_type?: string | null;
  post_type?: number | null;
  weight?: number | null;
  length?: number | null;
  width?: number | null;
  height?: number | null;
  dangerous_goods?: boolean | null;
  items?: ItemInput[];
}

export interface DocumentInput {
  id: number;
}

export interface SpecialServiceInput {
  service_type: string;
  details?: Record<string, unknown>;
}

export interface DraftInput {
  preference?: number | null;
  provider_id?: number | null;
  address_resolver_type?: number;
  reference_no?: string | null;
  invoice_number?: string | null;
  incoterms_type?: number;
  specific_shipping_method?: string | null;
  generate_provider_barcode?: boolean;
  specific_provider_barcode?: string | null;
  consignor?: PartyInput;
  consignee?: PartyInput;
  packages?: PackageInput[];
  documents?: DocumentInput[];
  special_services?: SpecialServiceInput[];
}

/** Carrier preference (docs/api.md, "Draft creation"). */
export const PREFERENCE = { SPECIFIC: 0, CHEAPEST: 1, FASTEST: 2 } as const;

/**
 * The one reference rule: a customer's reference_no names one consignment. Taking one that another consignment of
 * the customer has is REFERENCE_USED on reference_no, whether a look before the write finds it or the unique
 * index refuses the write.
 */
export const referenceUsed = (): DomainError => new DomainError('REFERENCE_USED', { field: 'reference_no' });

/** What every new draft starts as, whoever creates it (one over HTTP, an import's batch): status 24 with its message. */
export function newDraft<T extends object>(fields: T): T & { status: number; statusMessage: string } {
  return { ...fields, status: STATUS.NEW_DRAFT, statusMessage: statusMessage(STATUS.NEW_DRAFT, 'en') };
}

/** Collection caps: not in the API contract, they keep one request's work bounded. */
export const LIMITS = { packages: 50, items: 100, documents: 20, special_services: 20 } as const;

// Integers are stored in PostgreSQL `integer` columns.
const INT32_MAX = 2_147_483_647;
/** Codes stored in smallint columns (address_resolver_type, incoterms_type). */
const INT16_MAX = 32_767;
// Far above any parcel; keeps L × W × H and the sums finite.
const MEASURE_MAX = 1_000_000;
// zod reports a non-number sent to an integer field as "expected number"; this message marks it as an integer field.

// Trimmed; a blank string means "no value".
const blankToNull = (v: unknown) => (typeof v === 'string' ? v.trim() || null : v);
// For fields with a default (applied where the draft is stored), null means "not sent". As transforms after
// the check (not preprocessing), so the schema's JSON form (the OpenAPI document) says null is accepted.
const nullToAbsent = <T>(v: T | null | undefined) => v ?? undefined;
// A null collection means an empty one.
const nullToEmpty = <T>(v: T[] | null | undefined) => (v === null ? [] : v);

/** Text that can be stored: no NUL, no lone surrogate (src/domain/text.ts). */
const storable = () => z.string().refine(isCleanText, { params: { code: 'INVALID_TEXT' } });
const text = (max: number) => z.preprocess(blankToNull, storable().max(max).nullish());
const integer = () => z.int({ error: (iss) => (iss.code === 'invalid_type' ? EXPECTED_INTEGER : undefined) }).max(INT32_MAX);
const id = () => integer().positive();
const measure = () => z.number().nonnegative().max(MEASURE_MAX).nullish();
const list = <T extends z.ZodType>(entry: T, max: number) => z.array(entry).max(max).nullish().transform(nullToEmpty);
// ISO 3166 alpha-2 or alpha-3, any case, normalised to upper-case alpha-2.
const country = () =>
  z.preprocess(
    blankToNull,
    z
      .string()
      // Aborting, so a code of the wrong length is not also reported as an unknown country.
      .min(2, { abort: true })
      .max(3, { abort: true })
      .refine((code) => resolveCountry(code) !== undefined, { params: { code: 'INVALID_COUNTRY' } })
      .transform((code) => resolveCountry(code)!.iso2)
      .nullish(),
  );

const partySchema = z.object({
  name: text(255),
  attention_name: text(255),
  country: country(),
  state: text(100),
  city: text(100),
  postal_code: text(30),
  address: text(1000),
  phone_number: text(20),
  email: z.preprocess(blankToNull, z.email().max(255).nullish()),
  tax_number: text(255),
  eori_number: text(255),
  state_code: text(255),
  party_type: z.preprocess(blankToNull, z.enum(['individual', 'business']).nullish()),
});

const itemSchema = z.object({
  description: text(255),
  gtip: text(16),
  origin: country(),
  currency_code: z.preprocess(
    blankToNull,
    z
      .string()
      .length(3)
      // Letters only; the length is reported by length(3) alone.
      .regex(/^[A-Za-z]*$/)
      .transform((code) => code.toUpperCase())
      .nullish(),
  ),
  unit_price: z.number().nonnegative().nullish(),
  quantity: id().nullish(),
  category: text(255),
});

const packageSchema = z.object({
  package_type: z.literal([1, 2]).nullish(),
  provider_packaging_type: text(255),
  post_type: integer().nonnegative().nullish(),
  weight: measure(),
  length: measure(),
  width: measure(),
  height: measure(),
  dangerous_goods: z.boolean().nullish(),
  items: list(itemSchema, LIMITS.items),
});

const draftFields = {
  preference: z.literal([PREFERENCE.SPECIFIC, PREFERENCE.CHEAPEST, PREFERENCE.FASTEST]).nullish(),
  provider_id: id().nullish(),
  address_resolver_type: integer().nonnegative().max(INT16_MAX).nullish().transform(nullToAbsent),
  reference_no: text(255),
  invoice_number: text(255),
  incoterms_type: integer().nonnegative().max(INT16_MAX).nullish().transform(nullToAbsent),
  specific_shipping_method: text(255),
  generate_provider_barcode: z.boolean().nullish().transform(nullToAbsent),
  specific_provider_barcode: text(255),
  packages: list(packageSchema, LIMITS.packages),
  documents: list(z.object({ id: id() }), LIMITS.documents),
  special_services: list(
    z.object({
      service_type: z.preprocess(blankToNull, storable().max(255)),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
    LIMITS.special_services,
  ),
};

/** The parts other bodies reuse (import options: the sender and the package defaults). */
export const draftParts = { party: partySchema, package: packageSchema };

export const draftSchemas = {
  create: z.object({ ...draftFields, consignor: partySchema, consignee: partySchema }),
  update: z.object({ ...draftFields, consignor: partySchema.optional(), consignee: partySchema.optional() }),
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `preference: 0` (a specific carrier) needs a `provider_id`. Judged on the body as sent, in both modes: a
 * stored provider does not excuse `preference: 0` without one.
 */
export function preferenceIssues(body: Record<string, unknown>): Issue[] {
  return body.preference === PREFERENCE.SPECIFIC && body.provider_id == null ? [{ code: 'PREFERENCE_RULE', field: 'provider_id' }] : [];
}

/**
 * Validates and normalises a create (4.2) or update (4.4) body. Update bodies are partial: absent keys stay
 * absent so that applyDraftPatch leaves those fields alone. Throws VALIDATION_FAILED with every issue found.
 */
export function parseDraftInput(body: unknown, mode: 'create' | 'update'): DraftInput {
  if (!isObject(body)) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', params: { type: 'object' } }]);

  const result = draftSchemas[mode].safeParse(body, { reportInput: true });
  const issues = result.success ? [] : result.error.issues.map((issue) => zodIssue(issue));
  issues.push(...preferenceIssues(body));
  if (!result.success || issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);

  const draft: DraftInput = result.data;
  // Keys sent as null for defaulted fields come back as undefined; drop them so "absent" has one shape.
  for (const key of Object.keys(draft) as (keyof DraftInput)[]) if (draft[key] === undefined) delete draft[key];
  return draft;
}

/** Partial update: sent scalars replace (null clears), parties merge field by field, sent collections replace whole. */
export function applyDraftPatch(current: DraftInput, patch: DraftInput): DraftInput {
  const next: DraftInput = { ...current };
  for (const key of Object.keys(patch) as (keyof DraftInput)[]) {
    const value = patch[key];
    if (value === undefined) continue;
    if (key === 'consignor' || key === 'consignee') next[key] = mergeParty(current[key], patch[key]);
    else (next as Record<string, unknown>)[key] = value;
  }
  return next;
}

function mergeParty(current: PartyInput | undefined, patch: PartyInput | undefined): PartyInput {
  const merged: PartyInput = { ...current };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}
