/**
 * Order import throughput (issue 6): a Shopify-style export of IMPORT_N orders through POST /api/v1/imports,
 * drafts only and with processing (labels), beside two baselines measured in the same run on the same
 * Temporal server:
 *   (a) the same orders POSTed one by one to /api/v1/consignments/draft by 16 concurrent clients;
 *   (b) the rate at which that Temporal server starts empty workflows (a worker completing them).
 * Targets: imports ≥ 3× (a) and ≥ ½ × (b); every imported draft's workflow running (started by the outbox relay) ≥ 0.8× (b). Times are printed, never
 * asserted. It also samples the process's
 * RSS (API, worker and client share it) during each import.
 *
 *   npx tsx bench/import.ts
 *   IMPORT_N=1000 BENCH_DB=pglite npx tsx bench/import.ts
 *
 * Env: IMPORT_N (10000), IMPORT_PROCESS_N (orders of the processing run, default IMPORT_N), ONE_BY_ONE_CONCURRENCY
 * (16), BARE_CONCURRENCY (64), BENCH_DB (postgres | pglite; default postgres), DATABASE_URL
 * (postgresql://postgres@127.0.0.1:5432/test: a scratch database cf_bench_<random> is created there and
 * dropped afterwards), BENCH_PHASES (bare,one-by-one,import,import-process; add `memory` for the bounded-memory
 * run: the service as its own process, as `npm start` runs it, importing a file of IMPORT_MEMORY_ROWS
 * rows (100000) while its RSS is sampled), BENCH_HTTP_CLIENT (undici | undici-request | node).
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultLogger, bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '../src/config';
import { createCustomer } from '../src/db/customers.repository';
import { bufferSource, readCsvRecords } from '../src/imports/csv-stream';
import { parseImportOptions } from '../src/imports/import-options';
import { mapOrder, orderGroups } from '../src/imports/order-mapper';
import { csvField, resolveLayout } from '../src/imports/presets';
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
  rssMb,
  runBench,
  startFileEngine,
  startServiceProcess,
  type CpuSources,
  type ScratchDatabase,
  positiveInt,
  BENCH_DATABASE_URL,
} from './support';
import { TR_FIRST_NAMES, TR_LAST_NAMES, TR_PLACES, TR_STREETS } from './people';

const N = positiveInt('IMPORT_N', 10_000);
const PROCESS_N = positiveInt('IMPORT_PROCESS_N', N);
const ONE_BY_ONE_C = positiveInt('ONE_BY_ONE_CONCURRENCY', 16);
const BARE_C = positiveInt('BARE_CONCURRENCY', 64);
const DB_KIND = (process.env.BENCH_DB || 'postgres') as 'postgres' | 'pglite';
if (DB_KIND !== 'postgres' && DB_KIND !== 'pglite') throw new Error('BENCH_DB must be postgres or pglite');
const DATABASE_URL = BENCH_DATABASE_URL;
const PHASES = new Set((process.env.BENCH_PHASES || 'bare,one-by-one,import,import-process').split(',').map((s) => s.trim()));
const MEMORY_ROWS = positiveInt('IMPORT_MEMORY_ROWS', 100_000);
const RUN_ID = randomBytes(3).toString('hex');

// ---------------------------------------------------------------------------------------------------------
// A Shopify order export: Shopify's real header; one row per line item, later rows repeat only Name and the line item.

const HEADER =
  'Name,Email,Financial Status,Paid at,Fulfillment Status,Fulfilled at,Accepts Marketing,Currency,Subtotal,Shipping,Taxes,Total,Discount Code,Discount Amount,Shipping Method,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem compare at price,Lineitem sku,Lineitem requires shipping,Lineitem taxable,Lineitem fulfillment status,Billing Name,Billing Street,Billing Address1,Billing Address2,Billing Company,Billing City,Billing Zip,Billing Province,Billing Country,Billing Phone,Shipping Name,Shipping Street,Shipping Address1,Shipping Address2,Shipping Company,Shipping City,Shipping Zip,Shipping Province,Shipping Country,Shipping Phone,Notes,Note Attributes,Cancelled at,Payment Method,Payment Reference,Refunded Amount,Vendor,Id,Tags,Risk Level,Source,Lineitem discount,Tax 1 Name,Tax 1 Value,Tax 2 Name,Tax 2 Value,Tax 3 Name,Tax 3 Value,Tax 4 Name,Tax 4 Value,Tax 5 Name,Tax 5 Value,Phone,Receipt Number,Duties,Billing Province Name,Shipping Province Name,Payment ID,Payment Terms Name,Next Payment Due At,Payment References'.split(
    ',',
  );
const FIRST = [...TR_FIRST_NAMES, 'Zeynep', 'Emre'];
const LAST = [...TR_LAST_NAMES, 'Koç', 'Kılıç'];
const STREETS = [...TR_STREETS, 'Menekşe Sk.'];
const PLACES = [...TR_PLACES, ['Tepebaşı', 'Eskişehir', '26010', 'TR-26'] as const];
const GOODS: [name: string, sku: string, price: string][] = [
  ['Pamuklu tişört - Beyaz / M', 'TS-001-M', '149.90'],
  ['El yapımı seramik kupa', 'SK-02', '89.50'],
  ['Türk kahvesi, 250 g', 'TK-250', '120.00'],
  ['Deri cüzdan "Klasik"', 'DC-01', '349.00'],
  ['İpek eşarp', 'IE-LALE', '599.00'],
  ['Lokum kutusu 500 g', 'LK-500', '210.75'],
];

/** CSV records (line items) of shopifyCsv(_, n): order i has 1 + i % 3 of them. */
function shopifyRows(n: number): number {
  let rows = 0;
  for (let i = 0; i < n; i++) rows += 1 + (i % 3);
  return rows;
}

