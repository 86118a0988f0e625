import type { Queryable } from '../../db/database';
import { z } from 'zod';
import { draftSchemas, parseDraftInput, type DraftInput } from '../../domain/draft';
import { DomainError } from '../../domain/errors';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { toDraftResponse } from '../mappers/consignment.mapper';
import { idempotent } from '../plugins/idempotency';
import type { ConsignmentService } from '../../services/consignments.service';
import { LABEL_FORMATS, type LabelFormat } from '../../domain/label';
import { idParam, idParams } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';
import { envelope, operation, requestSchema } from '../openapi/operation';
import { DraftAnswer } from '../mappers/consignment.mapper';

const DraftEnvelope = envelope('DraftAnswer', DraftAnswer);
const draftId = idParams(z.object({ id: idParam }), 'draft_consignment_id');

const CREATE_EXAMPLE = {
  reference_no: 'ORDER-1001',
  preference: 1,
  consignor: { name: 'Ayşe Yılmaz', country: 'TR', city: 'İstanbul', address: 'Caferağa Mah. Moda Cd. 1', phone_number: '+905551112233' },
  consignee: { name: 'Hans Müller', country: 'DE', city: 'Berlin', address: 'Unter den Linden 1', phone_number: '+4930123456' },
  packages: [
    {
      package_type: 1,
      weight: 1.2,
      length: 30,
      width: 20,
      height: 10,
      items: [{ description: 'Ceramic mug', quantity: 2, unit_price: 9.5, currency_code: 'EUR', origin: 'TR', gtip: '691200' }],
    },
  ],
};

/** A start-process body: the label format, and the draft fields to apply first (null: none sent). */
function processInput(body: unknown): { format: LabelFormat; patch: DraftInput | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
  const { label_format: format = 'pdf', ...fields } = body as Record<string, unknown>;
  if (!(LABEL_FORMATS as readonly unknown[]).includes(format)) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_CHOICE', field: 'label_format' }]);
  return { format: format as LabelFormat, patch: Object.keys(fields).length === 0 ? null : parseDraftInput(fields, 'update') };
}

const createDraft = operation({
  operationId: 'createDraft',
  summary: 'Create a draft consignment',
  description: 'The draft starts in status 24. Unknown fields are ignored; every problem is reported at once. A `reference_no` is unique per customer (409).',
  tags: ['Drafts'],
  access: 'apiKey',
  body: parsedBy(
    requestSchema('DraftCreate', draftSchemas.create, {
      description: 'A new draft: `consignor` and `consignee` are required (may be `{}`); docs/api.md, "Draft fields".',
    }),
    (body) => parseDraftInput(body, 'create'),
  ),
  bodyExample: CREATE_EXAMPLE,
  idempotent: true,
  answers: { 201: { description: 'The draft.', schema: DraftEnvelope } },
  links: {
    201: {
      updateDraft: { id: '$response.body#/data/id' },
      processDraft: { id: '$response.body#/data/id' },
      getConsignmentDetails: { id: '$response.body#/data/id' },
      cancelConsignment: { value: '$response.body#/data/id' },
    },
  },
  errors: [409, 422, 503],
});

const updateDraft = operation({
  operationId: 'updateDraft',
  summary: 'Change a draft',
  description: 'Only the fields sent change. A consignment that is no longer a draft is 409.',
  tags: ['Drafts'],
  access: 'apiKey',
  params: draftId,
  body: parsedBy(
    requestSchema('DraftUpdate', draftSchemas.update, {
      description: 'Only the fields sent change: party fields merge, a sent `packages` list replaces the old one.',
    }),
    (body) => parseDraftInput(body, 'update'),
  ),
  bodyExample: { consignee: { city: 'Hamburg' } },
  bodyOptional: true,
  answers: { 200: { description: 'The changed draft.', schema: DraftEnvelope } },
  errors: [404, 409, 503],
});

