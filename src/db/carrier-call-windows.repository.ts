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
  const { rows } = await q.query<{ calls: number; remaining_ms: number | string }>(
    `WITH w AS (SELECT to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $3) * $3) AS start)
     INSERT INTO carrier_call_windows (provider_id, kind, window_start, calls)
     SELECT $1, $2, start, 1 FROM w
     ON CONFLICT (provider_id, kind, window_start) DO UPDATE SET calls = carrier_call_windows.calls + 1
     RETURNING calls, extract(epoch FROM (window_start + make_interval(secs => $3) - clock_timestamp())) * 1000 AS remaining_ms`,
    [call.providerId, call.kind, call.windowSeconds],
  );
  const calls = Number(rows[0].calls);
  // The first call of a window clears windows that no budget will read again.
  if (calls === 1) await q.query(`DELETE FROM carrier_call_windows WHERE window_start < clock_timestamp() - interval '1 hour'`);
  return { allowed: calls <= call.limit, retryAfterMs: Math.max(1, Math.ceil(Number(rows[0].remaining_ms))) };
}
