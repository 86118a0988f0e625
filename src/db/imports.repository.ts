import type { AddressCorrection } from '../domain/address-correction';
import type { DraftInput } from '../domain/draft';
import type { ImportState, ParseCursor } from '../domain/imports';
import { packageDesi } from '../domain/weights';
import { storableText } from '../domain/text';
import type { ImportOptions } from '../imports/import-options';
import type { OrderIssue } from '../imports/order-mapper';
import { draftColumns, DRAFT_COLUMNS, type NewDraft } from './consignments.repository';
import type { Caller } from './customers.repository';
import type { Queryable } from './database';

/** Size of the stored file's chunks (all but the last): a byte offset maps to a chunk without an index. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

export { FINISHED_STATES, IMPORT_STATES, type ImportState, type ParseCursor } from '../domain/imports';

export type OrderState = 'pending' | 'invalid' | 'duplicate' | 'created' | 'processed' | 'failed' | 'cancelled';

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
// The uploaded file

function toBuffer(data: Uint8Array | Buffer): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Stores a file as it streams in, FILE_CHUNK_BYTES at a time: memory holds at most one chunk. */
export function createFileWriter(q: Queryable, fileId: string) {
  let pending: Buffer[] = [];
  let size = 0;
  let chunk = 0;
  let bytes = 0;
  const flush = async (final: boolean) => {
    while (size >= FILE_CHUNK_BYTES || (final && size > 0)) {
      const all = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      const piece = all.subarray(0, FILE_CHUNK_BYTES);
      await q.query('INSERT INTO import_files (file_id, chunk, data) VALUES ($1, $2, $3)', [fileId, chunk++, piece]);
      const rest = all.subarray(piece.length);
      pending = rest.length ? [rest] : [];
      size = rest.length;
    }
  };
  return {
    async write(data: Buffer): Promise<void> {
      pending.push(data);
      size += data.length;
      bytes += data.length;
      if (size >= FILE_CHUNK_BYTES) await flush(false);
    },
    async end(): Promise<{ bytes: number }> {
      await flush(true);
      return { bytes };
    },
  };
}

export async function deleteFile(q: Queryable, fileId: string): Promise<void> {
  await q.query('DELETE FROM import_files WHERE file_id = $1', [fileId]);
}

/** The stored file from a byte offset on, one chunk per read. */
export async function* readFile(q: Queryable, fileId: string, offset = 0): AsyncGenerator<Buffer> {
  let chunk = Math.floor(offset / FILE_CHUNK_BYTES);
  let skip = offset % FILE_CHUNK_BYTES;
  for (;;) {
    const { rows } = await q.query<{ data: Uint8Array }>('SELECT data FROM import_files WHERE file_id = $1 AND chunk = $2', [fileId, chunk++]);
    if (!rows[0]) return;
    const data = toBuffer(rows[0].data);
    yield skip ? data.subarray(skip) : data;
    skip = 0;
  }
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
    [input.id, input.customerId, input.userId, input.fileId, input.fileName === null ? null : storableText(input.fileName), input.fileBytes, input.fileSha256, input.delimiter, JSON.stringify(input.header.map(storableText)), input.totalRows, JSON.stringify(input.options)],
  );
  return rows.length > 0;
}

interface ImportRow {
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
  orders: number;
  created: number;
  processed: number;
  failed: number;
  duplicates: number;
  cancelled: number;
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
    counts: { rows: r.rows_read, orders: r.orders, created: r.created, processed: r.processed, failed: r.failed, duplicates: r.duplicates, cancelled: r.cancelled },
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
  const { rows } = await q.query<ImportRow>(`SELECT * FROM imports WHERE id = $1 ${customerId === undefined ? '' : 'AND customer_id = $2'}`, customerId === undefined ? [id] : [id, customerId]);
  return rows[0] && toImport(rows[0]);
}

export async function listImports(q: Queryable, customerId: number, page: { limit: number; offset: number }): Promise<{ imports: ImportRecord[]; total: number }> {
  const [list, count] = await Promise.all([
    q.query<ImportRow>('SELECT * FROM imports WHERE customer_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3', [customerId, page.limit, page.offset]),
    q.query<{ n: number }>('SELECT count(*)::int AS n FROM imports WHERE customer_id = $1', [customerId]),
  ]);
  return { imports: list.rows.map(toImport), total: Number(count.rows[0].n) };
}

