import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_OUTPUTS } from '../../scripts/build';
import { draftBody } from '../support/consignments';
import { freePort } from '../support/ports';
import { scratchDatabase } from '../support/scratch-database';
import { buildOnce, runCompiled } from '../support/compiled-process';
import { exited } from '../support/service-process';
import { waitFor } from '../support/wait';

/**
 * The production form: `npm run build`, then `npm run api` and `npm run worker` exactly as package.json runs
 * them (compiled JavaScript, the prebuilt workflow bundle), as two processes against PostgreSQL and the test
 * Temporal server. A draft goes through both; each process answers its metrics and stops cleanly on SIGTERM.
 * The Dockerfile runs these same scripts (test/unit/runtime/dockerfile.test.ts).
 */
const ROOT = join(__dirname, '..', '..');
const API_KEY = 'cf_compiledTestKey0000000000000001';
const SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let dataDir: string;
const children: ChildProcess[] = [];

const run = (script: 'api' | 'worker', env: Record<string, string>) => {
  const child = runCompiled(script, env);
  children.push(child);
  return child;
};

beforeAll(async () => {
  await buildOnce();
  database = await scratchDatabase(SERVER_URL);
  dataDir = mkdtempSync(join(tmpdir(), 'consignflow-compiled-'));
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();
});

describe('npm run build, then npm run api and npm run worker', () => {
  it('builds what the start scripts run', () => {
    for (const output of BUILD_OUTPUTS) expect(existsSync(join(ROOT, 'dist', output))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.api).toContain('dist/src/api/server.js');
    expect(pkg.scripts.worker).toContain('dist/src/temporal/worker.main.js');
  });

  it("opens PGlite in its own thread from the compiled build (the thread's compiled script beside its starter)", () => {
    const script = `require('./dist/src/db/database.js').openDatabase({}).then(async (db) => {
      const { rows } = await db.query("SELECT 'x'::bytea AS b, 2 AS n");
      process.stdout.write(JSON.stringify({ buffer: Buffer.isBuffer(rows[0].b), n: rows[0].n }));
      await db.close();
    })`;
    // No tsx in the process: the compiled thread must load as JavaScript.
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }))).toEqual({ buffer: true, n: 2 });
  }, 90_000);

  it('serves a draft through its processing with the API and the worker as separate compiled processes', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const common = {
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
      TEMPORAL_TASK_QUEUE: `compiled-${randomUUID()}`,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ADDRESS_COUNTRIES: 'none',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    };
    const worker = run('worker', { ...common, METRICS_PORT: String(metricsPort) });
    const api = run('api', { ...common, PORT: String(port), BOOTSTRAP_API_KEYS: API_KEY });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      'both processes ready',
      async () => {
        if (worker.exitCode !== null || api.exitCode !== null) throw new Error(`a process exited:\n${worker.output()}\n${api.output()}`);
        const [a, w] = await Promise.all([
          fetch(`${base}/readyz`).catch(() => undefined),
          fetch(`http://127.0.0.1:${metricsPort}/healthz`).catch(() => undefined),
        ]);
        return a?.status === 200 && w?.status === 200;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );

    // The compiled API serves the console with its files (copied beside the compiled code by the build).
    const signIn = await fetch(`${base}/console/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('name="api_key"');
    for (const asset of ['console.css', 'console.js', 'htmx.min.js']) expect((await fetch(`${base}/console/assets/${asset}`)).status).toBe(200);

    const headers = { apikey: API_KEY, 'content-type': 'application/json' };
    const draft = await fetch(`${base}/api/v1/consignments/draft`, { method: 'POST', headers, body: JSON.stringify(draftBody({ preference: 1 })) });
    expect(draft.status).toBe(201);
    const { id } = ((await draft.json()) as { data: { id: number } }).data;
    const processed = await fetch(`${base}/api/v1/consignments/draft/${id}/start-process`, { method: 'POST', headers: { apikey: API_KEY } });
    expect(processed.status).toBe(200);
    expect(((await processed.json()) as { data: { base64label: string } }).data.base64label).toMatch(/^JVBERi0/);

    // Each process counts what it did: the API the creation and the requests, the worker the processing.
    const apiMetrics = await (await fetch(`${base}/metrics`)).text();
    const workerMetrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(apiMetrics).toMatch(/^consignflow_consignments_total\{event="created"\} 1$/m);
    expect(apiMetrics).toMatch(/^consignflow_http_requests_total\{method="POST",route="\/api\/v1\/consignments\/draft\/:id\/start-process",status="200"\} 1$/m);
    expect(workerMetrics).toMatch(/^consignflow_consignments_total\{event="processed"\} 1$/m);
    expect(workerMetrics).toMatch(/^consignflow_carrier_calls_total\{carrier="sandbox",operation="book",outcome="ok"\} 1$/m);
    expect(workerMetrics).toMatch(/^temporal_worker_task_slots_available\{/m);

    api.kill('SIGTERM');
    worker.kill('SIGTERM');
    expect(await exited(api)).toBe(0);
    expect(await exited(worker)).toBe(0);
  }, 180_000);
});
