/**
 * The default `npm start` under a merchant's load, over real HTTP, as users run it: the service is its own
 * process started exactly as `npm start` starts it (V8 heap limits, embedded Temporal dev server on an SQLite
 * file, PGlite on a file), in a fresh data folder. Measured in the same run, first: the file-backed engine's
 * bare empty-workflow rate (the ratios' baseline), on an engine of its own so nothing else competes.
 *
 * Phases, one after the other (SERVICE_KEYS customers, each with its own API key; clients take them in turn); each
 * begins when the previous one's work is done: its outbox drained, then the service and its engine quiet (under
 * 10 % of a core for a quarter second; the waits are printed):
 *   drafts     SERVICE_DRAFTS_N drafts from SERVICE_DRAFTS_C clients
 *   ship       SERVICE_SHIP_N draft + process (carrier choice, booking, PDF label) from SERVICE_SHIP_C clients
 *   lookups    SERVICE_LOOKUP_N lookups by id (GET /consignments/{id}/details) from SERVICE_LOOKUP_C clients,
 *              each with the key of the customer whose draft it asks for (a key's 300/min limit does not bind)
 *
 * For each phase: rate, ratio to bare, p50 / p99 / max, and the evidence for its tail: the service's event-loop
 * delay (its longest stall, from GET /metrics), its GC pauses (count, total, longest bucket), the read cache's hits and misses, its peak resident
 * memory, and the split of the slowest 1 % of requests by stage from the service's `Server-Timing` header
 * (db, engine, label, …; "other" is the rest of the request's time in the service, "outside" what the
 * client waited beyond it: queueing before the service read the request). For the ship phase, the workflow
 * histories of the processed consignments are read back: workflow task timeouts and failures, activity
 * timeouts, and the longest wait of a workflow task for a worker (schedule-to-start).
 * The bench's own process is the load's client and part of every latency it measures: it collects its own garbage
 * before each phase, and prints its GC pauses of 5 ms or more in a phase with their moment (each delays every
 * request in flight; the service's Server-Timing does not see them, so they show as "outside").
 * Times are printed, never asserted.
 *
 *   npx tsx bench/service.ts
 *   SERVICE_DRAFTS_N=300 SERVICE_SHIP_N=60 SERVICE_LOOKUP_N=600 npx tsx bench/service.ts
 *
 * Env: SERVICE_DRAFTS_N (1000), SERVICE_DRAFTS_C (50), SERVICE_SHIP_N (200), SERVICE_SHIP_C (10),
 * SERVICE_LOOKUP_N (2000), SERVICE_LOOKUP_C (50), SERVICE_KEYS (8), SERVICE_ENV (extra settings for the service,
 * `NAME=value` separated by spaces, e.g. `PGLITE_THREAD=0`), BENCH_STAGES_TOP (the slowest share whose stages are
 * split, in %, 1), BENCH_SAMPLES_DUMP (a file for every request's sample, one JSON line each: phase, ms, stages,
 * `at` = ms after the phase began, `startedAt` = when it began, ms since 1970, `startedAtMonotonic` = the same on
 * CLOCK_MONOTONIC, to place a request in a `perf sched record -k CLOCK_MONOTONIC` trace; lookups: `pass`),
 * BENCH_SERVICE_LOG (a file for the service's log lines; default: dropped), BENCH_SERVICE_NODE_ARGS (Node options
 * for the service's process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` to see where its threads spend their
 * CPU, or `--trace-gc`).
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, openSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { generateApiKey } from '../src/db/customers.repository';
import { consignmentWorkflowId } from '../src/temporal/consignment.starter';
import {
  bareWorkflowRate,
  collectOwnGarbage,
  cpuMeter,
  positiveInt,
  shippingDraftBody,
  createHttpClient,
  findProcesses,
  fmt,
  freePort,
  printTable,
  processCpuSeconds,
  rssMb,
  runBench,
  runConcurrent,
  startFileEngine,
  startServiceProcess,
  summarize,
  threadCpuSeconds,
  type HttpClient,
} from './support';

const DRAFTS_N = positiveInt('SERVICE_DRAFTS_N', 1000);
const DRAFTS_C = positiveInt('SERVICE_DRAFTS_C', 50);
const SHIP_N = positiveInt('SERVICE_SHIP_N', 200);
const SHIP_C = positiveInt('SERVICE_SHIP_C', 10);
const LOOKUP_N = positiveInt('SERVICE_LOOKUP_N', 2000);
const LOOKUP_C = positiveInt('SERVICE_LOOKUP_C', 50);
const KEYS = positiveInt('SERVICE_KEYS', 8);
const TOP_PERCENT = Number(process.env.BENCH_STAGES_TOP ?? 1);
const SERVICE_ENV = Object.fromEntries(
  (process.env.SERVICE_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const at = word.indexOf('=');
      if (at < 1) throw new Error(`SERVICE_ENV: "${word}" is not NAME=value`);
      return [word.slice(0, at), word.slice(at + 1)];
    }),
);
const RUN_ID = randomBytes(3).toString('hex');
/** The service's embedded Temporal dev server's port (its process is found by it). */
let ENGINE_PORT = 0;

