import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type preValidationAsyncHookHandler, type preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { Database } from '../db/database';
import type { LabelLinks } from '../labels/label-links';
import { clientErrorHandler, installErrorHandling, routerErrorHandler } from './errors';
import type { ProviderDirectory } from './mappers/consignment.mapper';
import { installAuth } from './plugins/auth';
import { rememberSentBody } from './plugins/idempotency';
import { zodValidatorCompiler } from './validation';
import { i18nPlugin } from './plugins/i18n';
import { textGuardPlugin } from './plugins/text-guard';
import { openApiPlugin } from './openapi/document';
import { bodyIsOptional } from './openapi/operation';
import { addressRoutes } from './routes/address.routes';
import { consignmentRoutes } from './routes/consignments.routes';
import { draftRoutes } from './routes/drafts.routes';
import { healthRoutes, type HealthCheck } from './routes/health.routes';
import { importRoutes } from './routes/imports.routes';
import { labelRoutes } from './routes/labels.routes';
import { sandboxRoutes } from './routes/sandbox.routes';
import { providerListRoutes, providerRoutes } from './routes/providers.routes';
import { trackingRoutes } from './routes/tracking.routes';
import { carrierCallbackRoutes } from './routes/carrier-callbacks.routes';
import { webhookRoutes } from './routes/webhooks.routes';
import type { ConsignmentService } from '../services/consignments.service';
import type { ImportService } from '../services/imports.service';
import type { WebhookService } from '../services/webhooks.service';
import type { CarrierAccountService } from '../services/carrier-accounts.service';
import type { ProviderService } from '../services/providers.service';
import type { OrderSourceService } from '../services/order-sources.service';
import { orderDeliveryRoutes, orderSourceRoutes } from './routes/order-sources.routes';
import { carrierAccountRoutes } from './routes/carrier-accounts.routes';
import { documentDownloadRoutes, documentRoutes } from './routes/documents.routes';
import type { DocumentService } from '../services/documents.service';
import { createLabelBatchService } from '../services/label-batches.service';
import { createCustomsService } from '../services/customs.service';
import { createAddressService } from '../services/addresses.service';
import type { SdrRates } from '../customs/sdr';
import { labelBatchRoutes } from './routes/label-batches.routes';
import { consolePlugin, type ConsoleDeps } from '../console/console.plugin';
import { CONSOLE_PREFIX } from '../console/layout';
import { countRequests, metricsRoutes } from './routes/metrics.routes';
import type { Metrics } from '../metrics';
import { serverTiming, withStageTimes, type StageTimes } from '../stage-timing';

/**
 * Everything the HTTP API is built from. Every route group is always mounted: harnesses that exercise a part of
 * the API pass test doubles for the services they do not call (test/support/app-doubles.ts).
 */
export interface AppDeps {
  db: Database;
  consignments: ConsignmentService;
  describeProvider: ProviderDirectory;
  health: HealthCheck;
  labelLinks: LabelLinks;
  /** provider ids of sandbox carriers; empty when SANDBOX=0 (the sandbox events endpoint is then absent) */
  sandboxProviders: Set<number>;
  /** bearer token per provider id for carrier event pushes */
  carrierPushTokens: Map<number, string>;
  /** webhook registration and delivery log */
  webhooks: WebhookService;
  carrierAccounts: CarrierAccountService;
  /** the providers list and account logos */
  providerService: ProviderService;
  /** order imports */
  imports: ImportService;
  /** order sources and their webhook deliveries */
  orderSources: OrderSourceService;
  /** uploaded documents */
  documents: DocumentService;
  /** the browser console under /console */
  console: Pick<ConsoleDeps, 'sessions' | 'secureCookies' | 'temporalUiUrl' | 'temporalNamespace'>;
  /** SDR per currency unit for the CN22/CN23 choice (CUSTOMS_SDR_RATES) */
  sdrRates: SdrRates;
  /** rate limit of the lookups (docs/api.md) */
  lookupLimit: preValidationAsyncHookHandler;
  /** rate limit of the consignment list */
  listLimit: preValidationAsyncHookHandler;
  /** true once the process is stopping: /readyz answers 503 */
  isDraining: () => boolean;
  /** the process's metrics: counted per request and served at GET /metrics */
  metrics: Metrics;
  /** the Temporal SDK's worker metrics, appended to GET /metrics; null where this process runs no worker */
  sdkMetrics: (() => Promise<string>) | null;
  logger: Logger;
  bodyLimitBytes: number;
}

export interface RouteEntry {
  method: string;
  url: string;
  /** hidden from the OpenAPI document (the reference page's own files) */
  hidden: boolean;
}
const routeTables = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Every route the app serves, as registered (Fastify's HEAD twins of GET routes included). */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return routeTables.get(app) ?? [];
}

/** Builds the HTTP API as a Fastify instance; it never listens (server.ts and main.ts do, tests inject). */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: deps.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{8,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    // A request that reaches an open connection while the server closes is served like any other (the process
    // stops only after): Fastify's own 503 for it would be neither our envelope nor necessary.
    return503OnClosing: false,
    clientErrorHandler,
    // The router's own refusals (a path that does not decode) come before any hook.
    frameworkErrors: routerErrorHandler,
  }) as unknown as FastifyInstance;
  routeTables.set(app, []);
  app.register(apiPlugin, deps);
  return app;
}

/**
 * The HTTP API as a plugin of the instance buildApp makes (its hooks, parsers and error handler apply to the
 * whole instance): every route, from the one dependency object.
 */
