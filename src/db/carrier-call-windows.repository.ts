import type { Queryable } from './database';

/**
 * Calls to a remote counted per time window in the database, so every worker process shares one budget per
 * account: a carrier account's (`carrier_call_windows`, by provider id) and a marketplace source's
 * (`order_source_call_windows`, by source id; the marketplaces limit each seller's API key).
 */

/** The two budgets' tables and their keys. */
const BUDGETS = {
  carrier: { table: 'carrier_call_windows', owner: 'provider_id', kind: 'kind' },
  orderSource: { table: 'order_source_call_windows', owner: 'source_id', kind: 'call_group' },
} as const;

/**
 * Counts one call of `kind` by `owner` in the current window of `windowSeconds` (database clock). Allowed while the
 * window holds at most `limit` calls; otherwise `retryAfterMs` is the time to the next window.
 */
async function takeCall(
  q: Queryable,
  budget: (typeof BUDGETS)[keyof typeof BUDGETS],
  call: { owner: number | string; kind: string; windowSeconds: number; limit: number },
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  const { table, owner, kind } = budget;
  // Counted only when allowed, so `calls` is the number of calls made in the window.
  const { rows } = await q.query<{ calls: number }>(
    `WITH w AS (SELECT to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $3) * $3) AS start)
     INSERT INTO ${table} (${owner}, ${kind}, window_start, calls)
     SELECT $1, $2, start, 1 FROM w
     ON CONFLICT (${owner}, ${kind}, window_start) DO UPDATE SET calls = ${table}.calls + 1 WHERE ${table}.calls < $4
     RETURNING calls`,
    [call.owner, call.kind, call.windowSeconds, call.limit],
  );
  if (rows.length > 0) {
    // The first call of a window clears windows that no budget will read again.
    if (Number(rows[0].calls) === 1) await q.query(`DELETE FROM ${table} WHERE window_start < clock_timestamp() - interval '1 hour'`);
    return { allowed: true, retryAfterMs: 0 };
  }
  const { rows: left } = await q.query<{ remaining_ms: number | string }>(
    `SELECT extract(epoch FROM (to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $1) * $1) + make_interval(secs => $1) - clock_timestamp())) * 1000 AS remaining_ms`,
    [call.windowSeconds],
  );
  return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(Number(left[0].remaining_ms))) };
}

/** One call of `kind` to the carrier account `providerId`, within `limit` a window. */
export function takeCarrierCall(
  q: Queryable,
  call: { providerId: number; kind: string; windowSeconds: number; limit: number },
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  return takeCall(q, BUDGETS.carrier, { owner: call.providerId, kind: call.kind, windowSeconds: call.windowSeconds, limit: call.limit });
}

/** One call of a marketplace's rate-limit `group` (its documented limits) by the order source `sourceId`. */
export function takeOrderSourceCall(
  q: Queryable,
  call: { sourceId: string; group: string; windowSeconds: number; limit: number },
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  return takeCall(q, BUDGETS.orderSource, { owner: call.sourceId, kind: call.group, windowSeconds: call.windowSeconds, limit: call.limit });
}
