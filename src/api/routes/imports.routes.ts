import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Queryable } from '../../db/database';
import { DomainError } from '../../domain/errors';
import { pageQuery, pageResponse, parsePageRequest } from '../../domain/pagination';
import { importOptionsSchema } from '../../imports/import-options';
import { csvField, templateCsv } from '../../imports/presets';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { ImportAnswer, toImportResponse } from '../mappers/import.mapper';
import { componentRef, envelope, operation, page, requestSchema } from '../openapi/operation';
import { idempotent } from '../plugins/idempotency';
import { parsedBy, type RoutesPlugin } from '../validation';
import { asSent, pageParams } from './params';
import type { ImportService, StoredUpload } from '../../services/imports.service';

/** A JSON body carries the whole file in memory: kept smaller than multipart uploads, which stream. */
export const JSON_IMPORT_LIMIT_BYTES = 10 * 1024 * 1024;

requestSchema('ImportOptions', importOptionsSchema, { description: 'How to read the file and what to do with its orders (docs/imports.md).' });
requestSchema('ImportJsonBody', importOptionsSchema.extend({ csv: z.string().min(1).meta({ description: 'the whole CSV file' }) }), {
  description: 'The file as text beside the options (up to 10 MB; larger files go as multipart).',
});
const ImportEnvelope = envelope('ImportAnswer', ImportAnswer);
const importId = asSent(z.object({ id: z.string().min(1).max(255).meta({ description: 'the import id (a UUID)' }) }));
const base = { tags: ['Imports'], access: 'apiKey' } as const;
const CSV = { 'text/csv': { schema: { type: 'string' } } };

