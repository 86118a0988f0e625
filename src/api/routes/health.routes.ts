import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { HealthCheck, HealthReport } from '../../health';
import { errorEnvelope } from '../errors';
import { answerSchema, envelope, operation } from '../openapi/operation';

const Report = z.object({ database: z.boolean(), temporal: z.boolean(), worker: z.boolean() });
const Down = answerSchema(
  'HealthDown',
  z.object({ status: z.literal(false), errors: z.array(z.object({ message: z.string(), field: z.string().optional() })), data: Report }),
);
const Up = envelope('HealthAnswer', Report);
const health = (operationId: string, summary: string) =>
  operation({
    operationId,
    summary,
    description: '200 when the database, Temporal and a worker are all up; 503 naming what is down.',
    tags: ['Service'],
    access: 'public',
    answers: { 200: { description: 'Everything is up.', schema: Up }, 503: { description: 'Something is down.', schema: Down } },
  });

export type { HealthCheck, HealthReport };

/**
 * `/healthz` and `/readyz`: 200 only when the database, Temporal and a worker are all up; 503 naming what is
 * down. From the moment the process starts stopping, `/readyz` is 503 "shutting down" while `/healthz` stays 200.
 */
export function healthRoutes(check: HealthCheck, isDraining: () => boolean = () => false): FastifyPluginAsync {
  return async (app) => {
    const handler = (readiness: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      const report = await check();
      const down = (Object.keys(report) as (keyof HealthReport)[]).filter((part) => !report[part]);
      // Stopping: not ready for new traffic (the load balancer turns away), though still alive.
      const draining = readiness && isDraining();
      if (down.length === 0 && !draining) return { status: true, message: null, data: report };
      const issues = [...(draining ? [{ code: 'SHUTTING_DOWN' as const }] : []), ...down.map((field) => ({ code: 'SERVICE_UNAVAILABLE' as const, field }))];
      return reply.code(503).send({ ...errorEnvelope(issues, request.locale), data: report });
    };
    app.get('/healthz', { schema: health('getHealth', 'Liveness') }, handler(false));
    app.get('/readyz', { schema: health('getReadiness', 'Readiness') }, handler(true));
  };
}
