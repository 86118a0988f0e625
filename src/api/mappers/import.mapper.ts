import type { ImportRecord } from '../../db/imports.repository';
import { isErrorCode } from '../../domain/errors';
import { ERROR_MESSAGES, translate, type Locale } from '../../i18n/messages';
import { z } from 'zod';
import { IMPORT_STATES } from '../../domain/imports';
import { answerSchema } from '../openapi/operation';
import { formatTimestamp } from './timestamps';

const count = () => z.int().min(0);
export const ImportAnswer = answerSchema(
  'Import',
  z.object({
    id: z.uuid(),
    state: z.enum(IMPORT_STATES),
    preset: z.string(),
    process: z.boolean(),
    file_name: z.string().nullable(),
    file_bytes: count(),
    counts: z.object({ rows: count(), orders: count(), created: count(), processed: count(), failed: count(), duplicates: count(), cancelled: count() }),
    progress: z.object({
      rows_total: count(),
      rows_done: count(),
      orders_done: count(),
      orders_known: z.boolean().meta({ description: 'every order of the file is known: `counts.orders` is final' }),
      percent: z.int().min(0).max(100),
    }),
    error: z.object({ message: z.string() }).nullable(),
    created_at: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  }),
  { description: 'An order import and its progress.' },
);

const time = (d: Date | null) => (d ? formatTimestamp(d.toISOString()) : null);

/** An import as the API shows it (GET /api/v1/imports/{id}, lists, the 202 of a new import). */
export function toImportResponse(r: ImportRecord, locale: Locale): z.output<typeof ImportAnswer> {
  const percent = r.totalRows > 0 ? Math.min(100, Math.floor((100 * r.rowsDone) / r.totalRows)) : 0;
  return {
    id: r.id,
    state: r.state,
    preset: r.options.preset,
    process: r.options.process,
    file_name: r.fileName,
    file_bytes: r.fileBytes,
    counts: r.counts,
    progress: {
      rows_total: r.totalRows,
      rows_done: r.rowsDone,
      orders_done: r.ordersDone,
      /** true once every order of the file is known: `counts.orders` is then the final number */
      orders_known: r.parsed,
      percent: r.state === 'completed' ? 100 : percent,
    },
    error: r.error
      ? { message: translate(isErrorCode(r.error.code) ? ERROR_MESSAGES[r.error.code] : ERROR_MESSAGES.INTERNAL_ERROR, locale, r.error.params) }
      : null,
    created_at: time(r.createdAt),
    started_at: time(r.startedAt),
    finished_at: time(r.finishedAt),
  };
}
