import type { FastifyPluginAsync } from 'fastify';
import { metricsText, type Metrics } from '../../metrics';
import { operation } from '../openapi/operation';

const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const scrape = operation({
  operationId: 'getMetrics',
  summary: 'Prometheus metrics',
  description:
    "The process's metrics in Prometheus text format: HTTP requests and latencies by route, consignments created, processed, cancelled and their status changes, carrier calls by carrier and outcome with latencies, webhook deliveries, import rows and orders, the outbox backlog, and the Temporal SDK's worker metrics (`temporal_…`) where this process runs a worker. No API key: expose it to your scraper only (docs/operations.md).",
  tags: ['Service'],
  access: 'public',
  answers: { 200: { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } } },
});

/** `GET /metrics` (outside `/api/v1`, like the health checks). */
export function metricsRoutes(deps: { metrics: Metrics; sdkMetrics?: () => Promise<string> }): FastifyPluginAsync {
  return async (app) => {
    app.get('/metrics', { schema: scrape }, async (_request, reply) => reply.type(METRICS_CONTENT_TYPE).send(await metricsText(deps.metrics, deps.sdkMetrics)));
  };
}

/** Counts every answered request by its route pattern (not its URL: ids would make a series each). */
export const countRequests =
  (metrics: Metrics) => async (request: { method: string; routeOptions: { url?: string } }, reply: { statusCode: number; elapsedTime: number }) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  };
