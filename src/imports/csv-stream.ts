import { parse, type Options } from 'csv-parse';

/** One CSV record with where it sits in the file: its spreadsheet row (the header is row 1) and its bytes. */
export interface CsvRecord {
  fields: string[];
  row: number;
  /** byte offset of the record's first byte */
  start: number;
  /** byte offset just past the record (and its line break): where the next record starts */
  end: number;
}

export interface ReadOptions {
  /** byte offset the source starts at (0 = the beginning of the file, BOM and header included) */
  offset: number;
  /** spreadsheet row of the first record read (1 when reading from the beginning: the header) */
  row: number;
  delimiter: string;
}

/** A record longer than this is refused (csv-parse counts characters): no legitimate order row comes close. */
export const MAX_RECORD_CHARS = 1_000_000;

export const DELIMITERS = [',', ';', '\t'] as const;

/**
 * The delimiter of a file, judged on its header line: the candidate that occurs most often outside quotes.
 * Shops export with commas; spreadsheets in Turkish or European locales often save with semicolons.
 */
export function detectDelimiter(head: string): string {
  let line = '';
  let quoted = false;
  for (const ch of head.replace(/^\uFEFF/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    if (!quoted) line += ch;
  }
  let best: string = ',';
  let count = 0;
  for (const candidate of DELIMITERS) {
    const n = line.split(candidate).length - 1;
    if (n > count) [best, count] = [candidate, n];
  }
  return best;
}

function parserOptions(options: ReadOptions): Options {
  return {
    delimiter: options.delimiter,
    // A BOM can only stand at the very beginning of the file.
    bom: options.offset === 0,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  };
}

/**
 * Streams the records of a CSV source with their row numbers and byte offsets. Started at a record
 * boundary (`offset`, as `end` of an earlier record gave it) it continues exactly where that read stopped,
 * which is how a retried import activity resumes. Malformed CSV throws csv-parse's error (with its line).
 */
export async function* readCsvRecords(source: AsyncIterable<Buffer>, options: ReadOptions): AsyncGenerator<CsvRecord> {
  const parser = parse(parserOptions(options));
  const feeding = (async () => {
    try {
      for await (const chunk of source) {
        // The reader may stop early (a page is full): then the parser is destroyed and feeding ends too.
        if (parser.destroyed) return;
        if (!parser.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              parser.off('drain', done);
              parser.off('close', done);
              resolve();
            };
            parser.on('drain', done);
            parser.on('close', done);
          });
        }
      }
      if (!parser.destroyed) parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let start = options.offset;
  let row = options.row;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      const end = options.offset + info.bytes;
      yield { fields: record, row, start, end };
      start = end;
      row++;
    }
  } finally {
    parser.destroy();
    await feeding;
  }
}

/** A Buffer (or string) as a source of `chunkSize` pieces. */
export async function* bufferSource(data: Buffer | string, chunkSize = 64 * 1024): AsyncGenerator<Buffer> {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let i = 0; i < buffer.length; i += chunkSize) yield buffer.subarray(i, i + chunkSize);
}

/** A CSV syntax error, where csv-parse found it. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`invalid CSV at line ${line}: ${reason}`);
  }
}

/**
 * Checks a file as it streams in, without keeping it: UTF-8, CSV syntax, the header and the number of data
 * records. Feed it every chunk with `write`, then `end()`. The delimiter is judged on the first chunk.
 */
export class CsvScanner {
  private parser: ReturnType<typeof parse> | undefined;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private failure: Error | undefined;
  header: string[] | undefined;
  records = 0;
  delimiter = ',';
  utf8 = true;

  write(chunk: Buffer): void {
    if (this.failure || !this.utf8) return;
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.utf8 = false;
      return;
    }
    if (!this.parser) {
      this.delimiter = detectDelimiter(chunk.subarray(0, 64 * 1024).toString('utf8'));
      this.parser = parse({ delimiter: this.delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_CHARS });
      this.parser.on('data', (record: string[]) => {
        if (this.header) this.records++;
        else this.header = record;
      });
      this.parser.on('error', (error: Error) => (this.failure ??= error));
    }
    this.parser.write(chunk);
  }

  /** Throws CsvSyntaxError for malformed CSV; `utf8` is false for text in another encoding. */
  async end(): Promise<void> {
    if (this.utf8) {
      try {
        this.decoder.decode();
      } catch {
        this.utf8 = false;
      }
    }
    const parser = this.parser;
    if (parser && !this.failure && this.utf8) {
      await new Promise<void>((resolve) => {
        parser.once('end', resolve);
        parser.once('error', () => resolve());
        parser.end();
        parser.resume();
      });
    }
    if (this.failure) {
      const e = this.failure as Error & { code?: string; lines?: number };
      throw new CsvSyntaxError(e.lines ?? 0, e.code ?? e.message);
    }
  }
}
