import type { ImportState } from '../domain/imports';
import { storableText } from '../domain/text';
import type { ImportOptions } from '../imports/import-options';
import type { Caller } from './customers.repository';
import type { Queryable } from './database';
import { selectPage, type PageWindow } from './paging';
import { deleteFile } from './import-files.repository';

// Order imports: the import records, how far each has come, and whom it acts for. Its file is in
// import-files.repository, its orders in import-orders.repository, the drafts it makes in consignments.repository.

export { FINISHED_STATES, IMPORT_STATES, type ImportState, type ParseCursor } from '../domain/imports';

export interface ImportCounts {
  rows: number;
  orders: number;
  created: number;
  processed: number;
  failed: number;
  duplicates: number;
  cancelled: number;
}

/** An import as stored: what it was created with, and how far it has come. */
export interface ImportRecord extends NewImport {
  state: ImportState;
  counts: ImportCounts;
  ordersDone: number;
  rowsDone: number;
  parsed: boolean;
  error: { code: string; params?: Record<string, string | number> } | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

// ---------------------------------------------------------------------------------------------------------
// Imports

export interface NewImport {
  id: string;
  customerId: number;
  userId: number | null;
  fileId: string;
  fileName: string | null;
  fileBytes: number;
  fileSha256: string;
  delimiter: string;
  header: string[];
  totalRows: number;
  options: ImportOptions;
}

/** Inserts the import; false when one with this id exists already (a concurrent duplicate request). */
export async function insertImport(q: Queryable, input: NewImport): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO imports (id, customer_id, user_id, file_id, file_name, file_bytes, file_sha256, delimiter, header, total_rows, options)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      input.id,
      input.customerId,
      input.userId,
      input.fileId,
      input.fileName === null ? null : storableText(input.fileName),
      input.fileBytes,
      input.fileSha256,
      input.delimiter,
      JSON.stringify(input.header.map(storableText)),
      input.totalRows,
      JSON.stringify(input.options),
    ],
  );
  return rows.length > 0;
}

/** An imports row: the counters' columns are named as ImportCounts' fields, but for `rows` (`rows_read`). */
interface ImportRow extends Omit<ImportCounts, 'rows'> {
  id: string;
  customer_id: number;
  user_id: number | null;
  file_id: string;
  file_name: string | null;
  file_bytes: number | string;
  file_sha256: string;
  delimiter: string;
  header: string[];
  total_rows: number;
  options: ImportOptions;
  state: ImportState;
  rows_read: number;
  orders_done: number;
  rows_done: number;
  parsed: boolean;
  error: ImportRecord['error'];
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

function toImport(r: ImportRow): ImportRecord {
  return {
    id: r.id,
    customerId: r.customer_id,
    userId: r.user_id,
    fileId: r.file_id,
    fileName: r.file_name,
    fileBytes: Number(r.file_bytes),
    fileSha256: r.file_sha256,
    delimiter: r.delimiter,
    header: r.header,
    totalRows: r.total_rows,
    options: r.options,
    state: r.state,
    counts: {
      rows: r.rows_read,
      orders: r.orders,
      created: r.created,
      processed: r.processed,
      failed: r.failed,
      duplicates: r.duplicates,
      cancelled: r.cancelled,
    },
    ordersDone: r.orders_done,
    rowsDone: r.rows_done,
    parsed: r.parsed,
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/** An import by id; with `customerId`, only that customer's (another customer's import does not exist for them). */
export async function findImport(q: Queryable, id: string, customerId?: number): Promise<ImportRecord | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const { rows } = await q.query<ImportRow>(
    `SELECT * FROM imports WHERE id = $1 ${customerId === undefined ? '' : 'AND customer_id = $2'}`,
    customerId === undefined ? [id] : [id, customerId],
  );
  return rows[0] && toImport(rows[0]);
}

export async function listImports(q: Queryable, customerId: number, page: PageWindow): Promise<{ imports: ImportRecord[]; total: number }> {
  const { rows, total } = await selectPage(
    q,
    { columns: '*', from: 'imports WHERE customer_id = $1', order: 'created_at DESC, id', params: [customerId] },
    page,
    toImport,
  );
  return { imports: rows, total };
}

/** queued → running, once. */
export async function markImportStarted(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE imports SET state = 'running', started_at = COALESCE(started_at, now()), updated_at = now() WHERE id = $1 AND state = 'queued'`, [id]);
}

/**
 * Finishes an import once: its final state, the error that failed it, and, when cancelled, every order not
 * yet created marked cancelled. The stored file is dropped: nothing reads it any more.
 */
export async function finishImport(
  q: Queryable,
  id: string,
  state: Exclude<ImportState, 'queued' | 'running'>,
  error: ImportRecord['error'] = null,
): Promise<void> {
  const { rows } = await q.query<{ file_id: string }>(
    `UPDATE imports SET state = $2, error = $3, finished_at = now(), started_at = COALESCE(started_at, now()), updated_at = now()
     WHERE id = $1 AND state IN ('queued', 'running') RETURNING file_id`,
    [id, state, error ? JSON.stringify(error) : null],
  );
  if (!rows[0]) return;
  if (state !== 'completed') {
    await q.query(
      `WITH c AS (
         UPDATE import_orders SET state = 'cancelled', draft = NULL, updated_at = now() WHERE import_id = $1 AND state = 'pending' RETURNING row_count)
       UPDATE imports SET cancelled = cancelled + (SELECT count(*) FROM c), orders_done = orders_done + (SELECT count(*) FROM c),
         rows_done = rows_done + COALESCE((SELECT sum(row_count) FROM c), 0) WHERE id = $1`,
      [id],
    );
  }
  await deleteFile(q, rows[0].file_id);
}

/** The customer (and user) an import acts for, as the consignment service expects its caller. */
export async function findImportCaller(q: Queryable, customerId: number, userId: number | null): Promise<Caller | undefined> {
  const { rows } = await q.query<Caller>(
    `SELECT c.id AS "customerId", c.customer_code AS "customerCode", c.name AS "customerName", c.authorized_name AS "authorizedName",
            u.id AS "userId", COALESCE(u.firstname, '') AS firstname, COALESCE(u.lastname, '') AS lastname
       FROM customers c LEFT JOIN users u ON u.id = $2 AND u.customer_id = c.id
      WHERE c.id = $1`,
    [customerId, userId],
  );
  return rows[0];
}

/** Removes an import whose workflow could not be started (its file goes separately). */
export async function deleteImport(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM imports WHERE id = $1', [id]);
}