const startImport = operation({
  ...base,
  operationId: 'startImport',
  summary: 'Import orders from a CSV file',
  description:
    'Each order of the file becomes a draft (and, with `process`, a label), in the background: the answer (202) is the import, whose progress `GET /imports/{id}` shows. A bad row is reported in the error list, it does not stop the others.',
  bodyContent: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: { type: 'string', format: 'binary', contentMediaType: 'text/csv', description: 'the export, as downloaded from the shop' },
            options: { type: 'string', contentMediaType: 'application/json', contentSchema: componentRef('ImportOptions'), description: 'the options as JSON' },
          },
        },
        encoding: { file: { contentType: 'text/csv, application/octet-stream' }, options: { contentType: 'application/json' } },
      },
      'application/json': { schema: componentRef('ImportJsonBody') },
    },
  },
  idempotent: true,
  answers: { 202: { description: 'Accepted: the import, queued.', schema: ImportEnvelope } },
  links: { 202: Object.fromEntries(['getImport', 'listImportErrors', 'cancelImport'].map((id) => [id, { id: '$response.body#/data/id' }])) },
  errors: [422, 503],
});
const importCorrections = operation({
  ...base,
  operationId: 'listImportCorrections',
  summary: 'What address resolution corrected, row by row',
  description:
    "With the import option `address_resolver_type` 1 or 2: each party field of an order that the address data corrected (state, city, postal code), with the order's first row. Each is also an entry in the consignment's history.",
  params: importId,
  query: pageParams({ defaultLimit: 100, maxLimit: 1000 }),
  answers: {
    200: {
      description: 'The corrections.',
      schema: envelope(
        'ImportCorrectionListAnswer',
        page(z.object({ row: z.int(), order: z.string().nullable(), field: z.string(), from: z.string().nullable(), to: z.string() })),
      ),
    },
  },
  errors: [404],
});
const listImports = operation({
  ...base,
  operationId: 'listImports',
  summary: 'Your imports',
  query: pageParams({ defaultLimit: 20 }),
  answers: { 200: { description: 'A page of imports, newest first.', schema: envelope('ImportListAnswer', page(ImportAnswer)) } },
});
const getImport = operation({
  ...base,
  operationId: 'getImport',
  summary: 'An import and its progress',
  params: importId,
  answers: { 200: { description: 'The import.', schema: ImportEnvelope } },
  errors: [404],
});
const importErrors = operation({
  ...base,
  operationId: 'listImportErrors',
  summary: 'The problems of an import, row by row',
  description: 'JSON pages, or the whole list as CSV with `format=csv` or `Accept: text/csv`.',
  params: importId,
  // The page is checked only for a JSON report (the CSV is the whole report); `format` is read as sent.
  query: parsedBy(
    pageQuery({ defaultLimit: 100, maxLimit: 1000 }).extend({ format: z.enum(['json', 'csv']).optional() }),
    (query) => query as Record<string, unknown>,
  ),
  answers: {
    200: {
      description: 'The problems: row, order, field and message.',
      schema: envelope(
        'ImportErrorListAnswer',
        page(z.object({ row: z.int(), order: z.string().nullable(), field: z.string().nullable(), path: z.string().nullable(), message: z.string() })),
      ),
      content: CSV,
    },
  },
  errors: [404],
});
const cancelImport = operation({
  ...base,
  operationId: 'cancelImport',
  summary: 'Stop an import',
  description: 'Orders not yet made into drafts are left out; drafts already created stay. A finished import is 409.',
  params: importId,
  answers: { 200: { description: 'The import, cancelled.', schema: ImportEnvelope } },
  errors: [404, 409, 503],
});
const template = operation({
  ...base,
  operationId: 'getImportTemplate',
  summary: 'A CSV template of the generic preset',
  answers: { 200: { description: 'The header row and an example order.', content: CSV } },
});

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
export function importRoutes(deps: { db: Queryable; imports: ImportService }): RoutesPlugin {
  return async (app) => {
    await app.register(multipart, {
      // One byte over the limit lets receiveFile see the file is too large and say so in its own words.
      limits: { fileSize: deps.imports.maxFileBytes + 1, files: 1, fields: 10, fieldSize: 1024 * 1024, parts: 12 },
    });

    app.get('/imports/template.csv', { schema: template }, async (_request, reply) =>
      reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="consignflow-import-template.csv"').send(templateCsv()),
    );

    app.post('/imports', { bodyLimit: JSON_IMPORT_LIMIT_BYTES, schema: startImport }, async (request, reply) => {
      let received: { upload: StoredUpload; rawOptions: unknown };
      try {
        received = await deps.imports.receiveUpload(
          request.isMultipart() ? { kind: 'multipart', parts: request.parts() } : { kind: 'json', body: request.body },
        );
      } catch (error) {
        // The multipart parser's own limit (one byte over ours) cut the file short: too large, in our words.
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new DomainError('IMPORT_FILE_TOO_LARGE', { field: 'file', params: { max: Math.round(deps.imports.maxFileBytes / 1024 / 1024) } });
        throw error;
      }
      const { upload: stored, rawOptions } = received;
      let started = false;
      try {
        const options = await deps.imports.checkOptions(request.caller, rawOptions, stored);
        // The Idempotency-Key is bound to the file's content and the options, whichever form carried them.
        request.body = { file_sha256: stored.sha256, options: rawOptions };
        return await idempotent(deps.db, request, reply, 'import', async (uuid) => {
          const record = await deps.imports.start(request.caller, stored, options, uuid);
          started = true;
          return {
            status: 202,
            body: { status: true, message: translate(SUCCESS_MESSAGES.IMPORT_ACCEPTED, request.locale), data: toImportResponse(record, request.locale) },
          };
        });
      } finally {
        // A refusal or a replay of an earlier request leaves this copy of the file unused.
        if (!started) await deps.imports.discard(stored);
      }
    });

    app.get('/imports', { schema: listImports }, async (request) => {
      const page = request.query;
      const { imports, total } = await deps.imports.list(request.caller, page);
      return {
        status: true,
        message: null,
        data: pageResponse(
          imports.map((r) => toImportResponse(r, request.locale)),
          page,
          total,
        ),
      };
    });

    app.get('/imports/:id', { schema: getImport }, async (request) => {
      const record = await deps.imports.get(request.caller, request.params.id);
      return { status: true, message: null, data: toImportResponse(record, request.locale) };
    });

    app.get('/imports/:id/errors', { schema: importErrors }, async (request, reply) => {
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

    app.get('/imports/:id/corrections', { schema: importCorrections }, async (request) => {
      const page = request.query;
      const { entries, total } = await deps.imports.corrections(request.caller, request.params.id, page);
      return { status: true, message: null, data: pageResponse(entries, page, total) };
    });

    app.post('/imports/:id/cancel', { schema: cancelImport }, async (request) => {
      const record = await deps.imports.cancel(request.caller, request.params.id);
      return { status: true, message: translate(SUCCESS_MESSAGES.IMPORT_CANCELLED, request.locale), data: toImportResponse(record, request.locale) };
    });
  };
}