const deleteDraft = operation({
  operationId: 'deleteDraft',
  summary: 'Delete a draft',
  description:
    'A draft (status 24) only; a processed consignment is cancelled instead (409 here). The draft is gone from lookups and lists, its `reference_no` can be used again, and webhooks subscribed to `consignment.deleted` are told.',
  tags: ['Drafts'],
  access: 'apiKey',
  params: draftId,
  answers: {
    200: { description: 'Deleted.', schema: envelope('DeletedDraftAnswer', z.object({ consignment: z.int().meta({ description: 'the id the draft had' }) })) },
  },
  errors: [404, 409, 503],
});

const processDraft = operation({
  operationId: 'processDraft',
  summary: 'Process a draft: carrier booking and label',
  description:
    'Books the draft with its carrier (or the cheapest or fastest, by `preference`) and answers the label. Fields sent are applied first, all or nothing. A refusal by the carrier is 400 naming the field; a carrier that cannot be reached is 503.',
  tags: ['Drafts'],
  access: 'apiKey',
  params: draftId,
  body: parsedBy(
    requestSchema(
      'ProcessDraft',
      draftSchemas.update.extend({
        label_format: z.enum(LABEL_FORMATS).optional().meta({ description: 'extension: `zpl` for thermal printers; default `pdf`' }),
      }),
      { description: 'Optional: draft fields to apply before processing (all or nothing), and the label format.' },
    ),
    processInput,
  ),
  bodyOptional: true,
  idempotent: true,
  answers: {
    200: {
      description: 'Processed: the barcode, tracking and the label.',
      schema: envelope(
        'ProcessAnswer',
        z.object({
          consignment: z.int(),
          barcode: z.string(),
          svcBarcode: z.string(),
          providerTrackingCode: z.string(),
          trackingUrl: z.string(),
          contentType: z.string().meta({ examples: ['application/pdf', 'application/zpl'] }),
          base64label: z.string().meta({ description: 'the label file, base64' }),
        }),
      ),
    },
  },
  errors: [404, 409, 503],
  links: { 200: { getConsignmentDetails: { id: '$response.body#/data/consignment' }, emitSandboxEvent: { id: '$response.body#/data/consignment' } } },
});

/** the API (docs/api.md): create (idempotent) and partially update draft consignments. */
export function draftRoutes(deps: { db: Queryable; consignments: ConsignmentService }): RoutesPlugin {
  return async (app) => {
    app.post('/consignments/draft', { schema: createDraft }, async (request, reply) =>
      idempotent(deps.db, request, reply, 'draft', async (uuid) => {
        const record = await deps.consignments.createDraft(request.caller, request.body, uuid);
        return {
          status: 201,
          body: { status: true, message: translate(SUCCESS_MESSAGES.DRAFT_CREATED, request.locale), data: toDraftResponse(record, request.locale, 'create') },
        };
      }),
    );

    // No body is an empty patch; a JSON `null` (or any non-object) is refused as a body of the wrong type.
    app.put('/consignments/draft/:id', { schema: updateDraft }, async (request) => {
      const record = await deps.consignments.updateDraft(request.caller, request.params.id, request.body);
      return { status: true, message: translate(SUCCESS_MESSAGES.DRAFT_UPDATED, request.locale), data: toDraftResponse(record, request.locale, 'update') };
    });

    app.delete('/consignments/draft/:id', { schema: deleteDraft }, async (request) => {
      const data = await deps.consignments.deleteDraft(request.caller, request.params.id);
      return { status: true, message: translate(SUCCESS_MESSAGES.DRAFT_DELETED, request.locale), data };
    });

    // The body is optional (docs/api.md). Extension: `label_format` "pdf" (default) or "zpl" for thermal printers.
    app.post('/consignments/draft/:id/start-process', { schema: processDraft }, async (request, reply) => {
      const { id } = request.params;
      const { format, patch } = request.body;
      // With an Idempotency-Key each try of the processing is a workflow update named by the key and the try's number.
      return idempotent(deps.db, request, reply, `process:${id}`, async (uuid, attempt) => {
        const keyed = attempt && { key: uuid, attempt };
        const outcome = await deps.consignments.processDraft(request.caller, id, patch, format, keyed ? { keyed } : {});
        return { status: 200, body: { status: true, message: translate(SUCCESS_MESSAGES.DRAFT_PROCESSED, request.locale), data: outcome } };
      });
    });
  };
}
