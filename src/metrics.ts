import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const EVENT_LOOP_TICK_MS = 50;

/**
 * The process's Prometheus metrics (`GET /metrics`, docs/operations.md): one registry per process, made by
 * startRuntime and handed to what counts (the API's request hook, the services, the activities), never a
 * module singleton. API and worker processes expose the same names; a series a process does not produce
 * stays at zero there. Labels are bounded: routes are Fastify's route patterns, carriers their kind.
 */
export function createMetrics(sources: { outboxBacklog?: () => Promise<number>; readCache?: () => { hits: number; misses: number } } = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'consignflow_' });
  const registers = [registry];
  // Stalls of this process: a timer due every EVENT_LOOP_TICK_MS observes how late it ran. Unlike the default
  // metrics' event-loop lag gauges, which each scrape resets, a histogram keeps every stall between scrapes.
  const eventLoopDelay = new Histogram({
    name: 'consignflow_event_loop_delay_seconds',
    help: `How late a timer due every ${EVENT_LOOP_TICK_MS} ms ran: the event loop's stalls (garbage collection, synchronous work)`,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const readCacheCounted = new Map<string, number>();
  let due = performance.now() + EVENT_LOOP_TICK_MS;
  const ticker = setInterval(() => {
    const now = performance.now();
    eventLoopDelay.observe(Math.max(0, now - due) / 1000);
    due = now + EVENT_LOOP_TICK_MS;
  }, EVENT_LOOP_TICK_MS).unref();
  return {
    registry,
    eventLoopDelay,
    /** Stops the event-loop timer (the runtime that made these metrics, when it stops). */
    stop: () => clearInterval(ticker),
    httpRequests: new Counter({
      name: 'consignflow_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'consignflow_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and method',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    consignments: new Counter({
      name: 'consignflow_consignments_total',
      help: 'Consignments created, processed, cancelled and deleted',
      labelNames: ['event'],
      registers,
    }),
    statusTransitions: new Counter({
      name: 'consignflow_status_transitions_total',
      help: 'Consignment status changes written, by status name before and after',
      labelNames: ['from', 'to'],
      registers,
    }),
    trackingFailures: new Counter({
      name: 'consignflow_tracking_failures_total',
      help: 'Tracking polls that failed after their retries, by carrier kind and outcome (refused: the carrier said no; failed: no usable answer); polling goes on with backoff',
      labelNames: ['carrier', 'outcome'],
      registers,
    }),
    carrierCalls: new Counter({
      name: 'consignflow_carrier_calls_total',
      help: 'Calls to carriers, by carrier kind, operation and outcome (ok, refused, busy, error)',
      labelNames: ['carrier', 'operation', 'outcome'],
      registers,
    }),
    carrierDuration: new Histogram({
      name: 'consignflow_carrier_call_duration_seconds',
      help: 'Time a carrier call took, by carrier kind and operation',
      labelNames: ['carrier', 'operation'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'consignflow_webhook_deliveries_total',
      help: 'Webhook POSTs, by outcome (delivered, failed)',
      labelNames: ['outcome'],
      registers,
    }),
    importRows: new Counter({ name: 'consignflow_import_rows_total', help: 'CSV rows read by imports', registers }),
    importOrders: new Counter({
      name: 'consignflow_import_orders_total',
      help: 'Import orders by the state they reached (created, processed, duplicate, invalid, failed)',
      labelNames: ['state'],
      registers,
    }),
    orderEvents: new Counter({
      name: 'consignflow_order_events_total',
      help: 'Order webhooks of order sources, by platform and outcome (received, redelivered, ignored, ping, rejected: bad signature, invalid: not an order; then drafted, processed, cancelled, duplicate, failed)',
      labelNames: ['platform', 'outcome'],
      registers,
    }),
    outboxBacklog: new Gauge({
      name: 'consignflow_outbox_backlog',
      help: 'Drafts waiting for the relay to start their workflow',
      registers,
      // Read when scraped: one indexed count.
      async collect() {
        if (sources.outboxBacklog) this.set(await sources.outboxBacklog());
      },
    }),
    readCache: new Counter({
      name: 'consignflow_db_read_cache_total',
      help: "Detail lookups answered from the read cache of PGlite's thread (result=hit) or by the database (miss)",
      labelNames: ['result'],
      registers,
      // Counted by the cache itself; added here when scraped.
      collect() {
        const stats = sources.readCache?.();
        if (!stats) return;
        for (const [result, count] of [
          ['hit', stats.hits],
          ['miss', stats.misses],
        ] as const) {
          const counted = readCacheCounted.get(result) ?? 0;
          this.inc({ result }, count - counted);
          readCacheCounted.set(result, count);
        }
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The text exposition of the registry, followed by other processes' or libraries' exposition (the Temporal SDK's). */
export async function metricsText(metrics: Metrics, extra: () => Promise<string> = async () => ''): Promise<string> {
  const [own, more] = await Promise.all([metrics.registry.metrics(), extra().catch(() => '')]);
  return more ? `${own}\n${more}` : own;
}
