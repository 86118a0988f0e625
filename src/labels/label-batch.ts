import { z } from 'zod';
import { DomainError } from '../domain/errors';
import { LABEL_FORMATS, type LabelFormat } from '../domain/label';
import { parseOrRefuse, refuse } from '../domain/validation';
import type { SheetLayout } from './pdf-merge';

/** One request's cap: a day's import of a busy shop; each entry costs a row read and a label parse. */
export const MAX_BATCH_LABELS = 10_000;

/** What a merged batch prints: the labels' file format and, for PDF, the sheet. */
export interface BatchPrint {
  format: LabelFormat;
  layout: SheetLayout;
}

const format = z.enum(LABEL_FORMATS).default('pdf').meta({ description: '`pdf` (the default) or `zpl` (thermal printers; one label after another)' });
const layout = z
  .enum(['label', 'a4'])
  .default('label')
  .meta({ description: '`label`: one 100 × 150 mm page per label (the default); `a4`: A4 sheets with four labels each (PDF only)' });

/** An entry names a consignment by its id (a number, or digits) or by its barcode. */
const ENTRY_TEXT = /^[A-Za-z0-9-]{1,64}$/;
const entry = z
  .unknown()
  .superRefine((value, ctx) => {
    const valid = typeof value === 'number' ? Number.isSafeInteger(value) && value >= 1 : typeof value === 'string' && ENTRY_TEXT.test(value.trim());
    if (!valid) ctx.addIssue({ code: 'custom', message: 'entry', ...refuse('LABEL_BATCH_ENTRY_INVALID') });
  })
  .transform((value) => String(value).trim())
  .meta({
    anyOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', pattern: ENTRY_TEXT.source },
    ],
  });

export const labelBatchBody = z.strictObject({
  consignments: z
    .array(entry)
    .min(1)
    .max(MAX_BATCH_LABELS)
    .meta({ description: 'consignment ids or barcodes, in the order to print', examples: [[1042, 'CF00000010438']] }),
  format,
  layout,
});

export const labelBatchQuery = z.strictObject({ format, layout });

/** ZPL is a stream of labels for a roll: there is no sheet to lay out. */
function checkPrint(print: BatchPrint): BatchPrint {
  if (print.format === 'zpl' && print.layout !== 'label') throw new DomainError('VALIDATION_FAILED', [{ code: 'LABEL_LAYOUT_PDF_ONLY', field: 'layout' }]);
  return print;
}

/** A consignment named by an entry: an id, or a barcode. */
export type BatchKey = { id: number } | { barcode: string };

export function parseLabelBatch(body: unknown): { keys: BatchKey[]; entries: string[]; print: BatchPrint } {
  const { consignments, ...print } = parseOrRefuse(labelBatchBody, body);
  return {
    keys: consignments.map((e) => (/^\d{1,15}$/.test(e) ? { id: Number(e) } : { barcode: e.toUpperCase() })),
    entries: consignments,
    print: checkPrint(print),
  };
}

export function parseLabelBatchQuery(query: unknown): BatchPrint {
  return checkPrint(parseOrRefuse(labelBatchQuery, query ?? {}));
}

/** Why a consignment asked for has no label in the batch; the trailer page and the header say it. */
export type MissingReason = 'not_found' | 'no_label' | 'voided' | 'no_zpl' | 'no_pdf' | 'unreadable';

export interface MissingLabel {
  /** The entry as asked (id or barcode), or the consignment id for an import's labels. */
  entry: string;
  referenceNo: string | null;
  reason: MissingReason;
}
