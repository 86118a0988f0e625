import type { Caller } from './customers.repository';
import type { Queryable } from './database';

/** A console session as the pages see it: whose it is and the token its forms must carry. */
export interface ConsoleSession {
  caller: Caller;
  csrfToken: string;
  expiresAt: Date;
}

/** Opens a session for the (unrevoked) API key whose hash is given; undefined when no such key. */
export async function insertConsoleSession(
  q: Queryable,
  session: { tokenHash: string; apiKeyHash: string; csrfToken: string; expiresAt: Date },
): Promise<boolean> {
  const { rows } = await q.query<{ token_hash: string }>(
    `INSERT INTO console_sessions (token_hash, api_key_id, csrf_token, expires_at)
     SELECT $1, k.id, $3, $4 FROM api_keys k WHERE k.key_hash = $2 AND k.revoked_at IS NULL
     RETURNING token_hash`,
    [session.tokenHash, session.apiKeyHash, session.csrfToken, session.expiresAt],
  );
  return rows.length === 1;
}

/** The live session of a token hash: not expired, its key not revoked. */
export async function findConsoleSession(q: Queryable, tokenHash: string): Promise<ConsoleSession | undefined> {
  const { rows } = await q.query<Caller & { csrfToken: string; expiresAt: Date }>(
    `SELECT c.id AS "customerId", c.customer_code AS "customerCode", c.name AS "customerName", c.authorized_name AS "authorizedName",
            u.id AS "userId", u.firstname, u.lastname, s.csrf_token AS "csrfToken", s.expires_at AS "expiresAt"
       FROM console_sessions s JOIN api_keys k ON k.id = s.api_key_id JOIN customers c ON c.id = k.customer_id JOIN users u ON u.id = k.user_id
      WHERE s.token_hash = $1 AND s.expires_at > now() AND k.revoked_at IS NULL`,
    [tokenHash],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { csrfToken, expiresAt, ...caller } = row;
  return { caller, csrfToken, expiresAt: new Date(expiresAt) };
}

export async function deleteConsoleSession(q: Queryable, tokenHash: string): Promise<void> {
  await q.query('DELETE FROM console_sessions WHERE token_hash = $1', [tokenHash]);
}

/** Drops expired sessions; how many. */
export async function purgeConsoleSessions(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'WITH gone AS (DELETE FROM console_sessions WHERE expires_at <= now() RETURNING 1) SELECT count(*)::int AS n FROM gone',
  );
  return rows[0]?.n ?? 0;
}
