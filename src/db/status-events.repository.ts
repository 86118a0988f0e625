import { statusEventId } from '../domain/derived-uuid';
import { statusMessage, statusName } from '../domain/statuses';
import { DELETED_EVENT, STATUS_UPDATED_EVENT, type DeletedEventPayload, type StatusEventPayload, type WrittenEvent } from '../domain/webhook';
import type { Queryable } from './database';

/**
 * The outbox of status events (`consignment_events`): the lifecycle workflow's writes append to it in their
 * transaction, publishing marks an event handed to webhook delivery, and deliveries read the payloads.
 * Every statement on that table is here.
 */

type Row = Record<string, unknown>;

export interface StatusChange {
  consignmentId: number;
  consignmentUuid: string;
  customerId: number;
  referenceNo: string | null;
  barcode: string | null;
  from: number;
  to: number;
  eventKey: string;
  location: string | null;
  occurredAt: Date;
}

/**
 * Puts an event of a consignment in the outbox once, as its webhook body (docs/webhooks.md): the stable event id
 * (from `key`), the event, when it was stored, and the consignment's ids followed by `data`. A retried append with
 * the same key changes nothing (and is not `dispatched`: publishing it again is harmless). An event no active
 * webhook of the customer subscribes to is marked handed over as it is stored: there is nobody to queue it for,
 * so the workflow need not publish it (a webhook registered later gets the events that come after it).
 */
async function appendEvent<P extends StatusEventPayload | DeletedEventPayload>(
  tx: Queryable,
  of: { consignmentId: number; consignmentUuid: string; customerId: number; referenceNo: string | null },
  key: string,
  event: P['event'],
  data: Omit<P['data'], 'consignment' | 'uuid' | 'reference_no'>,
): Promise<Required<WrittenEvent>> {
  const id = statusEventId(of.consignmentUuid, key);
  const payload = {
    id,
    event,
    created_at: new Date().toISOString(),
    data: { consignment: of.consignmentId, uuid: of.consignmentUuid, reference_no: of.referenceNo, ...data },
  };
  const { rows } = await tx.query<{ dispatched: boolean }>(
    `INSERT INTO consignment_events (id, consignment_id, customer_id, event, payload, dispatched_at)
     VALUES ($1, $2, $3, $4::text, $5,
             CASE WHEN EXISTS (SELECT 1 FROM webhooks w WHERE w.customer_id = $3 AND w.subscribed_event = $4::text AND w.status = 1) THEN NULL ELSE now() END)
     ON CONFLICT (id) DO NOTHING
     RETURNING dispatched_at IS NOT NULL AS dispatched`,
    [id, of.consignmentId, of.customerId, event, JSON.stringify(payload)],
  );
  return { eventId: id, dispatched: rows[0]?.dispatched === true };
}

/** Appends the status change to the outbox in the caller's transaction (the webhooks work delivers it). */
export async function appendStatusEvent(tx: Queryable, change: StatusChange): Promise<Required<WrittenEvent>> {
  return appendEvent<StatusEventPayload>(tx, change, change.eventKey, STATUS_UPDATED_EVENT, {
    barcode: change.barcode,
    status: change.to,
    status_name: statusName(change.to),
    status_message: statusMessage(change.to, 'en'),
    previous_status: change.from,
    location: change.location,
    occurred_at: change.occurredAt.toISOString(),
  });
}

/** Appends a draft's deletion to the outbox, in the transaction that deletes it (events outlive their consignment). */
export async function appendDeletedEvent(
  tx: Queryable,
  draft: { consignmentId: number; consignmentUuid: string; customerId: number; referenceNo: string | null; status: number },
): Promise<Required<WrittenEvent>> {
  return appendEvent<DeletedEventPayload>(tx, draft, 'deleted', DELETED_EVENT, { status: draft.status, deleted_at: new Date().toISOString() });
}

/** The event has been queued for every subscriber. */
export async function markEventDispatched(q: Queryable, eventId: string): Promise<void> {
  await q.query('UPDATE consignment_events SET dispatched_at = now() WHERE id = $1 AND dispatched_at IS NULL', [eventId]);
}

/**
 * An outbox event with the active webhooks of its customer subscribed to it (none: an empty list), and the
 * customer's code (for the Temporal UI). One query: publishing runs for every status change.
 */
export async function findEventSubscribers(
  q: Queryable,
  eventId: string,
): Promise<{ consignmentId: number; customerCode: string; subscribers: { id: number; webhookId: string }[] } | undefined> {
  const { rows } = await q.query<{ consignment_id: number; customer_code: string; id: number | null; webhook_id: string | null }>(
    `SELECT e.consignment_id, c.customer_code, w.id, w.webhook_id
       FROM consignment_events e
       JOIN customers c ON c.id = e.customer_id
       LEFT JOIN webhooks w ON w.customer_id = e.customer_id AND w.subscribed_event = e.event AND w.status = 1
      WHERE e.id = $1
      ORDER BY w.id`,
    [eventId],
  );
  if (rows.length === 0) return undefined;
  return {
    consignmentId: Number(rows[0].consignment_id),
    customerCode: rows[0].customer_code,
    subscribers: rows.filter((r) => r.id !== null).map((r) => ({ id: Number(r.id), webhookId: r.webhook_id! })),
  };
}

export interface StoredEvent {
  id: string;
  consignmentId: number;
  customerId: number;
  customerCode: string;
  event: string;
  payload: Record<string, unknown>;
}

/** An outbox event; with `customerId`, only that customer's. */
export async function findEvent(q: Queryable, eventId: string, customerId?: number): Promise<StoredEvent | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(eventId)) return undefined;
  const { rows } = await q.query<Row>(
    `SELECT e.id, e.consignment_id, e.customer_id, c.customer_code, e.event, e.payload
       FROM consignment_events e JOIN customers c ON c.id = e.customer_id
      WHERE e.id = $1 AND ($2::int IS NULL OR e.customer_id = $2)`,
    [eventId, customerId ?? null],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id as string,
    consignmentId: Number(r.consignment_id),
    customerId: Number(r.customer_id),
    customerCode: r.customer_code as string,
    event: r.event as string,
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
  };
}

/**
 * The events of a delivery batch (only the webhook customer's), with whether each was already delivered
 * to the webhook (a successful attempt exists). One query per batch.
 */
export async function findEventsToDeliver(
  q: Queryable,
  webhookId: number,
  customerId: number,
  eventIds: string[],
): Promise<Map<string, { payload: Record<string, unknown>; delivered: boolean }>> {
  const { rows } = await q.query<{ id: string; payload: unknown; delivered: boolean }>(
    `SELECT e.id, e.payload,
            EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = $1 AND d.event_id = e.id AND d.success) AS delivered
       FROM consignment_events e WHERE e.id = ANY($3::uuid[]) AND e.customer_id = $2`,
    [webhookId, customerId, eventIds],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>, delivered: r.delivered },
    ]),
  );
}