function shopifyCsv(prefix: string, n: number): string {
  const lines = [HEADER.join(',')];
  for (let i = 0; i < n; i++) {
    const name = `#${prefix}${1000 + i}`;
    const person = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
    const [district, city, zip, province] = PLACES[i % PLACES.length];
    const street1 = `${STREETS[i % STREETS.length]} No:${1 + (i % 120)}`;
    const street2 = i % 3 === 0 ? `D:${1 + (i % 9)}` : '';
    const phone = `+90 5${30 + (i % 20)} ${String(100 + (i % 900)).padStart(3, '0')} ${String(10 + (i % 90))} ${String(10 + ((i * 3) % 90))}`;
    const items = 1 + (i % 3);
    for (let k = 0; k < items; k++) {
      const [title, sku, price] = GOODS[(i + k) % GOODS.length];
      const row: Record<string, string> = {
        Name: name,
        'Lineitem quantity': String(1 + ((i + k) % 2)),
        'Lineitem name': title,
        'Lineitem price': price,
        'Lineitem sku': sku,
        'Lineitem requires shipping': 'true',
        'Lineitem taxable': 'true',
        'Lineitem fulfillment status': 'pending',
      };
      if (k === 0) {
        Object.assign(row, {
          Email: `musteri${i}@example.com`,
          'Financial Status': 'paid',
          Currency: 'TRY',
          'Created at': '2025-03-14 10:21:05 +0300',
          'Shipping Name': person,
          'Shipping Street': street2 ? `${street1}, ${street2}` : street1,
          'Shipping Address1': street1,
          'Shipping Address2': street2,
          'Shipping City': city,
          'Shipping Zip': `'${zip}`,
          'Shipping Province': province,
          'Shipping Country': 'TR',
          'Shipping Phone': phone,
          'Shipping Province Name': district,
          'Billing Name': person,
          'Billing City': city,
          'Billing Country': 'TR',
          Notes: i % 10 === 0 ? 'Kapıcıya bırakın.\nTeşekkürler, "acil" değil.' : '',
          Id: String(5_104_958_000 + i),
        });
      }
      lines.push(HEADER.map((column) => csvField(row[column] ?? '')).join(','));
    }
  }
  return lines.join('\n') + '\n';
}

