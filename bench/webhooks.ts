/**
 * Webhook delivery throughput and delay: 1,000 `consignment.status.updated` events across 100 consignments,
 * delivered to a local HTTP receiver (127.0.0.1, keep-alive, answers 204 at once).
 *
 * How events are produced (BENCH_MODE):
 *   outbox (default)  each event is written to the outbox with the lifecycle's own `appendStatusEvent` and
 *                     then published with the worker's own `publishStatusEvent` (the activity function,
 *                     called directly): one after another per consignment, as the lifecycle workflow does,
 *                     100 consignments at once. This measures the webhook path alone: publish →
 *                     signal-with-start → delivery workflow → signed POST → attempt recorded.
 *   api               the real path end to end: 100 drafts created and processed over the API (1 event
 *                     each), then PICKED_UP, 7 × IN_TRANSIT and DELIVERED per consignment through the sandbox
 *                     events endpoint (9 events each). Slower: event production (PDF labels, the lifecycle
 *                     workflows) is part of what is measured.
 *
 * Delay = arrival at the receiver − the event's `created_at` (written with the status change), same clock.
 * Throughput = deliveries / (last arrival − first status change). Every consignment's events must arrive
 * in order, none missing; duplicates are counted.
 *
 *   npx tsx bench/webhooks.ts
 *   BENCH_MODE=api npx tsx bench/webhooks.ts
 *
 * Env: BENCH_MODE (outbox | api), BENCH_DBS (pglite,postgres), WEBHOOKS_CONSIGNMENTS (100),
 * WEBHOOKS_EVENTS_PER (10), WEBHOOKS_RATE (outbox mode: produce that many events per second in all instead
 * of a burst, to see the delay without a backlog), DATABASE_URL (postgresql://postgres@127.0.0.1:5432/test: a scratch database
 * cf_bench_<random> is created on that server and dropped afterwards), BENCH_TEMPORAL_ADDRESS (use that
 * Temporal server instead of starting a dev server). Each database gets its own runtime and task queue.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultLogger, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { appendStatusEvent } from '../src/db/status-events.repository';
import { createWebhookActivities } from '../activities/webhooks.activities';
import { loadConfig } from '../src/config';
import { createCustomer } from '../src/db/customers.repository';
import { STATUS } from '../src/domain/statuses';
import { createLogger, startRuntime, type Runtime } from '../src/runtime';
import type { DevServer } from '../src/temporal/dev-server';
import { createWebhookDeliveryStarter } from '../src/temporal/webhook-delivery.starter';
import { WORKFLOWS_PATH } from '../src/temporal/worker';
import {
  bareWorkflowRate,
  cpuMeter,
  findProcesses,
  fmt,
  openScratchDatabase,
  printTable,
  runBench,
  startFileEngine,
  summarize,
  BENCH_DATABASE_URL,
  benchDatabases,
} from './support';

const TARGET_PER_SEC = 300;
const MODE = (process.env.BENCH_MODE || 'outbox').trim();
if (MODE !== 'outbox' && MODE !== 'api') throw new Error(`BENCH_MODE: "${MODE}" (outbox | api)`);
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}
const CONSIGNMENTS = positiveInt('WEBHOOKS_CONSIGNMENTS', 100);
const EVENTS_PER = positiveInt('WEBHOOKS_EVENTS_PER', 10);
/** outbox mode: events per second in all, spread evenly; unset = as fast as they can be produced (a burst) */
const RATE = process.env.WEBHOOKS_RATE ? positiveInt('WEBHOOKS_RATE', 1) : undefined;
const DATABASE_URL = BENCH_DATABASE_URL;
const DBS = benchDatabases();
const RUN_ID = randomBytes(3).toString('hex');

interface Arrival {
  eventId: string;
  consignment: number;
  status: number;
  createdAt: number;
  arrivedAt: number;
}

async function startReceiver(): Promise<{ server: Server; origin: string; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrivedAt = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ eventId: body.id, consignment: body.data.consignment, status: body.data.status, createdAt: Date.parse(body.created_at), arrivedAt });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

/** The status sequence of one consignment: processed, picked up, in transit (repeated), delivered. */
function statusPath(n: number): number[] {
  const path: number[] = [STATUS.LABEL_CREATED];
  if (n > 1) path.push(STATUS.PICKED_UP);
  while (path.length < n - 1) path.push(STATUS.IN_TRANSIT);
  if (n > 2) path.push(STATUS.DELIVERED);
  return path;
}

