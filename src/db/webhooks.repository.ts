import type { Queryable } from './database';
import { selectPage, type Counted } from './paging';
import type { SecurityHeader, WebhookInput } from '../domain/webhook';

/** A stored webhook, columns as named in the API's vocabulary (the mapper picks what a response shows). */
export interface WebhookRecord {
  id: number;
  webhookId: string;
  customerId: number;
  description: string;
  endpoint: string;
  subscribedEvent: WebhookInput['subscribedEvent'];
  securityType: WebhookInput['securityType'];
  dataType: WebhookInput['dataType'];
  data: string;
  securityData: SecurityHeader[];
  status: WebhookInput['status'];
  secret: string;
  disabledReason: string | null;
  disabledAt: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  eventId: string;
  /** the consignment whose event it was (null once the consignment was deleted) */
  consignmentId: number | null;
  attempt: number;
  redelivery: boolean;
  attemptedAt: string;
  httpStatus: number | null;
  latencyMs: number;
  success: boolean;
  error: string | null;
  responseBody: string | null;
}

export type Page<T> = Counted<T>;

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

const COLUMNS = `id, webhook_id, customer_id, description, endpoint, subscribed_event, security_type, data_type, data, security_data,
  status, secret, disabled_reason, disabled_at, failing_since, created_at, updated_at`;

type Row = Record<string, unknown>;

