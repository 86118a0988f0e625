import type { Queryable } from './database';

/**
 * Calls to a carrier account counted per time window in the database, so every worker process shares
 * one budget per account (the remote limits each API key, whichever of our workers calls).
 */

/**
 * Counts one call of `kind` to `providerId` in the current window of `windowSeconds` (database clock).
 * Allowed while the window holds at most `limit` calls; otherwise `retryAfterMs` is the time to the next window.
 */
export async function takeCarrierCall(
  q: Queryable,
  call: { providerId: number; kind: string; windowSeconds: number; limit: number },
): Promise<{ allowed: boolean; retryAfterMs: number }> {
  // Counted only when allowed, so `calls` is the number of calls made in the window.
  const { rows } = await q.query<{ calls: number }>(
    `WITH w AS (SELECT to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $3) * $3) AS start)
     INSERT INTO carrier_call_windows (provider_id, kind, window_start, calls)
     SELECT $1, $2, start, 1 FROM w
     ON CONFLICT (provider_id, kind, window_start) DO UPDATE SET calls = carrier_call_windows.calls + 1 WHERE carrier_call_windows.calls < $4
     RETURNING calls`,
    [call.providerId, call.kind, call.windowSeconds, call.limit],
  );
  if (rows.length > 0) {
    // The first call of a window clears windows that no budget will read again.
    if (Number(rows[0].calls) === 1) await q.query(`DELETE FROM carrier_call_windows WHERE window_start < clock_timestamp() - interval '1 hour'`);
    return { allowed: true, retryAfterMs: 0 };
  }
  const { rows: left } = await q.query<{ remaining_ms: number | string }>(
    `SELECT extract(epoch FROM (to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $1) * $1) + make_interval(secs => $1) - clock_timestamp())) * 1000 AS remaining_ms`,
    [call.windowSeconds],
  );
  return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(Number(left[0].remaining_ms))) };
}
