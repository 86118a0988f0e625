import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database';
import { DomainError } from '../../domain/errors';
import { pageResponse, parsePageRequest } from '../../domain/pagination';
import { bufferSource } from '../../feeds/csv-stream';
import { csvField, templateCsv } from '../../feeds/presets';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { toImportResponse } from '../mappers/import.mapper';
import { idempotent } from '../plugins/idempotency';
import type { ImportService, StoredUpload } from '../../services/imports.service';
import { findDirtyText } from '../../domain/text';

/** A JSON body carries the whole file in memory: kept smaller than multipart uploads, which stream. */
export const JSON_IMPORT_LIMIT_BYTES = 10 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function wantsCsv(request: FastifyRequest): boolean {
  const format = isObject(request.query) ? request.query.format : undefined;
  if (format === 'csv') return true;
  if (format === 'json') return false;
  return /\btext\/csv\b/i.test(request.headers.accept ?? '');
}

/**
 * Order imports (issue 6): POST /imports (JSON `{csv, ...options}` or multipart `file` + `options`), progress,
 * error reports (JSON or CSV), lists and cancellation, all scoped to the caller's customer.
 */
export function importRoutes(deps: { db: Queryable; imports: ImportService }): FastifyPluginAsync {
  return async (app) => {
    await app.register(multipart, {
      // One byte over the limit lets receiveFile see the file is too large and say so in its own words.
      limits: { fileSize: deps.imports.maxFileBytes + 1, files: 1, fields: 10, fieldSize: 1024 * 1024, parts: 12 },
    });

    app.get('/imports/template.csv', async (_request, reply) =>
      reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="consignflow-import-template.csv"').send(templateCsv()),
    );

    app.post('/imports', { bodyLimit: JSON_IMPORT_LIMIT_BYTES }, async (request, reply) => {
      let upload: StoredUpload | undefined;
      let rawOptions: unknown = {};
      try {
        if (request.isMultipart()) {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file' || upload) {
                part.file.resume(); // not ours: drained and ignored
                continue;
              }
              try {
                upload = await deps.imports.receiveFile(part.file, part.filename || null);
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
          const body = isObject(request.body) ? request.body : {};
          const { csv, ...options } = body;
          if (typeof csv !== 'string' || !csv.trim()) {
            if (csv !== undefined && csv !== null && typeof csv !== 'string') throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', field: 'csv', params: { type: 'string' } }]);
            if (typeof csv === 'string') throw new DomainError('IMPORT_FILE_EMPTY', { field: 'csv' });
            throw new DomainError('VALIDATION_FAILED', [{ code: 'NOT_BLANK', field: 'csv' }]);
          }
          rawOptions = options;
          upload = await deps.imports.receiveFile(bufferSource(csv), null);
        }
      } catch (error) {
        if (upload) await deps.imports.discard(upload);
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new DomainError('IMPORT_FILE_TOO_LARGE', { field: 'file', params: { max: Math.round(deps.imports.maxFileBytes / 1024 / 1024) } });
        throw error;
      }

      const stored = upload;
      let started = false;
      try {
        const options = await deps.imports.checkOptions(request.caller, rawOptions, stored);
        // The Idempotency-Key is bound to the file's content and the options, whichever form carried them.
        request.body = { file_sha256: stored.sha256, options: rawOptions };
        return await idempotent(deps.db, request, reply, 'import', async (uuid) => {
          const record = await deps.imports.start(request.caller, stored, options, uuid);
          started = true;
          return { status: 202, body: { status: true, message: translate(SUCCESS_MESSAGES.IMPORT_ACCEPTED, request.locale), data: toImportResponse(record, request.locale) } };
        });
      } finally {
        // A refusal or a replay of an earlier request leaves this copy of the file unused.
        if (!started) await deps.imports.discard(stored);
      }
    });

    app.get('/imports', async (request) => {
      const page = parsePageRequest(request.query, { defaultLimit: 20 });
      const { imports, total } = await deps.imports.list(request.caller, page);
      return { status: true, message: null, data: pageResponse(imports.map((r) => toImportResponse(r, request.locale)), page, total) };
    });

    app.get<{ Params: { id: string } }>('/imports/:id', async (request) => {
      const record = await deps.imports.get(request.caller, request.params.id);
      return { status: true, message: null, data: toImportResponse(record, request.locale) };
    });

    app.get<{ Params: { id: string } }>('/imports/:id/errors', async (request, reply) => {
      if (!wantsCsv(request)) {
        const page = parsePageRequest(request.query, { defaultLimit: 100, maxLimit: 1000 });
        const { entries, total } = await deps.imports.errors(request.caller, request.params.id, page, request.locale);
        return { status: true, message: null, data: pageResponse(entries, page, total) };
      }
      const record = await deps.imports.get(request.caller, request.params.id);
      const lines = async function* () {
        // A BOM, so spreadsheet programs read the UTF-8 (Turkish letters) right.
        yield '\uFEFFrow,order,field,message\r\n';
        for await (const entries of deps.imports.allErrors(record, request.locale)) {
          yield entries.map((e) => [String(e.row), e.order ?? '', e.field ?? '', e.message].map(csvField).join(',') + '\r\n').join('');
        }
      };
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${record.id}-errors.csv"`)
        .send(Readable.from(lines()));
    });

    app.post<{ Params: { id: string } }>('/imports/:id/cancel', async (request) => {
      const record = await deps.imports.cancel(request.caller, request.params.id);
      return { status: true, message: translate(SUCCESS_MESSAGES.IMPORT_CANCELLED, request.locale), data: toImportResponse(record, request.locale) };
    });
  };
}
