import { z } from 'zod';
import { draftParts, draftSchemas, preferenceIssues, type PackageInput, type PartyInput } from '../domain/draft';
import { DomainError, type Issue } from '../domain/errors';
import { optionIssues, refuse } from '../domain/validation';
import { COLUMN_KEYS, isColumnKey, isPresetName, PRESET_NAMES, type ColumnKey, type PresetName } from './presets';

/** The options of one import (POST /api/v1/imports), validated and normalised; stored with the import. */
export interface ImportOptions {
  preset: PresetName;
  /** logical column → the file's column, overriding the preset's spellings */
  mapping: Partial<Record<ColumnKey, string>>;
  /** also process every created draft (label + carrier booking) */
  process: boolean;
  /** defaults for orders whose rows carry none */
  preference: number | null;
  provider_id: number | null;
  /** address resolution of every order's draft (0, 1 or 2; null: off) */
  address_resolver_type: number | null;
  /** the sender of every order (row columns consignor_* override it field by field) */
  consignor: PartyInput | null;
  /** defaults of the one package each order becomes (exports carry no parcel sizes) */
  package: Omit<PackageInput, 'items'> | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * The options of an import (POST /api/v1/imports), the one schema that validates them and that the API
 * documents. The draft fields are the draft API's own schemas (preference, provider_id, the sender, the
 * package defaults), so imports refuse exactly what drafts refuse.
 */
export const importOptionsSchema = z.strictObject({
  preset: z
    .string()
    .trim()
    .toLowerCase()
    .superRefine((preset, ctx) => {
      if (preset === '') ctx.addIssue({ code: 'custom', message: 'blank', ...refuse('NOT_BLANK') });
      else if (!isPresetName(preset))
        ctx.addIssue({ code: 'custom', message: 'preset', ...refuse('IMPORT_UNKNOWN_PRESET', { preset, presets: PRESET_NAMES.join(', ') }) });
    })
    .transform((preset) => preset as PresetName)
    .meta({ enum: [...PRESET_NAMES], description: 'the layout of the export (any case)' }),
  mapping: z
    .record(
      z.string(),
      z
        .string()
        .refine((column) => column.trim() !== '', refuse('NOT_BLANK'))
        .max(255),
    )
    .superRefine((mapping, ctx) => {
      for (const key of Object.keys(mapping))
        if (!isColumnKey(key)) ctx.addIssue({ code: 'custom', message: 'column', path: [key], ...refuse('UNKNOWN_FIELD') });
    })
    .transform((mapping) => mapping as Partial<Record<ColumnKey, string>>)
    .nullish()
    .meta({ propertyNames: { enum: [...COLUMN_KEYS] }, description: "column names of your file for the preset's logical columns (docs/imports.md)" }),
  process: z.boolean().nullish().meta({ description: 'also process every created draft (label and carrier booking)' }),
  preference: draftSchemas.create.shape.preference,
  address_resolver_type: z.literal([0, 1, 2]).nullish().meta({
    description:
      'address resolution for every order (0 off, 1 correct state, city and postal code from the address data, 2 also refuse processing an order whose address cannot be placed); corrections are reported per row',
  }),
  provider_id: draftSchemas.create.shape.provider_id,
  consignor: draftParts.party.nullish().meta({ description: 'the sender of every order, where the rows have none' }),
  package: draftParts.package
    .omit({ items: true })
    // Items come from the rows; a package default with items is refused rather than ignored.
    .extend({ items: z.undefined({ error: 'UNKNOWN_FIELD' }).optional() })
    .nullish()
    .meta({ description: 'defaults of the one package each order becomes (no items: they come from the rows)' }),
});

/** Every problem with its field path; each unknown option is its own problem. */
export function parseImportOptions(raw: unknown): ImportOptions {
  if (!isObject(raw)) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', field: 'options', params: { type: 'object' } }]);
  const result = importOptionsSchema.safeParse(raw, { reportInput: true });
  const issues: Issue[] = result.success ? [] : optionIssues(result.error.issues);
  issues.push(...preferenceIssues(raw));
  if (!result.success || issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);

  const { preset, mapping, process, preference, provider_id, address_resolver_type, consignor, package: pkg } = result.data;
  const { items: _items, ...packageDefaults } = pkg ?? {};
  return {
    preset,
    mapping: mapping ?? {},
    process: process === true,
    preference: preference ?? null,
    provider_id: provider_id ?? null,
    address_resolver_type: address_resolver_type ?? null,
    consignor: consignor ? dropAbsent(consignor) : null,
    package: pkg ? dropAbsent(packageDefaults) : null,
  };
}

/** The draft API's shape of "absent": no key rather than an undefined one. */
function dropAbsent<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
