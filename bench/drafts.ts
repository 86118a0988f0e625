/**
 * Draft creation throughput over real HTTP (POST /api/v1/consignments/draft), on PGlite (a file, as
 * `npm start` runs it) and on PostgreSQL, beside a bare Fastify route and the engine's bare empty-workflow
 * rate, both measured in the same run. A draft is answered from the read model; the outbox relay starts its
 * workflow: the bench also times how long after the burst every draft's workflow runs, and the relay's rate
 * against the engine's bare rate.
 *
 * One Temporal dev server on an SQLite file (as `npm start` runs it) serves the whole run; each database gets its own runtime
 * (API + worker, own task queue) listening on 127.0.0.1, its own customer, a warm-up, then DRAFTS_N drafts
 * from DRAFTS_CONCURRENCY closed-loop clients over one keep-alive connection pool of that size (undici's
 * `Pool.dispatch`; `request` with BENCH_HTTP_CLIENT=undici-request, node:http's keep-alive Agent with =node). Every
 * response must be 201; the drafts stored are counted afterwards. Times are printed, never asserted.
 * Besides the main table it prints where a request's time goes (Temporal update-with-start, the insert
 * transaction, the API's queries) and the CPU each draft costs per thread/process (node main thread,
 * workflow thread, Temporal core, Temporal server, PostgreSQL backends).
 *
 *   npx tsx bench/drafts.ts
 *   DRAFTS_N=500 DRAFTS_CONCURRENCY=20 BENCH_DBS=postgres npx tsx bench/drafts.ts
 *
 * Env: DRAFTS_N (2000), DRAFTS_CONCURRENCY (50), DRAFTS_WARMUP (50), BENCH_DBS (pglite,postgres),
 * DATABASE_URL (postgresql://postgres@127.0.0.1:5432/test: a scratch database cf_bench_<random> is created
 * on that server and dropped afterwards), BENCH_PG_POOL (pg pool size, 20 as in production),
 * BENCH_HTTP_CLIENT (undici, its Pool.dispatch; undici-request; node), BENCH_TEMPORAL_ADDRESS (use that
 * Temporal server instead of starting a dev server, e.g. one started with other dynamic config).
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DefaultLogger, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import Fastify from 'fastify';
import { loadConfig } from '../src/config';
import { createCustomer } from '../src/db/customers.repository';
import type { Database } from '../src/db/database';
import { createLogger, startRuntime, type Runtime } from '../src/runtime';
import type { DevServer } from '../src/temporal/dev-server';
import { WORKFLOWS_PATH } from '../src/temporal/worker';
import {
  bareWorkflowRate,
  cpuMeter,
  findProcesses,
  fmt,
  httpLoad,
  openScratchDatabase,
  printTable,
  runBench,
  startFileEngine,
  summarize,
  type BareRate,
  type HttpLoadResult,
  positiveInt,
  BENCH_DATABASE_URL,
  benchDatabases,
} from './support';

const TARGET_PER_SEC = 250;

const N = positiveInt('DRAFTS_N', 2000);
const C = positiveInt('DRAFTS_CONCURRENCY', 50);
const WARMUP = positiveInt('DRAFTS_WARMUP', 50);
const PG_POOL = positiveInt('BENCH_PG_POOL', 20);
const DATABASE_URL = BENCH_DATABASE_URL;
const DBS = benchDatabases();
const RUN_ID = randomBytes(3).toString('hex');
const LOAD_AT_START = loadavg()[0];

// ---------------------------------------------------------------------------------------------------------
// Realistic draft bodies (docs/api.md): Turkish parties, 1–2 packages with items, a unique reference each.

const FIRST = ['Ayşe', 'Mehmet', 'Şükrü', 'İbrahim', 'Gülşen', 'Çağrı', 'Öznur', 'Ümit', 'Ilgın', 'Doğan', 'Zeynep', 'Emre'];
const LAST = ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Öztürk', 'Aydın', 'Arslan', 'Doğan', 'Koç', 'Kılıç'];
const ASCII: Record<string, string> = { ç: 'c', ğ: 'g', ı: 'i', İ: 'i', ö: 'o', ş: 's', ü: 'u', Ç: 'c', Ğ: 'g', Ö: 'o', Ş: 's', Ü: 'u' };
const ascii = (s: string) => s.replace(/[çğıİöşüÇĞÖŞÜ]/g, (c) => ASCII[c]).toLowerCase();
const STREETS = ['Atatürk Cd.', 'Bağdat Cd.', 'İnönü Sk.', 'Gül Sk.', 'Çiçek Sk.', 'Şehit Er Sk.', 'Cumhuriyet Blv.', 'Menekşe Sk.'];
const PLACES: Array<[district: string, city: string, postalCode: string]> = [
  ['Kadıköy', 'İstanbul', '34710'],
  ['Çankaya', 'Ankara', '06690'],
  ['Konak', 'İzmir', '35250'],
  ['Muratpaşa', 'Antalya', '07100'],
  ['Osmangazi', 'Bursa', '16010'],
  ['Şehitkamil', 'Gaziantep', '27060'],
  ['Tepebaşı', 'Eskişehir', '26010'],
];
const GOODS: Array<[description: string, gtip: string, category: string, price: number]> = [
  ['Pamuklu tişört', '610910', 'Giyim', 149.9],
  ['El yapımı seramik kupa', '691200', 'Ev', 89.5],
  ['Türk kahvesi 250 g', '090121', 'Gıda', 120],
  ['Deri cüzdan', '420231', 'Aksesuar', 349],
  ['İpek eşarp', '621410', 'Giyim', 599],
  ['Lokum kutusu 500 g', '170490', 'Gıda', 210.75],
];

function party(i: number, salt: number, business: boolean) {
  const first = FIRST[(i + salt) % FIRST.length];
  const last = LAST[(i * 7 + salt) % LAST.length];
  const [district, city, postalCode] = PLACES[(i * 3 + salt) % PLACES.length];
  return {
    name: business ? `${last} Ticaret Ltd. Şti.` : `${first} ${last}`,
    attention_name: business ? `${first} ${last}` : undefined,
    country: 'TR',
    state: city,
    city: district,
    postal_code: postalCode,
    address: `${STREETS[(i * 5 + salt) % STREETS.length]} No: ${(i % 180) + 1} Daire: ${(i % 23) + 1}, ${district}`,
    phone_number: `+90 5${30 + (i % 70)} ${100 + ((i * 37) % 900)} ${10 + (i % 90)} ${10 + ((i * 3) % 90)}`,
    email: `${ascii(first)}.${ascii(last)}${i % 100}@example.com.tr`,
    party_type: business ? 'business' : 'individual',
  };
}

function item(i: number, k: number) {
  const [description, gtip, category, price] = GOODS[(i + k * 5) % GOODS.length];
  return { description, gtip, origin: 'TR', currency_code: 'TRY', unit_price: price, quantity: 1 + ((i + k) % 3), category };
}

function draftBody(prefix: string, i: number): string {
  const packageCount = 1 + (i % 2);
  return JSON.stringify({
    preference: 1,
    reference_no: `SİP-${prefix}-${RUN_ID}-${String(i).padStart(6, '0')}`,
    invoice_number: i % 3 === 0 ? `FTR${2025_000_000 + i}` : undefined,
    consignor: party(i, 1, true),
    consignee: party(i, 4, i % 4 === 0),
    packages: Array.from({ length: packageCount }, (_, p) => ({
      package_type: p === 0 || i % 5 ? 1 : 2,
      weight: 0.5 + ((i + p) % 40) * 0.25,
      length: 20 + ((i + p) % 30),
      width: 15 + ((i * 3 + p) % 20),
      height: 5 + ((i * 7 + p) % 25),
      dangerous_goods: false,
      items: Array.from({ length: 1 + ((i + p) % 3) }, (_, k) => item(i + p, k)),
    })),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Where a draft's time goes: wraps the Temporal call and the database entry points of one runtime.

interface Breakdown {
  apiQueries: number[];
  insertTx: number[];
}

function instrument(db: Database): { breakdown: Breakdown; setEnabled(on: boolean): void } {
  const breakdown: Breakdown = { apiQueries: [], insertTx: [] };
  let enabled = false;
  const timed =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>, into: number[]) =>
    async (...args: A): Promise<R> => {
      const t0 = performance.now();
      try {
        return await fn(...args);
      } finally {
        if (enabled) into.push(performance.now() - t0);
      }
    };
  // API: auth lookup + reference check go through db.query (and the relay's claims); the draft and its outbox entry are one db.transaction.
  db.query = timed(db.query.bind(db), breakdown.apiQueries) as typeof db.query;
  db.transaction = timed(db.transaction.bind(db), breakdown.insertTx) as typeof db.transaction;
  return { breakdown, setEnabled: (on) => (enabled = on) };
}

// ---------------------------------------------------------------------------------------------------------

interface TargetResult {
  name: string;
  load: HttpLoadResult;
  stored?: number;
  breakdown?: Breakdown;
  cpu?: Record<string, number>;
  /** seconds from the end of the burst until every draft's workflow was started (the outbox empty) */
  startedAfterBurstSeconds?: number;
  /** workflows the relay started per second, from the burst's start until the outbox was empty */
  relayRate?: number;
}

