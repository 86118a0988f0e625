import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/api/app';
import { appDoubles } from './app-doubles';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';

/**
 * The HTTP stack that serves GET /api/v1/address/search, for the benchmark and the integration tests:
 * the real app (src/api/app.ts buildApp: API-key auth, i18n, error envelope) without Temporal: every other
 * service is a double that refuses every call (the address route never makes one), and a customer is created
 * for the API key.
 */
export interface AddressHttpApp {
  app: FastifyInstance;
  /** Headers every request needs (the API key). */
  headers: Record<string, string>;
}

export async function buildAddressHttpApp(db: Database): Promise<AddressHttpApp> {
  const { apiKey } = await createCustomer(db, { name: 'address search harness' });
  // Every other route group is mounted with doubles that fail if called (the address route calls none).
  const app = buildApp(appDoubles({ db }));
  await app.ready();
  return { app, headers: { apikey: apiKey } };
}
