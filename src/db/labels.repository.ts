import type { LabelFormat } from '../domain/label';
import type { Queryable } from './database';

export interface LabelSummary {
  id: number;
  provider_id: number;
  file_name: string;
  tracking_code: string;
  label_type: number;
  tracking_type: number;
  voided: boolean;
}

/** The label in `format`; undefined when there is no such label, or it exists only in the other format (a carrier's own label). */
export async function findLabelFile(
  q: Queryable,
  labelId: number,
  format: LabelFormat,
): Promise<{ content: Buffer | string; voided: boolean; fileName: string } | undefined> {
  const { rows } = await q.query<{ pdf: Uint8Array | null; zpl: string | null; voided: boolean; file_name: string }>(
    `SELECT ${format === 'pdf' ? 'pdf' : 'zpl'}, voided_at IS NOT NULL AS voided, file_name FROM labels WHERE id = $1`,
    [labelId],
  );
  const row = rows[0];
  const content = format === 'pdf' ? row?.pdf && Buffer.from(row.pdf) : row?.zpl;
  if (!row || content == null) return undefined;
  return { content, voided: row.voided, fileName: row.file_name };
}

/** The id of the consignment's label, if it has one. */
export async function findLabelId(q: Queryable, consignmentId: number): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number }>('SELECT id FROM labels WHERE consignment_id = $1', [consignmentId]);
  return rows[0] ? Number(rows[0].id) : undefined;
}

export async function insertLabel(
  tx: Queryable,
  label: { consignmentId: number; providerId: number; fileName: string; trackingCode: string; pdf: Buffer | Uint8Array | null; zpl: string | null },
): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO labels (consignment_id, provider_id, file_name, tracking_code, pdf, zpl) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [label.consignmentId, label.providerId, label.fileName, label.trackingCode, label.pdf, label.zpl],
  );
  return Number(rows[0].id);
}

/** A cancelled consignment's labels stop downloading. */
export async function voidLabels(tx: Queryable, consignmentId: number): Promise<void> {
  await tx.query('UPDATE labels SET voided_at = now() WHERE consignment_id = $1 AND voided_at IS NULL', [consignmentId]);
}

/** A consignment of a merged label batch, with its label if it has one. */
export interface BatchLabelRow {
  consignmentId: number;
  barcode: string | null;
  referenceNo: string | null;
  labelId: number | null;
  voided: boolean;
  hasPdf: boolean;
  hasZpl: boolean;
}

const BATCH_COLUMNS = `c.id, c.barcode, c.reference_no, l.id AS label_id, l.voided_at IS NOT NULL AS voided, l.pdf IS NOT NULL AS has_pdf, l.zpl IS NOT NULL AS has_zpl`;
type BatchRow = {
  id: number | string;
  barcode: string | null;
  reference_no: string | null;
  label_id: number | string | null;
  voided: boolean | null;
  has_pdf: boolean | null;
  has_zpl: boolean | null;
};
const toBatchRow = (r: BatchRow): BatchLabelRow => ({
  consignmentId: Number(r.id),
  barcode: r.barcode,
  referenceNo: r.reference_no,
  labelId: r.label_id === null ? null : Number(r.label_id),
  voided: r.voided === true,
  hasPdf: r.has_pdf === true,
  hasZpl: r.has_zpl === true,
});

/** The customer's consignments among these ids and barcodes (another customer's are simply not there). */
export async function findBatchLabels(q: Queryable, customerId: number, ids: number[], barcodes: string[]): Promise<BatchLabelRow[]> {
  const { rows } = await q.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM consignments c LEFT JOIN labels l ON l.consignment_id = c.id
     WHERE c.customer_id = $1 AND (c.id = ANY($2::bigint[]) OR c.barcode = ANY($3::text[]))`,
    [customerId, ids, barcodes],
  );
  return rows.map(toBatchRow);
}

/** An import's consignments in the order of its file (orders that made no consignment have none). */
export async function findImportLabels(q: Queryable, customerId: number, importId: string): Promise<BatchLabelRow[]> {
  const { rows } = await q.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM import_orders o
     JOIN consignments c ON c.id = o.consignment_id AND c.customer_id = $1
     LEFT JOIN labels l ON l.consignment_id = c.id
     WHERE o.import_id = $2 ORDER BY o.seq`,
    [customerId, importId],
  );
  return rows.map(toBatchRow);
}

/** The files of these labels in `format`, by label id; a few at a time keeps a batch's memory bounded. */
export async function loadLabelFiles(q: Queryable, labelIds: number[], format: LabelFormat): Promise<Map<number, Uint8Array | string>> {
  const { rows } = await q.query<{ id: number | string; content: Uint8Array | string | null }>(
    `SELECT id, ${format === 'pdf' ? 'pdf' : 'zpl'} AS content FROM labels WHERE id = ANY($1::bigint[])`,
    [labelIds],
  );
  return new Map(rows.filter((r) => r.content !== null).map((r) => [Number(r.id), r.content!]));
}
