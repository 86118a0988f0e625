import { DomainError } from '../../domain/errors';
import type { LabelLinks } from '../../labels/label-links';
import { z } from 'zod';
import { LABEL_CONTENT_TYPES, type ConsignmentService } from '../../services/consignments.service';
import { operation } from '../openapi/operation';
import { asSent, idParam } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';

const download = operation({
  operationId: 'downloadLabel',
  summary: 'Download a label',
  description: "The `file_url` of a lookup's labels: signed, so no API key is needed. `{barcode}.pdf` is the PDF, `{barcode}.zpl` the ZPL of the same label.",
  tags: ['Labels'],
  access: 'signedLink',
  params: asSent(
    z.object({
      id: idParam.meta({ description: 'the label id' }),
      file: z
        .string()
        .min(1)
        .max(255)
        .meta({ description: 'the file name', examples: ['CF00000000012.pdf'] }),
    }),
  ),
  // A link without its hash does not verify (403), like one with a wrong hash.
  query: parsedBy(z.object({ hash: z.string().min(1).max(255).meta({ description: 'the signature of the link' }) }), (query) => query as { hash?: string }),
  answers: {
    200: {
      description: 'The label file.',
      content: Object.fromEntries(Object.values(LABEL_CONTENT_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    },
  },
  errors: [403, 404, 410],
});

/**
 * `GET /api/v1/labels/{id}/{file_name}?hash=…`: the signed label download (no API key). `{barcode}.pdf`
 * is the PDF, `{barcode}.zpl` the ZPL of the same label. A wrong hash is 403; a voided label (its
 * consignment was cancelled) is 410.
 */
export function labelRoutes(deps: { consignments: ConsignmentService; labelLinks: LabelLinks }): RoutesPlugin {
  return async (app) => {
    app.get('/labels/:id/:file', { schema: download }, async (request, reply) => {
      const id = Number(request.params.id);
      const file = request.params.file;
      if (!Number.isSafeInteger(id) || id < 1 || !deps.labelLinks.verify(id, file, request.query.hash)) throw new DomainError('LABEL_LINK_INVALID');
      const format = file.endsWith('.zpl') ? 'zpl' : 'pdf';
      const label = await deps.consignments.labelFile(id, format);
      if (!label || label.fileName.replace(/\.pdf$/, `.${format}`) !== file) throw new DomainError('LABEL_NOT_FOUND');
      if (label.voided) throw new DomainError('LABEL_VOIDED');
      return reply
        .type(LABEL_CONTENT_TYPES[format])
        .header('content-disposition', `inline; filename="${file}"`)
        .header('cache-control', 'private, no-store')
        .send(label.content);
    });
  };
}
