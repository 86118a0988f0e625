import { createHash } from 'node:crypto';
import type { Queryable } from '../src/db/database';
import { statusMessage, statusName } from '../src/domain/statuses';
import { STATUS_UPDATED_EVENT } from '../src/domain/webhook';

export { STATUS_UPDATED_EVENT };

/** A uuid derived from the consignment and the change, so a retried write produces the same event id. */
export function stableEventId(consignmentUuid: string, eventKey: string): string {
  const h = createHash('sha256').update(`${consignmentUuid}:${eventKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

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
 * Appends the status change to the outbox in the caller's transaction (the webhooks work delivers it).
 * The body follows DESIGN.md "Webhooks"; idempotent on the stable event id.
 */
export async function appendStatusEvent(tx: Queryable, change: StatusChange): Promise<string> {
  const id = stableEventId(change.consignmentUuid, change.eventKey);
  const payload = {
    id,
    event: STATUS_UPDATED_EVENT,
    created_at: new Date().toISOString(),
    data: {
      consignment: change.consignmentId,
      uuid: change.consignmentUuid,
      reference_no: change.referenceNo,
      barcode: change.barcode,
      status: change.to,
      status_name: statusName(change.to),
      status_message: statusMessage(change.to, 'en'),
      previous_status: change.from,
      location: change.location,
      occurred_at: change.occurredAt.toISOString(),
    },
  };
  await tx.query(
    `INSERT INTO consignment_events (id, consignment_id, customer_id, event, payload) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
    [id, change.consignmentId, change.customerId, STATUS_UPDATED_EVENT, JSON.stringify(payload)],
  );
  return id;
}
