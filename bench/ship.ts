/**
 * Shipping over real HTTP as a merchant does it: POST a draft, then process it (carrier choice, booking, PDF
 * label), SHIP_CONCURRENCY clients in a closed loop, on the configuration users run: the Temporal dev server
 * on an SQLite file as `npm start` runs it, and PGlite on a file (then PostgreSQL). Measured in the same run:
 * the engine's bare empty-workflow rate (the ratio's baseline). It also counts, per processed consignment,
 * the workflow tasks, activities (and local activities) in its history and the database round trips, and
 * the CPU each consignment costs per process. Then lookups by id (GET /consignments/{id}/details) from
 * LOOKUP_CONCURRENCY clients, spread over enough API keys of the customer that the 300/min per-key limit
 * does not bind. Times are printed, never asserted.
 *
 *   npx tsx bench/ship.ts
 *   SHIP_N=200 BENCH_DBS=pglite npx tsx bench/ship.ts
 *
 * Env: BENCH_SQL (set: print the statements per consignment), SHIP_N (400), SHIP_CONCURRENCY (10), SHIP_WARMUP (20), LOOKUP_N (3000),
 * LOOKUP_CONCURRENCY (50), BENCH_DBS (pglite,postgres), DATABASE_URL
 * (postgresql://postgres@127.0.0.1:5432/test: a scratch database is created there and dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DefaultLogger, bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '../src/config';
import { createCustomer, generateApiKey, hashApiKey } from '../src/db/customers.repository';
import type { Database } from '../src/db/database';
import { createLogger, startRuntime } from '../src/runtime';
import { consignmentWorkflowId } from '../src/temporal/consignment.starter';
import { WORKFLOWS_PATH } from '../src/temporal/worker';
import {
  bareWorkflowRate,
  cpuMeter,
  createHttpClient,
  findProcesses,
  fmt,
  freePort,
  openScratchDatabase,
  printTable,
  runBench,
  runConcurrent,
  startFileEngine,
  summarize,
  shippingDraftBody,
  BENCH_DATABASE_URL,
  benchDatabases,
} from './support';

const N = Number(process.env.SHIP_N ?? 400);
const C = Number(process.env.SHIP_CONCURRENCY ?? 10);
const WARMUP = Number(process.env.SHIP_WARMUP ?? 20);
const DATABASE_URL = BENCH_DATABASE_URL;
const DBS = benchDatabases();
const RUN_ID = randomBytes(3).toString('hex');
const LOOKUP_N = Number(process.env.LOOKUP_N ?? 3000);
const LOOKUP_C = Number(process.env.LOOKUP_CONCURRENCY ?? 50);
/** API keys of the one customer: LOOKUP_N lookups within a minute stay under 300 per key. */
const LOOKUP_KEYS = Math.ceil(LOOKUP_N / 250);

const draftBody = (prefix: string, i: number) => shippingDraftBody(`SHIP-${prefix}-${RUN_ID}-${i}`, i);

interface Row {
  name: string;
  rate: number;
  p50: number;
  p99: number;
  failures: number;
  perConsignment: { workflowTasks: number; activities: number; localActivities: number; dbCalls: number };
  cpuMs: Record<string, number>;
  lookups: { rate: number; p50: number; p99: number; failures: number };
}

/** Counts the database calls of `db` while `on`. */
function countCalls(db: Database) {
  let calls = 0;
  let on = false;
  /** Statements by their first words (BENCH_SQL=1 prints them). */
  const byText = new Map<string, number>();
  const count = (sql: unknown) => {
    if (!on) return;
    calls++;
    const text = String(sql).replace(/\s+/g, ' ').trim().slice(0, 70);
    byText.set(text, (byText.get(text) ?? 0) + 1);
  };
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = (async (...args: Parameters<Database['query']>) => {
    count(args[0]);
    return query(...args);
  }) as Database['query'];
  db.transaction = (async <T>(fn: Parameters<Database['transaction']>[0]) => {
    count('BEGIN … COMMIT');
    return transaction(async (tx) => {
      const inner = tx.query.bind(tx);
      return fn({ ...tx, query: (async (...args: Parameters<Database['query']>) => (count(args[0]), inner(...args))) as Database['query'] }) as Promise<T>;
    });
  }) as Database['transaction'];
  return { start: () => (on = true), stop: () => ((on = false), { calls, byText }) };
}

