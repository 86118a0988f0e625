import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { findCaller, hashApiKey, type Caller } from '../../db/customers.repository';
import type { Queryable } from '../../db/database';
import { DomainError } from '../../domain/errors';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
    /** the SHA-256 of the request's API key (hex), once authenticated: the rate limits' key */
    apiKeyHash?: string;
  }
}

const MAX_KEY_LENGTH = 200;

/** the API (docs/api.md): `APIKEY: <key>`, or `Authorization: APIKEY <key>` as the create-webhook example sends it. */
export function apiKeyOf(request: FastifyRequest): string | undefined {
  const direct = request.headers['apikey'];
  if (typeof direct === 'string' && direct.trim()) return direct.trim();
  const authorization = request.headers.authorization;
  const match = typeof authorization === 'string' ? /^\s*apikey\s+(\S+)\s*$/i.exec(authorization) : null;
  return match?.[1];
}

/**
 * How long a key found valid is taken as valid without asking the database again (per API process): a
 * statement per request would be a large share of a lookup's database time. A key revoked in the database stops working
 * within this time. Keys not found are never remembered (random keys cannot fill the memory).
 */
const KNOWN_KEY_MS = 10_000;
const KNOWN_KEYS_KEPT = 10_000;

/** The callers of keys found valid lately, by the key's hash; the oldest go first when it is full. */
export function knownCallers(db: Queryable, now: () => number = Date.now) {
  const known = new Map<string, { caller: Caller; until: number }>();
  return async (key: string, hash = hashApiKey(key)): Promise<Caller | undefined> => {
    const hit = known.get(hash);
    if (hit && hit.until > now()) return hit.caller;
    known.delete(hash);
    const caller = await findCaller(db, key);
    if (caller) {
      if (known.size >= KNOWN_KEYS_KEPT) known.delete(known.keys().next().value!);
      known.set(hash, { caller, until: now() + KNOWN_KEY_MS });
    }
    return caller;
  };
}

/** Authenticates every route of the context it is installed in; `request.caller` is the key's customer and user. */
export function installAuth(app: FastifyInstance, db: Queryable): void {
  app.decorateRequest('caller', null as unknown as Caller);
  const callerOf = knownCallers(db);
  app.addHook('onRequest', async (request) => {
    const key = apiKeyOf(request);
    const hash = key && key.length <= MAX_KEY_LENGTH ? hashApiKey(key) : undefined;
    const caller = hash ? await callerOf(key!, hash) : undefined;
    if (!caller) throw new DomainError('INVALID_API_KEY');
    request.caller = caller;
    request.apiKeyHash = hash;
    // The request's own logger (Fastify makes one per request) gains the customer: no second child logger.
    (request.log as Logger).setBindings({ customer: caller.customerCode });
  });
}
