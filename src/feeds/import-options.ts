import { z } from 'zod';
import { draftParts, draftSchemas, parseDraftInput, type PackageInput, type PartyInput } from '../domain/draft';
import { DomainError, type Issue } from '../domain/errors';
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
  /** the sender of every order (row columns consignor_* override it field by field) */
  consignor: PartyInput | null;
  /** defaults of the one package each order becomes (exports carry no parcel sizes) */
  package: Omit<PackageInput, 'items'> | null;
}

/**
 * The options as the API documents them (the OpenAPI document). The draft fields are the draft API's own
 * schemas, which parseImportOptions applies; the preset, the mapping and `process` are checked below.
 */
export const importOptionsSchema = z.strictObject({
  preset: z.enum(PRESET_NAMES).meta({ description: 'the layout of the export (any case)' }),
  mapping: z
    .partialRecord(z.enum(COLUMN_KEYS), z.string().min(1).max(255))
    .nullish()
    .meta({ description: "column names of your file for the preset's logical columns (docs/imports.md)" }),
  process: z.boolean().nullish().meta({ description: 'also process every created draft (label and carrier booking)' }),
  preference: draftSchemas.create.shape.preference,
  provider_id: draftSchemas.create.shape.provider_id,
  consignor: draftParts.party.nullish().meta({ description: 'the sender of every order, where the rows have none' }),
  package: draftParts.package.omit({ items: true }).nullish().meta({ description: 'defaults of the one package each order becomes' }),
});

const KNOWN = Object.keys(importOptionsSchema.shape);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validates import options with the draft API's own rules for the parts that are draft fields (preference,
 * provider_id, consignor, package); every problem is reported with its field path.
 */
export function parseImportOptions(raw: unknown): ImportOptions {
  if (!isObject(raw)) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', field: 'options', params: { type: 'object' } }]);
  const issues: Issue[] = [];
  for (const key of Object.keys(raw)) if (!(KNOWN as readonly string[]).includes(key)) issues.push({ code: 'UNKNOWN_FIELD', field: key });

  const preset = typeof raw.preset === 'string' ? raw.preset.trim().toLowerCase() : raw.preset;
  if (preset === undefined || preset === null || preset === '') issues.push({ code: 'NOT_BLANK', field: 'preset' });
  else if (!isPresetName(preset)) issues.push({ code: 'IMPORT_UNKNOWN_PRESET', field: 'preset', params: { preset: String(preset), presets: PRESET_NAMES.join(', ') } });

  const mapping: Partial<Record<ColumnKey, string>> = {};
  if (raw.mapping !== undefined && raw.mapping !== null) {
    if (!isObject(raw.mapping)) issues.push({ code: 'INVALID_TYPE', field: 'mapping', params: { type: 'object' } });
    else {
      for (const [key, column] of Object.entries(raw.mapping)) {
        if (!isColumnKey(key)) issues.push({ code: 'UNKNOWN_FIELD', field: `mapping.${key}` });
        else if (typeof column !== 'string') issues.push({ code: 'INVALID_TYPE', field: `mapping.${key}`, params: { type: 'string' } });
        else if (!column.trim()) issues.push({ code: 'NOT_BLANK', field: `mapping.${key}` });
        else if (column.length > 255) issues.push({ code: 'TOO_LONG', field: `mapping.${key}`, params: { max: 255 } });
        else mapping[key] = column;
      }
    }
  }

  if (raw.process !== undefined && raw.process !== null && typeof raw.process !== 'boolean') issues.push({ code: 'INVALID_TYPE', field: 'process', params: { type: 'boolean' } });
  if (raw.package !== undefined && raw.package !== null && !isObject(raw.package)) issues.push({ code: 'INVALID_TYPE', field: 'package', params: { type: 'object' } });
  if (isObject(raw.package) && 'items' in raw.package) issues.push({ code: 'UNKNOWN_FIELD', field: 'package.items' });
  if (raw.consignor !== undefined && raw.consignor !== null && !isObject(raw.consignor)) issues.push({ code: 'INVALID_TYPE', field: 'consignor', params: { type: 'object' } });

  // The draft fields go through the draft API's validation, as one draft.
  let parsed: ReturnType<typeof parseDraftInput> | undefined;
  try {
    parsed = parseDraftInput(
      {
        preference: raw.preference,
        provider_id: raw.provider_id,
        consignor: isObject(raw.consignor) ? raw.consignor : {},
        consignee: {},
        ...(isObject(raw.package) && { packages: [raw.package] }),
      },
      'create',
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    for (const issue of error.issues) issues.push({ ...issue, field: issue.field?.replace(/^packages\.0/, 'package') });
  }
  if (issues.length > 0 || !parsed) throw new DomainError('VALIDATION_FAILED', issues);

  const { items: _items, ...pkg } = parsed.packages?.[0] ?? {};
  return {
    preset: preset as PresetName,
    mapping,
    process: raw.process === true,
    preference: parsed.preference ?? null,
    provider_id: parsed.provider_id ?? null,
    consignor: isObject(raw.consignor) ? (parsed.consignor ?? null) : null,
    package: isObject(raw.package) ? pkg : null,
  };
}