async function shipOn(
  kind: 'pglite' | 'postgres',
  address: string,
  temporalPids: () => number[],
  bundle: Awaited<ReturnType<typeof bundleWorkflowCode>>,
): Promise<Row> {
  const scratch = await openScratchDatabase(kind, DATABASE_URL);
  const port = await freePort();
  const config = loadConfig({
    TEMPORAL_ADDRESS: address,
    TEMPORAL_TASK_QUEUE: `ship-${kind}-${RUN_ID}`,
    PORT: String(port),
    LOG_LEVEL: 'silent',
    ADDRESS_COUNTRIES: 'none',
  });
  const runtime = await startRuntime(config, { api: true, worker: true, db: scratch.db, workflowBundle: bundle, logger: createLogger('silent') });
  const client = createHttpClient(`http://127.0.0.1:${port}`, C);
  try {
    await runtime.app!.listen({ port, host: '127.0.0.1' });
    const { apiKey } = await createCustomer(scratch.db, { name: 'Ship bench' });
    const json = { apikey: apiKey, 'content-type': 'application/json' };
    const ship = async (prefix: string, i: number) => {
      const created = await client.send('POST', '/api/v1/consignments/draft', json, draftBody(prefix, i), true);
      if (created.status !== 201) throw new Error(`draft: ${created.status} ${created.body.slice(0, 300)}`);
      const id = JSON.parse(created.body).data.id as number;
      const processed = await client.send('POST', `/api/v1/consignments/draft/${id}/start-process`, { apikey: apiKey }, undefined, true);
      if (processed.status !== 200) throw new Error(`process: ${processed.status} ${processed.body.slice(0, 300)}`);
      return JSON.parse(created.body).data as { id: number; uuid: string };
    };
    await runConcurrent(WARMUP, C, async (i) => void (await ship('W', i)));
    await runtime.relay?.drained();

    const calls = countCalls(scratch.db);
    const meter = await cpuMeter({ temporal: temporalPids, ...(scratch.backendPids && { postgres: scratch.backendPids }) });
    const latencies: number[] = [];
    const shipped: { id: number; uuid: string }[] = [];
    let failures = 0;
    calls.start();
    const t0 = performance.now();
    await runConcurrent(N, C, async (i) => {
      const s = performance.now();
      try {
        shipped.push(await ship('B', i));
      } catch (error) {
        if (failures++ === 0) console.warn(`${kind}: first failure: ${(error as Error).message}`);
      }
      latencies.push(performance.now() - s);
    });
    const seconds = (performance.now() - t0) / 1000;
    await runtime.relay?.drained();
    const { calls: dbCalls, byText } = calls.stop();
    if (process.env.BENCH_SQL) {
      console.log(`${kind}: statements per consignment (a transaction counts once for BEGIN and COMMIT):`);
      for (const [text, n] of [...byText].sort((a, b) => b[1] - a[1])) console.log(`  ${fmt(n / N, 2).padStart(6)}  ${text}`);
    }
    const cpu = await meter.stop();

    // What each consignment's history holds: a sample of the processed ones.
    const sample = shipped.slice(0, 20).map((s) => s.uuid);
    let workflowTasks = 0;
    let activities = 0;
    let localActivities = 0;
    for (const uuid of sample) {
      const history = await runtime.client.workflow.getHandle(consignmentWorkflowId(uuid)).fetchHistory();
      for (const e of history.events ?? []) {
        if (e.workflowTaskCompletedEventAttributes) workflowTasks++;
        if (e.activityTaskScheduledEventAttributes) activities++;
        if (e.markerRecordedEventAttributes) localActivities++;
      }
    }
    const per = (seconds?: number) => ((seconds ?? Number.NaN) * 1000) / N;
    const threads = Object.entries(cpu).filter(([k]) => k.startsWith('node/node/'));
    const busiest = threads.length ? Math.max(...threads.map(([, v]) => v)) : 0;
    const lat = summarize(latencies);

    // Lookups by id, over LOOKUP_KEYS keys of the same customer (each key has its own 300/min budget).
    const keys = [apiKey];
    const { rows: owner } = await scratch.db.query<{ customer_id: number; user_id: number }>('SELECT customer_id, user_id FROM api_keys WHERE key_hash = $1', [
      hashApiKey(apiKey),
    ]);
    for (let k = 1; k < LOOKUP_KEYS; k++) {
      const extra = generateApiKey();
      await scratch.db.query('INSERT INTO api_keys (customer_id, user_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4)', [
        owner[0].customer_id,
        owner[0].user_id,
        hashApiKey(extra),
        extra.slice(0, 7),
      ]);
      keys.push(extra);
    }
    const lookupLatencies: number[] = [];
    let lookupFailures = 0;
    const l0 = performance.now();
    await runConcurrent(LOOKUP_N, LOOKUP_C, async (i) => {
      const s = performance.now();
      const res = await client.send(
        'GET',
        `/api/v1/consignments/${shipped[i % shipped.length].id}/details`,
        { apikey: keys[i % keys.length] },
        undefined,
        true,
      );
      lookupLatencies.push(performance.now() - s);
      if (res.status !== 200 && lookupFailures++ === 0) console.warn(`${kind}: first lookup failure: ${res.status} ${res.body.slice(0, 200)}`);
    });
    const lookupSeconds = (performance.now() - l0) / 1000;
    const look = summarize(lookupLatencies);
    return {
      lookups: { rate: (LOOKUP_N - lookupFailures) / lookupSeconds, p50: look.p50, p99: look.p99, failures: lookupFailures },
      name: scratch.label,
      rate: (N - failures) / seconds,
      p50: lat.p50,
      p99: lat.p99,
      failures,
      perConsignment: {
        workflowTasks: workflowTasks / sample.length,
        activities: activities / sample.length,
        localActivities: localActivities / sample.length,
        dbCalls: dbCalls / N,
      },
      cpuMs: {
        'node main': per(cpu['node/main']),
        'workflow thread': per(busiest),
        'node total': per(cpu.node),
        engine: per(cpu.temporal),
        ...(cpu.postgres !== undefined && { PostgreSQL: per(cpu.postgres) }),
      },
    };
  } finally {
    await client.close().catch(() => undefined);
    await runtime.stop();
    await scratch.drop();
  }
}

