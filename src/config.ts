import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_SDR_RATES, parseSdrRates, type SdrRates } from './customs/sdr';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url().optional(),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:]+:\d+$/, 'must be host:port')
    .optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('consignments'),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  TEMPORAL_UI_URL: z.url().optional(),
  TEMPORAL_DEV_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
  REDIS_URL: z.url().optional(),
  PUBLIC_BASE_URL: z.url().optional(),
  BOOTSTRAP_API_KEYS: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  // Delivery retry schedule (docs/webhooks.md): first retry after 5 s, doubling up to 1 h, for 24 h in all.
  // Tests shorten both; production keeps the defaults.
  WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  WEBHOOK_RETRY_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(86_400_000),
  SANDBOX: flag.default(true),
  LABEL_SIGNING_SECRET: z.string().min(16).optional(),
  CREDENTIALS_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)')
    .optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  ADDRESS_COUNTRIES: z.string().default('TR,US,CA,FR'),
  CARRIER_POLL_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(15 * 60 * 1000),
  // Processing waits this long for a carrier that does not answer before it says 503 (imports: far longer).
  CARRIER_WAIT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  IMPORT_CARRIER_WAIT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(6 * 3_600_000),
  // A processing that gave up on its carrier may have booked there: settled by the workflow after this (docs/carriers.md).
  BOOKING_GRACE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(10 * 60_000),
  // Lookups of this service's own API per API key and minute, and lookups we make of a remote per account.
  LOOKUP_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).max(1_000_000).default(300),
  LIST_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).max(1_000_000).default(120),
  // SDR per unit of each currency, over the built-in table: "USD=0.7412,EUR=0.8123" (docs/customs.md).
  CUSTOMS_SDR_RATES: z
    .string()
    .transform((text, ctx) => {
      try {
        return parseSdrRates(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  DOCUMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  CARRIER_LOOKUPS_PER_MIN: z.coerce.number().int().min(6).max(1_000_000).default(240),
  CARRIER_PUSH_TOKENS: z
    .string()
    .regex(/^\s*(\d+=[^,\s]{16,})(\s*,\s*\d+=[^,\s]{16,})*\s*$/, 'must be provider_id=token pairs, comma-separated, tokens of 16+ characters')
    .optional(),
  CONSIGNMENT_HISTORY_LIMIT: z.coerce.number().int().min(100).max(50_000).default(2000),
  // Workflows kept in the worker's memory between tasks (~35 KB each, more while busy). An evicted workflow is
  // replayed from its history on its next task, so a small cache costs CPU, never correctness.
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).max(100_000).default(250),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  // On SIGTERM /readyz answers 503 this long before the API stops taking requests (a load balancer's notice).
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  PGLITE_THREAD: flag.default(true),
  // Detail lookups kept by PGlite's thread's read cache (src/db/pglite-thread.ts); 0: none.
  PGLITE_CACHED_READS: z.coerce.number().int().min(0).max(100_000).default(2000),
  // `npm run worker` serves GET /metrics and /healthz here (the API process serves them on PORT); 0: none.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  temporal: {
    /** unset: the all-in-one process runs its own dev server */
    address?: string;
    namespace: string;
    taskQueue: string;
    cliPath?: string;
    uiPort: number;
    devPort: number;
    /** the Temporal UI as a browser reaches it (the console links each consignment's workflow there); the embedded one's by default */
    uiUrl?: string;
  };
  redisUrl?: string;
  publicBaseUrl: string;
  bootstrapApiKeys: string[];
  webhookAllowPrivate: boolean;
  /** webhook delivery retries: first interval and how long one event is retried before the webhook is disabled */
  webhookRetry: { initialIntervalMs: number; windowMs: number };
  sandbox: boolean;
  labelSigningSecret?: string;
  /** base64 of 32 bytes: seals carrier credentials; unset → generated once into DATA_DIR */
  credentialsKey?: string;
  bodyLimitBytes: number;
  /** how often carriers without push are polled */
  carrierPollIntervalMs: number;
  /** how long processing over HTTP waits for a carrier that does not answer */
  carrierWaitMs: number;
  /** the same for imports that process their orders */
  importCarrierWaitMs: number;
  /** how long a booking in doubt waits for the client to process again before the workflow settles it */
  bookingGraceMs: number;
  /** lookups (by reference and by id) per API key and minute */
  lookupRateLimitPerMin: number;
  /** LIST_RATE_LIMIT_PER_MIN: consignment list requests per API key and minute */
  listRateLimitPerMin: number;
  /** CUSTOMS_SDR_RATES over the built-in table: SDR per currency unit, for the CN22/CN23 choice */
  sdrRates: SdrRates;
  /** DOCUMENT_MAX_BYTES: the largest document upload */
  documentMaxBytes: number;
  /** lookups of a remote carrier account per minute, all workers together */
  carrierLookupsPerMin: number;
  /** bearer token per provider id for `POST /api/v1/providers/{id}/events` */
  carrierPushTokens: Map<number, string>;
  /** workflow history length at which a consignment continues as new */
  consignmentHistoryLimit: number;
  /** workflows the worker keeps in memory between tasks */
  workerMaxCachedWorkflows: number;
  /** address datasets loaded (or refreshed) at start; empty for none */
  addressCountries: string[];
  logLevel: string;
  /** SHUTDOWN_DELAY_MS: how long /readyz answers 503 before a stopping process closes its API */
  shutdownDelayMs: number;
  /** PGLITE_THREAD: PGlite in a worker thread of its own (default), or in the API's thread */
  pgliteThread: boolean;
  /** PGLITE_CACHED_READS: how many reads PGlite's thread's read cache keeps (0: none) */
  pgliteCachedReads: number;
  /** METRICS_PORT: where a worker-only process serves /metrics and /healthz (0: nowhere) */
  metricsPort: number;
  /** LOG_FORMAT: auto (pretty on a terminal, JSON otherwise), json or pretty */
  logFormat: 'auto' | 'json' | 'pretty';
}

export class ConfigError extends Error {}

/** Reads the environment once; a bad value stops start-up with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      cliPath: e.TEMPORAL_CLI_PATH,
      uiPort: e.TEMPORAL_UI_PORT,
      devPort: e.TEMPORAL_DEV_PORT,
      uiUrl: e.TEMPORAL_UI_URL?.replace(/\/$/, ''),
    },
    redisUrl: e.REDIS_URL,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    bootstrapApiKeys: (e.BOOTSTRAP_API_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookRetry: { initialIntervalMs: e.WEBHOOK_RETRY_INITIAL_MS, windowMs: e.WEBHOOK_RETRY_WINDOW_MS },
    sandbox: e.SANDBOX,
    labelSigningSecret: e.LABEL_SIGNING_SECRET,
    credentialsKey: e.CREDENTIALS_KEY,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    consignmentHistoryLimit: e.CONSIGNMENT_HISTORY_LIMIT,
    workerMaxCachedWorkflows: e.WORKER_MAX_CACHED_WORKFLOWS,
    carrierPollIntervalMs: e.CARRIER_POLL_INTERVAL_MS,
    carrierWaitMs: e.CARRIER_WAIT_MS,
    importCarrierWaitMs: e.IMPORT_CARRIER_WAIT_MS,
    bookingGraceMs: e.BOOKING_GRACE_MS,
    lookupRateLimitPerMin: e.LOOKUP_RATE_LIMIT_PER_MIN,
    listRateLimitPerMin: e.LIST_RATE_LIMIT_PER_MIN,
    documentMaxBytes: e.DOCUMENT_MAX_BYTES,
    sdrRates: e.CUSTOMS_SDR_RATES ?? DEFAULT_SDR_RATES,
    carrierLookupsPerMin: e.CARRIER_LOOKUPS_PER_MIN,
    carrierPushTokens: new Map(
      (e.CARRIER_PUSH_TOKENS ?? '')
        .split(',')
        .filter((pair) => pair.includes('='))
        .map((pair) => {
          const [id, token] = pair.trim().split('=');
          return [Number(id), token] as const;
        }),
    ),
    addressCountries:
      e.ADDRESS_COUNTRIES.trim().toLowerCase() === 'none'
        ? []
        : e.ADDRESS_COUNTRIES.split(',')
            .map((c) => c.trim().toUpperCase())
            .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metricsPort: e.METRICS_PORT,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    pgliteThread: e.PGLITE_THREAD,
    pgliteCachedReads: e.PGLITE_CACHED_READS,
  };
}
