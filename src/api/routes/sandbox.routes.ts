import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../../domain/errors';
import { carrierEventOf, TRACKING_EVENTS } from '../../domain/tracking';
import { parseOrRefuse } from '../../domain/validation';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import type { ConsignmentService } from '../../services/consignments.service';
import { idParam, idParams } from './params';
import { envelope, operation, requestSchema } from '../openapi/operation';
import { parsedBy, type RoutesPlugin } from '../validation';

const eventBody = z.object({
  event: z.enum(TRACKING_EVENTS),
  location: z.string().trim().max(255).nullish(),
  message: z.string().trim().max(1000).nullish(),
  /** extension: a carrier-side event id, to exercise redelivery; generated when absent */
  event_id: z.string().trim().min(1).max(100).optional(),
});

const emit = operation({
  operationId: 'emitSandboxEvent',
  summary: 'Make a sandbox carrier emit a tracking event',
  description:
    'For trying the lifecycle without a real carrier: the event reaches the consignment as a carrier event would (202; applied shortly). Only for consignments booked with a sandbox carrier (409 otherwise).',
  tags: ['Sandbox'],
  access: 'apiKey',
  params: idParams(z.object({ id: idParam }), 'consignment_id'),
  body: parsedBy(requestSchema('SandboxEvent', eventBody), (body) => parseOrRefuse(eventBody, body ?? {}, (path) => path.join('.') || 'event')),
  bodyExample: { event: 'PICKED_UP', location: 'İstanbul Hub' },
  answers: { 202: { description: 'Accepted.', schema: envelope('SandboxEventAnswer', z.object({ consignment: z.int(), event_id: z.string() })) } },
  errors: [404, 409, 503],
});

/**
 * The sandbox events endpoint (docs/api.md): makes the consignment's sandbox carrier emit a tracking event, which reaches
 * the lifecycle workflow by the same path as a real carrier's (`ingestCarrierEvent`). 202: applied shortly.
 */
export function sandboxRoutes(deps: { consignments: ConsignmentService; sandboxProviders: Set<number> }): RoutesPlugin {
  return async (app) => {
    app.post('/sandbox/consignments/:id/events', { schema: emit }, async (request, reply) => {
      const { id } = request.params;
      const event = request.body;
      const { consignment } = await deps.consignments.find({ id, customerId: request.caller.customerId });
      if (consignment.provider_id === null || !deps.sandboxProviders.has(consignment.provider_id) || !consignment.tracking_code)
        throw new DomainError('NOT_SANDBOX_CONSIGNMENT');
      const eventId = event.event_id ?? randomUUID();
      await deps.consignments.ingestCarrierEvent(
        consignment.provider_id,
        consignment.tracking_code,
        carrierEventOf(consignment.provider_id, { eventId, event: event.event, location: event.location, message: event.message }),
      );
      return reply
        .code(202)
        .send({ status: true, message: translate(SUCCESS_MESSAGES.EVENT_ACCEPTED, request.locale), data: { consignment: consignment.id, event_id: eventId } });
    });
  };
}