async function produceThroughOutbox(runtime: Runtime, customerId: number): Promise<number[]> {
  const { db, client, config } = runtime;
  const deliveries = createWebhookDeliveryStarter({ client, taskQueue: config.temporal.taskQueue, policy: config.webhookRetry });
  const publish = createWebhookActivities({ db, deliveries, webhooks: { allowPrivate: true, retry: config.webhookRetry } }).publishStatusEvent;
  const ids: number[] = [];
  for (let i = 0; i < CONSIGNMENTS; i++) {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO consignments (uuid, customer_id, status, consignor, consignee, consignment_type, reference_no, barcode)
       VALUES ($1, $2, 24, '{}', '{}', 1, $3, $4) RETURNING id`,
      [randomUUID(), customerId, `WH-${RUN_ID}-${i}`, `BENCH${RUN_ID}${String(i).padStart(5, '0')}`],
    );
    ids.push(Number(rows[0].id));
  }
  const uuids = new Map(
    (await db.query<{ id: number; uuid: string }>('SELECT id, uuid FROM consignments WHERE customer_id = $1', [customerId])).rows.map((r) => [
      Number(r.id),
      r.uuid,
    ]),
  );
  const path = statusPath(EVENTS_PER);
  const started = performance.now();
  await Promise.all(
    ids.map(async (id, i) => {
      let from: number = STATUS.NEW_DRAFT;
      for (let k = 0; k < path.length; k++) {
        // WEBHOOKS_RATE: event k of consignment i is due at (k × consignments + i) / rate after the start.
        if (RATE) await sleep(Math.max(0, started + ((k * CONSIGNMENTS + i) * 1000) / RATE - performance.now()));
        const { eventId } = await appendStatusEvent(db, {
          consignmentId: id,
          consignmentUuid: uuids.get(id)!,
          customerId,
          referenceNo: `WH-${RUN_ID}-${i}`,
          barcode: null,
          from,
          to: path[k],
          eventKey: `bench-${k}`,
          location: 'İstanbul Aktarma',
          occurredAt: new Date(),
        });
        await publish({ eventId });
        from = path[k];
      }
    }),
  );
  return ids;
}

async function produceThroughApi(runtime: Runtime, apiKey: string): Promise<number[]> {
  const app = runtime.app!;
  const call = async (method: 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: { apikey: apiKey }, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const party = (name: string, city: string) => ({ name, country: 'TR', city, address: `${city} Cad. No:1`, phone_number: '+905551112233' });
  const ids: number[] = [];
  // Processing renders a PDF label each: a few at a time.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < CONSIGNMENTS) {
        const i = next++;
        const draft = await call('POST', '/api/v1/consignments/draft', {
          preference: 0,
          provider_id: 2,
          reference_no: `WH-${RUN_ID}-${i}`,
          consignor: party('Ayşe Yılmaz', 'İstanbul'),
          consignee: party('Şükrü Öztürk', 'Ankara'),
          packages: [{ weight: 1, length: 20, width: 15, height: 10 }],
        });
        await call('POST', `/api/v1/consignments/draft/${draft.id}/start-process`);
        ids.push(draft.id);
      }
    }),
  );
  const events = ['PICKED_UP', ...Array.from({ length: Math.max(0, EVENTS_PER - 3) }, () => 'IN_TRANSIT'), 'DELIVERED'].slice(0, EVENTS_PER - 1);
  await Promise.all(
    ids.map(async (id) => {
      for (const event of events) await call('POST', `/api/v1/sandbox/consignments/${id}/events`, { event });
    }),
  );
  return ids;
}

interface Result {
  label: string;
  /** delivery workflow runs (continue-as-new and restarts after idle each count) */
  runs: number;
  expected: number;
  arrivals: Arrival[];
  unique: number;
  outOfOrder: number;
  attempts: number;
  failedAttempts: number;
  spanMs: number;
  producedMs: number;
  cpu: Record<string, number>;
  temporalMeasured: boolean;
}

async function benchOne(kind: 'pglite' | 'postgres', address: string, bundle: WorkflowBundleWithSourceMap): Promise<Result> {
  const scratch = await openScratchDatabase(kind, DATABASE_URL);
  let runtime: Runtime | undefined;
  const receiver = await startReceiver();
  try {
    const { db } = scratch;
    const config = loadConfig({
      TEMPORAL_ADDRESS: address,
      TEMPORAL_TASK_QUEUE: `bench-webhooks-${kind}-${RUN_ID}`,
      PUBLIC_BASE_URL: 'http://consignflow.bench',
      ADDRESS_COUNTRIES: 'none',
      WEBHOOK_ALLOW_PRIVATE: '1',
      LOG_LEVEL: 'silent',
    });
    runtime = await startRuntime(config, { api: true, worker: true, db, workflowBundle: bundle, logger: createLogger('silent') });
    const { caller, apiKey } = await createCustomer(db, { name: 'Webhook Bench A.Ş.' });
    const created = await runtime.app!.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { apikey: apiKey },
      payload: {
        description: 'bench',
        endpoint: `${receiver.origin}/hook`,
        subscribedEvent: 'consignment.status.updated',
        securityType: 'header',
        dataType: 'JSON',
        data: '',
        securityData: [{ headerKey: 'X-Bench', headerValue: RUN_ID }],
        status: 1,
      },
    });
    if (created.statusCode !== 201) throw new Error(`webhook registration: ${created.statusCode} ${created.body}`);

    const port = address.split(':').pop()!;
    const temporalPids = findProcesses('start-dev', `--port ${port} `);
    const cpu = await cpuMeter({ temporal: () => temporalPids, ...(scratch.backendPids && { postgres: scratch.backendPids }) });
    const t0 = performance.now();
    const ids = MODE === 'outbox' ? await produceThroughOutbox(runtime, caller.customerId) : await produceThroughApi(runtime, apiKey);
    const producedMs = performance.now() - t0;
    // Sandbox events are signals: their status changes (and events) land shortly after the 202s.
    const expected = CONSIGNMENTS * EVENTS_PER;
    const deadline = Date.now() + 300_000;
    const written = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignment_events WHERE customer_id = $1', [caller.customerId])).rows[0].n;
    while ((await written()) < expected && Date.now() < deadline) await sleep(100);
    while (new Set(receiver.arrivals.map((a) => a.eventId)).size < expected && Date.now() < deadline) await sleep(20);
    const cpuUsed = await cpu.stop();
    await sleep(500); // late duplicates, if any

    const arrivals = [...receiver.arrivals];
    const events = await db.query<{ consignment_id: number; id: string }>(
      'SELECT consignment_id, id FROM consignment_events WHERE customer_id = $1 ORDER BY seq',
      [caller.customerId],
    );
    const expectedOrder = new Map<number, string[]>();
    for (const e of events.rows) expectedOrder.set(Number(e.consignment_id), [...(expectedOrder.get(Number(e.consignment_id)) ?? []), e.id]);
    let outOfOrder = 0;
    for (const id of ids) {
      const seen: string[] = [];
      for (const a of arrivals) if (a.consignment === id && !seen.includes(a.eventId)) seen.push(a.eventId);
      if (seen.join() !== (expectedOrder.get(id) ?? []).join()) outOfOrder++;
    }
    const attempts = await db.query<{ n: number; failed: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT success)::int AS failed FROM webhook_deliveries',
    );
    await sleep(1500); // visibility is eventually consistent
    const runs = (await runtime.client.workflow.count(`WorkflowType = "webhookDeliveryWorkflow" AND TaskQueue = "${config.temporal.taskQueue}"`)).count;
    return {
      runs,
      label: scratch.label,
      expected,
      arrivals,
      unique: new Set(arrivals.map((a) => a.eventId)).size,
      outOfOrder,
      attempts: attempts.rows[0].n,
      failedAttempts: attempts.rows[0].failed,
      spanMs: Math.max(...arrivals.map((a) => a.arrivedAt)) - Math.min(...arrivals.map((a) => a.createdAt)),
      producedMs,
      cpu: cpuUsed,
      temporalMeasured: temporalPids.length > 0,
    };
  } finally {
    await runtime?.stop().catch(() => undefined);
    receiver.server.closeAllConnections();
    receiver.server.close();
    await scratch.drop();
  }
}

function report(results: Result[], loadAtStart: number): void {
  console.log(
    `\nWebhook deliveries: ${CONSIGNMENTS} consignments × ${EVENTS_PER} events, mode ${MODE}${RATE ? `, produced at ${RATE} events/s` : ', produced as a burst'}; Node ${process.version}; ${new Date().toISOString()}`,
  );
  console.log(
    `Machine load average (1 min) at start ${fmt(loadAtStart, 2)}, at end ${fmt(loadavg()[0], 2)} on ${cpus().length} cores (shared: other work lowers every rate).`,
  );
  printTable(
    [
      'database',
      'events',
      'delivered',
      'duplicates',
      'missing',
      'out of order',
      'failed attempts',
      'workflow runs',
      'span s',
      'deliveries/s',
      'delay p50 ms',
      'delay p99 ms',
      'produced events/s',
    ],
    results.map((r) => {
      const delays = summarize(r.arrivals.map((a) => a.arrivedAt - a.createdAt));
      return [
        r.label,
        r.expected,
        r.unique,
        r.arrivals.length - r.unique,
        r.expected - r.unique,
        r.outOfOrder,
        r.failedAttempts,
        r.runs,
        fmt(r.spanMs / 1000, 2),
        fmt((1000 * r.unique) / r.spanMs, 0),
        fmt(delays.p50, 0),
        fmt(delays.p99, 0),
        fmt((1000 * r.expected) / r.producedMs, 0),
      ];
    }),
  );
  console.log('\nCPU ms per event, producing and delivering together (this process also runs the worker, the receiver and the producer; PGlite too):');
  const cores = cpus().length;
  printTable(
    [
      'database',
      'node main',
      'node busiest other (workflow thread)',
      'node total',
      'Temporal server',
      'PostgreSQL backends',
      'total',
      `CPU-bound ceiling on ${cores} cores`,
    ],
    results.map((r) => {
      const per = (seconds: number | undefined) => fmt(seconds === undefined ? undefined : (1000 * seconds) / r.expected, 2);
      const workflowThread = Math.max(
        0,
        ...Object.entries(r.cpu)
          .filter(([k]) => k.startsWith('node/node/'))
          .map(([, v]) => v),
      );
      const total = (r.cpu.node ?? 0) + (r.cpu.temporal ?? 0) + (r.cpu.postgres ?? 0);
      return [
        r.label,
        per(r.cpu['node/main']),
        per(workflowThread),
        per(r.cpu.node),
        r.temporalMeasured ? per(r.cpu.temporal) : '?',
        per(r.cpu.postgres),
        per(total),
        `${fmt((cores * r.expected) / total, 0)} events/s`,
      ];
    }),
  );
  for (const r of results) {
    const rate = (1000 * r.unique) / r.spanMs;
    const ok = r.unique === r.expected && r.outOfOrder === 0;
    console.log(
      `Verdict ${r.label}: ${fmt(rate, 0)} deliveries/s vs target ${TARGET_PER_SEC}/s → ${ok && rate >= TARGET_PER_SEC ? 'MET' : 'NOT MET'}${ok ? '' : ' (events missing or out of order)'}`,
    );
  }
}

async function main(): Promise<void> {
  let devServer: DevServer | undefined;
  const loadAtStart = loadavg()[0];
  try {
    const bundling = bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
    const address = process.env.BENCH_TEMPORAL_ADDRESS || (devServer = await startFileEngine()).address;
    process.once('exit', () => void devServer?.stop());
    const bundle = await bundling;
    console.log(
      `Temporal ${devServer ? 'dev server (SQLite file, as npm start runs it)' : 'server'} ${address}; mode ${MODE}; ${CONSIGNMENTS} consignments × ${EVENTS_PER} events`,
    );
    // The baseline: empty workflows started and run by this engine, in this run.
    const bare = await bareWorkflowRate(address, { n: 1000, concurrency: 32, label: 'webhooks' });
    console.log(`engine bare rate (empty workflows, same server, this run): ${fmt(bare.rate, 0)}/s`);
    const results: Result[] = [];
    for (const kind of DBS as ('pglite' | 'postgres')[]) {
      const result = await benchOne(kind, address, bundle);
      console.log(`${result.label}: ${fmt((1000 * result.unique) / result.spanMs, 0)} deliveries/s`);
      results.push(result);
    }
    report(results, loadAtStart);
    for (const r of results)
      console.log(`${r.label}: ${fmt((1000 * r.unique) / r.spanMs / bare.rate, 2)}× the bare empty-workflow rate (${fmt(bare.rate, 0)}/s)`);
  } finally {
    await devServer?.stop();
  }
}

runBench(main);
