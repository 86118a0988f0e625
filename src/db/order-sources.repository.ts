import type { Issue } from '../domain/errors';
import type { OrderEventAction, OrderEventState, OrderSourceDefaults, OrderPlatform } from '../domain/order-source';
import type { Queryable } from './database';
import { selectPage, type Counted, type PageWindow } from './paging';

/** An order source as stored, without its sealed secret (read only by `findSourceForDelivery`). */
export interface OrderSourceRecord {
  id: string;
  customerId: number;
  platform: OrderPlatform;
  name: string;
  secretHint: string;
  defaults: OrderSourceDefaults;
  process: boolean;
  status: number;
  createdAt: string;
  updatedAt: string;
}

type SourceRow = {
  id: string;
  customer_id: number;
  platform: string;
  name: string;
  secret_hint: string;
  defaults: OrderSourceDefaults | string;
  process: boolean;
  status: number;
  created_at: Date | string;
  updated_at: Date | string;
};

const SOURCE_COLUMNS = 'id, customer_id, platform, name, secret_hint, defaults, process, status, created_at, updated_at';

function toSource(r: SourceRow): OrderSourceRecord {
  return {
    id: r.id,
    customerId: Number(r.customer_id),
    platform: r.platform as OrderPlatform,
    name: r.name,
    secretHint: r.secret_hint,
    defaults: typeof r.defaults === 'string' ? (JSON.parse(r.defaults) as OrderSourceDefaults) : r.defaults,
    process: r.process === true,
    status: Number(r.status),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function insertOrderSource(
  q: Queryable,
  s: {
    id: string;
    customerId: number;
    platform: OrderPlatform;
    name: string;
    secret: Buffer;
    secretHint: string;
    defaults: OrderSourceDefaults;
    process: boolean;
    status: number;
  },
): Promise<OrderSourceRecord> {
  const { rows } = await q.query<SourceRow>(
    `INSERT INTO order_sources (id, customer_id, platform, name, secret, secret_hint, defaults, process, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${SOURCE_COLUMNS}`,
    [s.id, s.customerId, s.platform, s.name, s.secret, s.secretHint, JSON.stringify(s.defaults), s.process, s.status],
  );
  return toSource(rows[0]);
}

/** The customer's source (another customer's, or a deleted one, is not found). */
export async function findOrderSource(q: Queryable, customerId: number, id: string): Promise<OrderSourceRecord | undefined> {
  const { rows } = await q.query<SourceRow>(`SELECT ${SOURCE_COLUMNS} FROM order_sources WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL`, [
    id,
    customerId,
  ]);
  return rows[0] && toSource(rows[0]);
}

/** A source by id whoever owns it, with its sealed secret: what a delivery is verified with (deleted ones excluded). */
export async function findSourceForDelivery(q: Queryable, id: string): Promise<(OrderSourceRecord & { sealedSecret: Buffer }) | undefined> {
  const { rows } = await q.query<SourceRow & { secret: Buffer | Uint8Array }>(
    `SELECT ${SOURCE_COLUMNS}, secret FROM order_sources WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0] && { ...toSource(rows[0]), sealedSecret: Buffer.from(rows[0].secret) };
}

/** A source by id, deleted ones included (an event's workflow finishing after its source went). */
export async function findOrderSourceById(q: Queryable, id: string): Promise<OrderSourceRecord | undefined> {
  const { rows } = await q.query<SourceRow>(`SELECT ${SOURCE_COLUMNS} FROM order_sources WHERE id = $1`, [id]);
  return rows[0] && toSource(rows[0]);
}

export async function listOrderSources(q: Queryable, customerId: number, page: PageWindow): Promise<Counted<OrderSourceRecord>> {
  return selectPage(
    q,
    { columns: SOURCE_COLUMNS, from: 'order_sources WHERE customer_id = $1 AND deleted_at IS NULL', order: 'created_at, id', params: [customerId] },
    page,
    toSource,
  );
}

/** Replaces the source's fields; `secret` absent keeps the stored one. The platform is fixed at creation. */
export async function updateOrderSource(
  q: Queryable,
  customerId: number,
  id: string,
  s: { name: string; defaults: OrderSourceDefaults; process: boolean; status: number; secret?: { sealed: Buffer; hint: string } },
): Promise<OrderSourceRecord | undefined> {
  const { rows } = await q.query<SourceRow>(
    `UPDATE order_sources SET name = $3, defaults = $4, process = $5, status = $6,
       secret = COALESCE($7, secret), secret_hint = COALESCE($8, secret_hint), updated_at = now()
     WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING ${SOURCE_COLUMNS}`,
    [id, customerId, s.name, JSON.stringify(s.defaults), s.process, s.status, s.secret?.sealed ?? null, s.secret?.hint ?? null],
  );
  return rows[0] && toSource(rows[0]);
}

/** Deletes the source: it takes no more deliveries; its events and their drafts stay. */
export async function deleteOrderSource(q: Queryable, customerId: number, id: string): Promise<boolean> {
  const { rows } = await q.query(
    'UPDATE order_sources SET deleted_at = now(), updated_at = now() WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING id',
    [id, customerId],
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------

export interface OrderEventRecord {
  id: number;
  sourceId: string;
  dedupKey: string;
  topic: string;
  action: OrderEventAction;
  orderId: string | null;
  orderNo: string | null;
  state: OrderEventState;
  consignmentId: number | null;
  errors: Issue[] | null;
  triggeredAt: string | null;
  receivedAt: string;
  updatedAt: string;
}

type EventRow = {
  id: string | number;
  source_id: string;
  dedup_key: string;
  topic: string;
  action: string;
  order_id: string | null;
  order_no: string | null;
  state: string;
  consignment_id: string | number | null;
  errors: Issue[] | string | null;
  triggered_at: Date | string | null;
  received_at: Date | string;
  updated_at: Date | string;
};

const EVENT_COLUMNS = 'id, source_id, dedup_key, topic, action, order_id, order_no, state, consignment_id, errors, triggered_at, received_at, updated_at';

function toEvent(r: EventRow): OrderEventRecord {
  return {
    id: Number(r.id),
    sourceId: r.source_id,
    dedupKey: r.dedup_key,
    topic: r.topic,
    action: r.action as OrderEventAction,
    orderId: r.order_id,
    orderNo: r.order_no,
    state: r.state as OrderEventState,
    consignmentId: r.consignment_id === null ? null : Number(r.consignment_id),
    errors: typeof r.errors === 'string' ? (JSON.parse(r.errors) as Issue[]) : r.errors,
    triggeredAt: r.triggered_at === null ? null : new Date(r.triggered_at).toISOString(),
    receivedAt: new Date(r.received_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** How long the receiving request holds its claim on a new event's start before a relay may take it over. */
const RECEIVER_CLAIM_SECONDS = 30;

/**
 * Queues an event durably: its row (which is its own outbox entry) in one statement. A redelivery (same source
 * and dedup key) inserts nothing and gets the first event back, `created: false`.
 */
export async function insertOrderEvent(
  q: Queryable,
  e: Pick<OrderEventRecord, 'sourceId' | 'dedupKey' | 'topic' | 'action' | 'orderId' | 'orderNo' | 'triggeredAt'> & { payload: string },
): Promise<{ event: OrderEventRecord; created: boolean }> {
  const { rows } = await q.query<EventRow>(
    `INSERT INTO order_events (source_id, dedup_key, topic, action, order_id, order_no, payload, triggered_at, claimed_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))
     ON CONFLICT (source_id, dedup_key) DO NOTHING RETURNING ${EVENT_COLUMNS}`,
    [e.sourceId, e.dedupKey, e.topic, e.action, e.orderId, e.orderNo, e.payload, e.triggeredAt, RECEIVER_CLAIM_SECONDS],
  );
  if (rows[0]) return { event: toEvent(rows[0]), created: true };
  const first = await q.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM order_events WHERE source_id = $1 AND dedup_key = $2`, [e.sourceId, e.dedupKey]);
  return { event: toEvent(first.rows[0]), created: false };
}

export async function findOrderEvent(q: Queryable, id: number): Promise<(OrderEventRecord & { payload: string }) | undefined> {
  const { rows } = await q.query<EventRow & { payload: string }>(`SELECT ${EVENT_COLUMNS}, payload FROM order_events WHERE id = $1`, [id]);
  return rows[0] && { ...toEvent(rows[0]), payload: rows[0].payload };
}

/** A page of a source's events, newest first, and their number. */
export async function listOrderEvents(q: Queryable, sourceId: string, page: PageWindow): Promise<Counted<OrderEventRecord>> {
  return selectPage(q, { columns: EVENT_COLUMNS, from: 'order_events WHERE source_id = $1', order: 'id DESC', params: [sourceId] }, page, toEvent);
}

/**
 * Records what became of an event. Guarded: only a `received` event moves (a retried activity that finds it
 * moved changes nothing), except `drafted` → `processed`/`failed` when its draft is processed.
 */
export async function recordOrderEventOutcome(
  q: Queryable,
  id: number,
  outcome: { state: Exclude<OrderEventState, 'received'>; consignmentId?: number | null; errors?: Issue[] | null },
  from: OrderEventState[] = ['received'],
): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE order_events SET state = $2, consignment_id = COALESCE($3, consignment_id), errors = $4, updated_at = now()
      WHERE id = $1 AND state = ANY($5::text[]) RETURNING id`,
    [id, outcome.state, outcome.consignmentId ?? null, outcome.errors ? JSON.stringify(outcome.errors) : null, from],
  );
  return rows.length > 0;
}

/** Whether a create event of the order is still waiting to become a draft (a cancel arriving first waits for it). */
export async function hasPendingCreate(q: Queryable, sourceId: string, orderId: string): Promise<boolean> {
  const { rows } = await q.query(`SELECT 1 FROM order_events WHERE source_id = $1 AND order_id = $2 AND action = 'create' AND state = 'received' LIMIT 1`, [
    sourceId,
    orderId,
  ]);
  return rows.length > 0;
}

/** The event's workflow was started: no relay needs to. */
export async function markOrderEventsStarted(q: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query('UPDATE order_events SET start_pending = false, claimed_until = NULL WHERE id = ANY($1::bigint[])', [ids]);
}

/** Claims up to `limit` events whose workflow start is still pending and unclaimed (or whose claim ran out). */
export async function claimOrderEventStarts(
  q: Queryable,
  limit: number,
  leaseSeconds: number,
): Promise<{ id: number; sourceId: string; customerId: number; platform: OrderPlatform }[]> {
  const { rows } = await q.query<{ id: string | number; source_id: string; customer_id: number; platform: string }>(
    `WITH claimed AS (
       UPDATE order_events SET claimed_until = now() + make_interval(secs => $2)
        WHERE id IN (
          SELECT id FROM order_events
           WHERE start_pending AND (claimed_until IS NULL OR claimed_until < now())
           ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id, source_id)
     SELECT claimed.id, claimed.source_id, s.customer_id, s.platform FROM claimed JOIN order_sources s ON s.id = claimed.source_id ORDER BY claimed.id`,
    [limit, leaseSeconds],
  );
  return rows.map((r) => ({ id: Number(r.id), sourceId: String(r.source_id), customerId: Number(r.customer_id), platform: r.platform as OrderPlatform }));
}

/**
 * Whether an earlier create event of the same order (not failed) owns the order's draft: this event is then its
 * duplicate. Decided by event order, not by who got to the draft first, so concurrent events agree.
 */
export async function hasEarlierCreate(q: Queryable, eventId: number, sourceId: string, orderId: string): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM order_events WHERE source_id = $1 AND order_id = $2 AND action = 'create' AND state <> 'failed' AND id < $3 LIMIT 1`,
    [sourceId, orderId, eventId],
  );
  return rows.length > 0;
}
