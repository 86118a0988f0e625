/**
 * Draft processing over real HTTP (POST /api/v1/consignments/draft/{id}/start-process) on PostgreSQL:
 * carrier choice, idempotent booking, PDF label (Unicode font, Code128, QR), costs, history and the status
 * event, all through each consignment's lifecycle workflow. Drafts are created first (not timed), then
 * processed by PROCESS_CONCURRENCY closed-loop clients. Prints throughput and p50/p99; never asserts times.
 *
 *   npx tsx bench/process.ts
 *   PROCESS_N=100 PROCESS_CONCURRENCY=10 npx tsx bench/process.ts
 *
 * Env: PROCESS_N (300), PROCESS_CONCURRENCY (20), DATABASE_URL (postgresql://postgres@127.0.0.1:5432/test;
 * a scratch database cf_bench_<random> is created there and dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createCustomer } from '../src/db/customers.repository';
import { openDatabase } from '../src/db/database';
import { startRuntime } from '../src/runtime';
import { createHttpClient, fmt, freePort, printTable, runConcurrent, startFileEngine, summarize } from './support';

const N = Number(process.env.PROCESS_N ?? 300);
const C = Number(process.env.PROCESS_CONCURRENCY ?? 20);
const SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

const party = (name: string, city: string) => ({ name, country: 'TR', city, address: `${city} Merkez, Şehit Cad. No:7`, phone_number: '+905321112233' });

async function main(): Promise<void> {
  const name = `cf_bench_${randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ url: SERVER_URL, poolSize: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const devServer = await startFileEngine();
  const port = await freePort();
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    TEMPORAL_ADDRESS: devServer.address,
    PORT: String(port),
    LOG_LEVEL: 'silent',
    ADDRESS_COUNTRIES: 'none',
  });
  const runtime = await startRuntime(config, { api: true, worker: true, logger: pino({ level: 'silent' }) });
  const client = createHttpClient(`http://127.0.0.1:${port}`, C);
  try {
    await runtime.app!.listen({ port, host: '127.0.0.1' });
    const { apiKey } = await createCustomer(runtime.db, { name: 'bench' });
    const headers = { apikey: apiKey, 'content-type': 'application/json' };
    const ids: number[] = new Array(N);
    await runConcurrent(N, C, async (i) => {
      const body = {
        preference: (i % 2) + 1,
        reference_no: `PROC-${i}`,
        consignor: party('Gülşen Çelik', 'İstanbul'),
        consignee: party('Ömer Şahin', 'Eskişehir'),
        packages: [{ weight: 1 + (i % 5), length: 30, width: 20, height: 10 }],
      };
      const res = await client.send('POST', '/api/v1/consignments/draft', headers, JSON.stringify(body), true);
      if (res.status !== 201) throw new Error(`draft ${i}: ${res.status} ${res.body}`);
      ids[i] = JSON.parse(res.body).data.id;
    });
    const latencies: number[] = [];
    let failures = 0;
    let firstError = '';
    const load = loadavg()[0];
    const started = performance.now();
    await runConcurrent(N, C, async (i) => {
      const t0 = performance.now();
      const res = await client.send('POST', `/api/v1/consignments/draft/${ids[i]}/start-process`, { apikey: apiKey }, undefined, true);
      latencies.push(performance.now() - t0);
      if (res.status !== 200) {
        failures++;
        firstError ||= `${res.status} ${res.body.slice(0, 300)}`;
      }
    });
    const seconds = (performance.now() - started) / 1000;
    const labels = await runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM labels');
    const lat = summarize(latencies);
    console.log(
      `Draft processing over HTTP on PostgreSQL: ${N} drafts, ${C} concurrent clients; load average ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)} on 2 cores`,
    );
    printTable(
      ['target', 'processed/s', 'p50 ms', 'p99 ms', 'failures', 'labels stored'],
      [['start-process', fmt((N - failures) / seconds), fmt(lat.p50), fmt(lat.p99), failures, labels.rows[0].n]],
    );
    if (firstError) console.log(`first failure: ${firstError}`);
  } finally {
    await client.close().catch(() => undefined);
    await runtime.stop();
    await devServer.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
