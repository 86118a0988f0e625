import { z } from 'zod';
import { DomainError } from './errors';
import { PAGINATION, type PageRequest } from './pagination';
import { STATUS } from './statuses';
import { EXPECTED_INTEGER, zodIssue } from './validation';

/** What `GET /api/v1/consignments` narrows a customer's consignments to (every part optional, all must hold). */
export interface ConsignmentFilter {
  statuses?: number[];
  providerId?: number;
  /** `reference_no` starts with it */
  referencePrefix?: string;
  barcode?: string;
  importId?: string;
  /** created at or after (ISO 8601) */
  createdFrom?: string;
  /** created before (ISO 8601; a date alone means the end of that day) */
  createdBefore?: string;
}

const INT32_MAX = 2_147_483_647;
const STATUS_CODES: readonly number[] = Object.values(STATUS);
const integer = () => z.coerce.number({ error: () => EXPECTED_INTEGER }).int({ error: () => EXPECTED_INTEGER });
/** A repeated query parameter arrives as a list; commas separate values too (`status=2,3`). */
const list = (value: unknown) =>
  value === undefined ? undefined : [value].flat().flatMap((v) => (typeof v === 'string' ? v.split(',').filter((p) => p.trim() !== '') : [v]));
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: string) => {
  const day = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(v);
};
/** A day (`2026-11-24`, UTC) or an instant with its offset (`2026-11-24T09:30:00+03:00`). */
const moment = () =>
  z
    .string()
    // A day must exist (2026-02-30 does not; Date would roll it over to March).
    .refine((v) => (DATE.test(v) ? isDay(v) : z.iso.datetime({ offset: true }).safeParse(v).success), {
      params: { code: 'INVALID_TYPE', textParams: { type: 'date-time' } },
    })
    .meta({ description: 'a day (`2026-11-24`, UTC) or an instant with its offset (`2026-11-24T09:30:00+03:00`)' });

/** The query string of the list, as parsed and as documented (the OpenAPI document). */
export const consignmentListQuery = z.strictObject({
  status: z
    .preprocess(list, z.array(integer().refine((s) => STATUS_CODES.includes(s), { params: { code: 'INVALID_CHOICE' } })).max(20))
    .optional()
    .meta({ description: 'one or more statuses (repeat the parameter, or separate with commas)', examples: [[24]] }),
  provider_id: integer().min(1).max(INT32_MAX).optional(),
  reference_no: z.string().trim().min(1).max(255).optional().meta({ description: 'references starting with this' }),
  barcode: z.string().trim().min(1).max(255).optional().meta({ description: 'the service barcode, exactly' }),
  import_id: z.uuid().optional().meta({ description: 'the drafts an import created' }),
  created_from: moment().optional().meta({ description: 'created at or after: a day (UTC) or an instant' }),
  created_to: moment().optional().meta({ description: 'created at or before: a day (UTC, the whole day) or an instant' }),
  page: integer()
    .min(1)
    .max(PAGINATION.maxPage)
    .optional()
    .meta({ description: `default ${PAGINATION.defaultPage}` }),
  limit: integer()
    .min(1)
    .max(PAGINATION.maxLimit)
    .optional()
    .meta({ description: `default ${PAGINATION.defaultLimit}, at most ${PAGINATION.maxLimit}` }),
});

const instant = (v: string, endOfDay: boolean) => {
  if (!DATE.test(v)) return new Date(v).toISOString();
  const day = new Date(`${v}T00:00:00Z`);
  if (endOfDay) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString();
};

/** Parses the list's query string: every problem at once, each naming its parameter. */
export function parseConsignmentListQuery(query: unknown): { filter: ConsignmentFilter; page: PageRequest } {
  const result = consignmentListQuery.safeParse(query ?? {}, { reportInput: true });
  if (!result.success)
    throw new DomainError(
      'VALIDATION_FAILED',
      result.error.issues.map((issue) => zodIssue(issue, (path) => (path.length ? String(path[0]) : undefined))),
    );
  const q = result.data;
  const filter: ConsignmentFilter = {
    ...(q.status && q.status.length > 0 && { statuses: [...new Set(q.status)] }),
    ...(q.provider_id !== undefined && { providerId: q.provider_id }),
    ...(q.reference_no !== undefined && { referencePrefix: q.reference_no }),
    ...(q.barcode !== undefined && { barcode: q.barcode }),
    ...(q.import_id !== undefined && { importId: q.import_id.toLowerCase() }),
    ...(q.created_from !== undefined && { createdFrom: instant(q.created_from, false) }),
    // "to" a day includes that day: before the next one; "to" an instant includes the instant.
    ...(q.created_to !== undefined && {
      createdBefore: DATE.test(q.created_to) ? instant(q.created_to, true) : new Date(Date.parse(q.created_to) + 1).toISOString(),
    }),
  };
  if (filter.createdFrom && filter.createdBefore && filter.createdFrom >= filter.createdBefore) {
    throw new DomainError('VALIDATION_FAILED', [{ code: 'DATE_RANGE_EMPTY', field: 'created_to' }]);
  }
  return { filter, page: { page: q.page ?? PAGINATION.defaultPage, limit: q.limit ?? PAGINATION.defaultLimit } };
}