const bodies = Array.from({ length: N }, (_, i) => draftBody('B', i));
const warmupBodies = Array.from({ length: WARMUP }, (_, i) => draftBody('W', i));

async function benchBareFastify(): Promise<TargetResult> {
  const app = Fastify({ logger: false });
  let next = 0;
  app.post('/api/v1/consignments/draft', async (_request, reply) => reply.code(201).send({ status: true, message: 'ok', data: { id: ++next } }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const common = { origin, path: '/api/v1/consignments/draft', concurrency: C, expectStatus: 201 } as const;
    await httpLoad({ ...common, n: Math.max(WARMUP, 200), body: (i) => warmupBodies[i % WARMUP] });
    const cpu = await cpuMeter();
    const load = await httpLoad({ ...common, n: N, body: (i) => bodies[i] });
    return { name: 'bare Fastify', load, cpu: await cpu.stop() };
  } finally {
    await app.close();
  }
}

interface TemporalServer {
  address: string;
  /** its processes, for CPU accounting */
  pids: () => number[];
}

async function benchDrafts(kind: 'pglite' | 'postgres', temporal: TemporalServer, bundle: WorkflowBundleWithSourceMap): Promise<TargetResult> {
  const scratch = await openScratchDatabase(kind, DATABASE_URL, PG_POOL);
  let runtime: Runtime | undefined;
  try {
    const config = loadConfig({
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: `bench-${kind}-${RUN_ID}`,
      PUBLIC_BASE_URL: 'http://consignflow.bench',
      LOG_LEVEL: 'silent',
    });
    runtime = await startRuntime(config, { api: true, worker: true, db: scratch.db, workflowBundle: bundle, logger: createLogger('silent') });
    const app = runtime.app!;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    const warmCustomer = await createCustomer(scratch.db, { name: 'Isınma Deneme A.Ş.' });
    const customer = await createCustomer(scratch.db, { name: 'Yıldız Lojistik Ticaret A.Ş.', authorizedName: 'Zeynep Yıldız' });
    const common = { origin, path: '/api/v1/consignments/draft', concurrency: C, expectStatus: 201 } as const;

    const warm = await httpLoad({ ...common, n: WARMUP, headers: { apikey: warmCustomer.apiKey }, body: (i) => warmupBodies[i] });
    if (warm.failures) console.warn(`${kind}: ${warm.failures}/${WARMUP} warm-up drafts failed, first: ${warm.firstError?.status} ${warm.firstError?.body}`);

    const probe = instrument(scratch.db);
    probe.setEnabled(true);
    const cpu = await cpuMeter({ temporal: temporal.pids, ...(scratch.backendPids && { postgres: scratch.backendPids }) });
    const t0 = performance.now();
    const load = await httpLoad({ ...common, n: N, headers: { apikey: customer.apiKey }, body: (i) => bodies[i] });
    const burstEnd = performance.now();
    await runtime.relay!.drained();
    const drainedAt = performance.now();
    const cpuUsed = await cpu.stop();
    probe.setEnabled(false);

    const { rows } = await scratch.db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments WHERE customer_id = $1', [customer.caller.customerId]);
    return {
      name: scratch.label,
      load,
      stored: Number(rows[0].n),
      breakdown: probe.breakdown,
      cpu: cpuUsed,
      startedAfterBurstSeconds: (drainedAt - burstEnd) / 1000,
      relayRate: N / ((drainedAt - t0) / 1000),
    };
  } finally {
    await runtime?.stop();
    await scratch.drop();
  }
}

function report(results: TargetResult[], engine: BareRate): void {
  const bare = results.find((r) => r.name === 'bare Fastify');
  console.log(
    `\nDraft creation over HTTP: ${N} drafts, ${C} concurrent clients, warm-up ${WARMUP}, client ${results[0]?.load.client}; Node ${process.version}; ${new Date().toISOString()}`,
  );
  console.log(
    `Machine load average (1 min) at start ${fmt(LOAD_AT_START, 2)}, at end ${fmt(loadavg()[0], 2)} on ${cpus().length} cores: other work on the machine lowers every rate.`,
  );
  printTable(
    ['target', 'drafts/s', 'p50 ms', 'p99 ms', 'failures', 'ratio to bare Fastify'],
    results.map((r) => [
      r.name,
      fmt(r.load.ratePerSec, 0),
      fmt(r.load.latency.p50, 1),
      fmt(r.load.latency.p99, 1),
      String(r.load.failures),
      bare && r !== bare ? `${fmt(r.load.ratePerSec / bare.load.ratePerSec, 3)}×` : '1×',
    ]),
  );

  console.log(`\nThe engine's bare rate (empty workflows started and run, same server, this run): ${fmt(engine.rate, 0)}/s`);
  printTable(
    ['target', 'workflows started by the relay /s', 'ratio to bare', 'all running after the burst (s)'],
    results
      .filter((r) => r.relayRate !== undefined)
      .map((r) => [r.name, fmt(r.relayRate, 0), `${fmt(r.relayRate! / engine.rate, 2)}×`, fmt(r.startedAfterBurstSeconds, 1)]),
  );

  console.log('');
  for (const r of results) {
    if (r.load.firstError)
      console.log(`${r.name}: first failure (request ${r.load.firstError.index}, status ${r.load.firstError.status}): ${r.load.firstError.body}`);
    if (r.stored !== undefined) {
      const okCount = r.load.ok;
      console.log(
        `${r.name}: drafts stored (SELECT count(*)) = ${r.stored}, successful responses = ${okCount} → ${r.stored === okCount ? 'match' : 'MISMATCH'}`,
      );
    }
  }

  const withBreakdown = results.filter((r) => r.breakdown);
  if (withBreakdown.length) {
    console.log('\nWhere a draft request spends its time (mean ms per request unless noted; calls overlap across clients):');
    printTable(
      ['target', 'HTTP', 'draft + outbox insert tx (p50, p99)', 'db.query incl. relay (calls/req)', 'rest: Fastify, zod, waiting'],
      withBreakdown.map((r) => {
        const b = r.breakdown!;
        const tx = summarize(b.insertTx);
        const apiMs = b.apiQueries.reduce((s, v) => s + v, 0) / r.load.n;
        return [
          r.name,
          fmt(r.load.latency.mean, 1),
          `${fmt(tx.mean, 1)} (${fmt(tx.p50, 0)}, ${fmt(tx.p99, 0)})`,
          `${fmt(apiMs, 1)} (${fmt(b.apiQueries.length / r.load.n, 1)})`,
          fmt(r.load.latency.mean - tx.mean - apiMs, 1),
        ];
      }),
    );

    const cores = cpus().length;
    console.log(`\nCPU per draft (ms of CPU time during the measured run; this machine has ${cores} cores, shared):`);
    printTable(
      [
        'target',
        'node main',
        'node busiest other (workflow thread)',
        'node other',
        'Temporal core (Rust)',
        'Temporal server',
        'PostgreSQL backends',
        'total',
        'CPU busy',
      ],
      withBreakdown.map((r) => {
        const cpu = r.cpu ?? {};
        const per = (seconds: number | undefined) => (seconds === undefined ? undefined : (1000 * seconds) / r.load.n);
        const threads = Object.entries(cpu).filter(([k]) => k.startsWith('node/') && k !== 'node/main');
        const nodeThreads = threads.filter(([k]) => k.startsWith('node/node/')).map(([, v]) => v);
        const busiest = nodeThreads.length ? Math.max(...nodeThreads) : 0;
        const otherNode = nodeThreads.reduce((s, v) => s + v, 0) - busiest;
        const rust = threads.filter(([k]) => !k.startsWith('node/node/')).reduce((s, [, v]) => s + v, 0);
        const total = (cpu.node ?? 0) + (cpu.temporal ?? 0) + (cpu.postgres ?? 0);
        return [
          r.name,
          fmt(per(cpu['node/main']), 1),
          fmt(per(busiest), 1),
          fmt(per(otherNode), 1),
          fmt(per(rust), 1),
          fmt(per(cpu.temporal), 1),
          fmt(per(cpu.postgres), 1),
          fmt(per(total), 1),
          `${fmt((100 * total) / ((r.load.durationMs / 1000) * cores), 0)}%`,
        ];
      }),
    );
    if (bare?.cpu) console.log(`(bare Fastify: ${fmt((1000 * (bare.cpu.node ?? 0)) / N, 2)} ms node CPU per request, client and server in one process)`);
    const pg = withBreakdown.find((r) => r.name.startsWith('PostgreSQL'));
    if (pg?.cpu) {
      const total = (pg.cpu.node ?? 0) + (pg.cpu.temporal ?? 0) + (pg.cpu.postgres ?? 0);
      console.log(
        `CPU-bound ceiling on PostgreSQL at this CPU cost: ${cores} cores / ${fmt((1000 * total) / N, 1)} ms per draft ≈ ${fmt((cores * N) / total, 0)} drafts/s`,
      );
    }
  }

  const pg = results.find((r) => r.name.startsWith('PostgreSQL'));
  if (pg) {
    const rate = pg.load.ratePerSec;
    const verdict = pg.load.failures > 0 ? 'NOT MET (failures)' : rate >= TARGET_PER_SEC ? 'MET' : 'NOT MET';
    console.log(
      `\nVerdict: PostgreSQL ${fmt(rate, 0)} drafts/s vs target ${TARGET_PER_SEC}/s → ${verdict} (${fmt((100 * rate) / TARGET_PER_SEC, 0)}% of target)`,
    );
  } else {
    console.log(`\nVerdict: PostgreSQL not measured (BENCH_DBS=${DBS.join(',')}); target ${TARGET_PER_SEC} drafts/s`);
  }
}

async function main(): Promise<void> {
  let devServer: DevServer | undefined;
  const stopServer = async () => {
    const server = devServer;
    devServer = undefined;
    await server?.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the Temporal dev server`);
    void stopServer().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const t0 = performance.now();
    const external = process.env.BENCH_TEMPORAL_ADDRESS;
    const bundling = bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
    let temporal: TemporalServer;
    if (external) {
      const port = external.split(':').pop()!;
      temporal = { address: external, pids: () => findProcesses('start-dev', `--port ${port} `) };
    } else {
      devServer = await startFileEngine();
      const port = devServer.address.split(':').pop()!;
      const pids = findProcesses('start-dev', `--port ${port} `);
      // Last resort when the bench dies without reaching `finally` (uncaught error, EPIPE on a closed stdout):
      // never leave the dev server running.
      process.once('exit', () => {
        for (const pid of devServer ? pids : []) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      });
      temporal = { address: devServer.address, pids: () => pids };
    }
    const bundle = await bundling;
    console.log(
      `Temporal ${external ? 'server (BENCH_TEMPORAL_ADDRESS)' : 'dev server (SQLite file, as npm start runs it)'} ${temporal.address}, pid ${temporal.pids().join(',') || '?'}; ` +
        `workflow bundle ready in ${fmt((performance.now() - t0) / 1000, 1)} s`,
    );

    const engine = await bareWorkflowRate(temporal.address, { n: 1000, concurrency: 32, cpuSources: { temporal: temporal.pids }, label: RUN_ID });
    console.log(`engine bare rate: ${fmt(engine.rate, 0)} empty workflows/s`);
    const results: TargetResult[] = [];
    results.push(await benchBareFastify());
    console.log(`bare Fastify: ${fmt(results[0].load.ratePerSec, 0)} req/s`);
    for (const kind of DBS as ('pglite' | 'postgres')[]) {
      const result = await benchDrafts(kind, temporal, bundle);
      console.log(`${result.name}: ${fmt(result.load.ratePerSec, 0)} drafts/s`);
      results.push(result);
    }
    report(results, engine);
  } finally {
    await stopServer();
  }
}

runBench(main);
