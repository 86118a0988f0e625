/**
 * Shared helpers for the benchmarks in bench/: percentiles, a bounded concurrent loop, an HTTP load
 * loop over one keep-alive connection pool (undici, or node:http when asked), process CPU
 * accounting and plain-text tables.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool, request as undiciRequest } from 'undici';
import { version as undiciVersion } from 'undici/package.json';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { openDatabase, type Database } from '../src/db/database';
import { startDevServer, type DevServer } from '../src/temporal/dev-server';
import { bundleWorkflowsInThread } from '../src/temporal/bundling';
import { freePort as freePortOf } from '../test/support/ports';
import { startCommand } from '../test/support/service-process';

/** Nearest-rank percentile of an ascending array (p in 0..100); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
  };
}

/** The PostgreSQL server the benchmarks measure on (DATABASE_URL; the local test database by default). */
export const BENCH_DATABASE_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';

/** The databases a benchmark measures on: BENCH_DBS, a comma-separated list of pglite and postgres (both by default). */
export function benchDatabases(): ('pglite' | 'postgres')[] {
  const kinds = (process.env.BENCH_DBS || 'pglite,postgres')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const kind of kinds) if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`BENCH_DBS: unknown database "${kind}" (pglite, postgres)`);
  return kinds as ('pglite' | 'postgres')[];
}

/** A positive whole number from the environment variable `name`, else `fallback`; anything else stops the bench. */
export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

const benchParty = (name: string, city: string, state: string, postal: string) => ({
  name,
  country: 'TR',
  city,
  state,
  postal_code: postal,
  address: `${city} Merkez, Şehit Cad. No:7`,
  phone_number: '+905321112233',
});

/** A domestic draft as a merchant sends it before processing: Turkish parties, one package with an item, the reference `reference`. */
export const shippingDraftBody = (reference: string, i: number) =>
  JSON.stringify({
    preference: (i % 2) + 1,
    reference_no: reference,
    consignor: benchParty('Gülşen Çelik Tekstil', 'Kadıköy', 'İstanbul', '34710'),
    consignee: benchParty('Ömer Şahin', 'Tepebaşı', 'Eskişehir', '26010'),
    packages: [
      {
        weight: 1 + (i % 5),
        length: 30,
        width: 20,
        height: 10,
        items: [{ description: 'Pamuklu tişört', quantity: 2, unit_price: 149.9, currency_code: 'TRY' }],
      },
    ],
  });

/** A TCP port free on 127.0.0.1 right now (the tests' helper). */
export { freePort } from '../test/support/ports';

/**
 * A full garbage collection of this bench's own heap, run before a phase is measured. The load generator holds
 * more than a client would (the bare engine's worker and webpack bundle, the samples so far), and a major
 * collection of its own during a phase delays every request in flight, which would count as the service's
 * latency. (`global.gc` exposed from within, so `npx tsx bench/…` needs no flag.)
 */
export function collectOwnGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Runs task(0..n-1) with at most `concurrency` in flight: `concurrency` clients each take the next index
 * until none is left (a closed-loop load: a client sends its next request when the previous one finished).
 */
export async function runConcurrent(n: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const client = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, n)) }, client));
}

export interface HttpLoadOptions {
  /** e.g. http://127.0.0.1:8080 */
  origin: string;
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  n: number;
  concurrency: number;
  headers?: Record<string, string>;
  /** request body for request i (already serialised); absent = no body */
  body?: (index: number) => string | undefined;
  /** a response with another status counts as a failure */
  expectStatus: number;
  /** how much of a failed response body to keep */
  errorBodyChars?: number;
}

export interface HttpLoadResult {
  /** the HTTP client used (createHttpClient) */
  client: string;
  n: number;
  ok: number;
  failures: number;
  durationMs: number;
  /** successful responses per second of wall-clock time */
  ratePerSec: number;
  /** latency of every request (failed ones too), ms */
  latency: LatencySummary;
  statusCounts: Record<string, number>;
  firstError?: { index: number; status: number | string; body: string };
}

/** An answer: its status, its body (when asked for) and its Server-Timing header (the service's stage split). */
export interface HttpAnswer {
  status: number;
  body: string;
  serverTiming?: string;
}

