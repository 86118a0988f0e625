import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { createCustomer } from '../../src/db/customers.repository';
import { openDatabase, type Database } from '../../src/db/database';
import { startRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime';
import { scratchDatabase } from './scratch-database';

/**
 * A test database: PGlite in memory by default, or a fresh database on the PostgreSQL server of
 * DATABASE_URL (CI runs the suite both ways). Dropped again by `drop()`.
 */
export async function openTestDatabase(): Promise<{ db: Database; url?: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({});
    return { db, drop: () => db.close() };
  }
  const scratch = await scratchDatabase(serverUrl);
  const db = await openDatabase({ url: scratch.url, poolSize: 20 });
  return {
    db,
    url: scratch.url,
    drop: async () => {
      await db.close();
      await scratch.drop();
    },
  };
}

export interface TestService {
  runtime: Runtime;
  app: FastifyInstance;
  db: Database;
  /** a new customer and its API key */
  customer(name?: string): Promise<{ apiKey: string; customerId: number; customerCode: string }>;
  request(options: InjectOptions & { apiKey?: string; lang?: string }): Promise<LightMyRequestResponse>;
  /** A JSON request: `body` is serialised, or sent exactly as it is when it is a string or bytes (malformed or hostile JSON). */
  sendJson(method: 'POST' | 'PUT' | 'PATCH', url: string, apiKey: string | undefined, body: unknown): Promise<LightMyRequestResponse>;
  stop(): Promise<void>;
}

/**
 * The real runtime (API + worker) against the suite's Temporal dev server, on its own task queue and database.
 * It owns `database` (or the one it opens): `stop()` drops it, and so does a start that fails, whose error it
 * then throws — an open PGlite thread would keep Jest from ever ending the run.
 */
export async function startTestService(
  overrides: Record<string, string> = {},
  database?: { db: Database; drop(): Promise<void> },
  runtimeOptions: Pick<RuntimeOptions, 'extraCarriers' | 'importTuning'> = {},
): Promise<TestService> {
  const address = process.env.TEST_TEMPORAL_ADDRESS;
  const bundlePath = process.env.TEST_WORKFLOW_BUNDLE;
  if (!address || !bundlePath) throw new Error('integration tests need the jest globalSetup (test/support/global-setup.ts)');
  const testDb = database ?? (await openTestDatabase());
  let runtime: Runtime | undefined;
  try {
    const config = loadConfig({
      TEMPORAL_ADDRESS: address,
      TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
      PUBLIC_BASE_URL: 'http://consignflow.test',
      LOG_LEVEL: 'silent',
      ADDRESS_COUNTRIES: 'none', // address tests load their data themselves
      ...overrides,
    });
    runtime = await startRuntime(config, {
      api: true,
      worker: true,
      db: testDb.db,
      workflowBundle: { codePath: bundlePath } as never,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      ...runtimeOptions,
    });
    await runtime.app!.ready();
  } catch (error) {
    await runtime?.stop().catch(() => undefined);
    await testDb.drop().catch(() => undefined);
    throw error;
  }
  const app = runtime.app!;
  const request: TestService['request'] = ({ apiKey, lang, headers, ...options }) =>
    app.inject({
      ...options,
      headers: { ...(apiKey ? { apikey: apiKey } : {}), ...(lang ? { 'accept-language': lang } : {}), ...headers },
    });
  return {
    runtime,
    app,
    db: testDb.db,
    customer: async (name = 'Test customer') => {
      const { caller, apiKey } = await createCustomer(testDb.db, { name });
      return { apiKey, customerId: caller.customerId, customerCode: caller.customerCode };
    },
    request,
    sendJson: (method, url, apiKey, body) =>
      request({
        method,
        url,
        apiKey,
        headers: { 'content-type': 'application/json' },
        payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
      }),
    stop: async () => {
      await runtime!.stop();
      await testDb.drop();
    },
  };
}
