import { STATUS } from './statuses';

/** The tracking events a carrier reports, and the status each one moves a consignment to. */
export const TRACKING_EVENT_STATUS = {
  PICKED_UP: STATUS.PICKED_UP,
  IN_TRANSIT: STATUS.IN_TRANSIT,
  OUT_FOR_DELIVERY: STATUS.OUT_FOR_DELIVERY,
  DELIVERED: STATUS.DELIVERED,
  RETURNED: STATUS.RETURNED,
  EXCEPTION: STATUS.EXCEPTION,
} as const;

export type TrackingEventName = keyof typeof TRACKING_EVENT_STATUS;
export const TRACKING_EVENTS = Object.keys(TRACKING_EVENT_STATUS) as [TrackingEventName, ...TrackingEventName[]];

/** A carrier tracking event as it reaches the lifecycle workflow (at least once: `eventId` makes it idempotent). */
export interface CarrierEvent {
  /** unique across carriers: see providerEventId */
  eventId: string;
  event: TrackingEventName;
  occurredAt: string;
  location?: string | null;
  message?: string | null;
}

/**
 * A carrier's own event id made unique across carriers, whichever way the event came (pushed, sandbox or
 * polled), so the same event reaching the workflow twice is recognised.
 */
export function providerEventId(providerId: number, carrierEventId: string): string {
  return `${providerId}:${carrierEventId}`;
}