const draftBody = (prefix: string, i: number) => shippingDraftBody(`SVC-${prefix}-${RUN_ID}-${i}`, i);

/** One request as the client saw it: its latency and the service's own account of it (Server-Timing, ms by stage). */
interface Sample {
  ms: number;
  stages: Record<string, number>;
  /** when it was sent, ms after the phase began */
  at?: number;
  /** lookups: how many lookups of the same consignment the phase sent before this one (0: its first) */
  pass?: number;
}

/** `db;dur=1.2, engine;dur=30` → { db: 1.2, engine: 30 } (entries of one request summed by name). */
function parseServerTiming(header: string | undefined): Record<string, number> {
  const stages: Record<string, number> = {};
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (name && dur) stages[name] = (stages[name] ?? 0) + Number(dur[1]);
  }
  return stages;
}

interface PhaseResult {
  name: string;
  /** CPU ms per request of the phase, by where it was spent (service threads by name, the engine, this bench) */
  cpuMs: Record<string, number>;
  n: number;
  failures: number;
  seconds: number;
  samples: Sample[];
  stalls: StallReport;
  peakRssMb: number;
  /** this bench's own event loop during the phase: a stall here delays every request in flight */
  client: { loopMaxMs: number; gcMaxMs: number; gcs: { at: number; ms: number; major: boolean }[] };
  note?: string;
}

