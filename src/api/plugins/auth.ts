import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findCaller, type Caller } from '../../db/customers.repository';
import type { Queryable } from '../../db/database';
import { DomainError } from '../../domain/errors';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
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

/** Authenticates every route of the context it is installed in; `request.caller` is the key's customer and user. */
export function installAuth(app: FastifyInstance, db: Queryable): void {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (request) => {
    const key = apiKeyOf(request);
    const caller = key && key.length <= MAX_KEY_LENGTH ? await findCaller(db, key) : undefined;
    if (!caller) throw new DomainError('INVALID_API_KEY');
    request.caller = caller;
    request.log = request.log.child({ customer: caller.customerCode });
  });
}
