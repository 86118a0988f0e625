import { createHash } from 'node:crypto';

/**
 * A uuid derived from a name (RFC 4122 version 5 layout over SHA-256): the same name always gives the same
 * uuid, so a retried activity reaches the same record, event or workflow. Not for workflow code (node:crypto).
 */
export function derivedUuid(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The id of the status event a change of a consignment produces (stable across retries). */
export const statusEventId = (consignmentUuid: string, eventKey: string): string => derivedUuid(`${consignmentUuid}:${eventKey}`);

/**
 * The uuid of the consignment an import creates for its order `seq`. Keyed by position, not order number, so
 * a file that repeats an order number gets that order reported as a duplicate instead of merged into the first.
 */
export const importOrderUuid = (importId: string, seq: number): string => derivedUuid(`consignflow:import:${importId}:${seq}`);

/**
 * The uuid of the draft an order source makes of one order (the platform's order id): every event of that
 * order, and every retry of its activity, reaches the same draft, so an order becomes at most one draft.
 */
export const orderSourceDraftUuid = (sourceId: string, orderId: string): string => derivedUuid(`consignflow:order-source:${sourceId}:order:${orderId}`);
