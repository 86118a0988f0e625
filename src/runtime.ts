import { join } from 'node:path';
import { createMetrics, type Metrics } from './metrics';
import pinoPretty from 'pino-pretty';
import type { Client, Connection } from '@temporalio/client';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { ensureAddressData } from './address/address-data';
import { buildApp } from './api/app';
import { createRateLimiter, rateLimitHook } from './api/plugins/rate-limit';
import type { HealthReport } from './health';
import { createConsignmentService } from './services/consignments.service';
import { createDocumentService } from './services/documents.service';
import { createImportService } from './services/imports.service';
import type { ImportTuning } from '../workflows/import.messages';
import { createWebhookService } from './services/webhooks.service';
import type { Config } from './config';
import { bootstrapApiKeys } from './db/customers.repository';
import { prepareDetailLookups } from './db/consignments.repository';
import { isDatabaseReachable, openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { connectClient, ensureSearchAttributes, isTemporalReachable } from './temporal/client';
import { startDevServer, type DevServer } from './temporal/dev-server';
import { startWorker, temporalSdkMetrics, type RunningWorker } from './temporal/worker';
import { countDraftStarts } from './db/outbox.repository';
import { createLabelLinks, labelSigningSecret } from './labels/label-links';
import { createCredentialsVault, loadCredentialsKey } from './carriers/credentials-vault';
import { createCarrierAccountService } from './services/carrier-accounts.service';
import type { Carrier } from './carriers/carrier';
import { CarrierRegistry } from './carriers/registry';
import { startConsignmentRelay, type ConsignmentRelay } from './temporal/consignment-relay';
import { createConsignmentStarter } from './temporal/consignment.starter';
import { createImportStarter } from './temporal/import.starter';
import { createWebhookDeliveryStarter } from './temporal/webhook-delivery.starter';
import { createSandboxCarriers } from './carriers/sandbox-carriers';
import { createOutboundHttp } from './http/outbound';
import { createProviderService } from './services/providers.service';
import { createOrderSourceService } from './services/order-sources.service';
import { createOrderEventStarter } from './temporal/order-event.starter';
import { createOrderSourcePulls, keepOrderSourceSchedules } from './temporal/order-source-pull.starter';
import { marketplaceClients } from './marketplaces/clients';
import { createConsoleSessionService } from './services/console-sessions.service';
import { startIdempotencyPurge } from './services/idempotency-purge';
import { startOrderEventRelay } from './temporal/order-event-relay';
import { startTrackingPollerKeeper } from './temporal/tracking-poller-keeper';
import { createTrackingPollerStarter } from './temporal/tracking-poller.starter';

/** How long a created draft is left to its client before the relay starts its workflow (consignment-relay.ts). */
const RELAY_GRACE_MS = 1000;

/** Carrier answers may carry a label (base64 in JSON, or a file): room for large ones. */
const CARRIER_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface RuntimeOptions {
  api: boolean;
  worker: boolean;
  logger?: Logger;
  /** tests: a prebuilt workflow bundle */
  workflowBundle?: WorkflowBundleWithSourceMap;
  /** tests: an already open database */
  db?: Database;
  /** carriers beside the sandbox ones (tests: a carrier that must be polled) */
  extraCarriers?: Carrier[];
  /** tests and benchmarks: pages and batches of order imports */
  importTuning?: Partial<ImportTuning>;
  /** tests: the metrics to count into (default a registry of this runtime's own) */
  metrics?: Metrics;
}

export interface Runtime {
  config: Config;
  db: Database;
  client: Client;
  connection: Connection;
  app?: FastifyInstance;
  worker?: RunningWorker;
  /** the outbox relay that starts created drafts' workflows (with the worker) */
  relay?: ConsignmentRelay;
  devServer?: DevServer;
  logger: Logger;
  metrics: Metrics;
  health(): Promise<HealthReport>;
  stop(): Promise<void>;
}

/** The process logger: pino at `level`; API keys and carrier-account webhook secrets never reach the logs, whichever header carried them. */
export function createLogger(level: string, destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  const secretHeaders = ['apikey', 'authorization', '["x-consignflow-account-secret"]'];
  const paths = secretHeaders.flatMap((h) => (h.startsWith('[') ? [`req.headers${h}`, `headers${h}`] : [`req.headers.${h}`, `headers.${h}`]));
  // Pretty lines are made in this thread (no transport worker), after redaction: the same fields, for people.
  const stream =
    format === 'pretty'
      ? pinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination: destination ?? 1 })
      : destination;
  return pino({ level, redact: { paths, censor: '[redacted]' } }, stream);
}