const CONSIGNOR = {
  name: 'Anadolu Butik Ltd. Şti.',
  country: 'TR',
  city: 'İstanbul',
  address: 'Moda Cd. No:1 Kadıköy',
  postal_code: '34710',
  phone_number: '+902161234567',
};
const OPTIONS = { preset: 'shopify', consignor: CONSIGNOR, preference: 1 };

/** The draft bodies of a file's orders, as the import maps them: the same orders for the one-by-one loop. */
async function draftBodies(csv: string): Promise<string[]> {
  const options = parseImportOptions(OPTIONS);
  const source = () => readCsvRecords(bufferSource(csv), { offset: 0, row: 1, delimiter: ',' });
  const { layout } = resolveLayout('shopify', HEADER);
  const bodies: string[] = [];
  for await (const rows of orderGroups(source(), layout)) {
    const order = mapOrder(rows, layout, options);
    if (!order.draft) throw new Error(`order ${order.orderNo} is invalid: ${JSON.stringify(order.issues)}`);
    bodies.push(JSON.stringify(order.draft));
  }
  return bodies;
}

// ---------------------------------------------------------------------------------------------------------

interface Result {
  name: string;
  orders: number;
  seconds: number;
  rate: number;
  note?: string;
  /** CPU seconds used during the run: this process, the Temporal server, PostgreSQL backends */
  cpu?: Record<string, number>;
  /** (b) only: starts per second the server accepted, before the worker had run them */
  acceptedRate?: number;
}

let cpuSources: CpuSources = {};
async function measured<T extends Result>(run: () => Promise<T>): Promise<T> {
  const meter = await cpuMeter(cpuSources);
  const result = await run();
  const cpu = await meter.stop();
  return { ...result, cpu: result.cpu ?? cpu };
}

/** (b) empty workflows started against the same server, BARE_C at a time, by a client in this process; a worker completes them. */
async function benchBareStarts(address: string): Promise<Result> {
  const bare = await bareWorkflowRate(address, { n: N, concurrency: BARE_C, cpuSources, label: RUN_ID });
  return {
    name: '(b) bare workflow starts (empty workflow)',
    orders: N,
    seconds: bare.seconds,
    rate: bare.rate,
    acceptedRate: bare.acceptedRate,
    note: `${BARE_C} concurrent starts; accepted by the server at ${fmt(bare.acceptedRate, 0)}/s, run by the worker at ${fmt(bare.rate, 0)}/s`,
    cpu: bare.cpu,
  };
}

/** (a) the orders POSTed one by one to the draft endpoint by ONE_BY_ONE_C clients. */
async function benchOneByOne(origin: string, apiKey: string, bodies: string[]): Promise<Result> {
  const warm = await httpLoad({
    origin,
    path: '/api/v1/consignments/draft',
    n: 50,
    concurrency: ONE_BY_ONE_C,
    headers: { apikey: apiKey },
    body: (i) => JSON.stringify({ ...JSON.parse(bodies[i]), reference_no: `WARM-${RUN_ID}-${i}` }),
    expectStatus: 201,
  });
  if (warm.failures) console.warn(`warm-up: ${warm.failures} failures, first ${warm.firstError?.status} ${warm.firstError?.body}`);
  const load = await httpLoad({
    origin,
    path: '/api/v1/consignments/draft',
    n: bodies.length,
    concurrency: ONE_BY_ONE_C,
    headers: { apikey: apiKey },
    body: (i) => bodies[i],
    expectStatus: 201,
  });
  if (load.failures) console.warn(`one-by-one: ${load.failures} failures, first ${load.firstError?.status} ${load.firstError?.body}`);
  return {
    name: `(a) one by one: POST /consignments/draft, ${ONE_BY_ONE_C} clients`,
    orders: load.ok,
    seconds: load.durationMs / 1000,
    rate: load.ratePerSec,
    note: `p50 ${fmt(load.latency.p50, 0)} ms, p99 ${fmt(load.latency.p99, 0)} ms, ${load.client}`,
  };
}

