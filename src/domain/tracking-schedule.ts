/**
 * When tracking asks a carrier about a consignment in flight again (docs/carriers.md, "Tracking"): soon after it
 * was handed over (the first scan is what people wait for), every interval while the carrier keeps saying new
 * things, less often the longer it is quiet, and no more after 90 days of silence (as Karrio retires its
 * trackers): pushed events and cancellation still reach it then. Never sooner than the carrier allows.
 */

const DAY_MS = 86_400_000;
/** A shipment the carrier has said nothing new about for this long is no longer asked. */
export const TRACKING_RETIRES_AFTER_MS = 90 * DAY_MS;
/** The longest wait between two questions about one shipment, however quiet, and after failures. */
export const TRACKING_MAX_WAIT_MS = 6 * 3_600_000;

/** The interval's multiple by how long the carrier has been quiet: [quiet for at least, ask every]. */
const QUIET_STEPS: [number, number][] = [
  [30 * DAY_MS, 16],
  [7 * DAY_MS, 8],
  [3 * DAY_MS, 4],
  [DAY_MS, 2],
];

export interface TrackingPace {
  /** the configured interval (CARRIER_POLL_INTERVAL_MS) */
  intervalMs: number;
  /** the carrier's shortest wait before one shipment may be asked again */
  minReaskMs: number;
}

/** The first question after the hand-over: a third of the interval. */
export function firstCheckIn(pace: TrackingPace): number {
  return Math.max(Math.round(pace.intervalMs / 3), pace.minReaskMs);
}

/**
 * How long until the next question, after an answer, given how long the carrier has been quiet (0 when it just
 * said something new) and how many answers in a row were errors; null when the shipment is retired.
 */
export function nextCheckIn(pace: TrackingPace, quietForMs: number, failures: number): number | null {
  if (quietForMs >= TRACKING_RETIRES_AFTER_MS) return null;
  const step = QUIET_STEPS.find(([quiet]) => quietForMs >= quiet)?.[1] ?? 1;
  const wait = Math.min(pace.intervalMs * step * 2 ** failures, Math.max(TRACKING_MAX_WAIT_MS, pace.intervalMs));
  return Math.max(wait, pace.minReaskMs);
}

/** A wait as the history words it: "40 s", "20 min", "1.5 h". */
export function describeWait(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 360_000) / 10} h`;
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.ceil(ms / 1000)} s`;
}
