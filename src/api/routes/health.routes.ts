import type { FastifyPluginAsync } from 'fastify';

export interface HealthReport {
  database: boolean;
  temporal: boolean;
  worker: boolean;
}
export type HealthCheck = () => Promise<HealthReport>;

/** `/healthz` and `/readyz`: 200 only when the database, Temporal and a worker are all up; 503 otherwise. */
export function healthRoutes(check: HealthCheck): FastifyPluginAsync {
  return async (app) => {
    const handler = async (_request: unknown, reply: import('fastify').FastifyReply) => {
      const report = await check();
      const ok = report.database && report.temporal && report.worker;
      return reply.code(ok ? 200 : 503).send({ status: ok, message: null, data: report });
    };
    app.get('/healthz', handler);
    app.get('/readyz', handler);
  };
}