/** One keep-alive connection pool to one origin: send a request, get its status and (when asked) its body. */
export interface HttpClient {
  readonly name: string;
  send(method: string, path: string, headers: Record<string, string>, body: string | undefined, readBody: boolean): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** undici `request` over a keep-alive Pool of `connections`. */
export function undiciClient(origin: string, connections: number): HttpClient {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  return {
    name: `undici ${undiciVersion} Pool(${connections})`,
    async send(method, path, headers, body, readBody) {
      const response = await undiciRequest(`${origin}${path}`, { dispatcher: pool, method: method as 'POST', headers, body });
      const serverTiming = response.headers['server-timing'] as string | undefined;
      if (!readBody) {
        await response.body.dump({ limit: 1024 * 1024 });
        return { status: response.statusCode, body: '', serverTiming };
      }
      return { status: response.statusCode, body: await response.body.text(), serverTiming };
    },
    close: () => pool.close(),
  };
}

/**
 * undici's `Pool.dispatch` with a handler of its own: the same connection pool and HTTP/1.1 parser as
 * `request`, without the response's stream and header object (the body's chunks are kept only when asked for,
 * the Server-Timing header is picked from the raw headers). The client shares the machine's cores with the
 * service it measures, so its own CPU per request must stay small.
 */
export function undiciDispatchClient(origin: string, connections: number): HttpClient {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  return {
    name: `undici ${undiciVersion} Pool(${connections}).dispatch`,
    send: (method, path, headers, body, readBody) =>
      new Promise((resolve, reject) => {
        let status = 0;
        let serverTiming: string | undefined;
        const chunks: Buffer[] = [];
        pool.dispatch(
          { origin, path, method: method as 'POST', headers, body },
          {
            onConnect() {},
            onHeaders(statusCode: number, rawHeaders: Buffer[]) {
              status = statusCode;
              for (let i = 0; i < rawHeaders.length; i += 2) {
                if (rawHeaders[i].length === 13 && rawHeaders[i].toString('latin1').toLowerCase() === 'server-timing') {
                  serverTiming = serverTiming ? `${serverTiming}, ${rawHeaders[i + 1].toString('latin1')}` : rawHeaders[i + 1].toString('latin1');
                }
              }
              return true;
            },
            onData(chunk: Buffer) {
              if (readBody) chunks.push(chunk);
              return true;
            },
            onComplete() {
              resolve({ status, body: readBody ? Buffer.concat(chunks).toString('utf8') : '', serverTiming });
            },
            onError: reject,
          },
        );
      }),
    close: () => pool.close(),
  };
}

/** node:http with a keep-alive Agent of `connections` sockets. */
export function nodeHttpClient(origin: string, connections: number): HttpClient {
  const url = new URL(origin);
  const agent = new HttpAgent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, keepAliveMsecs: 30_000 });
  return {
    name: `node:http ${process.version} keep-alive Agent(${connections})`,
    send: (method, path, headers, body, readBody) =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path,
            method,
            agent,
            headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => {
              if (readBody) chunks.push(chunk);
            });
            const serverTiming = [res.headers['server-timing'] ?? []].flat().join(', ') || undefined;
            res.once('end', () => resolve({ status: res.statusCode ?? 0, body: readBody ? Buffer.concat(chunks).toString('utf8') : '', serverTiming }));
            res.once('error', reject);
          },
        );
        req.once('error', reject);
        req.end(body);
      }),
    close: async () => agent.destroy(),
  };
}

/**
 * The HTTP client for a load run: undici's Pool.dispatch (undiciDispatchClient), or with BENCH_HTTP_CLIENT
 * undici's `request` (`undici-request`) or node:http's keep-alive Agent (`node`).
 */
export function createHttpClient(origin: string, connections: number): HttpClient {
  const wanted = process.env.BENCH_HTTP_CLIENT || 'undici';
  if (wanted === 'node') return nodeHttpClient(origin, connections);
  if (wanted === 'undici-request') return undiciClient(origin, connections);
  if (wanted !== 'undici') throw new Error(`BENCH_HTTP_CLIENT must be undici, undici-request or node, got ${wanted}`);
  return undiciDispatchClient(origin, connections);
}

/**
 * Sends `n` requests over real HTTP with `concurrency` closed-loop clients sharing one keep-alive connection
 * pool of `concurrency` connections (createHttpClient). Each latency covers sending the request and reading
 * the whole response. Network errors count as failures (status "error"), they do not stop the run.
 */
