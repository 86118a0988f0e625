import type { FastifyReply } from 'fastify';
import { asSent } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';
import { z } from 'zod';
import { MAX_BATCH_LABELS, labelBatchBody, labelBatchQuery, parseLabelBatch, parseLabelBatchQuery } from '../../labels/label-batch';
import type { ImportService } from '../../services/imports.service';
import type { LabelBatch, LabelBatchService } from '../../services/label-batches.service';
import { LABEL_CONTENT_TYPES } from '../../services/consignments.service';
import { operation, requestSchema, type Answer } from '../openapi/operation';

/** The missing entries go in a header only while it stays small; the notes page always lists them all. */
const MISSING_HEADER_MAX_CHARS = 2000;

const batchAnswer: Answer = {
  description:
    'One file: the labels in the order asked (each piece of a multi-piece consignment on its own page), then — when some have no label — a notes page (PDF) or notes labels (ZPL) listing each with the reason. Streamed as it is made.',
  content: Object.fromEntries(Object.values(LABEL_CONTENT_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  headers: {
    'X-Labels-Count': { description: 'how many consignments have their labels in the file', schema: { type: 'integer' } },
    'X-Labels-Missing': { description: 'how many consignments asked for have no label in the file (see the notes page)', schema: { type: 'integer' } },
    'X-Labels-Missing-Entries': {
      description: `the missing entries, comma-separated, when that list is at most ${MISSING_HEADER_MAX_CHARS} characters`,
      schema: { type: 'string' },
    },
  },
};

const batch = operation({
  operationId: 'mergeLabels',
  summary: 'Labels of many consignments in one file',
  description: `Up to ${MAX_BATCH_LABELS} consignment ids or barcodes → one PDF (100 × 150 mm pages, or A4 sheets with four labels each) or one ZPL stream, in the order asked. Consignments without a printable label (drafts, cancelled, another customer's or unknown, a carrier's PDF-only label asked as ZPL) are listed in the headers and on the notes page, never skipped silently; when none has a label the answer is 409.`,
  tags: ['Labels'],
  access: 'apiKey',
  body: parsedBy(requestSchema('LabelBatch', labelBatchBody), parseLabelBatch),
  bodyExample: { consignments: [1042, 'CF00000010438'], format: 'pdf', layout: 'a4' },
  answers: { 200: batchAnswer },
  errors: [409],
});

const importLabels = operation({
  operationId: 'importLabels',
  summary: "An import's labels in one file",
  description:
    "The labels of the import's consignments in the order of its file, merged as `POST /labels/batch` merges them (its orders that made no consignment are in the import's errors instead).",
  tags: ['Labels'],
  access: 'apiKey',
  params: asSent(z.object({ id: z.string().min(1).max(255).meta({ description: 'the import id (a UUID)' }) })),
  query: parsedBy(labelBatchQuery, parseLabelBatchQuery),
  answers: { 200: batchAnswer },
  errors: [404, 409],
});

/** A merged label file as the API and the console send it: counts and missing entries in headers, streamed. */
export function sendLabelBatch(reply: FastifyReply, batch: LabelBatch) {
  const entries = batch.missing.map((m) => m.entry).join(',');
  reply
    .type(batch.contentType)
    .header('content-disposition', `attachment; filename="${batch.fileName}"`)
    .header('cache-control', 'private, no-store')
    .header('x-labels-count', String(batch.labels))
    .header('x-labels-missing', String(batch.missing.length));
  if (entries.length > 0 && entries.length <= MISSING_HEADER_MAX_CHARS) reply.header('x-labels-missing-entries', entries);
  return reply.send(batch.body);
}

/** Merged label files (API key): a list of consignments, or an import's. */
export function labelBatchRoutes(deps: { batches: LabelBatchService; imports?: ImportService }): RoutesPlugin {
  return async (app) => {
    // 10,000 entries of up to 64 characters, with JSON's quotes and commas.
    app.post('/labels/batch', { schema: batch, bodyLimit: 1024 * 1024 }, async (request, reply) => {
      const { keys, entries, print } = request.body;
      return sendLabelBatch(reply, await deps.batches.forConsignments(request.caller.customerId, keys, entries, print, request.locale));
    });

    const imports = deps.imports;
    if (imports) {
      app.get('/imports/:id/labels', { schema: importLabels }, async (request, reply) => {
        const print = request.query;
        const record = await imports.get(request.caller, request.params.id);
        return sendLabelBatch(reply, await deps.batches.forImport(request.caller.customerId, record.id, print, request.locale));
      });
    }
  };
}