export const apiPlugin = fp<AppDeps>(
  async function api(app, deps) {
    const routes = routeTables.get(app) ?? [];
    routeTables.set(app, routes);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        routes.push({ method, url: route.url, hidden: (route.schema as { hide?: boolean } | undefined)?.hide === true });
      }
      // A route whose body schema replaces request.body: idempotency compares the body as sent, and a body that
      // may be left out is validated as `{}` when it is (Fastify hands a validator null for a missing body,
      // which a JSON `null`, refused, also is). Before the route's own preValidation hooks.
      if ((route.schema as { body?: unknown } | undefined)?.body !== undefined) {
        const optional = bodyIsOptional(route.schema);
        const keepSentBody: preValidationHookHandler = (request, _reply, done) => {
          rememberSentBody(request);
          if (optional && request.body === undefined) request.body = {};
          done();
        };
        route.preValidation = [keepSentBody, ...(route.preValidation === undefined ? [] : [route.preValidation].flat())];
      }
    });

    // JSON only: without this, Fastify would also accept text/plain bodies. An empty JSON body is no body
    // (start-process takes an optional one); anything else goes through Fastify's safe JSON parser.
    app.removeContentTypeParser(['text/plain']);
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
      return parseJson(request, body as string, done);
    });
    // Each request's stage times (database, engine), answered as its Server-Timing header: run() around the rest
    // of the hook chain, so everything the request starts counts into its own entry.
    const stageTimes = new WeakMap<object, StageTimes>();
    app.addHook('onRequest', (request, _reply, done) => {
      const times: StageTimes = new Map();
      stageTimes.set(request, times);
      withStageTimes(times, done);
    });
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
      const times = stageTimes.get(request);
      if (times) reply.header('server-timing', serverTiming(times, reply.elapsedTime));
    });
    app.addHook('onResponse', countRequests(deps.metrics));
    installErrorHandling(app);
    // Each route's zod schemas validate its input (src/api/validation.ts). Answers are plain JSON, not serialised
    // by their schemas: a serialiser would drop what a schema does not list, and lookups answer prepared bytes.
    app.setValidatorCompiler(zodValidatorCompiler);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.register(openApiPlugin);
    app.register(i18nPlugin);
    app.register(textGuardPlugin);
    app.register(healthRoutes(deps.health, deps.isDraining));
    app.register(metricsRoutes({ metrics: deps.metrics, sdkMetrics: deps.sdkMetrics ?? undefined }));
    // Without an API key: provider logos (public images), the public tracking view (the label's QR code), and
    // carriers' callbacks: event pushes (carrier bearer tokens) and carrier accounts' status webhooks (the secret
    // header registered at the remote).
    app.register(providerRoutes({ providerService: deps.providerService }), { prefix: '/api/v1' });
    app.register(trackingRoutes({ consignments: deps.consignments }), { prefix: '/api/v1' });
    app.register(carrierCallbackRoutes({ consignments: deps.consignments, pushTokens: deps.carrierPushTokens, carrierAccounts: deps.carrierAccounts }), {
      prefix: '/api/v1',
    });
    // Label downloads are authorised by their signed URL, not an API key (docs/api.md, "Labels").
    app.register(labelRoutes({ consignments: deps.consignments, labelLinks: deps.labelLinks }), { prefix: '/api/v1' });
    app.register(documentDownloadRoutes({ documents: deps.documents, labelLinks: deps.labelLinks }), { prefix: '/api/v1' });
    // Order webhooks of shops are authorised by their signature, not an API key (docs/order-feeds.md).
    app.register(orderDeliveryRoutes({ orderSources: deps.orderSources }), { prefix: '/api/v1' });
    const customs = createCustomsService({
      consignments: deps.consignments,
      carrierName: async (id) => (await deps.describeProvider(id))?.name,
      sdrRates: deps.sdrRates,
    });
    const labelBatches = createLabelBatchService({ db: deps.db });
    const addresses = createAddressService({ db: deps.db });
    // The browser console, and the root redirecting to it.
    app.register(
      consolePlugin({
        ...deps.console,
        consignments: deps.consignments,
        describeProvider: deps.describeProvider,
        providerService: deps.providerService,
        labelLinks: deps.labelLinks,
        labelBatches,
        customs,
        addresses,
        imports: deps.imports,
        webhooks: deps.webhooks,
        carrierAccounts: deps.carrierAccounts,
        orderSources: deps.orderSources,
      }),
      { prefix: CONSOLE_PREFIX },
    );
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect(CONSOLE_PREFIX, 303));
    app.register(
      async (v1) => {
        installAuth(v1, deps.db);
        v1.register(addressRoutes({ addresses }));
        v1.register(draftRoutes({ db: deps.db, consignments: deps.consignments }));
        v1.register(
          consignmentRoutes({
            db: deps.db,
            consignments: deps.consignments,
            describeProvider: deps.describeProvider,
            labelLinks: deps.labelLinks,
            lookupLimit: deps.lookupLimit,
            listLimit: deps.listLimit,
            customs,
          }),
        );
        v1.register(webhookRoutes({ webhooks: deps.webhooks }));
        v1.register(carrierAccountRoutes({ carrierAccounts: deps.carrierAccounts }));
        v1.register(providerListRoutes({ providerService: deps.providerService }));
        v1.register(importRoutes({ db: deps.db, imports: deps.imports }));
        v1.register(orderSourceRoutes({ orderSources: deps.orderSources }));
        v1.register(labelBatchRoutes({ batches: labelBatches, imports: deps.imports }));
        v1.register(documentRoutes({ documents: deps.documents, labelLinks: deps.labelLinks }));
        if (deps.sandboxProviders.size > 0) v1.register(sandboxRoutes({ consignments: deps.consignments, sandboxProviders: deps.sandboxProviders }));
      },
      { prefix: '/api/v1' },
    );
  },
  { name: 'consignflow-api' },
);
