import type { Queryable } from './database';

/** How long a key is remembered (docs/api.md: 24 h). */
export const IDEMPOTENCY_TTL_HOURS = 24;

export interface IdempotencyRecord {
  request_hash: string;
  resource_uuid: string;
  response_status: number | null;
  response_body: unknown;
  /** which try of the request's work the key is on (see nextIdempotencyAttempt) */
  attempt: number;
  /** this claim made the record: no earlier request with the key did any of its work */
  fresh: boolean;
}

const COLUMNS = 'request_hash, resource_uuid, response_status, response_body, attempt';

/**
 * Claims `key` for this request, or returns the claim a first request already made. The claim fixes the
 * resource uuid, so concurrent duplicates address the same workflow. An expired claim is replaced.
 */
export async function claimIdempotencyKey(
  q: Queryable,
  claim: { customerId: number; scope: string; key: string; requestHash: string; resourceUuid: string },
): Promise<IdempotencyRecord> {
  const { rows } = await q.query<IdempotencyRecord>(
    `INSERT INTO idempotency_keys (customer_id, scope, key, request_hash, resource_uuid) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (customer_id, scope, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, resource_uuid = EXCLUDED.resource_uuid, response_status = NULL, response_body = NULL, created_at = now()
       WHERE idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
     RETURNING ${COLUMNS}`,
    [claim.customerId, claim.scope, claim.key, claim.requestHash, claim.resourceUuid],
  );
  if (rows[0]) return { ...rows[0], fresh: true };
  const existing = await q.query<IdempotencyRecord>(`SELECT ${COLUMNS} FROM idempotency_keys WHERE customer_id = $1 AND scope = $2 AND key = $3`, [
    claim.customerId,
    claim.scope,
    claim.key,
  ]);
  return { ...existing.rows[0], fresh: false };
}

/**
 * Moves the key from attempt `from` to the next one, once: concurrent requests that saw the same attempt end
 * without an outcome move it one step together. Answers the attempt the key is on now.
 */
export async function nextIdempotencyAttempt(q: Queryable, key: { customerId: number; scope: string; key: string }, from: number): Promise<number> {
  const { rows } = await q.query<{ attempt: number }>(
    `UPDATE idempotency_keys SET attempt = attempt + 1 WHERE customer_id = $1 AND scope = $2 AND key = $3 AND attempt = $4 AND response_status IS NULL
     RETURNING attempt`,
    [key.customerId, key.scope, key.key, from],
  );
  if (rows[0]) return rows[0].attempt;
  const current = await q.query<{ attempt: number }>('SELECT attempt FROM idempotency_keys WHERE customer_id = $1 AND scope = $2 AND key = $3', [
    key.customerId,
    key.scope,
    key.key,
  ]);
  return Math.max(from + 1, current.rows[0]?.attempt ?? 0);
}

export async function saveIdempotentResponse(
  q: Queryable,
  key: { customerId: number; scope: string; key: string },
  status: number,
  body: unknown,
): Promise<void> {
  await q.query(
    'UPDATE idempotency_keys SET response_status = $4, response_body = $5 WHERE customer_id = $1 AND scope = $2 AND key = $3 AND response_status IS NULL',
    [key.customerId, key.scope, key.key, status, JSON.stringify(body)],
  );
}

/** Deletes the keys older than the TTL (claimIdempotencyKey already ignores them); how many went. */
export async function purgeExpiredIdempotencyKeys(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `WITH gone AS (DELETE FROM idempotency_keys WHERE created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours' RETURNING 1) SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}
