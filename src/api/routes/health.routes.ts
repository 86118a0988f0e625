import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from '../errors';

export interface HealthReport {
  database: boolean;
  temporal: boolean;
  worker: boolean;
}
export type HealthCheck = () => Promise<HealthReport>;

/** `/healthz` and `/readyz`: 200 only when the database, Temporal and a worker are all up; 503 naming what is down. */
export function healthRoutes(check: HealthCheck): FastifyPluginAsync {
  return async (app) => {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const report = await check();
      const down = (Object.keys(report) as (keyof HealthReport)[]).filter((part) => !report[part]);
      if (down.length === 0) return { status: true, message: null, data: report };
      const envelope = errorEnvelope(down.map((field) => ({ code: 'SERVICE_UNAVAILABLE' as const, field })), request.locale);
      return reply.code(503).send({ ...envelope, data: report });
    };
    app.get('/healthz', handler);
    app.get('/readyz', handler);
  };
}
