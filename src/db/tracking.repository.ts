import type { Queryable } from './database';

/**
 * Consignments in flight with a carrier that does not push (docs/carriers.md, "Tracking"): what the account's
 * tracking poller asks the carrier about, when, and the last carrier event handed to each workflow.
 */

export interface TrackedConsignment {
  consignmentId: number;
  uuid: string;
  trackingCode: string;
  carrierReference: string | null;
  lastEventId: string | null;
  /** how many events the carrier listed when the newest was handed over */
  eventsSeen: number;
  lastChangeAt: Date;
  failures: number;
}

/** Starts tracking a processed consignment (in processing's transaction); its first question comes in `firstCheckInMs`. */
export async function startTracking(
  q: Queryable,
  row: { consignmentId: number; uuid: string; providerId: number; trackingCode: string; carrierReference: string | null; firstCheckInMs: number },
): Promise<void> {
  await q.query(
    `INSERT INTO consignment_tracking (consignment_id, uuid, provider_id, tracking_code, carrier_reference, next_check_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
     ON CONFLICT (consignment_id) DO NOTHING`,
    [row.consignmentId, row.uuid, row.providerId, row.trackingCode, row.carrierReference, row.firstCheckInMs],
  );
}

/** A final status: nothing more to ask. */
export async function stopTracking(q: Queryable, consignmentId: number): Promise<void> {
  await q.query('DELETE FROM consignment_tracking WHERE consignment_id = $1', [consignmentId]);
}

const TRACKED_COLUMNS = 'consignment_id, uuid, tracking_code, carrier_reference, last_event_id, events_seen, last_change_at, failures';

interface TrackedRow {
  consignment_id: number;
  uuid: string;
  tracking_code: string;
  carrier_reference: string | null;
  last_event_id: string | null;
  events_seen: number;
  last_change_at: Date;
  failures: number;
}

function trackedConsignment(r: TrackedRow): TrackedConsignment {
  return {
    consignmentId: Number(r.consignment_id),
    uuid: r.uuid,
    trackingCode: r.tracking_code,
    carrierReference: r.carrier_reference,
    lastEventId: r.last_event_id,
    eventsSeen: Number(r.events_seen),
    lastChangeAt: new Date(r.last_change_at),
    failures: Number(r.failures),
  };
}

/**
 * The provider's consignments due by `dueBy` (a round's start: what it reschedules is not due again in the same
 * round), the most recently handed over or changed first: when the carrier's budget runs out mid-round, the
 * parcels people are waiting for were asked.
 */
export async function dueTracking(q: Queryable, providerId: number, dueBy: Date, limit: number): Promise<TrackedConsignment[]> {
  const { rows } = await q.query<TrackedRow>(
    `SELECT ${TRACKED_COLUMNS} FROM consignment_tracking
     WHERE provider_id = $1 AND next_check_at <= $2 ORDER BY last_change_at DESC, consignment_id LIMIT $3`,
    [providerId, dueBy, limit],
  );
  return rows.map(trackedConsignment);
}

/**
 * The provider's consignments due after `after` and by `dueBy`, soonest first, that were not asked since
 * `askedBefore`: what fills a round's last batch, so that the carrier is asked in full batches.
 */
export async function soonDueTracking(
  q: Queryable,
  providerId: number,
  window: { after: Date; dueBy: Date; askedBefore: Date },
  limit: number,
): Promise<TrackedConsignment[]> {
  const { rows } = await q.query<TrackedRow>(
    `SELECT ${TRACKED_COLUMNS} FROM consignment_tracking
     WHERE provider_id = $1 AND next_check_at > $2 AND next_check_at <= $3 AND (asked_at IS NULL OR asked_at <= $4)
     ORDER BY next_check_at, consignment_id LIMIT $5`,
    [providerId, window.after, window.dueBy, window.askedBefore, limit],
  );
  return rows.map(trackedConsignment);
}

