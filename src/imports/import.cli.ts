import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { ApiError, apiTarget, describeFailure, reach, withApiOptions, type ApiOptions, type Envelope } from '../cli-api';
import { PRESET_NAMES } from './presets';

/**
 * `npx consignflow import FILE --preset shopify [--process] [--consignor FILE.json] [--wait]`: uploads an order
 * export to a running service (POST /api/v1/imports) and, with --wait, follows it with a progress bar, prints
 * a summary, writes the rows to fix to FILE.errors.csv and exits 0 only when every order succeeded.
 * Exit codes: 0 success, 1 some orders failed (or the import failed or was cancelled), 2 the request failed.
 */

interface ImportCliOptions extends ApiOptions {
  preset: string;
  process?: boolean;
  consignor?: string;
  options?: string;
  preference?: number;
  providerId?: number;
  packageWeight?: number;
  wait?: boolean;
  progress: boolean;
  pollMs: number;
}

interface ImportData {
  id: string;
  state: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  counts: { rows: number; orders: number; created: number; processed: number; failed: number; duplicates: number; cancelled: number };
  progress: { rows_total: number; rows_done: number; orders_done: number; orders_known: boolean; percent: number };
  process: boolean;
  error: { message: string } | null;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

function number(name: string, integer: boolean) {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)))
      throw new InvalidArgumentError(`${name} must be a${integer ? 'n integer' : ' number'}`);
    return n;
  };
}

