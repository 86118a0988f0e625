import { z } from 'zod';
import { DomainError } from '../../domain/errors';
import { statusMessage, statusName } from '../../domain/statuses';
import type { ConsignmentService } from '../../services/consignments.service';
import { formatTimestamp } from '../mappers/timestamps';
import { envelope, operation } from '../openapi/operation';
import { providerIdOf, providerIdParams, textParam } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';

const track = operation({
  operationId: 'trackConsignment',
  summary: 'Public tracking view',
  description: "What the label's QR code opens: status and history only (no names, addresses or costs). No API key.",
  tags: ['Providers'],
  access: 'public',
  // A path that names no provider or consignment is not found, not refused.
  params: parsedBy(providerIdParams.extend({ code: textParam("the carrier's tracking code or the service barcode") }), (params) => ({
    id: providerIdOf(params.id),
    code: params.code,
  })),
  answers: {
    200: {
      description: 'The status and its history.',
      schema: envelope(
        'TrackingAnswer',
        z.object({
          tracking_code: z.string().nullable(),
          barcode: z.string().nullable(),
          status: z.int(),
          status_name: z.string(),
          status_message: z.string(),
          details: z.array(
            z.object({
              status: z.int(),
              status_name: z.string(),
              status_description: z.string(),
              status_datetime: z.string(),
              location: z.string().nullable(),
            }),
          ),
        }),
      ),
    },
  },
  errors: [404],
});
/**
 * `GET /api/v1/providers/{id}/track/{tracking_code}` (no API key): the public tracking view the label's QR code
 * opens: status and history only, no names, addresses or costs.
 */
export function trackingRoutes(deps: { consignments: ConsignmentService }): RoutesPlugin {
  return async (app) => {
    app.get('/providers/:id/track/:code', { schema: track }, async (request) => {
      const providerId = request.params.id;
      const tracked = providerId === undefined ? undefined : await deps.consignments.track(providerId, request.params.code);
      if (!tracked) throw new DomainError('CONSIGNMENT_NOT_FOUND');
      const { consignment, history } = tracked;
      return {
        status: true,
        message: null,
        data: {
          tracking_code: consignment.tracking_code,
          barcode: consignment.barcode,
          status: consignment.status,
          status_name: statusName(consignment.status),
          status_message: statusMessage(consignment.status, request.locale),
          details: history.map((h) => ({
            status: h.status,
            status_name: statusName(h.status),
            status_description: statusMessage(h.status, request.locale),
            status_datetime: formatTimestamp(h.occurred_at),
            location: h.location,
          })),
        },
      };
    });
  };
}