function toRecord(r: Row): WebhookRecord {
  return {
    id: Number(r.id),
    webhookId: r.webhook_id as string,
    customerId: Number(r.customer_id),
    description: r.description as string,
    endpoint: r.endpoint as string,
    // The columns hold only what parseWebhookInput let through.
    subscribedEvent: r.subscribed_event as WebhookRecord['subscribedEvent'],
    securityType: r.security_type as WebhookRecord['securityType'],
    dataType: r.data_type as WebhookRecord['dataType'],
    data: r.data as string,
    securityData: (typeof r.security_data === 'string' ? JSON.parse(r.security_data) : r.security_data) as SecurityHeader[],
    status: Number(r.status) as WebhookRecord['status'],
    secret: r.secret as string,
    disabledReason: (r.disabled_reason as string | null) ?? null,
    disabledAt: iso(r.disabled_at),
    failingSince: iso(r.failing_since),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

export async function insertWebhook(q: Queryable, w: { webhookId: string; customerId: number; secret: string; input: WebhookInput }): Promise<WebhookRecord> {
  const { rows } = await q.query<Row>(
    `INSERT INTO webhooks (webhook_id, customer_id, description, endpoint, subscribed_event, security_type, data_type, data, security_data, status, secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
    [
      w.webhookId,
      w.customerId,
      w.input.description,
      w.input.endpoint,
      w.input.subscribedEvent,
      w.input.securityType,
      w.input.dataType,
      w.input.data,
      JSON.stringify(w.input.securityData),
      w.input.status,
      w.secret,
    ],
  );
  return toRecord(rows[0]);
}

/** A customer's webhook by its public id; another customer's is not found. */
export async function findWebhook(q: Queryable, customerId: number, webhookId: string): Promise<WebhookRecord | undefined> {
  const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM webhooks WHERE customer_id = $1 AND webhook_id = $2`, [customerId, webhookId]);
  return rows[0] && toRecord(rows[0]);
}

export async function findWebhookById(q: Queryable, id: number): Promise<WebhookRecord | undefined> {
  const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1`, [id]);
  return rows[0] && toRecord(rows[0]);
}

/** Oldest first, so pages stay stable while webhooks are added. */
export async function listWebhooks(q: Queryable, customerId: number, page: { page: number; limit: number }): Promise<Page<WebhookRecord>> {
  return selectPage(
    q,
    { columns: COLUMNS, from: 'webhooks WHERE customer_id = $1', order: 'id', params: [customerId] },
    { limit: page.limit, offset: (page.page - 1) * page.limit },
    toRecord,
  );
}

const UPDATABLE: Record<keyof WebhookInput, string> = {
  description: 'description',
  endpoint: 'endpoint',
  subscribedEvent: 'subscribed_event',
  securityType: 'security_type',
  dataType: 'data_type',
  data: 'data',
  securityData: 'security_data',
  status: 'status',
};

/**
 * Applies the given fields. Setting `status` (either way) is the customer's decision and clears the
 * service's disabling reason and failure streak.
 */
export async function updateWebhook(q: Queryable, customerId: number, webhookId: string, patch: Partial<WebhookInput>): Promise<WebhookRecord | undefined> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [customerId, webhookId];
  for (const key of Object.keys(UPDATABLE) as (keyof WebhookInput)[]) {
    if (patch[key] === undefined) continue;
    params.push(key === 'securityData' ? JSON.stringify(patch[key]) : patch[key]);
    sets.push(`${UPDATABLE[key]} = $${params.length}`);
  }
  if (patch.status !== undefined) sets.push('disabled_reason = NULL', 'disabled_at = NULL', 'failing_since = NULL');
  const { rows } = await q.query<Row>(`UPDATE webhooks SET ${sets.join(', ')} WHERE customer_id = $1 AND webhook_id = $2 RETURNING ${COLUMNS}`, params);
  return rows[0] && toRecord(rows[0]);
}

export async function deleteWebhook(q: Queryable, customerId: number, webhookId: string): Promise<boolean> {
  const { rows } = await q.query('DELETE FROM webhooks WHERE customer_id = $1 AND webhook_id = $2 RETURNING id', [customerId, webhookId]);
  return rows.length > 0;
}

/** The service turns a webhook off (410, or a day of failures); only an active one, so the first reason stays. */
export async function disableWebhook(q: Queryable, id: number, reason: string): Promise<void> {
  await q.query('UPDATE webhooks SET status = 0, disabled_reason = $2, disabled_at = now(), updated_at = now() WHERE id = $1 AND status = 1', [id, reason]);
}

/** Records one attempt, numbered per webhook and event. Returns the attempt number. */
export async function recordAttempt(
  q: Queryable,
  a: {
    webhookId: number;
    eventId: string;
    redelivery: boolean;
    httpStatus: number | null;
    latencyMs: number;
    success: boolean;
    error: string | null;
    responseBody: string | null;
  },
): Promise<number> {
  const { rows } = await q.query<{ attempt: number }>(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, redelivery, http_status, latency_ms, success, error, response_body)
     SELECT $1, $2, coalesce(max(attempt), 0) + 1, $3, $4, $5, $6, $7, $8 FROM webhook_deliveries WHERE webhook_id = $1 AND event_id = $2
     RETURNING attempt`,
    [a.webhookId, a.eventId, a.redelivery, a.httpStatus, a.latencyMs, a.success, a.error, a.responseBody],
  );
  return Number(rows[0].attempt);
}

/** The webhook's failure streak: `failing_since` is set by the first failed attempt and cleared by a success. */
export async function markFailing(q: Queryable, webhookId: number, failing: boolean): Promise<void> {
  await q.query(
    failing
      ? 'UPDATE webhooks SET failing_since = now() WHERE id = $1 AND failing_since IS NULL'
      : 'UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
    [webhookId],
  );
}

export async function lastAttempt(q: Queryable, webhookId: number, eventId: string): Promise<DeliveryAttempt | undefined> {
  const page = await listDeliveries(q, webhookId, { page: 1, limit: 1, eventId });
  return page.rows[0];
}

/** Attempts, newest first; optionally of one event. */
export async function listDeliveries(q: Queryable, webhookId: number, page: { page: number; limit: number; eventId?: string }): Promise<Page<DeliveryAttempt>> {
  const filter = page.eventId ? 'AND d.event_id::text = $2' : 'AND $2::text IS NULL';
  return selectPage(
    q,
    {
      columns: 'd.event_id, e.consignment_id, d.attempt, d.redelivery, d.attempted_at, d.http_status, d.latency_ms, d.success, d.error, d.response_body',
      from: `webhook_deliveries d LEFT JOIN consignment_events e ON e.id = d.event_id WHERE d.webhook_id = $1 ${filter}`,
      order: 'd.id DESC',
      params: [webhookId, page.eventId ?? null],
    },
    { limit: page.limit, offset: (page.page - 1) * page.limit },
    toDeliveryAttempt,
  );
}

function toDeliveryAttempt(r: Row): DeliveryAttempt {
  return {
    eventId: r.event_id as string,
    consignmentId: r.consignment_id === null || r.consignment_id === undefined ? null : Number(r.consignment_id),
    attempt: Number(r.attempt),
    redelivery: r.redelivery as boolean,
    attemptedAt: iso(r.attempted_at)!,
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    latencyMs: Number(r.latency_ms),
    success: r.success as boolean,
    error: (r.error as string | null) ?? null,
    responseBody: (r.response_body as string | null) ?? null,
  };
}

/** A delivery attempt of an event of one consignment, with the webhook it went to. */
export interface ConsignmentDelivery extends DeliveryAttempt {
  webhookId: string;
  endpoint: string;
  event: string;
  /** the consignment's status the event announced */
  status: number | null;
}

/** The latest delivery attempts of a customer's consignment's events, to every webhook (newest first). */
export async function listConsignmentDeliveries(q: Queryable, customerId: number, consignmentId: number, limit: number): Promise<ConsignmentDelivery[]> {
  const { rows } = await q.query<Row>(
    `SELECT w.webhook_id, w.endpoint, e.event, (e.payload->'data'->>'status')::int AS status, d.event_id, e.consignment_id, d.attempt, d.redelivery,
            d.attempted_at, d.http_status, d.latency_ms, d.success, d.error, NULL AS response_body
       FROM consignment_events e JOIN webhook_deliveries d ON d.event_id = e.id JOIN webhooks w ON w.id = d.webhook_id
      WHERE e.consignment_id = $1 AND e.customer_id = $2 AND w.customer_id = $2
      ORDER BY d.id DESC LIMIT $3`,
    [consignmentId, customerId, limit],
  );
  return rows.map((r) => ({
    ...toDeliveryAttempt(r),
    webhookId: r.webhook_id as string,
    endpoint: r.endpoint as string,
    event: r.event as string,
    status: r.status === null ? null : Number(r.status),
  }));
}
