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

/**
 * The one way a carrier's tracking event becomes the CarrierEvent its consignment's workflow takes, whichever
 * way it came (a carrier's push, the sandbox endpoint, polling): its id made unique across carriers, its time
 * as ISO text (now, when the carrier gave none), location and message null when absent.
 */
export function carrierEventOf(
  providerId: number,
  event: { eventId: string; event: TrackingEventName; occurredAt?: Date | string | null; location?: string | null; message?: string | null },
  now: Date = new Date(),
): CarrierEvent {
  return {
    eventId: providerEventId(providerId, event.eventId),
    event: event.event,
    occurredAt: (event.occurredAt ? new Date(event.occurredAt) : now).toISOString(),
    location: event.location ?? null,
    message: event.message ?? null,
  };
}

/**
 * Whether the status named `statusName` in our catalog is one a carrier reports (some tracking event moves a
 * consignment to it): false for drafts, processing and cancellation; undefined for a name the catalog lacks.
 * A remote's status webhook naming a status that is not carrier-reported has nothing to look up.
 */
export function isCarrierReported(statusName: string): boolean | undefined {
  if (!Object.hasOwn(STATUS, statusName)) return undefined;
  const status = (STATUS as Record<string, number>)[statusName];
  return Object.values(TRACKING_EVENT_STATUS).includes(status as (typeof TRACKING_EVENT_STATUS)[TrackingEventName]);
}

/**
 * What to hand the workflow, oldest first: the events after the newest one handed over, or all of them when the
 * carrier's list changed otherwise (that one gone, or a late scan dated before it: the count tells); the workflow
 * drops the ones it applied already.
 */
export function newEvents(events: CarrierEvent[], handed: { lastEventId: string | null; eventsSeen: number }): CarrierEvent[] {
  const sorted = [...events].sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt));
  const at = handed.lastEventId === null ? -1 : sorted.findIndex((e) => e.eventId === handed.lastEventId);
  const after = sorted.slice(at + 1);
  return after.length === 0 && at >= 0 && sorted.length !== handed.eventsSeen ? sorted : after;
}
