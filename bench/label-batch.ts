/**
 * Merged label batches (issue 15): BATCH_N labels (5000) as one file from POST /api/v1/labels/batch, served by
 * the service as its own process (exactly what `npm start` runs, on PostgreSQL), while its RSS is sampled;
 * target: the RSS grows by less than 100 MB. Baseline measured in the same run on the same service: the
 * same labels fetched one by one as a client would without batches (lookup, then the signed download).
 * Times and memory are printed, never asserted.
 *
 *   npx tsx bench/label-batch.ts
 *   BATCH_N=500 npx tsx bench/label-batch.ts
 *
 * The consignments and their labels are written straight into the scratch database (labels rendered here
 * by the service's own renderer, each with its own barcode), so the bench measures printing, not processing.
 * Env: BATCH_N, DATABASE_URL (postgresql://postgres@127.0.0.1:5432/test: a scratch database cf_bench_<random>
 * is created there and dropped afterwards), BASELINE_N (labels fetched one by one: 1000, scaled up).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDrafts } from '../src/db/consignments.repository';
import { findCaller } from '../src/db/customers.repository';
import { insertLabel } from '../src/db/labels.repository';
import { migrate } from '../src/db/migrate';
import { serviceBarcode } from '../src/carriers/barcode';
import { renderPdfLabel } from '../src/labels/pdf-label';
import { renderZplLabel } from '../src/labels/zpl-label';
import type { LabelData } from '../src/labels/label.types';
import { fmt, openScratchDatabase, printTable, rssMb, runBench, startFileEngine, startServiceProcess } from './support';

const N = Number(process.env.BATCH_N ?? 5000);
const BASELINE_N = Math.min(N, Number(process.env.BASELINE_N ?? 1000));
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

const party = (name: string, city: string) => ({
  name,
  address: 'Bağdat Caddesi No: 42/3',
  city,
  state: 'İstanbul',
  postalCode: '34730',
  countryIso2: 'TR',
  phone: '+90 216 555 00 11',
});

function labelData(i: number, barcode: string): LabelData {
  return {
    barcode,
    trackingCode: `SBX${String(i).padStart(9, '0')}`,
    trackingUrl: `https://track.example/t/SBX${i}`,
    referenceNo: `BENCH-${i}`,
    carrierName: 'Sandbox Express',
    consignor: party('Işıklar Çiçekçilik Ltd. Şti.', 'Kadıköy'),
    consignee: party(`Müşteri ${i} Öztürk`, 'Çankaya'),
    weightKg: 1 + (i % 7),
    desi: 2,
    packageCount: 1,
    createdAt: new Date(),
  };
}

runBench(async () => {
  const scratch = await openScratchDatabase('postgres', DATABASE_URL, 4);
  const engine = await startFileEngine();
  const apiKey = `cf_benchBatch${randomBytes(8).toString('hex')}000000000000`.slice(0, 35);
  const serviceLog = join(tmpdir(), `consignflow-bench-batch-${randomBytes(3).toString('hex')}.log`);
  console.log(`service log: ${serviceLog}`);
  const service = await startServiceProcess(
    {
      TEMPORAL_ADDRESS: engine.address,
      TEMPORAL_TASK_QUEUE: `bench-batch-${randomBytes(3).toString('hex')}`,
      DATABASE_URL: scratch.url!,
      BOOTSTRAP_API_KEYS: apiKey,
      // The baseline looks labels up one by one: the lookup limit (300/min) would measure the limit, not the service.
      LOOKUP_RATE_LIMIT_PER_MIN: '1000000',
    },
    openSync(serviceLog, 'w'),
  );
  const { origin, child } = service;
  child.on('exit', (code, signal) => console.error(`the service exited: code ${code}, signal ${signal}`));
  try {
    await migrate(scratch.db);
    const caller = (await findCaller(scratch.db, apiKey))!;

    // N processed consignments with their labels, straight into the database.
    const t0 = performance.now();
    const ids: number[] = [];
    for (let i = 0; i < N; i++) {
      await scratch.db.transaction(async (tx) => {
        const draft = {
          uuid: randomUUID(),
          customerId: caller.customerId,
          userId: null,
          draft: { reference_no: `BENCH-${i}` },
          status: 400,
          statusMessage: 'bench',
        };
        const [{ record }] = await createDrafts(tx, [draft], { workflowStart: 'none' });
        const id = record.id;
        const barcode = serviceBarcode(id);
        await tx.query('UPDATE consignments SET barcode = $2, processed_at = now() WHERE id = $1', [id, barcode]);
        const data = labelData(i, barcode);
        await insertLabel(tx, {
          consignmentId: id,
          providerId: 1,
          fileName: `${barcode}.pdf`,
          trackingCode: data.trackingCode,
          pdf: await renderPdfLabel(data),
          zpl: renderZplLabel(data),
        });
        ids.push(id);
      });
    }
    console.log(`${N} consignments with labels written in ${fmt((performance.now() - t0) / 1000)} s`);

    const headers = { 'content-type': 'application/json', apikey: apiKey };
    const rows: (string | number)[][] = [];
    const measure = async (name: string, count: number, run: () => Promise<number>) => {
      if (globalThis.gc) globalThis.gc();
      await sleep(1000);
      const idle = rssMb(child.pid!);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 100);
      const started = performance.now();
      console.log(`${name}…`);
      const bytes = await run();
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      rows.push([name, count, fmt(seconds, 2), fmt(count / seconds, 0), fmt(bytes / 1024 / 1024, 1), fmt(idle, 0), fmt(peak, 0), fmt(peak - idle, 0)]);
      return count / seconds;
    };
    /** Reads a streamed answer to the end, counting bytes (nothing kept). */
    const drain = async (res: Response) => {
      if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      return bytes;
    };

    // Baseline: one by one, 8 clients (lookup for the signed link, then the file).
    const baselineRate = await measure('baseline: one by one (lookup + download)', BASELINE_N, async () => {
      let bytes = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < BASELINE_N) {
            const id = ids[next++];
            const detail = (await (await fetch(`${origin}/api/v1/consignments/${id}/details`, { headers })).json()) as {
              data: { labels: { file_url: string }[] };
            };
            bytes += await drain(await fetch(detail.data.labels[0].file_url));
          }
        }),
      );
      return bytes;
    });
    const batch = (body: object) => fetch(`${origin}/api/v1/labels/batch`, { method: 'POST', headers, body: JSON.stringify(body) });
    const rates: Record<string, number> = {};
    rates.pdf = await measure(`batch: PDF, label pages`, N, async () => drain(await batch({ consignments: ids })));
    rates.a4 = await measure(`batch: PDF, A4 sheets of 4`, N, async () => drain(await batch({ consignments: ids, layout: 'a4' })));
    rates.zpl = await measure(`batch: ZPL`, N, async () => drain(await batch({ consignments: ids, format: 'zpl' })));

    printTable(['run', 'labels', 's', 'labels/s', 'MB out', 'RSS before MB', 'RSS peak MB', 'growth MB'], rows);
    for (const [name, rate] of Object.entries(rates)) console.log(`${name}: ${fmt(rate / baselineRate, 2)}× the one-by-one rate`);
    const worst = Math.max(...rows.slice(1).map((r) => Number(r[7])));
    console.log(`largest RSS growth during a batch of ${N}: ${fmt(worst, 0)} MB (target < 100 MB): ${worst < 100 ? 'met' : 'NOT met'}`);
  } finally {
    await service.stop();
    await scratch.drop().catch(() => undefined);
    await engine.stop();
  }
});
