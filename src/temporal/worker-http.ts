import { createServer, type Server } from 'node:http';
import { metricsText, type Metrics } from '../metrics';
import type { HealthReport } from '../health';

/**
 * The HTTP side of a worker-only process (`npm run worker`): `GET /metrics` for the scraper and `GET /healthz`
 * for the orchestrator (200 when the database, Temporal and this worker are up, else 503), nothing else.
 */
export function startWorkerHttp(options: {
  port: number;
  host: string;
  metrics: Metrics;
  sdkMetrics: () => Promise<string>;
  health: () => Promise<HealthReport>;
}): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = async () => {
      if (req.method === 'GET' && path === '/metrics') {
        const text = await metricsText(options.metrics, options.sdkMetrics);
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(text);
      } else if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
        const report = await options.health();
        const up = report.database && report.temporal && report.worker;
        res.writeHead(up ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: up, data: report }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: false, errors: [{ message: 'Not found.' }] }));
      }
    };
    answer().catch(() => res.writeHead(503).end());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}
