/**
 * Tracking on the configuration users run (`npm start` as its own process: the Temporal dev server on its SQLite
 * file, PGlite on a file), against the MyDHL test double in this process: TRACK_N consignments of one DHL account
 * in flight, asked by the account's tracking poller every TRACK_INTERVAL_MS. It prints:
 * - processing (draft + start-process, TRACK_C clients) with none in flight and then with TRACK_N in flight: rate,
 *   p50, p99, max, and their ratio;
 * - per round, once every consignment was asked once and its first answers applied (the double's journey begins
 *   in transit, so the first answers are news): the CPU per in-flight consignment per round of the service's node
 *   process and of its Temporal server (idle CPU measured first and subtracted), DHL requests per round and
 *   waybills per request; processing with TRACK_N in flight is measured then, while the rounds go on;
 * - the time from a delivery at DHL to `GET …/details` showing it, for TRACK_CHANGES consignments: p50, p99, max.
 * Times are printed, never asserted.
 *
 *   npx tsx bench/tracking.ts
 *   TRACK_N=10000 TRACK_INTERVAL_MS=20000 npx tsx bench/tracking.ts
 *
 * Env: TRACK_N (1000), TRACK_INTERVAL_MS (20000), TRACK_C (10), TRACK_SAMPLE (100: processings per rate measure),
 * TRACK_ROUNDS (3: rounds measured), TRACK_CHANGES (20).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { startMyDhlDouble } from '../test/support/carriers/mydhl-double';
import { findProcesses, fmt, parentPid, positiveInt, printTable, processCpuSeconds, runBench, runConcurrent, startServiceProcess, summarize } from './support';

const N = positiveInt('TRACK_N', 1000);
const INTERVAL_MS = positiveInt('TRACK_INTERVAL_MS', 20_000);
const C = positiveInt('TRACK_C', 10);
const SAMPLE = positiveInt('TRACK_SAMPLE', 100);
const ROUNDS = positiveInt('TRACK_ROUNDS', 3);
const CHANGES = positiveInt('TRACK_CHANGES', 20);
const API_KEY = 'cf_trackingBench000000000000000001';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

runBench(async () => {
  const dhl = await startMyDhlDouble();
  // The lookups' rate limit is not what is measured: the bench watches many consignments at once.
  const service = await startServiceProcess({
    BOOTSTRAP_API_KEYS: API_KEY,
    WEBHOOK_ALLOW_PRIVATE: '1',
    CARRIER_POLL_INTERVAL_MS: String(INTERVAL_MS),
    LOOKUP_RATE_LIMIT_PER_MIN: '1000000',
  });
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> => {
    const res = await fetch(`${service.origin}${path}`, {
      method,
      headers: { apikey: API_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Json };
  };
  // The service's processes: node (npm start's own) and its Temporal dev server.
  const nodePid = service.child.pid!;
  const enginePids = () => findProcesses('temporal', 'server', 'start-dev').filter((pid) => parentPid(pid) === nodePid);
  const cpu = () => ({ node: processCpuSeconds(nodePid) ?? 0, engine: enginePids().reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0) });
  try {
    const account = await call('POST', '/api/v1/carrier-accounts', {
      carrier: 'dhl_express',
      description: 'DHL bench',
      credentials: { username: dhl.username, password: dhl.password, account_number: '123456789' },
      settings: { base_url: dhl.baseUrl },
    });
    if (account.status !== 201) throw new Error(`carrier account: ${account.status} ${JSON.stringify(account.json)}`);
    const providerId = account.json.data.provider_id as number;
    let seq = 0;
    const ship = async (): Promise<{ ms: number; id: number; waybill: string }> => {
      const i = seq++;
      const started = performance.now();
      const draft = await call('POST', '/api/v1/consignments/draft', {
        preference: 0,
        provider_id: providerId,
        reference_no: `TRACK-${i}`,
        consignor: { name: 'Gülşen Çelik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+905321112233' },
        consignee: { name: 'Hans Müller', country: 'DE', city: 'Berlin', address: 'Unter den Linden 1', postal_code: '10117', phone_number: '+4930123456' },
        packages: [
          {
            weight: 1,
            length: 20,
            width: 15,
            height: 10,
            items: [{ description: 'Kilim', quantity: 1, unit_price: 20, currency_code: 'EUR', origin: 'TR', gtip: '570110' }],
          },
        ],
      });
      const processed = await call('POST', `/api/v1/consignments/draft/${draft.json.data.id}/start-process`);
      if (processed.status !== 200) throw new Error(`processing: ${processed.status} ${JSON.stringify(processed.json)}`);
      return { ms: performance.now() - started, id: draft.json.data.id, waybill: processed.json.data.providerTrackingCode };
    };
    const measure = async (label: string) => {
      const times: number[] = [];
      const started = performance.now();
      await runConcurrent(SAMPLE, C, async () => void times.push((await ship()).ms));
      const seconds = (performance.now() - started) / 1000;
      return { label, rate: SAMPLE / seconds, ...summarize(times) };
    };

    // Idle CPU, to subtract from the rounds' (timers, the dev server's own housekeeping), once start-up work is over.
    await sleep(15_000);
    const idleFrom = cpu();
    await sleep(10_000);
    const idleTo = cpu();
    const idlePerSec = { node: (idleTo.node - idleFrom.node) / 10, engine: (idleTo.engine - idleFrom.engine) / 10 };

    for (let i = 0; i < 20; i++) await ship(); // warm-up
    const none = await measure('processing, none in flight');

    console.log(`processing ${N} consignments to put them in flight…`);
    const inFlight: { id: number; waybill: string }[] = [];
    const fillStarted = performance.now();
    await runConcurrent(N, C, async () => void inFlight.push(await ship()));
    console.log(`…in ${fmt((performance.now() - fillStarted) / 1000, 0)} s`);

    // Steady state: every consignment asked once and its first answers (the double's journey begins in transit:
    // news) applied: no shipment re-read for its times in a whole interval, the last ones processed in transit.
    const roundRequests = () => dhl.requests.filter((r) => r.operation === 'tracking.multi' && r.query.shipmentTrackingNumber !== undefined);
    const singles = () => dhl.requests.filter((r) => r.operation === 'tracking.single').length;
    const waybillsAsked = () => new Set(roundRequests().flatMap((r) => [r.query.shipmentTrackingNumber].flat())).size;
    const tracked = inFlight.length + SAMPLE + 20;
    const settleStarted = performance.now();
    const deadline = Date.now() + 60 * INTERVAL_MS;
    while (waybillsAsked() < tracked && Date.now() < deadline) await sleep(1_000);
    for (let before = singles(); Date.now() < deadline;) {
      await sleep(INTERVAL_MS);
      if (singles() === before) break;
      before = singles();
    }
    const inTransit = async (id: number) => (await call('GET', `/api/v1/consignments/${id}/details`)).json.data?.status === 5;
    while (Date.now() < deadline && !(await Promise.all(inFlight.slice(-20).map((c) => inTransit(c.id)))).every(Boolean)) await sleep(1_000);
    console.log(`first answers applied ${fmt((performance.now() - settleStarted) / 1000, 0)} s after the last processing`);
    await sleep(INTERVAL_MS);
    const before = { requests: roundRequests().length, singles: singles(), cpu: cpu() };
    const t0 = performance.now();
    await sleep(ROUNDS * INTERVAL_MS);
    const seconds = (performance.now() - t0) / 1000;
    const after = { requests: roundRequests().length, singles: singles(), cpu: cpu() };
    const rounds = seconds / (INTERVAL_MS / 1000);
    const perRoundMs = (used: number, idle: number) => ((used - idle * seconds) * 1000) / rounds / tracked;
    const measured = roundRequests().slice(before.requests, after.requests);
    const numbers = measured.map((r) => [r.query.shipmentTrackingNumber].flat().length);

    // Processing while the rounds go on (the sample's own consignments join them).
    const loaded = await measure(`processing, ${N} in flight`);

    // A delivery at DHL to our API.
    const changed = inFlight.slice(0, CHANGES);
    const latencies: number[] = [];
    const setAt = performance.now();
    for (const c of changed) dhl.setTracking(c.waybill, 'delivered');
    await Promise.all(
      changed.map(async (c) => {
        for (;;) {
          const { json } = await call('GET', `/api/v1/consignments/${c.id}/details`);
          if (json.data?.status === 7) return void latencies.push(performance.now() - setAt);
          if (performance.now() - setAt > 5 * INTERVAL_MS) return;
          await sleep(250);
        }
      }),
    );

    console.log(`\ntracking: ${tracked} consignments in flight of one DHL account, interval ${INTERVAL_MS} ms, ${fmt(rounds, 1)} rounds measured`);
    printTable(
      ['measure', 'value'],
      [
        ['CPU per consignment per round, node, idle subtracted (ms)', fmt(perRoundMs(after.cpu.node - before.cpu.node, idlePerSec.node), 3)],
        ['CPU per consignment per round, engine, idle subtracted (ms)', fmt(perRoundMs(after.cpu.engine - before.cpu.engine, idlePerSec.engine), 3)],
        [
          'CPU per consignment per round, node / engine, as used (ms)',
          `${fmt(perRoundMs(after.cpu.node - before.cpu.node, 0), 3)} / ${fmt(perRoundMs(after.cpu.engine - before.cpu.engine, 0), 3)}`,
        ],
        ['idle CPU, node / engine (ms per s)', `${fmt(idlePerSec.node * 1000, 1)} / ${fmt(idlePerSec.engine * 1000, 1)}`],
        [`DHL requests per round (GET /tracking), target ≤ ${Math.ceil(tracked / 200) + 1}`, fmt(measured.length / rounds, 1)],
        ['waybills per request, mean', fmt(numbers.reduce((a, b) => a + b, 0) / Math.max(1, numbers.length), 1)],
        ['single-shipment requests in those rounds', String(after.singles - before.singles)],
        [`delivery at DHL → details, p50 / p99 / max (s), ${latencies.length} of ${CHANGES} seen`, latencyText(latencies)],
      ],
    );
    console.log('');
    printTable(
      ['processing', 'rate /s', 'p50 ms', 'p99 ms', 'max ms'],
      [none, loaded].map((m) => [m.label, fmt(m.rate, 1), fmt(m.p50, 0), fmt(m.p99, 0), fmt(m.max, 0)]),
    );
    console.log(`ratio, ${N} in flight / none: ${fmt(loaded.rate / none.rate, 2)}×`);
  } finally {
    await service.stop();
    await dhl.close();
  }
});

function latencyText(ms: number[]): string {
  if (ms.length === 0) return '-';
  const s = summarize(ms);
  return `${fmt(s.p50 / 1000, 1)} / ${fmt(s.p99 / 1000, 1)} / ${fmt(s.max / 1000, 1)}`;
}
