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
export async function findLabelFile(q: Queryable, labelId: number, format: 'pdf' | 'zpl'): Promise<{ content: Buffer | string; voided: boolean; fileName: string } | undefined> {
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