export async function httpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const method = options.method ?? 'POST';
  const client = createHttpClient(options.origin, options.concurrency);
  const latencies: number[] = new Array(options.n);
  const statusCounts: Record<string, number> = {};
  let ok = 0;
  let firstError: HttpLoadResult['firstError'];
  const keep = options.errorBodyChars ?? 2000;
  const headers = { ...(options.body ? { 'content-type': 'application/json' } : {}), ...options.headers };
  const started = performance.now();
  try {
    await runConcurrent(options.n, options.concurrency, async (index) => {
      const body = options.body?.(index);
      const t0 = performance.now();
      let status: number | string;
      let text = '';
      try {
        // Bodies of expected responses are read and dropped; the first unexpected one is kept.
        const response = await client.send(method, options.path, headers, body, firstError === undefined);
        status = response.status;
        text = response.body;
      } catch (error) {
        status = 'error';
        text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      latencies[index] = performance.now() - t0;
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
      if (status === options.expectStatus) ok++;
      else firstError ??= { index, status, body: text.slice(0, keep) };
    });
  } finally {
    await client.close().catch(() => undefined);
  }
  const durationMs = performance.now() - started;
  return {
    client: client.name,
    n: options.n,
    ok,
    failures: options.n - ok,
    durationMs,
    ratePerSec: ok / (durationMs / 1000),
    latency: summarize(latencies),
    statusCounts,
    firstError,
  };
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) used so far by a process, from /proc; undefined off Linux or when gone. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** The parent pid of a process (Linux /proc), 0 when gone. */
export function parentPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** Processes whose command line contains every one of `parts` (Linux /proc; none elsewhere). */
export function findProcesses(...parts: string[]): number[] {
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (parts.every((part) => cmdline.includes(part))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds per thread of a process, keyed `main` (the thread whose tid is the pid) or `<thread name>/<tid>`. */
export function threadCpuSeconds(pid: number = process.pid): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = Number(tid) === pid ? 'main' : `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}/${tid}`;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out[name] = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      } catch {
        // thread ended meanwhile
      }
    }
  } catch {
    // not Linux
  }
  return out;
}

export type CpuSources = Record<string, () => number[] | Promise<number[]>>;

/**
 * CPU seconds used between start and stop() by this process (in total, `node`, and per thread, `node/main`,
 * `node/<thread name>/<tid>`)
 * and by named groups of other processes (pids resolved at start and at stop; one that appeared meanwhile
 * counts whole). Linux /proc; empty elsewhere.
 */
export async function cpuMeter(sources: CpuSources = {}) {
  const sample = async () => {
    const self = process.cpuUsage();
    const out: Record<string, number> = { node: (self.user + self.system) / 1e6 };
    for (const [thread, seconds] of Object.entries(threadCpuSeconds())) out[`node/${thread}`] = seconds;
    const perPid: Record<string, Record<number, number>> = {};
    for (const [name, pids] of Object.entries(sources)) {
      perPid[name] = {};
      for (const pid of await pids()) {
        const seconds = processCpuSeconds(pid);
        if (seconds !== undefined) perPid[name][pid] = seconds;
      }
    }
    return { out, perPid };
  };
  const before = await sample();
  return {
    async stop(): Promise<Record<string, number>> {
      const after = await sample();
      const used: Record<string, number> = {};
      for (const [key, value] of Object.entries(after.out)) used[key] = value - (before.out[key] ?? 0);
      for (const [name, pids] of Object.entries(after.perPid)) {
        used[name] = Object.entries(pids).reduce((sum, [pid, seconds]) => sum + seconds - (before.perPid[name]?.[Number(pid)] ?? 0), 0);
      }
      return used;
    },
  };
}

/** Formats a number with a fixed number of decimals; '-' for NaN/undefined. */
export function fmt(value: number | undefined, decimals = 1): string {
  return value === undefined || Number.isNaN(value) ? '-' : value.toFixed(decimals);
}

