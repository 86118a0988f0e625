import type { FastifyPluginAsync } from 'fastify';
import type { Queryable } from '../../db/database';
import { parseDraftInput } from '../../domain/draft';
import { DomainError } from '../../domain/errors';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { toDraftResponse } from '../mappers/consignment.mapper';
import { idempotent } from '../plugins/idempotency';
import type { ConsignmentService, LabelFormat } from '../../services/consignments.service';
import { parseId } from './params';

/** the API (docs/api.md): create (idempotent) and partially update draft consignments. */
export function draftRoutes(deps: { db: Queryable; consignments: ConsignmentService }): FastifyPluginAsync {
  return async (app) => {
    app.post('/consignments/draft', async (request, reply) => {
      const draft = parseDraftInput(request.body, 'create');
      return idempotent(deps.db, request, reply, 'draft', async (uuid) => {
        const record = await deps.consignments.createDraft(request.caller, draft, uuid);
        return {
          status: 201,
          body: { status: true, message: translate(SUCCESS_MESSAGES.DRAFT_CREATED, request.locale), data: toDraftResponse(record, request.locale, 'create') },
        };
      });
    });

    app.put<{ Params: { id: string } }>('/consignments/draft/:id', async (request) => {
      const id = parseId(request.params.id, 'draft_consignment_id');
      const patch = parseDraftInput(request.body ?? {}, 'update');
      const record = await deps.consignments.updateDraft(request.caller, id, patch);
      return { status: true, message: translate(SUCCESS_MESSAGES.DRAFT_UPDATED, request.locale), data: toDraftResponse(record, request.locale, 'update') };
    });

    // The body is optional (docs/api.md). Extension: `label_format` "pdf" (default) or "zpl" for thermal printers.
    app.post<{ Params: { id: string } }>('/consignments/draft/:id/start-process', async (request) => {
      const id = parseId(request.params.id, 'draft_consignment_id');
      const { label_format: format = 'pdf', ...fields } = (request.body ?? {}) as Record<string, unknown>;
      if (format !== 'pdf' && format !== 'zpl') throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_CHOICE', field: 'label_format' }]);
      const patch = request.body === undefined || Object.keys(fields).length === 0 ? null : parseDraftInput(fields, 'update');
      const outcome = await deps.consignments.processDraft(request.caller, id, patch, format as LabelFormat);
      return { status: true, message: translate(SUCCESS_MESSAGES.DRAFT_PROCESSED, request.locale), data: outcome };
    });
  };
}