/** Samples of Prometheus text: `name{labels} value` → value, by the full series text. */
function parseMetrics(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

interface StallReport {
  /** the longest event-loop delay of the phase (prom-client's monitor, reset by each scrape) */
  loopMaxMs: number;
  loopP99Ms: number;
  /** the service's own stall histogram: timer ticks late by ≥ 100 ms / ≥ 1 s during the phase */
  stalls100ms?: number;
  stalls1s?: number;
  gcCount: number;
  gcMs: number;
  /** the upper bound of the highest GC-duration bucket that gained pauses during the phase */
  gcLongestBucketMs: number;
  majorGcCount: number;
  /** detail lookups answered by the read cache of PGlite's thread, and by the database */
  cacheHits: number;
  cacheMisses: number;
}

/** Reads /metrics; `since` makes the counters relative to an earlier reading. */
async function readStalls(origin: string, since?: Map<string, number>): Promise<{ now: Map<string, number>; report: StallReport }> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  if (process.env.BENCH_METRICS_DUMP) appendFileSync(process.env.BENCH_METRICS_DUMP, `\n#### ${new Date().toISOString()}\n${text}`);
  const now = parseMetrics(text);
  const delta = (key: string) => (now.get(key) ?? 0) - (since?.get(key) ?? 0);
  let gcCount = 0;
  let gcSeconds = 0;
  let majorGcCount = 0;
  let longest = 0;
  for (const key of now.keys()) {
    if (key.startsWith('consignflow_nodejs_gc_duration_seconds_count')) {
      gcCount += delta(key);
      if (key.includes('kind="major"')) majorGcCount += delta(key);
    }
    if (key.startsWith('consignflow_nodejs_gc_duration_seconds_sum')) gcSeconds += delta(key);
    const bucket = /^consignflow_nodejs_gc_duration_seconds_bucket\{le="([^"]+)",kind="([^"]+)"\}$/.exec(key);
    if (bucket && bucket[1] !== '+Inf') {
      // cumulative buckets: a pause above this bound gained the next bucket but not this one
      const le = Number(bucket[1]);
      const countKey = `consignflow_nodejs_gc_duration_seconds_count{kind="${bucket[2]}"}`;
      if (delta(countKey) > delta(key)) longest = Math.max(longest, le);
    }
  }
  const stallKey = (le: string) => `consignflow_event_loop_delay_seconds_bucket{le="${le}"}`;
  const hasStalls = now.has(stallKey('+Inf'));
  return {
    now,
    report: {
      loopMaxMs: (now.get('consignflow_nodejs_eventloop_lag_max_seconds') ?? Number.NaN) * 1000,
      loopP99Ms: (now.get('consignflow_nodejs_eventloop_lag_p99_seconds') ?? Number.NaN) * 1000,
      ...(hasStalls && { stalls100ms: delta(stallKey('+Inf')) - delta(stallKey('0.1')), stalls1s: delta(stallKey('+Inf')) - delta(stallKey('1')) }),
      gcCount,
      gcMs: gcSeconds * 1000,
      gcLongestBucketMs: longest * 1000,
      majorGcCount,
      cacheHits: delta('consignflow_db_read_cache_total{result="hit"}'),
      cacheMisses: delta('consignflow_db_read_cache_total{result="miss"}'),
    },
  };
}

/** What the service's threads are, by the name Linux shows for them. */
const THREAD_ROLES: Record<string, string> = {
  main: 'main (API, activities)',
  pglite: 'pglite (the database)',
  node: 'node (V8 helpers: GC, compiler; Temporal workflow threads)',
  'tokio-runtime-w': 'tokio-runtime-w (Temporal worker core)',
};

/** CPU seconds of the service's threads grouped by thread name (tokio-runtime-w/123 → tokio-runtime-w). */
function serviceThreads(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [thread, seconds] of Object.entries(threadCpuSeconds(pid))) {
    const byName = thread.replace(/\/\d+$/, '');
    const name = THREAD_ROLES[byName] ?? byName;
    out[name] = (out[name] ?? 0) + seconds;
  }
  return out;
}

