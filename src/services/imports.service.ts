import { createHash, randomUUID } from 'node:crypto';
import type { Caller } from '../db/customers.repository';
import type { Database } from '../db/database';
import type { ProviderService } from './providers.service';
import { deleteImport, FINISHED_STATES, findImport, insertImport, listImports, type ImportRecord } from '../db/imports.repository';
import { createFileWriter, deleteFile } from '../db/import-files.repository';
import { countOrderErrors, listCorrections, listErrorEntries, listOrderErrors } from '../db/import-orders.repository';
import { DomainError, type Issue } from '../domain/errors';
import { pageOffset, type PageRequest } from '../domain/pagination';
import { processingIssues } from '../domain/processing';
import { bufferSource, CsvScanner, CsvSyntaxError } from '../imports/csv-stream';
import { findDirtyText } from '../domain/text';
import { parseImportOptions, type ImportOptions } from '../imports/import-options';
import { needsConsignorOption, type OrderIssue } from '../imports/order-mapper';
import { hasColumn, resolveLayout } from '../imports/presets';
import { ERROR_MESSAGES, translate, type Locale } from '../i18n/messages';
import type { ImportStarter } from '../temporal/import.starter';

/** Largest accepted file (multipart); JSON bodies have their own, smaller limit (imports.routes.ts). */
export const MAX_IMPORT_FILE_BYTES = 50 * 1024 * 1024;

export interface ImportServiceDeps {
  db: Database;
  imports: ImportStarter;
  providers: Pick<ProviderService, 'issue'>;
  maxFileBytes?: number;
}

/** A file stored as it was received, checked to be UTF-8 CSV with a header and at least one data row. */
export interface StoredUpload {
  fileId: string;
  fileName: string | null;
  bytes: number;
  sha256: string;
  delimiter: string;
  header: string[];
  rows: number;
}

/** One part of a multipart upload, as the HTTP layer's parser streams it (@fastify/multipart's parts have this shape). */
export type UploadPart =
  | { type: 'file'; fieldname: string; filename?: string; file: AsyncIterable<Buffer> & { resume(): unknown } }
  | { type: 'field'; fieldname: string; value: unknown };