/** A plain-text table: columns padded, numbers (and '-') right-aligned, a rule under the header. */
export function formatTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((row) => row.map((c) => (typeof c === 'number' ? String(c) : c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => (row[i] ?? '').length)));
  const numeric = (s: string) => /^[-+]?[\d.,]+[×x%]?$|^-$/.test(s);
  const line = (row: readonly string[]) => row.map((c, i) => (numeric(c) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ');
  return [line(headers.map(String)), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

export function printTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): void {
  console.log(formatTable(headers, rows));
}

/** A database a benchmark runs on and throws away: PGlite in memory, or a fresh database on a PostgreSQL server. */
export interface ScratchDatabase {
  db: Database;
  label: string;
  /** PostgreSQL: the scratch database's URL */
  url?: string;
  /** PostgreSQL: the server processes serving the scratch database */
  backendPids?: () => Promise<number[]>;
  drop(): Promise<void>;
}

/** Opens a scratch database: `postgres` creates cf_bench_<random> on the server at `serverUrl`; drop() removes it. */
export async function openScratchDatabase(kind: 'pglite' | 'postgres', serverUrl: string, poolSize = 20): Promise<ScratchDatabase> {
  if (kind === 'pglite') {
    // File-backed, as `npm start` runs it.
    const dataDir = mkdtempSync(join(tmpdir(), 'cf-bench-pglite-'));
    const db = await openDatabase({ dataDir });
    return {
      db,
      label: 'PGlite (file)',
      drop: async () => {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `cf_bench_${randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ url: serverUrl, poolSize: 1 });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.close();
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize });
  return {
    db,
    url: url.toString(),
    label: `PostgreSQL (pool ${poolSize})`,
    backendPids: async () => (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name])).rows.map((r) => Number(r.pid)),
    drop: async () => {
      await db.close().catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

/** Runs a benchmark's main and exits (0, or 1 with the error printed): servers and pools it leaves open do not hold the process. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

export interface BareRate {
  /** workflows started and run to completion per second (a worker in this process ran them) */
  rate: number;
  /** starts per second the server accepted (method `started`; `executed`: the same as rate) */
  acceptedRate: number;
  seconds: number;
  /** CPU seconds during the measured part, by source */
  cpu: Record<string, number>;
}

/**
 * The engine's own ceiling, measured in the run it is compared with: `n` empty workflows run by a worker in this
 * process on their own task queue, after `warmUps` (50) run to completion. `method`:
 * - `executed` (the default): `concurrency` clients each start a workflow and wait for its result, then the next
 *   (as requests that wait for their workflow do); the rate is completions per second.
 * - `started`: the starts are sent `concurrency` at a time without waiting for results, and the run counted
 *   until the visibility store lists none running (polled every 100 ms).
 */
export async function bareWorkflowRate(
  address: string,
  options: { n: number; concurrency: number; cpuSources?: CpuSources; label: string; method?: 'executed' | 'started'; warmUps?: number },
): Promise<BareRate> {
  const taskQueue = `bench-bare-${options.label}-${randomBytes(3).toString('hex')}`;
  // Bundled in a thread, as the service does: webpack's modules would otherwise stay in the bench's own heap, and
  // its full collections during a phase delay every request in flight.
  const bundle = await bundleWorkflowsInThread(require.resolve('./empty.workflow'));
  const nativeConnection = await NativeConnection.connect({ address });
  const worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowBundle: bundle, maxConcurrentWorkflowTaskExecutions: 100 });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  try {
    const options_ = (i: number) => ({ taskQueue, workflowId: `${taskQueue}-${i}` });
    const execute = (i: number) => client.workflow.execute('emptyWorkflow', options_(i));
    await runConcurrent(options.warmUps ?? 50, options.concurrency, async (i) => void (await execute(-1 - i)));
    const meter = await cpuMeter(options.cpuSources);
    const t0 = performance.now();
    let acceptedSeconds: number;
    if (options.method === 'started') {
      await runConcurrent(options.n, options.concurrency, async (i) => void (await client.workflow.start('emptyWorkflow', options_(i))));
      acceptedSeconds = (performance.now() - t0) / 1000;
      for (let i = 0; i < 1200; i++) {
        const { count } = await client.workflow.count(`TaskQueue = "${taskQueue}" AND ExecutionStatus = "Running"`);
        if (count === 0) break;
        await sleep(100);
      }
    } else {
      await runConcurrent(options.n, options.concurrency, async (i) => void (await execute(i)));
      acceptedSeconds = (performance.now() - t0) / 1000;
    }
    const seconds = (performance.now() - t0) / 1000;
    return { rate: options.n / seconds, acceptedRate: options.n / acceptedSeconds, seconds, cpu: await meter.stop() };
  } finally {
    worker.shutdown();
    await running.catch(() => undefined);
    await nativeConnection.close();
    await connection.close();
  }
}

/**
 * The embedded engine as `npm start` runs it: a Temporal dev server on an SQLite file (the default pragmas),
 * in a temporary data directory that stopping removes.
 */
export async function startFileEngine(port?: number): Promise<DevServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cf-bench-engine-'));
  const server = await startDevServer({ port: port ?? (await freePortOf()), namespace: 'default', dataDir });
  return {
    ...server,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process in MB (Linux /proc); NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * The service as its own process, exactly as `npm start` runs it (its V8 heap limits included, without npm's
 * process in between), on `env` over the caller's environment, in a temporary DATA_DIR; resolves once
 * /healthz answers 200. `stop()` sends SIGTERM, waits for the exit and removes the data folder.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  stdout: 'ignore' | number = 'ignore',
): Promise<{ origin: string; child: ChildProcess; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'consignflow-bench-service-'));
  const port = await freePortOf();
  const start = startCommand();
  // BENCH_SERVICE_NODE_ARGS: Node options for the service's process after `npm start`'s own, so they win (e.g.
  // `--cpu-prof --cpu-prof-dir=/tmp/profiles`, which NODE_OPTIONS refuses, or another heap size), separated by spaces.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const args = [...start.args.slice(0, -1), ...nodeArgs, ...start.args.slice(-1)];
  const child = spawn(process.execPath, args, {
    cwd: join(__dirname, '..'),
    env: { ...start.env, ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADDRESS_COUNTRIES: 'none', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
      if (
        await fetch(`${origin}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        )
      )
        break;
      if (i > 600) throw new Error('the service did not become healthy');
      await sleep(200);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, child, stop };
}