/** What one round learnt of a consignment: its newest event (when new), whether the answer was an error, the next question. */
export interface TrackingOutcome {
  consignmentId: number;
  /** when the carrier said something new: the newest event handed to the workflow, and how many it listed */
  seen?: { newestEventId: string; count: number };
  failed: boolean;
  /** null: retired (no more questions) */
  nextCheckInMs: number | null;
}

/** Writes a round's outcomes in one statement. */
export async function recordTrackingOutcomes(q: Queryable, outcomes: TrackingOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await q.query(
    `UPDATE consignment_tracking t SET
       last_event_id = COALESCE(o.new_event_id, t.last_event_id),
       events_seen = COALESCE(o.events_seen, t.events_seen),
       last_change_at = CASE WHEN o.new_event_id IS NULL THEN t.last_change_at ELSE now() END,
       failures = CASE WHEN o.failed THEN t.failures + 1 ELSE 0 END,
       asked_at = now(),
       next_check_at = CASE WHEN o.next_ms IS NULL THEN 'infinity'::timestamptz ELSE now() + o.next_ms * interval '1 millisecond' END
     FROM unnest($1::bigint[], $2::text[], $3::int[], $4::boolean[], $5::bigint[]) AS o(consignment_id, new_event_id, events_seen, failed, next_ms)
     WHERE t.consignment_id = o.consignment_id`,
    [
      outcomes.map((o) => o.consignmentId),
      outcomes.map((o) => o.seen?.newestEventId ?? null),
      outcomes.map((o) => o.seen?.count ?? null),
      outcomes.map((o) => o.failed),
      outcomes.map((o) => o.nextCheckInMs),
    ],
  );
}

/** How long until the provider's next consignment is due (undefined: none tracked). */
export async function nextTrackingDueInMs(q: Queryable, providerId: number): Promise<number | undefined> {
  const { rows } = await q.query<{ ms: number | null }>(
    `SELECT GREATEST(0, EXTRACT(EPOCH FROM (min(next_check_at) - now())) * 1000)::float8 AS ms FROM consignment_tracking
     WHERE provider_id = $1 AND next_check_at < 'infinity'`,
    [providerId],
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.round(Number(ms));
}

/**
 * The providers with consignments being tracked: each needs its poller. A loose index scan (one probe per
 * provider), so asking often costs nothing like reading every row.
 */
export async function trackedProviders(q: Queryable): Promise<number[]> {
  const { rows } = await q.query<{ provider_id: number }>(
    `WITH RECURSIVE p AS (
       (SELECT provider_id FROM consignment_tracking WHERE next_check_at < 'infinity' ORDER BY provider_id LIMIT 1)
       UNION ALL
       SELECT (SELECT t.provider_id FROM consignment_tracking t WHERE t.provider_id > p.provider_id AND t.next_check_at < 'infinity' ORDER BY t.provider_id LIMIT 1)
       FROM p WHERE p.provider_id IS NOT NULL
     )
     SELECT provider_id FROM p WHERE provider_id IS NOT NULL`,
  );
  return rows.map((r) => Number(r.provider_id));
}

/**
 * A tracking failure in the history of one consignment, or of every consignment of a provider that is due now (a
 * round that failed as a whole left them unasked), each in its current status; a repeated key adds nothing.
 */
export async function noteTrackingFailure(
  q: Queryable,
  scope: { consignmentId: number } | { providerId: number },
  message: string,
  eventKey: string,
): Promise<void> {
  const [where, id] =
    'consignmentId' in scope ? ['t.consignment_id = $1', scope.consignmentId] : ['t.provider_id = $1 AND t.next_check_at <= now()', scope.providerId];
  await q.query(
    `INSERT INTO consignment_history (consignment_id, status, message, event_key)
     SELECT t.consignment_id, c.status, $2, $3 FROM consignment_tracking t JOIN consignments c ON c.id = t.consignment_id WHERE ${where}
     ON CONFLICT (consignment_id, event_key) DO NOTHING`,
    [id, message, eventKey],
  );
}