/** Runs a phase: `n` tasks from `concurrency` clients, with the stall readings, CPU and peak memory around it. */
async function phase(name: string, origin: string, pid: number, n: number, concurrency: number, task: (i: number) => Promise<Sample>): Promise<PhaseResult> {
  collectOwnGarbage();
  const before = await readStalls(origin);
  const threadsBefore = serviceThreads(pid);
  const engine = await cpuMeter({ engine: () => findProcesses('start-dev', `--port ${ENGINE_PORT} `) });
  let peak = rssMb(pid);
  const memory = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const samples: Sample[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  const clientLoop = monitorEventLoopDelay({ resolution: 5 });
  let clientGcMaxMs = 0;
  const clientGcs: PhaseResult['client']['gcs'] = [];
  const clientGc = new PerformanceObserver((list) =>
    list.getEntries().forEach((e) => {
      clientGcMaxMs = Math.max(clientGcMaxMs, e.duration);
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      clientGcs.push({ at: e.startTime - t0, ms: e.duration, major: kind === constants.NODE_PERFORMANCE_GC_MAJOR });
    }),
  );
  clientLoop.enable();
  clientGc.observe({ entryTypes: ['gc'] });
  const t0 = performance.now();
  // The phase's start on CLOCK_MONOTONIC (ms), the clock of `perf sched record -k CLOCK_MONOTONIC`: a sample's
  // moment in such a trace is startedAtMonotonic + at.
  const startedAtMonotonic = Number(process.hrtime.bigint() / 1000n) / 1000;
  try {
    await runConcurrent(n, concurrency, async (i) => {
      try {
        const at = performance.now() - t0;
        const { ms, stages, pass } = await task(i); // only what is reported: a response body kept per sample grew the client's heap
        samples.push({ ms, stages, pass, at });
      } catch (error) {
        failures++;
        firstFailure ??= (error as Error).message;
      }
    });
  } finally {
    clearInterval(memory);
    clientLoop.disable();
    clientGc.disconnect();
  }
  const seconds = (performance.now() - t0) / 1000;
  if (process.env.BENCH_SAMPLES_DUMP)
    appendFileSync(
      process.env.BENCH_SAMPLES_DUMP,
      samples.map((s) => JSON.stringify({ phase: name, startedAt: performance.timeOrigin + t0, startedAtMonotonic, ...s }) + '\n').join(''),
    );
  const used = await engine.stop();
  const threadsAfter = serviceThreads(pid);
  const cpuMs: Record<string, number> = {};
  for (const [thread, seconds] of Object.entries(threadsAfter)) cpuMs[thread] = ((seconds - (threadsBefore[thread] ?? 0)) * 1000) / n;
  cpuMs['engine (Temporal dev server)'] = (used.engine * 1000) / n;
  cpuMs['bench client'] = (used.node * 1000) / n;
  const after = await readStalls(origin, before.now);
  if (firstFailure) console.warn(`${name}: ${failures} failed; the first: ${firstFailure}`);
  return {
    name,
    n,
    failures,
    seconds,
    samples,
    stalls: after.report,
    peakRssMb: peak,
    cpuMs,
    client: { loopMaxMs: clientLoop.max / 1e6, gcMaxMs: clientGcMaxMs, gcs: clientGcs },
  };
}

/** Sends a request and times it; a status other than `expect` throws. */
async function timed(
  client: HttpClient,
  expect: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Sample & { body: string }> {
  const t0 = performance.now();
  const answer = await client.send(method, path, headers, body, true);
  const ms = performance.now() - t0;
  if (answer.status !== expect) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
  return { ms, stages: parseServerTiming(answer.serverTiming), body: answer.body };
}

/** The stage split of the slowest TOP_PERCENT of a phase's samples: mean ms per stage. */
function slowestSplit(samples: readonly Sample[]): { n: number; meanMs: number; sentAt: number[]; stages: [string, number][] } {
  const sorted = [...samples].sort((a, b) => b.ms - a.ms);
  const top = sorted.slice(0, Math.max(1, Math.ceil((sorted.length * TOP_PERCENT) / 100)));
  const sums = new Map<string, number>();
  for (const s of top) {
    const inService = s.stages.total ?? Number.NaN;
    for (const [stage, ms] of Object.entries(s.stages)) if (stage !== 'total') sums.set(stage, (sums.get(stage) ?? 0) + ms);
    const named = Object.entries(s.stages)
      .filter(([k]) => k !== 'total')
      .reduce((sum, [, ms]) => sum + ms, 0);
    if (Number.isFinite(inService)) {
      sums.set('other', (sums.get('other') ?? 0) + Math.max(0, inService - named));
      sums.set('outside', (sums.get('outside') ?? 0) + Math.max(0, s.ms - inService));
    }
  }
  const meanMs = top.reduce((sum, s) => sum + s.ms, 0) / top.length;
  return {
    n: top.length,
    meanMs,
    sentAt: top.map((s) => s.at ?? Number.NaN).sort((a, b) => a - b),
    stages: [...sums].map(([k, v]) => [k, v / top.length] as [string, number]).sort((a, b) => b[1] - a[1]),
  };
}

interface HistoryReport {
  histories: number;
  workflowTaskTimeouts: number;
  workflowTaskFailures: number;
  activityTimeouts: number;
  /** the longest a workflow task waited between scheduled and started, ms */
  longestTaskWaitMs: number;
  longestActivityWaitMs: number;
  /** waits of over 200 ms in the slowest consignments' histories: which task waited, after what */
  slowWaits: string[];
  /** history events by kind, summed over the histories (each costs the engine a write) */
  eventKinds: Map<string, number>;
}

/** How many workflow tasks wait for a worker in `taskQueue` (the engine's approximate backlog). */
async function workflowBacklog(address: string, taskQueue: string): Promise<number> {
  const connection = await Connection.connect({ address });
  try {
    const answer = await connection.workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name: taskQueue },
      taskQueueType: 1,
      reportStats: true,
    });
    return Number(answer.stats?.approximateBacklogCount ?? 0);
  } finally {
    await connection.close();
  }
}

