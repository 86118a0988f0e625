import multipart from '@fastify/multipart';
import { z } from 'zod';
import { DOCUMENT_TYPES } from '../../domain/documents';
import { DomainError } from '../../domain/errors';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import type { LabelLinks } from '../../labels/label-links';
import type { DocumentService } from '../../services/documents.service';
import { DocumentAnswer, toDocumentResponse } from '../mappers/document.mapper';
import { envelope, operation } from '../openapi/operation';
import { asSent, idParam } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';

const upload = operation({
  operationId: 'uploadDocument',
  summary: 'Upload a document',
  description:
    'A PDF, PNG or JPEG (recognised from its content, not its name or declared type), up to DOCUMENT_MAX_BYTES (10 MB by default), as the `file` part of a multipart body. Drafts reference it by its `id` in `documents[]`; lookups list it with a signed download link.',
  tags: ['Documents'],
  access: 'apiKey',
  bodyContent: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'the document' } } },
      },
    },
  },
  answers: { 201: { description: 'Stored.', schema: envelope('DocumentAnswer', DocumentAnswer) } },
});

const download = operation({
  operationId: 'downloadDocument',
  summary: 'Download a document',
  description: "A document's `file_url` in a lookup: signed, so no API key is needed.",
  tags: ['Documents'],
  access: 'signedLink',
  params: asSent(z.object({ id: idParam.meta({ description: 'the document id' }), file: z.string().min(1).max(255).meta({ description: 'its file name' }) })),
  // A link without its hash does not verify (403), like one with a wrong hash.
  query: parsedBy(z.object({ hash: z.string().min(1).max(255).meta({ description: 'the signature of the link' }) }), (query) => query as { hash?: string }),
  answers: {
    200: {
      description: 'The file, as uploaded.',
      content: Object.fromEntries(DOCUMENT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    },
  },
  errors: [403, 404],
});

/** `POST /api/v1/documents` (API key): one multipart `file` part. */
export function documentRoutes(deps: { documents: DocumentService; labelLinks: LabelLinks }): RoutesPlugin {
  return async (app) => {
    // One byte over the limit lets upload() see the file is too large and say so in its own words.
    await app.register(multipart, { limits: { fileSize: deps.documents.maxBytes + 1, files: 1, fields: 5, parts: 6, fieldSize: 1024 } });

    app.post('/documents', { schema: upload }, async (request, reply) => {
      if (!request.isMultipart()) throw new DomainError('MULTIPART_REQUIRED');
      let stored: Awaited<ReturnType<DocumentService['upload']>> | undefined;
      for await (const part of request.parts()) {
        if (part.type !== 'file' || part.fieldname !== 'file' || stored) {
          if (part.type === 'file') part.file.resume(); // not ours: drained and ignored
          continue;
        }
        try {
          stored = await deps.documents.upload(request.caller, part.file, part.filename || null);
        } catch (error) {
          part.file.resume();
          throw error;
        }
      }
      if (!stored) throw new DomainError('VALIDATION_FAILED', [{ code: 'NOT_BLANK', field: 'file' }]);
      return reply.code(201).send({
        status: true,
        message: translate(SUCCESS_MESSAGES.DOCUMENT_UPLOADED, request.locale),
        data: toDocumentResponse(stored, deps.labelLinks.documentUrl),
      });
    });
  };
}

/** `GET /api/v1/documents/{id}/{file_name}?hash=…`: the signed download (no API key), as labels are. */
export function documentDownloadRoutes(deps: { documents: DocumentService; labelLinks: LabelLinks }): RoutesPlugin {
  return async (app) => {
    app.get('/documents/:id/:file', { schema: download }, async (request, reply) => {
      const id = Number(request.params.id);
      const file = request.params.file;
      if (!idParam.safeParse(request.params.id).success || !Number.isSafeInteger(id) || !deps.labelLinks.verifyDocument(id, file, request.query.hash)) {
        throw new DomainError('DOCUMENT_LINK_INVALID');
      }
      const document = await deps.documents.file(id);
      if (!document || document.fileName !== file) throw new DomainError('DOCUMENT_NOT_FOUND');
      return reply
        .type(document.contentType)
        .header('content-disposition', `inline; filename="${encodeURIComponent(file)}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(document.content));
    });
  };
}