runBench(async () => {
  const server = await startFileEngine();
  try {
    const port = server.address.split(':').pop()!;
    const pids = findProcesses('start-dev', `--port ${port} `);
    const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
    const bare = await bareWorkflowRate(server.address, { n: 1000, concurrency: 32, cpuSources: { temporal: () => pids }, label: RUN_ID });
    console.log(
      `ship bench: ${N} consignments (draft + process, PDF label), ${C} clients; engine: dev server on an SQLite file; ${cpus().length} CPUs, load ${fmt(loadavg()[0], 2)}`,
    );
    console.log(`engine bare rate (empty workflows, same server, this run): ${fmt(bare.rate, 0)}/s`);
    const rows: Row[] = [];
    for (const kind of DBS) {
      rows.push(await shipOn(kind, server.address, () => pids, bundle));
      console.log(`${rows.at(-1)!.name}: ${fmt(rows.at(-1)!.rate, 1)} consignments/s`);
    }
    printTable(
      ['database', 'consignments/s', 'ratio to bare', 'p50 ms (draft + process)', 'p99 ms', 'failures'],
      rows.map((r) => [r.name, fmt(r.rate, 1), `${fmt(r.rate / bare.rate, 2)}×`, fmt(r.p50, 0), fmt(r.p99, 0), r.failures]),
    );
    console.log('\nPer processed consignment:');
    printTable(
      ['database', 'workflow tasks', 'activities', 'local activities', 'database calls (API + worker)'],
      rows.map((r) => [
        r.name,
        fmt(r.perConsignment.workflowTasks, 1),
        fmt(r.perConsignment.activities, 1),
        fmt(r.perConsignment.localActivities, 1),
        fmt(r.perConsignment.dbCalls, 1),
      ]),
    );
    console.log(`\nLookups by id (GET /consignments/{id}/details), ${LOOKUP_N} from ${LOOKUP_C} clients over ${LOOKUP_KEYS} API keys:`);
    printTable(
      ['database', 'lookups/s', 'p50 ms', 'p99 ms', 'failures'],
      rows.map((r) => [r.name, fmt(r.lookups.rate, 0), fmt(r.lookups.p50, 1), fmt(r.lookups.p99, 1), r.lookups.failures]),
    );
    console.log('\nCPU per consignment (ms):');
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r.cpuMs)))];
    printTable(
      ['database', ...keys],
      rows.map((r) => [r.name, ...keys.map((k) => fmt(r.cpuMs[k], 1))]),
    );
  } finally {
    await server.stop();
  }
});
