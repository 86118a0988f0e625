import countries from 'i18n-iso-countries';
import { z } from 'zod';
import { DomainError, type Issue } from '../domain/errors';
import { zodIssue } from '../domain/validation';
import { pageQuery } from '../domain/pagination';
import { SEARCH_FIELDS, type AddressSearchQuery, type SearchField } from '../db/addresses.repository';

/** Bounds of the address search's parameters (docs/api.md). */
export const SEARCH_LIMITS = { keywordMaxLength: 100, defaultLimit: 10, maxLimit: 100, defaultPage: 1, maxPage: 2_147_483_647 } as const;

const ISO2_CODES: ReadonlySet<string> = new Set(Object.keys(countries.getAlpha2Codes()));

/** ISO 3166-1 alpha-2, any case ("tr", "TR"); alpha-3 and numeric codes are not accepted. */
export function isIso2Country(value: string): boolean {
  return /^[A-Za-z]{2}$/.test(value) && ISO2_CODES.has(value.toUpperCase());
}

const FIELD_BY_LOWER = new Map<string, SearchField>(SEARCH_FIELDS.map((f) => [f.toLowerCase(), f]));

const fail = (code: Issue['code'], params?: Issue['params']) => ({ params: { code, ...(params && { textParams: params }) } });

/** One query-string value: a repeated parameter arrives as an array, which a scalar parameter refuses. */
const single = z.string().optional();

/** Integer parameter from its query-string text; blank or absent gives the default. */
function integerParam(defaultValue: number, min: number, max: number) {
  return single.transform((raw, ctx): number => {
    const text = raw?.trim() ?? '';
    if (text === '') return defaultValue;
    if (!/^[+-]?\d+$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'integer', ...fail('INVALID_TYPE', { type: 'integer' }) });
      return z.NEVER;
    }
    const value = Number(text);
    if (value < min) ctx.addIssue({ code: 'custom', message: 'min', ...fail('TOO_SMALL', { min }) });
    else if (value > max) ctx.addIssue({ code: 'custom', message: 'max', ...fail('TOO_LARGE', { max }) });
    return value;
  });
}

const schema = z.object({
  countryIso2: single.transform((raw, ctx): string => {
    const text = raw?.trim() ?? '';
    if (text === '') ctx.addIssue({ code: 'custom', message: 'blank', ...fail('NOT_BLANK') });
    else if (!isIso2Country(text)) ctx.addIssue({ code: 'custom', message: 'country', ...fail('INVALID_COUNTRY_ISO2') });
    return text.toUpperCase();
  }),
  keyword: single.transform((raw, ctx): string => {
    const text = raw?.trim() ?? '';
    if (text === '') ctx.addIssue({ code: 'custom', message: 'blank', ...fail('NOT_BLANK') });
    else if ([...text].length > SEARCH_LIMITS.keywordMaxLength) {
      ctx.addIssue({ code: 'custom', message: 'long', ...fail('TOO_LONG', { max: SEARCH_LIMITS.keywordMaxLength }) });
    }
    return text;
  }),
  searchFields: z.array(z.string()).transform((raw, ctx): SearchField[] => {
    const fields: SearchField[] = [];
    raw.forEach((entry, index) => {
      // "city,place" is accepted too; blank entries ("searchFields[]=") are ignored.
      for (const part of entry.split(',')) {
        const name = part.trim();
        if (name === '') continue;
        const field = FIELD_BY_LOWER.get(name.toLowerCase());
        if (field) {
          if (!fields.includes(field)) fields.push(field);
        } else {
          ctx.addIssue({ code: 'custom', message: 'field', path: [index], ...fail('INVALID_SEARCH_FIELD') });
        }
      }
    });
    if (fields.length === 0 && raw.every((e) => e.split(',').every((p) => p.trim() === ''))) {
      ctx.addIssue({ code: 'custom', message: 'blank', ...fail('NOT_BLANK') });
    }
    return fields;
  }),
  page: integerParam(SEARCH_LIMITS.defaultPage, 1, SEARCH_LIMITS.maxPage),
  limit: integerParam(SEARCH_LIMITS.defaultLimit, 1, SEARCH_LIMITS.maxLimit),
});

/**
 * The query string as the API documents it (the OpenAPI document): the parameters above, `searchFields` under
 * the name the API contract gives it (`searchFields[]`, repeated). Required where a missing one is refused.
 */
export const addressSearchQuery = z
  .object({
    countryIso2: schema.shape.countryIso2.meta({ description: 'ISO 3166-1 alpha-2, any case', examples: ['TR'] }),
    keyword: schema.shape.keyword.meta({ description: `what to look for, up to ${SEARCH_LIMITS.keywordMaxLength} characters`, examples: ['kadikoy'] }),
    'searchFields[]': z
      .array(z.enum(SEARCH_FIELDS))
      .min(1)
      .meta({ description: 'where to look: repeat the parameter (or separate with commas); `searchFields` works too', examples: [['city']] }),
    ...pageQuery({ defaultLimit: SEARCH_LIMITS.defaultLimit, maxLimit: SEARCH_LIMITS.maxLimit }).shape,
  })
  .required({ countryIso2: true, keyword: true });

/** `searchFields[]=a&searchFields[]=b`, `searchFields[]=a`, `searchFields=a` (and mixes): always a list. */
function searchFieldsOf(query: Record<string, unknown>): unknown {
  const values: unknown[] = [];
  for (const key of ['searchFields[]', 'searchFields']) {
    const value = query[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  return values;
}

/** Field names in errors: the query parameter names, searchFields entries by position (`searchFields[1]`). */
function fieldOf(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return head + rest.map((p) => `[${p}]`).join('');
}

/**
 * Validates the query string of GET /address/search (docs/api.md): every problem at once, as
 * VALIDATION_FAILED with one issue per problem, each naming its parameter in `field`.
 */
export function parseAddressSearchQuery(query: unknown): AddressSearchQuery {
  const input = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const result = schema.safeParse({
    countryIso2: input.countryIso2,
    keyword: input.keyword,
    searchFields: searchFieldsOf(input),
    page: input.page,
    limit: input.limit,
  });
  if (result.success) return result.data;
  const issues: Issue[] = result.error.issues.map((issue) => {
    // The schema's own refinements name their codes: the one zod mapper reads them.
    if (issue.code === 'custom') return zodIssue(issue, fieldOf);
    // Anything else is a repeated scalar parameter (?page=1&page=2) or a non-string entry.
    const field = fieldOf(issue.path);
    const [head] = issue.path;
    const type = head === 'page' || head === 'limit' ? 'integer' : head === 'searchFields' && issue.path.length === 1 ? 'array' : 'string';
    return { code: 'INVALID_TYPE', field, params: { type } };
  });
  throw new DomainError('VALIDATION_FAILED', issues);
}