/** An import request's file and options: multipart parts (`file` and `options`), or a JSON body (`{csv, ...options}`). */
export type ImportForm = { kind: 'multipart'; parts: AsyncIterable<UploadPart> } | { kind: 'json'; body: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One entry of an import's error report: the row and column to fix, in the caller's language. */
export interface ImportErrorEntry {
  row: number;
  order: string | null;
  field: string | null;
  path: string | null;
  message: string;
}

export function toErrorEntry(orderNo: string | null, issue: OrderIssue, locale: Locale): ImportErrorEntry {
  const text = ERROR_MESSAGES[issue.code as keyof typeof ERROR_MESSAGES] ?? ERROR_MESSAGES.VALIDATION_FAILED;
  return { row: issue.row, order: orderNo, field: issue.column ?? issue.path, path: issue.path, message: translate(text, locale, issue.params) };
}

/**
 * Order imports (issue 6): receives and checks the file, stores it in the database (the worker that runs the
 * import may be another process), starts the import workflow, and answers progress, errors and cancels from
 * the read model.
 */
export function createImportService(deps: ImportServiceDeps) {
  const maxBytes = deps.maxFileBytes ?? MAX_IMPORT_FILE_BYTES;

  const own = async (caller: Caller, id: string): Promise<ImportRecord> => {
    const found = await findImport(deps.db, id, caller.customerId);
    if (!found) throw new DomainError('IMPORT_NOT_FOUND');
    return found;
  };

  const startWorkflow = (caller: Caller, record: Pick<ImportRecord, 'id' | 'fileName' | 'options'>) =>
    deps.imports.start({
      importId: record.id,
      customerCode: caller.customerCode,
      summary: `Import of ${record.fileName ?? 'a CSV file'} (${record.options.preset}${record.options.process ? ', processing' : ''}) for ${caller.customerCode}`,
    });

  return {
    maxFileBytes: maxBytes,

    /**
     * Stores a file as it streams in (bounded memory: one chunk at a time) and checks it on the way: UTF-8,
     * CSV syntax, a header and at least one row. Anything wrong removes what was stored and is a 400.
     */
    async receiveFile(source: AsyncIterable<Buffer>, fileName: string | null): Promise<StoredUpload> {
      const fileId = randomUUID();
      const writer = createFileWriter(deps.db, fileId);
      const hash = createHash('sha256');
      const scanner = new CsvScanner();
      let bytes = 0;
      try {
        for await (const chunk of source) {
          bytes += chunk.length;
          if (bytes > maxBytes) throw new DomainError('IMPORT_FILE_TOO_LARGE', { field: 'file', params: { max: Math.round(maxBytes / 1024 / 1024) } });
          hash.update(chunk);
          scanner.write(chunk);
          if (!scanner.utf8) throw new DomainError('IMPORT_NOT_UTF8', { field: 'file' });
          await writer.write(chunk);
        }
        try {
          await scanner.end();
        } catch (error) {
          if (error instanceof CsvSyntaxError)
            throw new DomainError('IMPORT_INVALID_CSV', { field: 'file', params: { line: error.line, reason: error.reason } });
          throw error;
        }
        if (!scanner.utf8) throw new DomainError('IMPORT_NOT_UTF8', { field: 'file' });
        if (!scanner.header || scanner.records === 0) throw new DomainError('IMPORT_FILE_EMPTY', { field: 'file' });
        await writer.end();
        return { fileId, fileName, bytes, sha256: hash.digest('hex'), delimiter: scanner.delimiter, header: scanner.header, rows: scanner.records };
      } catch (error) {
        await deleteFile(deps.db, fileId).catch(() => undefined);
        throw error;
      }
    },

    discard: (upload: StoredUpload) => deleteFile(deps.db, upload.fileId),

    /**
     * Receives an import request's file (stored as it streams in, receiveFile) and its options, unchecked, from
     * either form: multipart (the `file` part and an `options` field of JSON; other files are drained and
     * ignored) or JSON (`csv` beside the options). Whatever goes wrong removes what was stored.
     */
    async receiveUpload(form: ImportForm): Promise<{ upload: StoredUpload; rawOptions: unknown }> {
      let upload: StoredUpload | undefined;
      let rawOptions: unknown = {};
      try {
        if (form.kind === 'multipart') {
          for await (const part of form.parts) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file' || upload) {
                part.file.resume(); // not ours: drained and ignored
                continue;
              }
              try {
                upload = await this.receiveFile(part.file, part.filename || null);
              } catch (error) {
                part.file.resume();
                throw error;
              }
            } else if (part.fieldname === 'options') {
              try {
                rawOptions = JSON.parse(String(part.value));
              } catch {
                throw new DomainError('MALFORMED_JSON', { field: 'options' });
              }
              const dirty = findDirtyText(rawOptions);
              if (dirty !== undefined) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TEXT', field: dirty ? `options.${dirty}` : 'options' }]);
            }
          }
          if (!upload) throw new DomainError('VALIDATION_FAILED', [{ code: 'NOT_BLANK', field: 'file' }]);
        } else {
          const body = isObject(form.body) ? form.body : {};
          const { csv, ...options } = body;
          if (typeof csv !== 'string' || !csv.trim()) {
            if (csv !== undefined && csv !== null && typeof csv !== 'string')
              throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', field: 'csv', params: { type: 'string' } }]);
            if (typeof csv === 'string') throw new DomainError('IMPORT_FILE_EMPTY', { field: 'csv' });
            throw new DomainError('VALIDATION_FAILED', [{ code: 'NOT_BLANK', field: 'csv' }]);
          }
          rawOptions = options;
          upload = await this.receiveFile(bufferSource(csv), null);
        }
        return { upload, rawOptions };
      } catch (error) {
        if (upload) await this.discard(upload);
        throw error;
      }
    },

    /**
     * The options, checked on their own (parseImportOptions) and against the file: the preset's columns,
     * the sender when the file has none, and, to process, what every order would otherwise lack alike.
     */
    async checkOptions(caller: Caller, raw: unknown, upload: StoredUpload): Promise<ImportOptions> {
      const options = parseImportOptions(raw);
      const providerIssue = await deps.providers.issue(caller.customerId, options.provider_id);
      if (providerIssue) throw new DomainError('VALIDATION_FAILED', [providerIssue]);
      const { layout, missing } = resolveLayout(options.preset, upload.header, options.mapping);
      if (missing.length > 0)
        throw new DomainError('IMPORT_COLUMNS_MISSING', {
          field: 'file',
          params: { columns: missing.map((c) => `"${c}"`).join(', '), preset: options.preset },
        });
      const senderFromOptions = needsConsignorOption(layout);
      if (senderFromOptions && !options.consignor)
        throw new DomainError('IMPORT_CONSIGNOR_REQUIRED', { field: 'consignor', params: { preset: options.preset } });
      if (senderFromOptions && !options.consignor?.name) throw new DomainError('VALIDATION_FAILED', [{ code: 'NOT_BLANK', field: 'consignor.name' }]);
      if (options.process) {
        const issues: Issue[] = [];
        if (!hasColumn(layout, 'preference') && !hasColumn(layout, 'provider_id') && options.preference == null && options.provider_id == null) {
          issues.push({ code: 'NOT_BLANK', field: 'preference' });
        }
        if (!hasColumn(layout, 'package_weight') && options.package?.weight == null) issues.push({ code: 'NOT_BLANK', field: 'package.weight' });
        if (senderFromOptions) issues.push(...processingIssues({ consignor: options.consignor ?? {} }).filter((i) => i.field?.startsWith('consignor.')));
        if (issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);
      }
      return options;
    },

    /** Records the import under `id` (the idempotency helper's uuid) and starts its workflow. */
    async start(caller: Caller, upload: StoredUpload, options: ImportOptions, id: string): Promise<ImportRecord> {
      const inserted = await insertImport(deps.db, {
        id,
        customerId: caller.customerId,
        userId: caller.userId,
        fileId: upload.fileId,
        fileName: upload.fileName,
        fileBytes: upload.bytes,
        fileSha256: upload.sha256,
        delimiter: upload.delimiter,
        header: upload.header,
        totalRows: upload.rows,
        options,
      });
      // A concurrent duplicate (same Idempotency-Key) recorded it first: its copy of the file is the one used.
      if (!inserted) await deleteFile(deps.db, upload.fileId);
      const record = (await findImport(deps.db, id, caller.customerId))!;
      try {
        await startWorkflow(caller, record);
      } catch (error) {
        if (inserted) {
          await deleteImport(deps.db, id).catch(() => undefined);
          await deleteFile(deps.db, upload.fileId).catch(() => undefined);
        }
        throw error;
      }
      return record;
    },

    get: own,

    async list(caller: Caller, page: PageRequest) {
      return listImports(deps.db, caller.customerId, { limit: page.limit, offset: pageOffset(page) });
    },

    async errors(caller: Caller, id: string, page: PageRequest, locale: Locale) {
      const record = await own(caller, id);
      const [entries, total] = await Promise.all([
        listErrorEntries(deps.db, record.id, { limit: page.limit, offset: pageOffset(page) }),
        countOrderErrors(deps.db, record.id),
      ]);
      return { entries: entries.map((e) => toErrorEntry(e.orderNo, e.issue, locale)), total };
    },

    /** A page of what address resolution corrected in the import's orders, one entry per field, in file order. */
    async corrections(caller: Caller, id: string, page: PageRequest) {
      const record = await own(caller, id);
      const { entries, total } = await listCorrections(deps.db, record.id, { limit: page.limit, offset: pageOffset(page) });
      return {
        entries: entries.map(({ row, orderNo, correction: c }) => ({ row, order: orderNo, field: `${c.party}.${c.field}`, from: c.from, to: c.to })),
        total,
      };
    },

    /** Every error entry of an import, in file order, a few hundred orders per query (for CSV downloads of any size). */
    async *allErrors(record: ImportRecord, locale: Locale): AsyncGenerator<ImportErrorEntry[]> {
      let after = -1;
      for (;;) {
        const rows = await listOrderErrors(deps.db, record.id, after, 500);
        if (rows.length === 0) return;
        yield rows.flatMap((r) => r.errors.map((issue) => toErrorEntry(r.orderNo, issue, locale)));
        after = rows[rows.length - 1].seq;
      }
    },

    /** Stops an import: answers once its workflow has stopped scheduling orders and recorded the final state. */
    async cancel(caller: Caller, id: string): Promise<ImportRecord> {
      const record = await own(caller, id);
      if (FINISHED_STATES.includes(record.state)) throw new DomainError('IMPORT_FINISHED', { params: { state: record.state } });
      try {
        await deps.imports.cancel(record.id);
      } catch (refusal) {
        if (!(refusal instanceof DomainError) || refusal.code !== 'IMPORT_FINISHED') throw refusal;
        const now = await own(caller, id);
        throw new DomainError('IMPORT_FINISHED', { params: { state: now.state } });
      }
      return own(caller, id);
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
