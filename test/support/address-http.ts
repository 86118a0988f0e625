import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, type AppDeps } from '../../src/api/app';
import type { ConsignmentService } from '../../src/services/consignments.service';
import { createLabelLinks } from '../../src/labels/label-links';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';

/**
 * The HTTP stack that serves GET /api/v1/address/search, for the benchmark and the integration tests:
 * the real app (src/api/app.ts buildApp: API-key auth, i18n, error envelope) without Temporal: the
 * consignment service refuses every call (the address route never makes one), and a customer is created
 * for the API key.
 */
export interface AddressHttpApp {
  app: FastifyInstance;
  /** Headers every request needs (the API key). */
  headers: Record<string, string>;
}

export async function buildAddressHttpApp(db: Database): Promise<AddressHttpApp> {
  const { apiKey } = await createCustomer(db, { name: 'address search harness' });
  const unused = () => {
    throw new Error('the address search harness serves address search only');
  };
  // Consignment routes are mounted but never called here; optional route groups (webhooks, imports) are left out.
  const deps: AppDeps = {
    db,
    consignments: new Proxy({} as ConsignmentService, { get: () => unused }),
    providers: async () => undefined,
    labelLinks: createLabelLinks('address-harness-secret', 'http://address.test'),
    sandboxProviders: new Set<number>(),
    carrierPushTokens: new Map(),
    health: async () => ({ database: true, temporal: true, worker: true }),
    logger: pino({ level: 'silent' }),
    bodyLimitBytes: 1_048_576,
  };
  const app = buildApp(deps);
  await app.ready();
  return { app, headers: { apikey: apiKey } };
}
