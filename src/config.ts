import { resolve } from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url().optional(),
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port').optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('consignments'),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  TEMPORAL_DEV_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
  REDIS_URL: z.url().optional(),
  PUBLIC_BASE_URL: z.url().optional(),
  BOOTSTRAP_API_KEYS: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  SANDBOX: flag.default(true),
  LABEL_SIGNING_SECRET: z.string().min(16).optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  ADDRESS_COUNTRIES: z.string().default('TR,US,CA,FR'),
  CONSIGNMENT_HISTORY_LIMIT: z.coerce.number().int().min(100).max(50_000).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  };
  redisUrl?: string;
  publicBaseUrl: string;
  bootstrapApiKeys: string[];
  webhookAllowPrivate: boolean;
  sandbox: boolean;
  labelSigningSecret?: string;
  bodyLimitBytes: number;
  /** workflow history length at which a consignment continues as new */
  consignmentHistoryLimit: number;
  /** address datasets loaded (or refreshed) at start; empty for none */
  addressCountries: string[];
  logLevel: string;
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
    },
    redisUrl: e.REDIS_URL,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    bootstrapApiKeys: (e.BOOTSTRAP_API_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    sandbox: e.SANDBOX,
    labelSigningSecret: e.LABEL_SIGNING_SECRET,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    consignmentHistoryLimit: e.CONSIGNMENT_HISTORY_LIMIT,
    addressCountries: e.ADDRESS_COUNTRIES.trim().toLowerCase() === 'none' ? [] : e.ADDRESS_COUNTRIES.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean),
    logLevel: e.LOG_LEVEL,
  };
}
