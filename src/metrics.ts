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
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram({ name, help, labelNames, buckets, registers });
  // Stalls of this process: a timer due every EVENT_LOOP_TICK_MS observes how late it ran. Unlike the default
  // metrics' event-loop lag gauges, which each scrape resets, a histogram keeps every stall between scrapes.
  const eventLoopDelay = histogram(
    'consignflow_event_loop_delay_seconds',
    `How late a timer due every ${EVENT_LOOP_TICK_MS} ms ran: the event loop's stalls (garbage collection, synchronous work)`,
    [],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
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
    httpRequests: counter('consignflow_http_requests_total', 'HTTP requests answered, by route pattern, method and status', ['method', 'route', 'status']),
    httpDuration: histogram(
      'consignflow_http_request_duration_seconds',
      'Time to answer an HTTP request, by route pattern and method',
      ['method', 'route'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    ),
    consignments: counter('consignflow_consignments_total', 'Consignments created, processed, cancelled and deleted', ['event']),
    statusTransitions: counter('consignflow_status_transitions_total', 'Consignment status changes written, by status name before and after', ['from', 'to']),
    trackingFailures: counter(
      'consignflow_tracking_failures_total',
      'Tracking polls that failed after their retries, by carrier kind and outcome (refused: the carrier said no; failed: no usable answer); polling goes on with backoff',
      ['carrier', 'outcome'],
    ),
    carrierCalls: counter('consignflow_carrier_calls_total', 'Calls to carriers, by carrier kind, operation and outcome (ok, refused, busy, error)', [
      'carrier',
      'operation',
      'outcome',
    ]),
    carrierDuration: histogram(
      'consignflow_carrier_call_duration_seconds',
      'Time a carrier call took, by carrier kind and operation',
      ['carrier', 'operation'],
      [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    ),
    webhookDeliveries: counter('consignflow_webhook_deliveries_total', 'Webhook POSTs, by outcome (delivered, failed)', ['outcome']),
    importRows: counter('consignflow_import_rows_total', 'CSV rows read by imports', []),
    importOrders: counter('consignflow_import_orders_total', 'Import orders by the state they reached (created, processed, duplicate, invalid, failed)', [
      'state',
    ]),
    orderEvents: counter(
      'consignflow_order_events_total',
      'Order webhooks of order sources, by platform and outcome (received, redelivered, ignored, ping, rejected: bad signature, invalid: not an order; then drafted, processed, cancelled, duplicate, failed)',
      ['platform', 'outcome'],
    ),
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