/** `LOG_FORMAT`: `pretty` (coloured lines), `json`, or `auto`, pretty when stdout is a terminal. */
export type LogFormat = 'json' | 'pretty';
export const logFormatOf = (setting: 'auto' | LogFormat, stdoutIsTerminal = process.stdout.isTTY === true): LogFormat =>
  setting === 'auto' ? (stdoutIsTerminal ? 'pretty' : 'json') : setting;

/**
 * Wires one process: the database (migrated), Temporal (the embedded dev server unless TEMPORAL_ADDRESS),
 * the worker and/or the HTTP API. `npm start` runs all of it; `npm run api` / `npm run worker` one part each.
 */
export async function startRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.logLevel, undefined, logFormatOf(config.logFormat));
  const stops: (() => Promise<unknown>)[] = [];
  let draining = false;
  /**
   * Stopping, in order: /readyz turns 503 (and stays so SHUTDOWN_DELAY_MS, for a load balancer to notice); the
   * API stops taking connections and finishes the requests it has; the worker stops polling and finishes its
   * activities; then the relay, connections, the database and the dev server.
   */
  const stopAll = async () => {
    draining = true;
    if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => logger.warn({ err: error }, 'error while stopping'));
  };
  try {
    let devServer: DevServer | undefined;
    let address = config.temporal.address;
    if (!address) {
      devServer = await startDevServer({
        dataDir: join(config.dataDir, 'temporal'),
        port: config.temporal.devPort,
        uiPort: config.temporal.uiPort,
        namespace: config.temporal.namespace,
        cliPath: config.temporal.cliPath,
        log: (msg) => logger.info(msg),
      });
      stops.push(() => devServer!.stop());
      address = devServer.address;
    }

    const db =
      options.db ??
      (await openDatabase({
        url: config.databaseUrl,
        dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
        pgliteThread: config.pgliteThread,
        pgliteCachedReads: config.pgliteCachedReads,
      }));
    if (!options.db) stops.push(() => db.close());
    const applied = await migrate(db);
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
    if (options.api) await prepareDetailLookups(db);
    if (options.api && config.addressCountries.length > 0) {
      // Versioned and idempotent: the first start loads (seconds), later starts only compare versions.
      const { loaded } = await ensureAddressData(db, { countries: config.addressCountries, log: (msg) => logger.info(msg) });
      if (loaded.length) logger.info({ countries: loaded }, 'address data loaded');
    }
    const created = await bootstrapApiKeys(db, config.bootstrapApiKeys);
    if (created) logger.info({ customers: created }, 'bootstrap API keys registered');

    const { client, connection } = await connectClient({ address, namespace: config.temporal.namespace });
    stops.push(() => connection.close());
    if (!devServer) await ensureSearchAttributes(connection, config.temporal.namespace);

    const carriers = new CarrierRegistry([
      ...(config.sandbox ? createSandboxCarriers({ publicBaseUrl: config.publicBaseUrl }) : []),
      ...(options.extraCarriers ?? []),
    ]);
    // Carrier accounts: credentials sealed with a key outside the database; carriers reached through one
    // outbound HTTP client with the private-network policy of webhooks (WEBHOOK_ALLOW_PRIVATE).
    const credentialsKey = await loadCredentialsKey(config.credentialsKey, join(config.dataDir, 'credentials.key'));
    if (credentialsKey.source === 'generated')
      logger.info('carrier credentials key generated into DATA_DIR (set CREDENTIALS_KEY to share one key between hosts)');
    const vault = createCredentialsVault(credentialsKey.key);
    const carrierHttp = createOutboundHttp({
      allowPrivate: config.webhookAllowPrivate,
      maxResponseBytes: CARRIER_RESPONSE_BYTES,
      userAgent: 'consignflow-carrier/1',
    });
    stops.push(() => carrierHttp.close());
    const providerService = createProviderService({
      db,
      registry: carriers,
      publicBaseUrl: config.publicBaseUrl,
      vault,
      http: carrierHttp,
      lookupsPerMinute: config.carrierLookupsPerMin,
    });
    // The starters: the only code that starts, updates or signals workflows, shared by the API and the activities.
    const taskQueue = config.temporal.taskQueue;
    const consignmentStarter = createConsignmentStarter({
      client,
      taskQueue,
      historyLimit: config.consignmentHistoryLimit,
      pollIntervalMs: config.carrierPollIntervalMs,
      bookingGraceMs: config.bookingGraceMs,
    });
    const deliveries = createWebhookDeliveryStarter({ client, taskQueue, policy: config.webhookRetry });
    // Created drafts are started by the outbox relay, which runs where the worker runs; in one process the
    // API nudges it, so a draft's workflow starts within milliseconds instead of at the relay's next look.
    // A second of grace: a draft processed or changed at once is started by that request, at the default priority.
    const relay = options.worker ? startConsignmentRelay({ db, consignmentStarter, graceMs: RELAY_GRACE_MS, log: logger }) : undefined;
    if (relay) stops.push(() => relay.stop());
    const draftsQueued = relay?.nudge;
    // Order events whose receiving request could not start their workflow: started where the worker runs.
    const orderEvents = createOrderEventStarter({ client, taskQueue });
    const orderSourcePulls = createOrderSourcePulls({ client, taskQueue });
    const orderEventRelay = options.worker ? startOrderEventRelay({ db, starter: orderEvents, log: logger }) : undefined;
    if (orderEventRelay) stops.push(() => orderEventRelay.stop());
    const documents = createDocumentService({ db, maxBytes: config.documentMaxBytes });
    const metrics = options.metrics ?? createMetrics({ outboxBacklog: () => countDraftStarts(db), readCache: db.readCacheStats });
    if (!options.metrics) stops.push(async () => metrics.stop());
    const consignments = createConsignmentService({
      db,
      providers: providerService,
      consignmentStarter,
      carrierWaitMs: config.carrierWaitMs,
      draftsQueued,
      documents,
      metrics,
    });
    let worker: RunningWorker | undefined;
    if (options.worker) {
      worker = await startWorker({
        address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        deps: {
          db,
          carriers,
          providers: providerService,
          importCarrierWaitMs: config.importCarrierWaitMs,
          trackingIntervalMs: config.carrierPollIntervalMs,
          draftsQueued,
          consignmentStarter,
          consignments,
          deliveries,
          webhooks: { allowPrivate: config.webhookAllowPrivate, retry: config.webhookRetry },
          sdrRates: config.sdrRates,
          metrics,
          log: logger,
          vault,
          marketplaceHttp: carrierHttp,
          publicBaseUrl: config.publicBaseUrl,
          marketplaceClients,
          orderEvents,
          providerOf: (providerId) => providerService.describe(providerId),
        },
        workflowBundle: options.workflowBundle,
        maxCachedWorkflows: config.workerMaxCachedWorkflows,
        logger,
      });
      stops.push(() => worker!.stop());
      // Every provider with consignments in flight to track has its poller (docs/carriers.md, "Tracking").
      const pollers = createTrackingPollerStarter({ client, taskQueue, intervalMs: config.carrierPollIntervalMs });
      const keeper = startTrackingPollerKeeper({ db, pollers, log: logger });
      stops.push(() => keeper.stop());
      // Every marketplace source has its pull schedule (docs/order-feeds.md, "Marketplaces").
      void keepOrderSourceSchedules({ db, pulls: orderSourcePulls, log: logger });
    }

    const health = async (): Promise<HealthReport> => {
      const [database, temporal] = await Promise.all([isDatabaseReachable(db), isTemporalReachable(connection)]);
      return { database, temporal, worker: worker ? worker.isRunning() : await hasPollers(client, config.temporal.taskQueue) };
    };

    let app: FastifyInstance | undefined;
    if (options.api) {
      const labelLinks = createLabelLinks(await labelSigningSecret(db, config.labelSigningSecret), config.publicBaseUrl);
      const sandboxProviders = new Set(config.sandbox ? createSandboxCarriers({ publicBaseUrl: config.publicBaseUrl }).map((c) => c.id) : []);
      // 300 lookups per minute per API key (LOOKUP_RATE_LIMIT_PER_MIN), shared through Redis when REDIS_URL is set.
      const lookupPolicy = { limit: config.lookupRateLimitPerMin, windowMs: 60_000 };
      const lookupLimiter = createRateLimiter({
        redisUrl: config.redisUrl,
        ...lookupPolicy,
        onRedisError: (err) => logger.debug({ err }, 'rate-limit redis connection error'),
      });
      stops.push(() => lookupLimiter.close());
      // The list on its own budget (LIST_RATE_LIMIT_PER_MIN, 120 a minute per API key): a page is up to a hundred details.
      const listPolicy = { limit: config.listRateLimitPerMin, windowMs: 60_000 };
      const listLimiter = createRateLimiter({
        redisUrl: config.redisUrl,
        prefix: 'consignflow:ratelimit:list:',
        ...listPolicy,
        onRedisError: (err) => logger.debug({ err }, 'rate-limit redis connection error'),
      });
      stops.push(() => listLimiter.close());
      // Idempotency keys are claimed by API requests: the API process keeps their table bounded (24 h).
      const idempotencyPurge = startIdempotencyPurge({ db, log: logger });
      stops.push(async () => idempotencyPurge.stop());
      const carrierAccounts = createCarrierAccountService({
        db,
        vault,
        statusWebhooks: { http: carrierHttp, publicBaseUrl: config.publicBaseUrl, log: (fields, msg) => logger.warn(fields, msg) },
      });
      app = buildApp({
        db,
        consignments,
        describeProvider: providerService.describe,
        providerService,
        labelLinks,
        sandboxProviders,
        carrierPushTokens: config.carrierPushTokens,
        webhooks: createWebhookService({
          db,
          deliveries,
          allowPrivate: config.webhookAllowPrivate,
        }),
        carrierAccounts,
        imports: createImportService({
          db,
          providers: providerService,
          imports: createImportStarter({ client, taskQueue, tuning: options.importTuning }),
        }),
        orderSources: createOrderSourceService({
          db,
          vault,
          events: orderEvents,
          pulls: orderSourcePulls,
          carrierAccounts,
          providers: providerService,
          publicBaseUrl: config.publicBaseUrl,
          metrics,
          log: logger,
        }),
        documents,
        sdrRates: config.sdrRates,
        console: {
          sessions: createConsoleSessionService({ db }),
          secureCookies: config.publicBaseUrl.startsWith('https:'),
          temporalUiUrl: config.temporal.uiUrl ?? devServer?.uiUrl,
          temporalNamespace: config.temporal.namespace,
        },
        metrics,
        isDraining: () => draining,
        sdkMetrics: options.worker ? temporalSdkMetrics : null,
        lookupLimit: rateLimitHook(lookupLimiter, lookupPolicy),
        listLimit: rateLimitHook(listLimiter, listPolicy),
        health,
        logger,
        bodyLimitBytes: config.bodyLimitBytes,
      });
      stops.push(() => app!.close());
    }

    return { config, db, client, connection, app, worker, relay, devServer, logger, metrics, health, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** For an API process without its own worker: is any worker polling the task queue? */
async function hasPollers(client: Client, taskQueue: string): Promise<boolean> {
  try {
    const result = await client.workflowService.describeTaskQueue({ namespace: client.options.namespace, taskQueue: { name: taskQueue }, taskQueueType: 1 });
    return (result.pollers ?? []).length > 0;
  } catch {
    return false;
  }
}
