import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Database } from '../db/database';
import { installErrorHandling } from './errors';
import type { ProviderDirectory } from './mappers/consignment.mapper';
import { installAuth } from './plugins/auth';
import { i18nPlugin } from './plugins/i18n';
import { consignmentRoutes } from './routes/consignments.routes';
import { draftRoutes } from './routes/drafts.routes';
import { healthRoutes, type HealthCheck } from './routes/health.routes';
import { providerRoutes } from './routes/providers.routes';
import type { ConsignmentService } from './services/consignments.service';

export interface AppDeps {
  db: Database;
  consignments: ConsignmentService;
  providers: ProviderDirectory;
  health: HealthCheck;
  logger: Logger;
  bodyLimitBytes: number;
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
    requestIdLogLabel: 'requestId',
    disableRequestLogging: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
  }) as unknown as FastifyInstance;

  // JSON only: without this, Fastify would also accept text/plain bodies.
  app.removeContentTypeParser(['text/plain']);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  app.register(i18nPlugin);
  app.register(healthRoutes(deps.health));
  // Carrier logos are images a browser loads from `provider.logo`: public, like the logo of any carrier.
  app.register(providerRoutes(), { prefix: '/api/v1' });
  app.register(
    async (v1) => {
      installAuth(v1, deps.db);
      v1.register(draftRoutes({ db: deps.db, consignments: deps.consignments }));
      v1.register(consignmentRoutes({ consignments: deps.consignments, providers: deps.providers }));
    },
    { prefix: '/api/v1' },
  );
  return app;
}
