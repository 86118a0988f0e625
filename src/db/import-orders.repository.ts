import type { AddressCorrection } from '../domain/address-correction';
import type { DraftInput } from '../domain/draft';
import type { ParseCursor } from '../domain/imports';
import { storableText } from '../domain/text';
import type { OrderIssue } from '../imports/order-mapper';
import type { Queryable } from './database';
import type { PageWindow } from './paging';

// The orders of an import: parsed from its file, their states as they become drafts (or fail), their errors and
// address corrections for the import's reports. The drafts themselves are consignments (consignments.repository).

export type OrderState = 'pending' | 'invalid' | 'duplicate' | 'created' | 'processed' | 'failed' | 'cancelled';

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
  const payload = orders.map((o) => ({
    seq: o.seq,
    first_row: o.firstRow,
    row_count: o.rowCount,
    order_no: o.orderNo === null ? null : storableText(o.orderNo),
    state: o.state,
    draft: o.draft,
    errors: o.errors,
  }));
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
  const { rows } = await q.query<{
    seq: number;
    first_row: number;
    row_count: number;
    order_no: string | null;
    state: OrderState;
    draft: DraftInput | null;
    consignment_id: number | string | null;
  }>(
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
  const payload = transitions.map((t) => ({
    seq: t.seq,
    from_state: t.from,
    to_state: t.to,
    consignment_id: t.consignmentId ?? null,
    errors: t.errors ?? null,
  }));
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
  const { rows } = await q.query<{ n: number }>(
    'SELECT COALESCE(sum(jsonb_array_length(errors)), 0)::int AS n FROM import_orders WHERE import_id = $1 AND errors IS NOT NULL',
    [importId],
  );
  return Number(rows[0].n);
}

/** One page of error entries (one per problem), in file order. */
export async function listErrorEntries(q: Queryable, importId: string, page: PageWindow): Promise<{ orderNo: string | null; issue: OrderIssue }[]> {
  const { rows } = await q.query<{ order_no: string | null; issue: OrderIssue }>(
    `SELECT o.order_no, e.value AS issue
       FROM import_orders o CROSS JOIN LATERAL jsonb_array_elements(o.errors) WITH ORDINALITY AS e(value, n)
      WHERE o.import_id = $1 AND o.errors IS NOT NULL
      ORDER BY o.seq, e.n LIMIT $2 OFFSET $3`,
    [importId, page.limit, page.offset],
  );
  return rows.map((r) => ({ orderNo: r.order_no, issue: r.issue }));
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
export async function listCorrections(q: Queryable, importId: string, page: PageWindow): Promise<{ entries: CorrectionEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    q.query<{ first_row: number; order_no: string | null; correction: AddressCorrection }>(
      `SELECT o.first_row, o.order_no, e.value AS correction
         FROM import_orders o CROSS JOIN LATERAL jsonb_array_elements(o.corrections) WITH ORDINALITY AS e(value, n)
        WHERE o.import_id = $1 AND o.corrections IS NOT NULL
        ORDER BY o.seq, e.n LIMIT $2 OFFSET $3`,
      [importId, page.limit, page.offset],
    ),
    q.query<{ n: number }>(
      'SELECT COALESCE(sum(jsonb_array_length(corrections)), 0)::int AS n FROM import_orders WHERE import_id = $1 AND corrections IS NOT NULL',
      [importId],
    ),
  ]);
  return { entries: rows.rows.map((r) => ({ row: r.first_row, orderNo: r.order_no, correction: r.correction })), total: Number(count.rows[0].n) };
}
