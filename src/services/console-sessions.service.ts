import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';
import { hashApiKey } from '../db/customers.repository';
import { deleteConsoleSession, findConsoleSession, insertConsoleSession, purgeConsoleSessions, type ConsoleSession } from '../db/console-sessions.repository';

export type { ConsoleSession };

/** How long a console session lasts after sign-in (then the console asks for the API key again). */
export const CONSOLE_SESSION_MS = 12 * 60 * 60 * 1000;
/** API keys are ~35 characters; anything much longer is not one and is not hashed. */
const MAX_KEY_LENGTH = 200;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Console sign-in: an API key is exchanged once for a session whose random token only the browser's cookie holds
 * (the database keeps its hash). The key itself is never stored or sent again.
 */
export function createConsoleSessionService(deps: { db: Queryable; sessionMs?: number; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    /** A new session for a valid key (its token for the cookie), or undefined for a key that is unknown or revoked. */
    async signIn(apiKey: string): Promise<{ token: string; expiresAt: Date } | undefined> {
      const key = apiKey.trim();
      if (key === '' || key.length > MAX_KEY_LENGTH) return undefined;
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now() + (deps.sessionMs ?? CONSOLE_SESSION_MS));
      const opened = await insertConsoleSession(deps.db, {
        tokenHash: tokenHash(token),
        apiKeyHash: hashApiKey(key),
        csrfToken: randomBytes(24).toString('base64url'),
        expiresAt,
      });
      if (!opened) return undefined;
      // Sign-ins are rare: each clears the sessions that expired meanwhile, so the table stays small without a timer.
      await purgeConsoleSessions(deps.db);
      return { token, expiresAt };
    },
    /** The session a cookie's token opens, while it lasts and its key is not revoked. */
    async resume(token: string | undefined): Promise<ConsoleSession | undefined> {
      if (!token || token.length > 100) return undefined;
      return findConsoleSession(deps.db, tokenHash(token));
    },
    async signOut(token: string | undefined): Promise<void> {
      if (token && token.length <= 100) await deleteConsoleSession(deps.db, tokenHash(token));
    },
  };
}

export type ConsoleSessionService = ReturnType<typeof createConsoleSessionService>;
