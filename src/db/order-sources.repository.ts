import type { Issue } from '../domain/errors';
import type { MarketplaceSettings, OrderEventAction, OrderEventState, OrderSourceDefaults, OrderPlatform } from '../domain/order-source';
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
  /** a marketplace's: the masked hint of its API credentials, its settings, where the next pull starts, what the last did */
  credentialsHint: string | null;
  settings: MarketplaceSettings;
  pulledUntil: string | null;
  lastPull: LastPull | null;
  createdAt: string;
  updatedAt: string;
}

/** What a marketplace source's last pull did (or why it failed), for the source's answer and the console. */
export interface LastPull {
  at: string;
  /** the window asked */
  from: string;
  to: string;
  /** packages the marketplace answered, and the events they made (new packages and changes) */
  packages: number;
  events: number;
  /** write-backs done and refused in the same round */
  writeBacks?: { done: number; refused: number };
  /** the refusal that stopped it (credentials refused, …), or a fault still being retried */
  error?: string;
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
  credentials_hint: string | null;
  settings: MarketplaceSettings | string;
  pulled_until: Date | string | null;
  last_pull: LastPull | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const SOURCE_COLUMNS =
  'id, customer_id, platform, name, secret_hint, defaults, process, status, credentials_hint, settings, pulled_until, last_pull, created_at, updated_at';
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

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
    credentialsHint: r.credentials_hint,
    settings: json(r.settings ?? {}),
    pulledUntil: r.pulled_until === null ? null : new Date(r.pulled_until).toISOString(),
    lastPull: r.last_pull === null ? null : json(r.last_pull),
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
    credentials?: { sealed: Buffer; hint: string };
    settings: MarketplaceSettings;
  },
): Promise<OrderSourceRecord> {
  const { rows } = await q.query<SourceRow>(
    `INSERT INTO order_sources (id, customer_id, platform, name, secret, secret_hint, defaults, process, status, credentials, credentials_hint, settings)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${SOURCE_COLUMNS}`,
    [
      s.id,
      s.customerId,
      s.platform,
      s.name,
      s.secret,
      s.secretHint,
      JSON.stringify(s.defaults),
      s.process,
      s.status,
      s.credentials?.sealed ?? null,
      s.credentials?.hint ?? null,
      JSON.stringify(s.settings),
    ],
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

/** A marketplace source with its sealed API credentials and webhook credential, for its pulls and write-backs (deleted ones excluded). */
export async function findSourceForPull(
  q: Queryable,
  id: string,
): Promise<(OrderSourceRecord & { sealedCredentials: Buffer | null; sealedSecret: Buffer }) | undefined> {
  const { rows } = await q.query<SourceRow & { credentials: Buffer | Uint8Array | null; secret: Buffer | Uint8Array }>(
    `SELECT ${SOURCE_COLUMNS}, credentials, secret FROM order_sources WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  const r = rows[0];
  return r && { ...toSource(r), sealedCredentials: r.credentials === null ? null : Buffer.from(r.credentials), sealedSecret: Buffer.from(r.secret) };
}

/** Records a pull: where the next one starts (only moved forward by a pull that finished) and what it did. */
export async function recordPull(q: Queryable, id: string, pull: { pulledUntil?: Date; lastPull: LastPull }): Promise<void> {
  await q.query(`UPDATE order_sources SET pulled_until = GREATEST(pulled_until, $2::timestamptz), last_pull = $3 WHERE id = $1`, [
    id,
    pull.pulledUntil?.toISOString() ?? null,
    JSON.stringify(pull.lastPull),
  ]);
}

/** Keeps a value the service sets in a source's settings (the id of the webhook registered at the marketplace). */
export async function setSourceSetting(q: Queryable, id: string, key: 'webhook_id', value: string): Promise<void> {
  await q.query(`UPDATE order_sources SET settings = jsonb_set(settings, $2::text[], to_jsonb($3::text)) WHERE id = $1`, [id, [key], value]);
}

/** The active marketplace sources (their schedules are kept by the worker at start). */
export async function listMarketplaceSources(q: Queryable, platforms: readonly string[]): Promise<OrderSourceRecord[]> {
  const { rows } = await q.query<SourceRow>(
    `SELECT ${SOURCE_COLUMNS} FROM order_sources WHERE deleted_at IS NULL AND platform = ANY($1::text[]) ORDER BY created_at`,
    [platforms],
  );
  return rows.map(toSource);
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
  s: {
    name: string;
    defaults: OrderSourceDefaults;
    process: boolean;
    status: number;
    secret?: { sealed: Buffer; hint: string };
    credentials?: { sealed: Buffer; hint: string };
    settings: MarketplaceSettings;
  },
): Promise<OrderSourceRecord | undefined> {
  const { rows } = await q.query<SourceRow>(
    `UPDATE order_sources SET name = $3, defaults = $4, process = $5, status = $6,
       secret = COALESCE($7, secret), secret_hint = COALESCE($8, secret_hint),
       credentials = COALESCE($9, credentials), credentials_hint = COALESCE($10, credentials_hint), settings = $11, updated_at = now()
     WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING ${SOURCE_COLUMNS}`,
    [
      id,
      customerId,
      s.name,
      JSON.stringify(s.defaults),
      s.process,
      s.status,
      s.secret?.sealed ?? null,
      s.secret?.hint ?? null,
      s.credentials?.sealed ?? null,
      s.credentials?.hint ?? null,
      JSON.stringify(s.settings),
    ],
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
  /** a marketplace package's write-back of what was shipped, once done or refused */
  writeBack: WriteBack | null;
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
  write_back: WriteBack | string | null;
  received_at: Date | string;
  updated_at: Date | string;
};

const EVENT_COLUMNS =
  'id, source_id, dedup_key, topic, action, order_id, order_no, state, consignment_id, errors, triggered_at, write_back, received_at, updated_at';

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
    writeBack: r.write_back === null || r.write_back === undefined ? null : json(r.write_back),
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
  e: Pick<OrderEventRecord, 'sourceId' | 'dedupKey' | 'topic' | 'action' | 'orderId' | 'orderNo' | 'triggeredAt'> & { payload: string; writeBack?: WriteBack },
): Promise<{ event: OrderEventRecord; created: boolean }> {
  const { rows } = await q.query<EventRow>(
    `INSERT INTO order_events (source_id, dedup_key, topic, action, order_id, order_no, payload, triggered_at, claimed_until, write_back)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9), $10)
     ON CONFLICT (source_id, dedup_key) DO NOTHING RETURNING ${EVENT_COLUMNS}`,
    [
      e.sourceId,
      e.dedupKey,
      e.topic,
      e.action,
      e.orderId,
      e.orderNo,
      e.payload,
      e.triggeredAt,
      RECEIVER_CLAIM_SECONDS,
      e.writeBack ? JSON.stringify(e.writeBack) : null,
    ],
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

// ---------------------------------------------------------------------------------------------------------------
// Marketplace sources

/** Whether an earlier create event of the package made (or is making) its draft: a pull's change then updates it. */
export async function hasDraftingCreate(q: Queryable, sourceId: string, orderId: string): Promise<boolean> {
  const { rows } = await q.query(`SELECT 1 FROM order_events WHERE source_id = $1 AND order_id = $2 AND action = 'create' AND state <> 'failed' LIMIT 1`, [
    sourceId,
    orderId,
  ]);
  return rows.length > 0;
}

/** A processed package not written back yet: its event, the package as pulled, and what its consignment was booked as. */
export interface WriteBackDue {
  eventId: number;
  payload: string;
  consignmentId: number;
  providerId: number;
  trackingCode: string;
  trackingUrl: string | null;
  processedAt: string;
  desi: number;
  parcels: number;
}

/**
 * The source's drafted packages whose consignment has been processed (booked, not cancelled) and not written back
 * yet, oldest first.
 */
export async function listWriteBacksDue(q: Queryable, sourceId: string, limit: number): Promise<WriteBackDue[]> {
  const { rows } = await q.query<{
    id: string | number;
    payload: string;
    consignment_id: string | number;
    provider_id: number;
    tracking_code: string;
    tracking_url: string | null;
    processed_at: Date | string;
    desi: string | number;
    parcels: string | number;
  }>(
    `SELECT e.id, e.payload, e.consignment_id, c.provider_id, c.tracking_code, c.tracking_url, c.processed_at, c.desi,
            (SELECT count(*) FROM consignment_packages p WHERE p.consignment_id = c.id) AS parcels
       FROM order_events e JOIN consignments c ON c.id = e.consignment_id
      WHERE e.source_id = $1 AND e.action = 'create' AND e.write_back IS NULL AND e.consignment_id IS NOT NULL
        AND c.tracking_code IS NOT NULL AND c.processed_at IS NOT NULL AND c.status <> 10
      ORDER BY e.id LIMIT $2`,
    [sourceId, limit],
  );
  return rows.map((r) => ({
    eventId: Number(r.id),
    payload: r.payload,
    consignmentId: Number(r.consignment_id),
    providerId: Number(r.provider_id),
    trackingCode: r.tracking_code,
    trackingUrl: r.tracking_url,
    processedAt: new Date(r.processed_at).toISOString(),
    desi: Number(r.desi),
    parcels: Math.max(1, Number(r.parcels)),
  }));
}

/** What a write-back did, on its event (shown in the source's event log). */
export interface WriteBack {
  state: 'done' | 'refused' | 'not-needed';
  at: string;
  calls?: string[];
  reason?: string;
}

export async function recordWriteBack(q: Queryable, eventId: number, writeBack: WriteBack): Promise<void> {
  await q.query('UPDATE order_events SET write_back = $2, updated_at = now() WHERE id = $1', [eventId, JSON.stringify(writeBack)]);
}