/** An import through the API: multipart upload, then GET until it finished; the time runs from the upload to the end. */
async function benchImport(
  origin: string,
  apiKey: string,
  csv: string,
  orders: number,
  process: boolean,
  relayDrained?: () => Promise<void>,
): Promise<Result & { rssPeakMb: number; workflowsRunning?: Result }> {
  let rssPeak = 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, globalThis.process.memoryUsage().rss)), 200);
  try {
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'orders_export.csv');
    form.append('options', JSON.stringify({ ...OPTIONS, process, ...(process && { package: { weight: 1.5, length: 30, width: 20, height: 10 } }) }));
    const res = await fetch(`${origin}/api/v1/imports`, { method: 'POST', headers: { apikey: apiKey }, body: form });
    const accepted = (await res.json()) as { data: { id: string } };
    if (res.status !== 202) throw new Error(`POST /imports answered ${res.status}: ${JSON.stringify(accepted)}`);
    const acceptedMs = performance.now() - t0;
    let data: { state: string; counts: Record<string, number> };
    for (;;) {
      await sleep(250);
      data = ((await (await fetch(`${origin}/api/v1/imports/${accepted.data.id}`, { headers: { apikey: apiKey } })).json()) as { data: typeof data }).data;
      if (['completed', 'failed', 'cancelled'].includes(data.state)) break;
    }
    const seconds = (performance.now() - t0) / 1000;
    const done = process ? data.counts.processed : data.counts.created;
    if (data.state !== 'completed' || done !== orders) console.warn(`import ${accepted.data.id}: ${data.state}, counts ${JSON.stringify(data.counts)}`);
    // Drafts are in the database when the import completes; their workflows are started by the relay after.
    let workflowsRunning: Result | undefined;
    if (!process && relayDrained) {
      await relayDrained();
      const all = (performance.now() - t0) / 1000;
      workflowsRunning = {
        name: 'import, drafts only: every workflow running',
        orders: done,
        seconds: all,
        rate: done / all,
        note: `the outbox relay had started the last workflow ${fmt(all - seconds, 1)} s after the import completed`,
      };
    }
    return {
      ...(workflowsRunning && { workflowsRunning }),
      name: process ? 'import, drafts + processing (labels)' : 'import, drafts only',
      orders: done,
      seconds,
      rate: done / seconds,
      note: `202 after ${fmt(acceptedMs, 0)} ms; ${JSON.stringify(data.counts)}`,
      rssPeakMb: rssPeak / 1024 / 1024,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Bounded memory: the service as its own process (API + worker) imports a file of MEMORY_ROWS rows; its RSS is sampled. */
async function benchMemory(temporalAddress: string): Promise<Result & { rssPeakMb: number }> {
  const scratch = await openScratchDatabase(DB_KIND, DATABASE_URL);
  const apiKey = `cf_benchMemory${RUN_ID}000000000000000001`.slice(0, 35);
  if (!scratch.url) await scratch.db.close(); // PGlite: the service opens its own under DATA_DIR
  const service = await startServiceProcess({
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-memory-${RUN_ID}`,
    DATABASE_URL: scratch.url ?? '',
    BOOTSTRAP_API_KEYS: apiKey,
  }).catch(async (error: unknown) => {
    await scratch.drop().catch(() => undefined);
    throw error;
  });
  const { origin, child } = service;
  try {
    const orders = Math.round(MEMORY_ROWS / 2); // 1 to 3 line items: 2 rows per order on average
    const csv = shopifyCsv('M', orders);
    const rows = shopifyRows(orders);
    const idle = rssMb(child.pid!);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!) || 0)), 250);
    try {
      const result = await benchImport(origin, apiKey, csv, orders, false);
      return {
        ...result,
        name: `memory: ${rows} rows (${orders} orders), the service as its own process`,
        note: `service RSS idle ${fmt(idle, 0)} MB, peak during the import ${fmt(peak, 0)} MB; ${result.note}`,
        rssPeakMb: peak,
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await service.stop();
    await scratch.drop().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0];
  let devServer: DevServer | undefined;
  let runtime: Runtime | undefined;
  let scratch: ScratchDatabase | undefined;
  process.once('SIGINT', () => void devServer?.stop().finally(() => process.exit(130)));
  try {
    const bundling = bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
    devServer = await startFileEngine();
    scratch = await openScratchDatabase(DB_KIND, DATABASE_URL);
    const config = loadConfig({
      TEMPORAL_ADDRESS: devServer.address,
      TEMPORAL_TASK_QUEUE: `bench-import-${RUN_ID}`,
      PUBLIC_BASE_URL: 'http://consignflow.bench',
      LOG_LEVEL: 'silent',
      ADDRESS_COUNTRIES: 'none',
    });
    runtime = await startRuntime(config, { api: true, worker: true, db: scratch.db, workflowBundle: await bundling, logger: createLogger('silent') });
    await runtime.app!.listen({ host: '127.0.0.1', port: 0 });
    const origin = `http://127.0.0.1:${(runtime.app!.server.address() as { port: number }).port}`;
    const csv = shopifyCsv('B', N);
    const rows = shopifyRows(N);
    console.log(
      `Temporal dev server ${devServer.address} (SQLite file, as npm start runs it); ${scratch.label}; file: ${N} orders, ${rows} rows, ${fmt(Buffer.byteLength(csv) / 1024 / 1024, 1)} MB`,
    );

    const port = devServer.address.split(':').pop()!;
    const temporalPids = findProcesses('start-dev', `--port ${port} `);
    cpuSources = { temporal: () => temporalPids, ...(scratch.backendPids && { postgres: scratch.backendPids }) };
    const baseRss = process.memoryUsage().rss / 1024 / 1024;
    const results: (Result & { rssPeakMb?: number })[] = [];
    const customer = async (name: string) => (await createCustomer(scratch!.db, { name })).apiKey;
    if (PHASES.has('bare')) {
      results.push(await measured(() => benchBareStarts(devServer!.address)));
      console.log(`${results.at(-1)!.name}: ${fmt(results.at(-1)!.rate, 0)}/s`);
    }
    if (PHASES.has('one-by-one')) {
      const bodies = await draftBodies(csv);
      const apiKey = await customer('Tek Tek Lojistik');
      results.push(await measured(() => benchOneByOne(origin, apiKey, bodies)));
      console.log(`${results.at(-1)!.name}: ${fmt(results.at(-1)!.rate, 0)}/s`);
    }
    if (PHASES.has('import')) {
      const apiKey = await customer('Toplu Aktarım A.Ş.');
      const rt = runtime;
      const imported = await measured(() => benchImport(origin, apiKey, csv, N, false, () => rt.relay!.drained()));
      results.push(imported);
      console.log(`${results.at(-1)!.name}: ${fmt(results.at(-1)!.rate, 0)}/s`);
      if (imported.workflowsRunning) {
        results.push({ ...imported.workflowsRunning, cpu: imported.cpu });
        console.log(`${results.at(-1)!.name}: ${fmt(results.at(-1)!.rate, 0)}/s`);
      }
    }
    if (PHASES.has('import-process')) {
      const file = PROCESS_N === N ? csv : shopifyCsv('P', PROCESS_N);
      const apiKey = await customer('Etiketli Aktarım A.Ş.');
      results.push(await measured(() => benchImport(origin, apiKey, file, PROCESS_N, true)));
      console.log(`${results.at(-1)!.name}: ${fmt(results.at(-1)!.rate, 0)}/s`);
    }

    if (PHASES.has('memory')) {
      results.push(await benchMemory(devServer.address));
      console.log(`${results.at(-1)!.name}: ${fmt(results.at(-1)!.rate, 0)}/s, ${results.at(-1)!.note}`);
    }

    const oneByOne = results.find((r) => r.name.startsWith('(a)'));
    const bare = results.find((r) => r.name.startsWith('(b)'));
    console.log(
      `\nOrder import, ${N} Shopify orders (${rows} rows); Node ${process.version}; ${cpus().length} cores; load average ${fmt(loadAtStart, 2)} at start, ${fmt(loadavg()[0], 2)} at end; ${new Date().toISOString()}`,
    );
    printTable(
      ['run', 'orders', 'seconds', 'orders/s', '× (a) one by one', '× (b) bare starts', 'RSS peak MB', 'note'],
      results.map((r) => [
        r.name,
        String(r.orders),
        fmt(r.seconds, 1),
        fmt(r.rate, 0),
        oneByOne && r !== oneByOne && r !== bare ? `${fmt(r.rate / oneByOne.rate, 2)}×` : '-',
        bare && r !== bare ? `${fmt(r.rate / bare.rate, 2)}×` : '-',
        r.rssPeakMb === undefined ? '-' : fmt(r.rssPeakMb, 0),
        r.note ?? '',
      ]),
    );
    console.log(
      `\nCPU per order (ms of CPU time during each run; ${cpus().length} cores shared with whatever else runs; the bench client shares the node process):`,
    );
    printTable(
      ['run', 'node (API, worker, client)', 'Temporal server', 'PostgreSQL', 'total', 'CPU busy'],
      results
        .filter((r) => !r.name.startsWith('memory'))
        .map((r) => {
          const cpu = r.cpu ?? {};
          const per = (seconds: number | undefined) => (seconds === undefined ? undefined : (1000 * seconds) / Math.max(1, r.orders));
          const total = (cpu.node ?? 0) + (cpu.temporal ?? 0) + (cpu.postgres ?? 0);
          return [
            r.name,
            fmt(per(cpu.node), 2),
            fmt(per(cpu.temporal), 2),
            fmt(per(cpu.postgres), 2),
            fmt(per(total), 2),
            `${fmt((100 * total) / (r.seconds * cpus().length), 0)}%`,
          ];
        }),
    );
    console.log(`RSS of this process before the runs: ${fmt(baseRss, 0)} MB (workflow bundle, runtime, generated file)`);
    const drafts = results.find((r) => r.name === 'import, drafts only');
    if (drafts && oneByOne && bare) {
      const vsA = drafts.rate / oneByOne.rate;
      const vsB = drafts.rate / bare.rate;
      const vsAccepted = drafts.rate / (bare.acceptedRate ?? bare.rate);
      console.log(
        `\nTargets (drafts only): ≥ 3× one by one → ${fmt(vsA, 2)}× ${vsA >= 3 ? 'MET' : 'NOT MET'}; ≥ 0.5× bare starts run by the worker → ${fmt(vsB, 2)}× ${vsB >= 0.5 ? 'MET' : 'NOT MET'}` +
          ` (≥ 0.5× bare starts merely accepted → ${fmt(vsAccepted, 2)}× ${vsAccepted >= 0.5 ? 'MET' : 'NOT MET'})`,
      );
    }
    const running = results.find((r) => r.name === 'import, drafts only: every workflow running');
    if (running && bare) {
      const vs = running.rate / bare.rate;
      console.log(
        `Target (issue 13): every imported draft's workflow running at ≥ 0.8× bare starts run by the worker → ${fmt(vs, 2)}× ${vs >= 0.8 ? 'MET' : 'NOT MET'}`,
      );
    }
  } finally {
    await runtime?.stop().catch(() => undefined);
    await scratch?.drop().catch(() => undefined);
    await devServer?.stop();
  }
}

runBench(main);