/** Reads the processed consignments' workflow histories back from the service's engine. */
async function readHistories(address: string, uuids: readonly string[], slowest: ReadonlySet<string>): Promise<HistoryReport> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const report: HistoryReport = {
    histories: 0,
    workflowTaskTimeouts: 0,
    workflowTaskFailures: 0,
    activityTimeouts: 0,
    longestTaskWaitMs: 0,
    longestActivityWaitMs: 0,
    slowWaits: [],
    eventKinds: new Map(),
  };
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
  try {
    await runConcurrent(uuids.length, 8, async (i) => {
      const history = await client.workflow.getHandle(consignmentWorkflowId(uuids[i])).fetchHistory();
      report.histories++;
      const scheduledAt = new Map<string, number>();
      const events = history.events ?? [];
      const kind = (e: (typeof events)[number]) =>
        Object.keys(e)
          .find((k) => k.endsWith('EventAttributes') && e[k as keyof typeof e])
          ?.replace('EventAttributes', '') ?? '?';
      const startedAt = ms(events[0]?.eventTime);
      for (const [index, e] of events.entries()) {
        report.eventKinds.set(kind(e), (report.eventKinds.get(kind(e)) ?? 0) + 1);
        const id = String(e.eventId);
        if (e.workflowTaskScheduledEventAttributes || e.activityTaskScheduledEventAttributes) scheduledAt.set(id, ms(e.eventTime));
        if (e.workflowTaskStartedEventAttributes) {
          const scheduledId = String(e.workflowTaskStartedEventAttributes.scheduledEventId);
          const wait = ms(e.eventTime) - (scheduledAt.get(scheduledId) ?? ms(e.eventTime));
          report.longestTaskWaitMs = Math.max(report.longestTaskWaitMs, wait);
          if (slowest.has(uuids[i]) && wait > 200) {
            const before = events
              .slice(0, index)
              .reverse()
              .find((b) => String(b.eventId) !== scheduledId && !b.workflowTaskScheduledEventAttributes);
            report.slowWaits.push(
              `${uuids[i].slice(0, 8)}: workflow task scheduled at +${fmt(scheduledAt.get(scheduledId)! - startedAt, 0)} ms (after ${before ? kind(before) : 'start'}) waited ${fmt(wait, 0)} ms for a worker`,
            );
          }
        }
        if (e.activityTaskStartedEventAttributes) {
          const wait = ms(e.eventTime) - (scheduledAt.get(String(e.activityTaskStartedEventAttributes.scheduledEventId)) ?? ms(e.eventTime));
          report.longestActivityWaitMs = Math.max(report.longestActivityWaitMs, wait);
        }
        if (e.workflowTaskTimedOutEventAttributes) report.workflowTaskTimeouts++;
        if (e.workflowTaskFailedEventAttributes) report.workflowTaskFailures++;
        if (e.activityTaskTimedOutEventAttributes) report.activityTimeouts++;
      }
    });
  } finally {
    await connection.close();
  }
  return report;
}

/**
 * Waits until the service and its engine are quiet: together under 10 % of a core over a quarter second (the
 * previous phase's background work — status events published, workflow tasks ending — is done); seconds waited.
 */
async function settled(pid: number): Promise<number> {
  const t0 = performance.now();
  const busy = () =>
    Object.values(threadCpuSeconds(pid)).reduce((sum, s) => sum + s, 0) +
    findProcesses('start-dev', `--port ${ENGINE_PORT} `).reduce((sum, p) => sum + (processCpuSeconds(p) ?? 0), 0);
  for (let before = busy(); performance.now() - t0 < 60_000;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = busy();
    if (now - before < 0.025) break;
    before = now;
  }
  return (performance.now() - t0) / 1000;
}

