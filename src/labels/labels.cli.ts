import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { ApiError, apiTarget, describeFailure, reach, withApiOptions, type ApiOptions, type Envelope } from '../cli-api';
import { LABEL_FORMATS, type LabelFormat } from '../domain/label';

/**
 * `npx consignflow labels --import ID -o labels.pdf` (or `--consignments 12,CF00000000127` or
 * `--from FILE`, one id or barcode per line): one merged label file from a running service, streamed to
 * disk. It says how many labels the file holds and which consignments have none.
 * Exit codes: 0 every label is in the file, 1 some (or all) consignments have no label, 2 the request failed.
 */

interface LabelsCliOptions extends ApiOptions {
  import?: string;
  consignments?: string;
  from?: string;
  format: LabelFormat;
  layout: 'label' | 'a4';
  output?: string;
}

export function labelsCommand(): Command {
  return withApiOptions(new Command('labels'))
    .description('download the labels of an import, or of a list of consignments, as one PDF or ZPL file from a running consignflow service')
    .option('--import <id>', "the import whose consignments' labels to merge, in the order of its file")
    .option('--consignments <list>', 'consignment ids or barcodes, comma-separated, in the order to print')
    .option('--from <file>', 'a file of consignment ids or barcodes, one per line')
    .addOption(new Option('--format <format>', 'file format').choices(LABEL_FORMATS).default('pdf'))
    .addOption(new Option('--layout <layout>', 'PDF pages: label (100 × 150 mm) or a4 (four labels a sheet)').choices(['label', 'a4']).default('label'))
    .option('-o, --output <file>', 'where to write the file (default labels[-IMPORT].pdf or .zpl)')
    .action(async (options: LabelsCliOptions) => {
      try {
        process.exitCode = await downloadLabels(options);
      } catch (error) {
        console.error(`consignflow labels: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 2;
      }
    });
}

async function entriesOf(options: LabelsCliOptions): Promise<string[]> {
  const text = options.from
    ? await readFile(options.from, 'utf8').catch((error: Error) => Promise.reject(new ApiError(`cannot read ${options.from}: ${error.message}`)))
    : (options.consignments ?? '');
  return text
    .split(options.from ? /\r?\n/ : ',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

async function downloadLabels(options: LabelsCliOptions): Promise<number> {
  const sources = [options.import, options.consignments, options.from].filter((s) => s !== undefined).length;
  if (sources !== 1) throw new ApiError('name the labels with exactly one of --import, --consignments or --from');
  const { base, headers } = apiTarget(options);
  const output = resolve(options.output ?? `labels${options.import ? `-${options.import}` : ''}.${options.format}`);

  let response: Response;
  if (options.import) {
    const query = new URLSearchParams({ format: options.format, layout: options.layout });
    response = await reach(base, `/api/v1/imports/${encodeURIComponent(options.import)}/labels?${query}`, { headers });
  } else {
    const consignments = await entriesOf(options);
    if (consignments.length === 0) throw new ApiError('no consignment ids or barcodes given');
    const body = JSON.stringify({ consignments: consignments.map((e) => (/^\d+$/.test(e) ? Number(e) : e)), format: options.format, layout: options.layout });
    response = await reach(base, '/api/v1/labels/batch', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  }

  if (response.status !== 200 || !response.body) {
    const text = await response.text();
    let envelope: Envelope<unknown> | undefined;
    try {
      envelope = JSON.parse(text) as Envelope<unknown>;
    } catch {
      envelope = undefined;
    }
    // 409: none of them has a label — an answer about the consignments, not a failed request.
    console.error(`consignflow labels: ${describeFailure(response.status, envelope)}`);
    return response.status === 409 ? 1 : 2;
  }

  // Written beside the target and renamed at the end: an interrupted download leaves no half file behind.
  const partial = `${output}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(partial));
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw new ApiError(`the download was interrupted: ${(error as Error).message}`);
  }

  const labels = Number(response.headers.get('x-labels-count') ?? 0);
  const missing = Number(response.headers.get('x-labels-missing') ?? 0);
  const entries = response.headers.get('x-labels-missing-entries');
  console.log(`${labels} label${labels === 1 ? '' : 's'} written to ${output}`);
  if (missing > 0) {
    const where = options.format === 'pdf' ? 'the last page of the file lists them' : 'the last labels of the file list them';
    console.log(`${missing} consignment${missing === 1 ? '' : 's'} without a label${entries ? `: ${entries}` : ''} (${where}, with the reasons)`);
  }
  return missing > 0 ? 1 : 0;
}