/** queued → running, once. */
export async function markImportStarted(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE imports SET state = 'running', started_at = COALESCE(started_at, now()), updated_at = now() WHERE id = $1 AND state = 'queued'`, [id]);
}

/**
 * Finishes an import once: its final state, the error that failed it, and, when cancelled, every order not
 * yet created marked cancelled. The stored file is dropped: nothing reads it any more.
 */
export async function finishImport(q: Queryable, id: string, state: Exclude<ImportState, 'queued' | 'running'>, error: ImportRecord['error'] = null): Promise<void> {
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

// ---------------------------------------------------------------------------------------------------------
// Orders

export interface ParsedOrder {
  seq: number;
  firstRow: number;
  rowCount: number;
  orderNo: string | null;
  state: 'pending' | 'invalid';
  draft: DraftInput | null;
  errors: OrderIssue[] | null;
}

/**
 * Records parsed orders and advances the counters by what was actually inserted: a retried parse writes
 * the same seqs again and changes nothing.
 */
export async function insertParsedOrders(q: Queryable, importId: string, orders: ParsedOrder[], cursor: ParseCursor, parsed: boolean): Promise<number> {
  const payload = orders.map((o) => ({ seq: o.seq, first_row: o.firstRow, row_count: o.rowCount, order_no: o.orderNo === null ? null : storableText(o.orderNo), state: o.state, draft: o.draft, errors: o.errors }));
  const { rows } = await q.query<{ inserted: number }>(
    `WITH ins AS (
       INSERT INTO import_orders (import_id, seq, first_row, row_count, order_no, state, draft, errors)
       SELECT $1, x.seq, x.first_row, x.row_count, x.order_no, x.state, x.draft, x.errors
         FROM jsonb_to_recordset($2::jsonb) AS x(seq int, first_row int, row_count int, order_no text, state text, draft jsonb, errors jsonb)
       ON CONFLICT (import_id, seq) DO NOTHING
       RETURNING state, row_count),
     agg AS (
       SELECT count(*)::int AS n, COALESCE(sum(row_count), 0)::int AS rows_n,
              count(*) FILTER (WHERE state = 'invalid')::int AS invalid_n,
              COALESCE(sum(row_count) FILTER (WHERE state = 'invalid'), 0)::int AS invalid_rows FROM ins)
     UPDATE imports SET orders = orders + agg.n, rows_read = rows_read + agg.rows_n, failed = failed + agg.invalid_n,
       orders_done = orders_done + agg.invalid_n, rows_done = rows_done + agg.invalid_rows,
       parse_cursor = CASE WHEN parse_cursor IS NULL OR (parse_cursor->>'seq')::int <= $4 THEN $3::jsonb ELSE parse_cursor END,
       parsed = parsed OR $5, updated_at = now()
     FROM agg WHERE imports.id = $1 RETURNING agg.n AS inserted`,
    [importId, JSON.stringify(payload), JSON.stringify(cursor), cursor.seq, parsed],
  );
  return Number(rows[0]?.inserted ?? 0);
}

export interface StoredOrder {
  seq: number;
  firstRow: number;
  rowCount: number;
  orderNo: string | null;
  state: OrderState;
  draft: DraftInput | null;
  consignmentId: number | null;
}

export async function loadOrders(q: Queryable, importId: string, fromSeq: number, toSeq: number): Promise<StoredOrder[]> {
  const { rows } = await q.query<{ seq: number; first_row: number; row_count: number; order_no: string | null; state: OrderState; draft: DraftInput | null; consignment_id: number | string | null }>(
    'SELECT seq, first_row, row_count, order_no, state, draft, consignment_id FROM import_orders WHERE import_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq',
    [importId, fromSeq, toSeq],
  );
  return rows.map((r) => ({
    seq: r.seq,
    firstRow: r.first_row,
    rowCount: r.row_count,
    orderNo: r.order_no,
    state: r.state,
    draft: r.draft,
    consignmentId: r.consignment_id === null ? null : Number(r.consignment_id),
  }));
}

export interface OrderTransition {
  seq: number;
  from: OrderState;
  to: OrderState;
  consignmentId?: number | null;
  errors?: OrderIssue[] | null;
}

/**
 * Moves orders from their expected state to the next, in one statement guarded by that expected state, and
 * advances the import's counters by the transitions that happened: replays of a batch count nothing twice.
 */
export async function recordTransitions(q: Queryable, importId: string, process: boolean, transitions: OrderTransition[]): Promise<void> {
  if (transitions.length === 0) return;
  const payload = transitions.map((t) => ({ seq: t.seq, from_state: t.from, to_state: t.to, consignment_id: t.consignmentId ?? null, errors: t.errors ?? null }));
  const doneStates = ['invalid', 'duplicate', 'processed', 'failed', 'cancelled', ...(process ? [] : ['created'])];
  await q.query(
    `WITH moved AS (
       UPDATE import_orders o SET state = v.to_state, consignment_id = COALESCE(v.consignment_id, o.consignment_id),
         errors = COALESCE(v.errors, o.errors), draft = NULL, updated_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS v(seq int, from_state text, to_state text, consignment_id bigint, errors jsonb)
       WHERE o.import_id = $1 AND o.seq = v.seq AND o.state = v.from_state
       RETURNING v.from_state, v.to_state, o.row_count),
     d AS (
       SELECT count(*) FILTER (WHERE to_state = 'created')::int AS n_created,
              count(*) FILTER (WHERE to_state = 'processed')::int AS n_processed,
              count(*) FILTER (WHERE to_state = 'failed')::int AS n_failed,
              count(*) FILTER (WHERE to_state = 'duplicate')::int AS n_duplicates,
              count(*) FILTER (WHERE to_state = 'cancelled')::int AS n_cancelled,
              count(*) FILTER (WHERE to_state = ANY($3::text[]) AND NOT from_state = ANY($3::text[]))::int AS n_done,
              COALESCE(sum(row_count) FILTER (WHERE to_state = ANY($3::text[]) AND NOT from_state = ANY($3::text[])), 0)::int AS n_done_rows
         FROM moved)
     UPDATE imports SET created = created + d.n_created, processed = processed + d.n_processed, failed = failed + d.n_failed,
       duplicates = duplicates + d.n_duplicates, cancelled = cancelled + d.n_cancelled, orders_done = orders_done + d.n_done,
       rows_done = rows_done + d.n_done_rows, updated_at = now()
     FROM d WHERE imports.id = $1`,
    [importId, JSON.stringify(payload), doneStates],
  );
}

export interface ImportErrorRow {
  seq: number;
  orderNo: string | null;
  errors: OrderIssue[];
}

/** Orders with errors, in file order, from `afterSeq` on (keyset pagination for long CSV downloads). */
export async function listOrderErrors(q: Queryable, importId: string, afterSeq: number, limit: number): Promise<ImportErrorRow[]> {
  const { rows } = await q.query<{ seq: number; order_no: string | null; errors: OrderIssue[] }>(
    'SELECT seq, order_no, errors FROM import_orders WHERE import_id = $1 AND errors IS NOT NULL AND seq > $2 ORDER BY seq LIMIT $3',
    [importId, afterSeq, limit],
  );
  return rows.map((r) => ({ seq: r.seq, orderNo: r.order_no, errors: r.errors }));
}

/** The number of error entries (one per problem) of an import. */
export async function countOrderErrors(q: Queryable, importId: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT COALESCE(sum(jsonb_array_length(errors)), 0)::int AS n FROM import_orders WHERE import_id = $1 AND errors IS NOT NULL', [importId]);
  return Number(rows[0].n);
}

/** One page of error entries (one per problem), in file order. */
export async function listErrorEntries(q: Queryable, importId: string, page: { limit: number; offset: number }): Promise<{ orderNo: string | null; issue: OrderIssue }[]> {
  const { rows } = await q.query<{ order_no: string | null; issue: OrderIssue }>(
    `SELECT o.order_no, e.value AS issue
       FROM import_orders o CROSS JOIN LATERAL jsonb_array_elements(o.errors) WITH ORDINALITY AS e(value, n)
      WHERE o.import_id = $1 AND o.errors IS NOT NULL
      ORDER BY o.seq, e.n LIMIT $2 OFFSET $3`,
    [importId, page.limit, page.offset],
  );
  return rows.map((r) => ({ orderNo: r.order_no, issue: r.issue }));
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

/**
 * Inserts many drafts in a few multi-row statements (consignments, packages, items, first history entries):
 * the bulk twin of consignments.repository's insertDraft, with the same columns and values. A draft whose uuid
 * or reference_no exists already is skipped (ON CONFLICT DO NOTHING): the map holds the ids of those inserted.
 */
export async function insertDraftBatch(tx: Queryable, drafts: NewDraft[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (drafts.length === 0) return ids;
  const placeholders = (count: number, base: number) => `(${Array.from({ length: count }, (_, i) => `$${base + i + 1}`).join(', ')})`;

  const params: unknown[] = [];
  const values = drafts.map((d) => {
    const base = params.length;
    const columns = draftColumns(d.draft);
    params.push(d.uuid, d.customerId, d.userId, d.status, d.importId ?? null, ...columns);
    return placeholders(5 + columns.length, base);
  });
  const inserted = await tx.query<{ id: number; uuid: string }>(
    `INSERT INTO consignments (uuid, customer_id, user_id, status, import_id, ${DRAFT_COLUMNS}) VALUES ${values.join(', ')} ON CONFLICT DO NOTHING RETURNING id, uuid`,
    params,
  );
  for (const row of inserted.rows) ids.set(row.uuid, Number(row.id));
  const created = drafts.filter((d) => ids.has(d.uuid));
  if (created.length === 0) return ids;

  const byId = new Map(created.map((d) => [ids.get(d.uuid)!, d]));
  const pkgParams: unknown[] = [];
  const pkgValues: string[] = [];
  for (const d of created) {
    (d.draft.packages ?? []).forEach((p, position) => {
      const base = pkgParams.length;
      pkgParams.push(ids.get(d.uuid), position, p.package_type ?? null, p.provider_packaging_type ?? null, p.post_type ?? null, p.weight ?? null, p.length ?? null, p.width ?? null, p.height ?? null, packageDesi(p), p.dangerous_goods ?? null);
      pkgValues.push(placeholders(11, base));
    });
  }
  if (pkgValues.length > 0) {
    const packages = await tx.query<{ id: number; consignment_id: number; position: number }>(
      `INSERT INTO consignment_packages (consignment_id, position, package_type, provider_packaging_type, post_type, weight, length, width, height, desi, dangerous_goods)
       VALUES ${pkgValues.join(', ')} RETURNING id, consignment_id, position`,
      pkgParams,
    );
    const itemParams: unknown[] = [];
    const itemValues: string[] = [];
    for (const row of packages.rows) {
      const pkg = byId.get(Number(row.consignment_id))!.draft.packages![row.position];
      (pkg.items ?? []).forEach((item, position) => {
        const base = itemParams.length;
        itemParams.push(row.id, position, item.description ?? null, item.gtip ?? null, item.origin ?? null, item.currency_code ?? null, item.unit_price ?? null, item.quantity ?? null, item.category ?? null);
        itemValues.push(placeholders(9, base));
      });
    }
    if (itemValues.length > 0) {
      await tx.query(`INSERT INTO package_items (package_id, position, description, gtip, origin, currency_code, unit_price, quantity, category) VALUES ${itemValues.join(', ')}`, itemParams);
    }
  }
  const historyParams: unknown[] = [];
  const historyValues = created.map((d) => {
    const base = historyParams.length;
    historyParams.push(ids.get(d.uuid), d.status, d.statusMessage);
    return `($${base + 1}, $${base + 2}, $${base + 3}, 'created')`;
  });
  await tx.query(`INSERT INTO consignment_history (consignment_id, status, message, event_key) VALUES ${historyValues.join(', ')}`, historyParams);
  return ids;
}

/** Removes an import whose workflow could not be started (its file goes separately). */
export async function deleteImport(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM imports WHERE id = $1', [id]);
}

/** What address resolution corrected in the drafts of some orders, kept per order for the import's report. */
export async function recordCorrections(tx: Queryable, importId: string, orders: { seq: number; corrections: AddressCorrection[] }[]): Promise<void> {
  if (orders.length === 0) return;
  await tx.query(
    `UPDATE import_orders o SET corrections = v.corrections
       FROM jsonb_to_recordset($2::jsonb) AS v(seq int, corrections jsonb)
      WHERE o.import_id = $1 AND o.seq = v.seq`,
    [importId, JSON.stringify(orders)],
  );
}

/** One correction of an order, with the order's first row and number. */
export interface CorrectionEntry {
  row: number;
  orderNo: string | null;
  correction: AddressCorrection;
}

/** A page of an import's corrections (one entry per corrected field), in file order, and how many there are. */
export async function listCorrections(q: Queryable, importId: string, page: { limit: number; offset: number }): Promise<{ entries: CorrectionEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    q.query<{ first_row: number; order_no: string | null; correction: AddressCorrection }>(
      `SELECT o.first_row, o.order_no, e.value AS correction
         FROM import_orders o CROSS JOIN LATERAL jsonb_array_elements(o.corrections) WITH ORDINALITY AS e(value, n)
        WHERE o.import_id = $1 AND o.corrections IS NOT NULL
        ORDER BY o.seq, e.n LIMIT $2 OFFSET $3`,
      [importId, page.limit, page.offset],
    ),
    q.query<{ n: number }>('SELECT COALESCE(sum(jsonb_array_length(corrections)), 0)::int AS n FROM import_orders WHERE import_id = $1 AND corrections IS NOT NULL', [importId]),
  ]);
  return { entries: rows.rows.map((r) => ({ row: r.first_row, orderNo: r.order_no, correction: r.correction })), total: Number(count.rows[0].n) };
}
