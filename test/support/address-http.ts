import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/api/app';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';

/**
 * The HTTP stack that serves GET /api/v1/address/search, for the benchmark and the integration tests:
 * the real app (src/api/app.ts buildApp: API-key auth, i18n, error envelope), with stub
 * consignment/provider/health dependencies the address route never touches (no Temporal needed), and a
 * customer created for the API key.
 */
export interface AddressHttpApp {
  app: FastifyInstance;
  /** Headers every request needs (the API key). */
  headers: Record<string, string>;
}

/** A stand-in that is empty and absorbs any use: properties are itself, size/length 0, calls return itself. */
const INERT: unknown = new Proxy(function inert() {}, {
  get: (_target, key) => (key === 'size' || key === 'length' ? 0 : key === Symbol.iterator ? function* empty() {} : key === 'then' ? undefined : INERT),
  apply: () => INERT,
});

export async function buildAddressHttpApp(db: Database): Promise<AddressHttpApp> {
  const { apiKey } = await createCustomer(db, { name: 'address search harness' });
  type Deps = Parameters<typeof buildApp>[0];
  const given: Record<PropertyKey, unknown> = {
    db,
    health: async () => ({ database: true, temporal: true, worker: true }),
    sandboxProviders: new Set<number>(),
    logger: pino({ level: 'silent' }),
    bodyLimitBytes: 1_048_576,
  };
  // Every other dependency (consignments, providers, label links, and whatever the app adds later) is
  // inert: the address route never calls them, and routes that would are not exercised here.
  const deps = new Proxy(given, { get: (target, key) => (key in target ? target[key] : INERT) }) as unknown as Deps;

  const app = buildApp(deps);
  await app.ready();
  return { app, headers: { apikey: apiKey } };
}