/** Waits until the service's outbox is empty (every created draft's workflow started); seconds waited. */
async function outboxDrained(origin: string): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < 3000; i++) {
    const backlog = parseMetrics(await (await fetch(`${origin}/metrics`)).text()).get('consignflow_outbox_backlog');
    if (backlog === 0) return (performance.now() - t0) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the outbox did not drain in 5 minutes');
}

runBench(async () => {
  console.log(
    `service bench: the default npm start as its own process; ${cpus().length} CPUs, load ${fmt(loadavg()[0], 2)}${Object.keys(SERVICE_ENV).length ? `; settings ${JSON.stringify(SERVICE_ENV)}` : ''}`,
  );
  const engine = await startFileEngine();
  let bareRate: number;
  try {
    bareRate = (await bareWorkflowRate(engine.address, { n: 1500, concurrency: 32, label: RUN_ID })).rate;
  } finally {
    await engine.stop();
  }
  console.log(`engine bare rate (empty workflows, a file-backed dev server of its own, this run): ${fmt(bareRate, 0)}/s`);

  const keys = Array.from({ length: KEYS }, () => generateApiKey());
  const temporalPort = Number(SERVICE_ENV.TEMPORAL_DEV_PORT) || (await freePort());
  ENGINE_PORT = temporalPort;
  const logTo = process.env.BENCH_SERVICE_LOG ? openSync(process.env.BENCH_SERVICE_LOG, 'w') : 'ignore';
  const service = await startServiceProcess(
    { BOOTSTRAP_API_KEYS: keys.join(','), TEMPORAL_DEV_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(await freePort()), ...SERVICE_ENV },
    logTo,
  );
  const pid = service.child.pid!;
  const http = createHttpClient(service.origin, Math.max(DRAFTS_C, SHIP_C, LOOKUP_C));
  const json = (i: number) => ({ apikey: keys[i % KEYS], 'content-type': 'application/json' });
  try {
    // Warm-up: the first requests compile code paths and open pools, the client's connections included (Node
    // accepts one new connection per turn of its event loop: a phase opening 40 would measure their set-up).
    const connections = Math.max(DRAFTS_C, SHIP_C, LOOKUP_C);
    const warmDrafts: number[] = [];
    await runConcurrent(2 * connections, connections, async (i) => {
      const draft = await timed(http, 201, 'POST', '/api/v1/consignments/draft', json(i), draftBody('W', i));
      warmDrafts[i] = JSON.parse(draft.body).data.id;
    });
    // Lookups too, of other drafts than the phase's (whose first lookups still read the database): twice each,
    // so both the database's batched read and the read cache's answer have run before they are measured.
    for (let pass = 0; pass < 2; pass++) {
      await runConcurrent(
        connections,
        connections,
        async (i) => void (await timed(http, 200, 'GET', `/api/v1/consignments/${warmDrafts[i]}/details`, { apikey: keys[i % KEYS] })),
      );
    }
    await runConcurrent(10, 5, async (i) => {
      const draft = await timed(http, 201, 'POST', '/api/v1/consignments/draft', json(i), draftBody('WS', i));
      await timed(http, 200, 'POST', `/api/v1/consignments/draft/${JSON.parse(draft.body).data.id}/start-process`, { apikey: keys[i % KEYS] });
    });
    await outboxDrained(service.origin);
    await settled(pid);

    const created: { id: number; key: string }[] = [];
    const drafts = await phase('drafts', service.origin, pid, DRAFTS_N, DRAFTS_C, async (i) => {
      const answer = await timed(http, 201, 'POST', '/api/v1/consignments/draft', json(i), draftBody('D', i));
      created.push({ id: JSON.parse(answer.body).data.id, key: keys[i % KEYS] });
      return answer;
    });
    const drainSeconds = await outboxDrained(service.origin);
    // The drafts' workflows are started, but their first workflow tasks may still wait (the relay starts them at
    // a lower priority): those the ship phase then shares the engine and the worker with.
    const waiting = await workflowBacklog(`127.0.0.1:${temporalPort}`, SERVICE_ENV.TEMPORAL_TASK_QUEUE ?? 'consignments');
    const draftsSettle = await settled(pid);
    drafts.note =
      `outbox drained ${fmt(drainSeconds, 1)} s after the last draft; then ${waiting} workflow tasks of theirs still waited for a worker (the engine's approximate backlog); ` +
      `the service and its engine were quiet again ${fmt(drainSeconds + draftsSettle, 1)} s after the last draft`;

    const shipped: string[] = [];
    const shipMs = new Map<string, number>();
    const processSamples: Sample[] = [];
    const ship = await phase('draft + process + label', service.origin, pid, SHIP_N, SHIP_C, async (i) => {
      const t0 = performance.now();
      const draft = await timed(http, 201, 'POST', '/api/v1/consignments/draft', json(i), draftBody('S', i));
      const data = JSON.parse(draft.body).data as { id: number; uuid: string };
      const processed = await timed(http, 200, 'POST', `/api/v1/consignments/draft/${data.id}/start-process`, { apikey: keys[i % KEYS] });
      shipped.push(data.uuid);
      processSamples.push(processed);
      const stages: Record<string, number> = {};
      for (const s of [draft.stages, processed.stages]) for (const [k, v] of Object.entries(s)) stages[k] = (stages[k] ?? 0) + v;
      const total = performance.now() - t0;
      shipMs.set(data.uuid, total);
      return { ms: total, stages };
    });

    const shipSettle = await settled(pid);
    ship.note = `the service and its engine were quiet again ${fmt(shipSettle, 1)} s after the last processing`;

    const lookups = await phase('lookups by id', service.origin, pid, LOOKUP_N, LOOKUP_C, async (i) => {
      const { id, key } = created[i % created.length];
      return { ...(await timed(http, 200, 'GET', `/api/v1/consignments/${id}/details`, { apikey: key })), pass: Math.floor(i / created.length) };
    });

    const phases = [drafts, ship, lookups];
    const clients = [DRAFTS_C, SHIP_C, LOOKUP_C];
    console.log(`\nThe default npm start (bare engine ${fmt(bareRate, 0)}/s), ${KEYS} API keys:`);
    printTable(
      ['phase', 'n', 'clients', 'per s', 'ratio to bare', 'p50 ms', 'p99 ms', 'max ms', 'failures'],
      phases.map((p, i) => {
        const lat = summarize(p.samples.map((s) => s.ms));
        const rate = (p.n - p.failures) / p.seconds;
        return [p.name, p.n, clients[i], fmt(rate, 1), `${fmt(rate / bareRate, 2)}×`, fmt(lat.p50, 0), fmt(lat.p99, 0), fmt(lat.max, 0), p.failures];
      }),
    );
    for (const p of phases) if (p.note) console.log(p.note);
    const processLat = summarize(processSamples.map((s) => s.ms));
    console.log(`start-process alone: p50 ${fmt(processLat.p50, 0)} ms, p99 ${fmt(processLat.p99, 0)} ms, max ${fmt(processLat.max, 0)} ms`);
    // No draft of the drafts phase was read before: the first pass reads each from the database (in batches),
    // the passes after it are answered by the read cache of PGlite's thread.
    for (const pass of [...new Set(lookups.samples.map((s) => s.pass ?? 0))].sort((a, b) => a - b)) {
      const lat = summarize(lookups.samples.filter((s) => (s.pass ?? 0) === pass).map((s) => s.ms));
      console.log(
        `lookups, ${pass === 0 ? "each draft's first lookup (read from the database)" : `pass ${pass + 1} (read cache)`}: ${lat.count} requests, p50 ${fmt(lat.p50, 0)} ms, p99 ${fmt(lat.p99, 0)} ms, max ${fmt(lat.max, 0)} ms`,
      );
    }

    console.log('\nStalls in the service during each phase (GET /metrics):');
    printTable(
      [
        'phase',
        'longest loop delay ms',
        'loop delay p99 ms',
        'ticks late ≥100 ms',
        '≥1 s',
        'GC pauses',
        'GC ms',
        'major GCs',
        'longest GC ≤ ms',
        'peak RSS MB',
        'read cache hits / misses',
        'bench client: longest loop delay ms',
        'longest GC ms',
      ],
      phases.map((p) => [
        p.name,
        fmt(p.stalls.loopMaxMs, 0),
        fmt(p.stalls.loopP99Ms, 0),
        p.stalls.stalls100ms ?? '—',
        p.stalls.stalls1s ?? '—',
        p.stalls.gcCount,
        fmt(p.stalls.gcMs, 0),
        p.stalls.majorGcCount,
        fmt(p.stalls.gcLongestBucketMs, 0),
        fmt(p.peakRssMb, 0),
        `${p.stalls.cacheHits} / ${p.stalls.cacheMisses}`,
        fmt(p.client.loopMaxMs, 0),
        fmt(p.client.gcMaxMs, 0),
      ]),
    );

    console.log('\nCPU ms per request, by where it was spent (threads of the service by name; 2 cores = 2,000 ms a second):');
    const places = [
      ...new Set(
        phases.flatMap((p) =>
          Object.entries(p.cpuMs)
            .filter(([, ms]) => ms >= 0.05)
            .map(([k]) => k),
        ),
      ),
    ];
    printTable(
      ['place', ...phases.map((p) => p.name)],
      places.map((place) => [place, ...phases.map((p) => fmt(p.cpuMs[place] ?? 0, 2))]),
    );

    console.log(`\nWhere the slowest ${TOP_PERCENT} % of each phase spent its time (mean ms per request, from Server-Timing):`);
    for (const p of phases) {
      const split = slowestSplit(p.samples);
      const stages = split.stages.length ? split.stages.map(([k, v]) => `${k} ${fmt(v, 0)}`).join(', ') : 'no Server-Timing header';
      console.log(
        `  ${p.name}: ${split.n} requests, mean ${fmt(split.meanMs, 0)} ms: ${stages}; sent at ${split.sentAt.map((t) => fmt(t / 1000, 1)).join(', ')} s into the phase`,
      );
      const clientStops = p.client.gcs.filter((gc) => gc.ms >= 5);
      if (clientStops.length)
        console.log(
          `    the bench client's own GC pauses ≥ 5 ms (they delay every request in flight): ${clientStops.map((gc) => `${fmt(gc.ms, 0)} ms${gc.major ? ' (major)' : ''} at ${fmt(gc.at / 1000, 2)} s`).join(', ')}`,
        );
    }

    const slowest = new Set(
      [...shipMs]
        .sort((a, b) => b[1] - a[1])
        .slice(0, Math.max(1, Math.ceil((shipMs.size * TOP_PERCENT) / 100)))
        .map(([uuid]) => uuid),
    );
    const history = await readHistories(`127.0.0.1:${temporalPort}`, shipped, slowest);
    console.log(
      `\nWorkflow histories of the ${history.histories} processed consignments: ${history.workflowTaskTimeouts} workflow task timeouts, ${history.workflowTaskFailures} workflow task failures, ` +
        `${history.activityTimeouts} activity timeouts; longest wait for a worker: workflow task ${fmt(history.longestTaskWaitMs, 0)} ms, activity ${fmt(history.longestActivityWaitMs, 0)} ms`,
    );
    const perHistory = [...history.eventKinds].sort((a, b) => b[1] - a[1]);
    console.log(
      `  events per history: ${fmt(perHistory.reduce((sum, [, n]) => sum + n, 0) / history.histories, 1)} (${perHistory.map(([k, n]) => `${k} ${fmt(n / history.histories, 1)}`).join(', ')})`,
    );
    for (const line of history.slowWaits) console.log(`  ${line}`);
  } finally {
    await http.close().catch(() => undefined);
    await service.stop();
  }
});
