/**
 * consignflow as the integration worker (issue 11): an import of UPSTREAM_N orders with processing through a
 * remote consignment service (a second consignflow, `consignment_api` carrier account), beside the same import
 * processed by the built-in sandbox carrier in the same run, on the same worker instance. Both instances run
 * as `npm start` runs them (their own embedded Temporal dev server with its SQLite file); the worker's
 * database is a scratch PostgreSQL database (so its lookup counts can be read while it runs), the remote's
 * is PGlite. Then the remote lookups the worker spends per status change while it follows TRACKED
 * consignments through three remote statuses each, with the remote's status webhook on.
 * Prints times and ratios; asserts nothing.
 *
 *   npx tsx bench/upstream.ts
 *   UPSTREAM_N=500 npx tsx bench/upstream.ts
 *
 * Env: UPSTREAM_N (2000), UPSTREAM_TRACKED (50), DATABASE_URL (postgresql://postgres@127.0.0.1:5432/test).
 * Targets: remote import ≥ 0.5× the sandbox import's throughput; ≤ 1 remote lookup per status change.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase, type Database } from '../src/db/database';
import { exited, serviceFixture } from '../test/support/service-process';
import { findProcesses, fmt, printTable, processCpuSeconds, runBench, runConcurrent } from './support';

const N = Number(process.env.UPSTREAM_N ?? 2000);
const TRACKED = Number(process.env.UPSTREAM_TRACKED ?? 50);
const REMOTE_KEY = 'cf_benchRemoteKey000000000000000001';
const LOCAL_KEY = 'cf_benchWorkerKey000000000000000001';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Service = Awaited<ReturnType<typeof serviceFixture>>;

async function call(service: Service, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${service.base}${path}`, {
    method,
    headers: { apikey: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

function ordersFile(prefix: string, n: number): string {
  const lines = [
    'reference_no,consignee_name,consignee_city,consignee_country,consignee_address,consignee_phone,item_description,item_quantity,package_weight',
  ];
  for (let i = 0; i < n; i++) lines.push(`${prefix}-${i},Müşteri ${i},Ankara,TR,Atatürk Blv. No:${i},+905551112233,Kilim yastık,1,1.5`);
  return lines.join('\n') + '\n';
}

/** Imports `n` orders with processing by `providerId`; the seconds from upload to `completed`, and the counts. */
async function timedImport(local: Service, prefix: string, providerId: number, n: number): Promise<{ seconds: number; counts: Record<string, number> }> {
  const form = new FormData();
  const consignor = { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Bağdat Cad. No:1', phone_number: '+905551112200' };
  form.append('options', JSON.stringify({ preset: 'generic', process: true, preference: 0, provider_id: providerId, consignor }));
  form.append('file', new Blob([ordersFile(prefix, n)], { type: 'text/csv' }), 'orders.csv');
  const started = performance.now();
  const res = await fetch(`${local.base}/api/v1/imports`, { method: 'POST', headers: { apikey: LOCAL_KEY }, body: form });
  const json = (await res.json()) as Json;
  if (res.status !== 202) throw new Error(`import refused: ${JSON.stringify(json)}`);
  for (;;) {
    const state = (await call(local, LOCAL_KEY, 'GET', `/api/v1/imports/${json.data.id}`)).json.data as Json;
    if (['completed', 'failed', 'cancelled'].includes(state.state)) return { seconds: (performance.now() - started) / 1000, counts: state.counts };
    await sleep(500);
  }
}

/** CPU seconds used so far by one instance: its node process and its Temporal dev server (found by its DATA_DIR). */
function instanceCpu(service: Service, pid: number | undefined): number {
  const pids = [...(pid ? [pid] : []), ...findProcesses('temporal', 'server', service.dataDir)];
  return pids.reduce((sum, p) => sum + (processCpuSeconds(p) ?? 0), 0);
}

const lookupsSpent = async (db: Database, providerId: number) =>
  Number(
    (await db.query<{ n: string }>(`SELECT coalesce(sum(calls), 0) AS n FROM carrier_call_windows WHERE provider_id = $1 AND kind = 'lookup'`, [providerId]))
      .rows[0].n,
  );

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const remote = await serviceFixture('bench-remote', REMOTE_KEY, {
    DATABASE_URL: '',
    SANDBOX: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    LOG_LEVEL: 'warn',
    LOOKUP_RATE_LIMIT_PER_MIN: '100000',
  });
  const local = await serviceFixture('bench-worker', LOCAL_KEY, { DATABASE_URL: '', WEBHOOK_ALLOW_PRIVATE: '1', LOG_LEVEL: 'warn' });
  // The worker on a scratch PostgreSQL database, read while it runs.
  const admin = await openDatabase({ url: serverUrl, poolSize: 1 });
  const dbName = `cf_bench_upstream_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${dbName}`);
  const localUrl = new URL(serverUrl);
  localUrl.pathname = `/${dbName}`;
  const remoteProc = remote.start();
  const localProc = local.start(false, { DATABASE_URL: localUrl.toString() });
  let localDb: Database | undefined;
  try {
    await Promise.all([remote.waitHealthy(remoteProc), local.waitHealthy(localProc)]);
    localDb = await openDatabase({ url: localUrl.toString(), poolSize: 2 });
    const account = await call(local, LOCAL_KEY, 'POST', '/api/v1/carrier-accounts', {
      carrier: 'consignment_api',
      description: 'Bench remote',
      credentials: { base_url: remote.base, api_key: REMOTE_KEY },
      settings: { provider_id: 1 },
    });
    if (account.status !== 201) throw new Error(`account refused: ${JSON.stringify(account.json)}`);
    const providerId = account.json.data.provider_id as number;
    console.log(
      `cpus ${cpus().length}, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${N} orders per import; worker on PostgreSQL, remote on PGlite, both with their embedded Temporal dev server`,
    );

    const cpu = () => ({ local: instanceCpu(local, localProc.pid), remote: instanceCpu(remote, remoteProc.pid) });
    const cpu0 = cpu();
    const sandbox = await timedImport(local, 'SBX', 1, N);
    const cpu1 = cpu();
    const lookupsBefore = await lookupsSpent(localDb, providerId);
    const upstream = await timedImport(local, 'UPS', providerId, N);
    const cpu2 = cpu();
    const lookupsAfterImport = await lookupsSpent(localDb, providerId);
    const ms = (seconds: number) => fmt((seconds * 1000) / N);
    printTable(
      ['import with processing', 'orders', 'processed', 'failed', 'seconds', 'orders/s', 'ratio', 'worker CPU ms/order', 'remote CPU ms/order'],
      [
        [
          'sandbox carrier (baseline)',
          N,
          sandbox.counts.processed,
          sandbox.counts.failed,
          fmt(sandbox.seconds),
          fmt(N / sandbox.seconds),
          '1.00×',
          ms(cpu1.local - cpu0.local),
          ms(cpu1.remote - cpu0.remote),
        ],
        [
          'remote consignment service',
          N,
          upstream.counts.processed,
          upstream.counts.failed,
          fmt(upstream.seconds),
          fmt(N / upstream.seconds),
          `${(sandbox.seconds / upstream.seconds).toFixed(2)}×`,
          ms(cpu2.local - cpu1.local),
          ms(cpu2.remote - cpu1.remote),
        ],
      ],
    );
    console.log("(CPU: each instance's node process and Temporal dev server; the worker's PostgreSQL backends are not counted)");
    console.log(
      `remote lookups during the remote import: ${lookupsAfterImport - lookupsBefore} (booking needs none; webhooks naming a status no carrier reports ask nothing)`,
    );

    // Statuses: TRACKED consignments of the remote import go through three remote statuses each.
    const tracked = (
      await localDb.query<{ carrier_reference: string; id: string }>(
        `SELECT b.carrier_reference, c.id FROM carrier_bookings b JOIN consignments c ON c.uuid::text = b.booking_key::text WHERE b.provider_id = $1 ORDER BY c.id LIMIT $2`,
        [providerId, TRACKED],
      )
    ).rows;
    await sleep(3000); // let the processing webhooks' lookups settle
    const before = await lookupsSpent(localDb, providerId);
    const started = performance.now();
    for (const event of ['PICKED_UP', 'IN_TRANSIT', 'DELIVERED']) {
      await runConcurrent(tracked.length, 8, async (i) => {
        const res = await call(remote, REMOTE_KEY, 'POST', `/api/v1/sandbox/consignments/${tracked[i].carrier_reference}/events`, { event });
        if (res.status !== 202) throw new Error(`remote event refused: ${JSON.stringify(res.json)}`);
      });
    }
    const ids = tracked.map((t) => Number(t.id));
    for (;;) {
      const { rows } = await localDb.query<{ n: string }>('SELECT count(*) AS n FROM consignments WHERE id = ANY($1) AND status = 7', [ids]);
      if (Number(rows[0].n) === ids.length) break;
      if (performance.now() - started > 300_000) throw new Error('tracked consignments not delivered in 5 minutes');
      await sleep(250);
    }
    const seconds = (performance.now() - started) / 1000;
    await sleep(2000);
    const spent = (await lookupsSpent(localDb, providerId)) - before;
    const changes = tracked.length * 3;
    printTable(
      ['status tracking (webhook on)', 'consignments', 'status changes', 'remote lookups', 'lookups per change', 'seconds to all delivered'],
      [['remote consignment service', tracked.length, changes, spent, fmt(spent / changes, 2), fmt(seconds)]],
    );
  } finally {
    await localDb?.close();
    for (const proc of [localProc, remoteProc]) {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await exited(proc);
      }
    }
    await Promise.all([remote.cleanup(), local.cleanup()]);
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.close();
  }
}

runBench(main);
