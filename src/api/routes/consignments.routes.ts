import type { FastifyPluginAsync } from 'fastify';
import { DomainError } from '../../domain/errors';
import { toDetailResponse, type ProviderDirectory } from '../mappers/consignment.mapper';
import type { ConsignmentService } from '../services/consignments.service';
import { parseId } from './params';

/** SPEC §4.7 and §4.8: lookups by reference and by id, scoped to the caller's customer. */
export function consignmentRoutes(deps: { consignments: ConsignmentService; providers: ProviderDirectory }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { reference_no: string } }>('/consignments/find/reference_no/:reference_no', async (request) => {
      const referenceNo = request.params.reference_no;
      if (!referenceNo.trim() || referenceNo.length > 255) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      const { consignment, history } = await deps.consignments.find({ referenceNo, customerId: request.caller.customerId });
      return { status: true, message: null, data: toDetailResponse(consignment, { history, caller: request.caller, provider: deps.providers, locale: request.locale }) };
    });

    app.get<{ Params: { id: string } }>('/consignments/:id/details', async (request) => {
      const id = parseId(request.params.id, 'consignment_id');
      const { consignment, history } = await deps.consignments.find({ id, customerId: request.caller.customerId });
      return { status: true, message: null, data: toDetailResponse(consignment, { history, caller: request.caller, provider: deps.providers, locale: request.locale }) };
    });
  };
}