async function readJson(path: string, what: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ApiError(`cannot read the ${what} file ${path}: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new ApiError(`the ${what} file ${path} is not a JSON object: ${(error as Error).message}`);
  }
}

export function importCommand(): Command {
  return withApiOptions(new Command('import'))
    .description('import a CSV order export (Shopify, WooCommerce or the generic template) into a running consignflow service')
    .argument('<file>', 'the CSV file')
    .requiredOption('--preset <preset>', `the file's format: ${PRESET_NAMES.join(', ')}`)
    .option('--consignor <file.json>', 'the sender of every order: a JSON object of draft party fields (name, address, city, country, phone_number, …)')
    .option('--options <file.json>', 'further import options as a JSON object (mapping, package, preference, provider_id, …)')
    .option('--process', 'also process every created draft: carrier booking and label')
    .option('--preference <n>', 'carrier preference for orders without one: 0 specific, 1 cheapest, 2 fastest', number('--preference', true))
    .option('--provider-id <id>', 'carrier for orders without one', number('--provider-id', true))
    .option('--package-weight <kg>', 'weight of each order’s package when the file has none (needed to process)', number('--package-weight', false))
    .option('--wait', 'follow the import to its end: progress bar, summary, error CSV and exit status')
    .option('--no-progress', 'no progress bar, only the summary')
    .option('--poll-ms <ms>', 'how often --wait asks for progress', number('--poll-ms', true), 500)
    .action(async (file: string, options: ImportCliOptions) => {
      try {
        process.exitCode = await runImport(file, options);
      } catch (error) {
        console.error(`consignflow import: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 2;
      }
    });
}

async function runImport(file: string, options: ImportCliOptions): Promise<number> {
  const { base, headers } = apiTarget(options);
  const path = resolve(file);

  const importOptions: Record<string, unknown> = {
    ...(options.options ? await readJson(options.options, 'options') : {}),
    preset: options.preset,
    ...(options.consignor && { consignor: await readJson(options.consignor, 'consignor') }),
    ...(options.process && { process: true }),
    ...(options.preference !== undefined && { preference: options.preference }),
    ...(options.providerId !== undefined && { provider_id: options.providerId }),
  };
  if (options.packageWeight !== undefined) importOptions.package = { ...((importOptions.package as object) ?? {}), weight: options.packageWeight };

  const call = async <T>(
    method: string,
    url: string,
    init: { body?: FormData; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: Envelope<T> }> => {
    const response = await reach(base, url, { method, headers: { ...headers, ...init.headers }, body: init.body });
    const text = await response.text();
    let body: Envelope<T>;
    try {
      body = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new ApiError(`${method} ${url}: HTTP ${response.status}, not a consignflow answer: ${text.slice(0, 200)}`);
    }
    return { status: response.status, body };
  };

  // The file streams from disk. One Idempotency-Key per run: a retried upload cannot start a second import.
  const idempotencyKey = `cli-${randomUUID()}`;
  let accepted: { status: number; body: Envelope<ImportData> } | undefined;
  for (let attempt = 1; !accepted; attempt++) {
    const form = new FormData();
    form.append('options', JSON.stringify(importOptions));
    form.append('file', await openAsBlob(path, { type: 'text/csv' }), basename(path));
    try {
      accepted = await call<ImportData>('POST', '/api/v1/imports', { body: form, headers: { 'idempotency-key': idempotencyKey } });
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(1000 * attempt);
    }
  }
  if (accepted.status !== 202 || !accepted.body.data) throw new ApiError(`the import was refused: ${describeFailure(accepted.status, accepted.body)}`);
  const id = accepted.body.data.id;
  const started = Date.now();
  if (!options.wait) {
    console.log(`Import ${id} accepted (${accepted.body.data.state}). Follow it with GET ${base}/api/v1/imports/${id}, or run again with --wait.`);
    return 0;
  }

  const tty = process.stderr.isTTY === true;
  const bar = options.progress
    ? new SingleBar({
        format: `${basename(path)} |{bar}| {percentage}% | {orders} orders | {rate} orders/s | ETA {eta_formatted}`,
        barCompleteChar: '█',
        barIncompleteChar: '░',
        hideCursor: tty,
        etaBuffer: 30,
        noTTYOutput: true,
        notTTYSchedule: 2000,
        stream: process.stderr,
      })
    : undefined;
  let data = accepted.body.data;
  bar?.start(Math.max(1, data.progress.rows_total), 0, { orders: 0, rate: '0.0' });
  let interrupted = false;
  const onInterrupt = () => (interrupted = true);
  process.once('SIGINT', onInterrupt);
  try {
    while (!FINISHED.has(data.state) && !interrupted) {
      await sleep(options.pollMs);
      const res = await call<ImportData>('GET', `/api/v1/imports/${id}`);
      if (res.status !== 200 || !res.body.data) throw new ApiError(`GET /api/v1/imports/${id}: ${describeFailure(res.status, res.body)}`);
      data = res.body.data;
      const seconds = (Date.now() - started) / 1000;
      bar?.update(data.progress.rows_done, { orders: data.progress.orders_done, rate: (data.progress.orders_done / Math.max(seconds, 0.001)).toFixed(1) });
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    bar?.stop();
  }
  if (interrupted) {
    console.log(`Stopped following import ${id}; it goes on in the service (cancel it with POST ${base}/api/v1/imports/${id}/cancel).`);
    return 130;
  }

  const seconds = (Date.now() - started) / 1000;
  const c = data.counts;
  const successful = data.process ? c.processed : c.created;
  console.log(`Import ${id} ${data.state} in ${seconds.toFixed(1)} s (${(c.orders / Math.max(seconds, 0.001)).toFixed(1)} orders/s)`);
  console.log(
    `  ${c.orders} orders in ${c.rows} rows: ${c.created} drafts created${data.process ? `, ${c.processed} processed` : ''}, ${c.duplicates} already imported (duplicates), ${c.failed} failed` +
      (c.cancelled ? `, ${c.cancelled} cancelled` : ''),
  );
  if (data.error) console.log(`  the import failed: ${data.error.message}`);

  const errorsFile = `${path}.errors.csv`;
  if (c.failed > 0) {
    const response = await reach(base, `/api/v1/imports/${id}/errors?format=csv`, { headers });
    if (!response.ok) throw new ApiError(`GET /api/v1/imports/${id}/errors: HTTP ${response.status}`);
    await writeFile(errorsFile, Buffer.from(await response.arrayBuffer()));
    console.log(`  rows to fix: ${errorsFile}`);
  }
  console.log(`  Temporal UI: workflow import:${id}; its consignments: ImportId = "${id}"`);
  const allGood = data.state === 'completed' && c.failed === 0 && successful + c.duplicates === c.orders;
  return allGood ? 0 : 1;
}
