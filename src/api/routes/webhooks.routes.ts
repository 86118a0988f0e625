import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors';
import { z } from 'zod';
import { parseWebhookInput, webhookSchemas, type WebhookInput } from '../../domain/webhook';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { toDeliveryResponse, toWebhookDetail, toWebhookResponse } from '../mappers/webhook.mapper';
import type { WebhookService } from '../../services/webhooks.service';
import { pageQuery, pageResponse, parsePageRequest } from '../../domain/pagination';
import { parsedBy, type RoutesPlugin } from '../validation';
import { CreatedWebhookAnswer, DeliveryAnswer, WebhookDetailAnswer } from '../mappers/webhook.mapper';
import { envelope, operation, page, requestSchema } from '../openapi/operation';
import { asSent, pageParams, textParam } from './params';

const webhookId = z.object({ webhook_id: z.string().min(1).max(255).meta({ description: 'the `webhook_id` (`wh_…`)' }) });
/** The webhook a path names, looked up as sent (an unknown one is 404). */
const webhookPath = asSent(webhookId);
const DetailEnvelope = envelope('WebhookDetailAnswer', WebhookDetailAnswer);
const CREATE_EXAMPLE = {
  description: 'status changes',
  endpoint: 'https://example.com/hooks/consignflow',
  subscribedEvent: 'consignment.status.updated',
  securityType: 'header',
  dataType: 'JSON',
  data: '',
  securityData: [{ headerKey: 'X-Shop-Token', headerValue: 's3cret' }],
  status: 1,
};
const base = { tags: ['Webhooks'], access: 'apiKey' } as const;

const createWebhook = operation({
  ...base,
  operationId: 'createWebhook',
  summary: 'Register a webhook',
  description:
    'Status changes of your consignments are POSTed to `endpoint`, signed (docs/webhooks.md). The answer carries the signing `secret`, shown only here.',
  body: parsedBy(requestSchema('WebhookCreate', webhookSchemas.create), (body) => parseWebhookInput(body, 'create') as WebhookInput),
  bodyExample: CREATE_EXAMPLE,
  answers: { 201: { description: 'The webhook and its secret.', schema: envelope('CreatedWebhookAnswer', CreatedWebhookAnswer) } },
  links: {
    201: Object.fromEntries(
      ['getWebhook', 'updateWebhook', 'replaceWebhook', 'deleteWebhook', 'listWebhookDeliveries'].map((id) => [
        id,
        { webhook_id: '$response.body#/data/webhook_id' },
      ]),
    ),
  },
});
const listWebhooks = operation({
  ...base,
  operationId: 'listWebhooks',
  summary: 'Your webhooks',
  query: pageParams(),
  answers: { 200: { description: 'A page of webhooks.', schema: envelope('WebhookListAnswer', page(WebhookDetailAnswer)) } },
});
const getWebhook = operation({
  ...base,
  operationId: 'getWebhook',
  summary: 'A webhook',
  params: webhookPath,
  answers: { 200: { description: 'The webhook.', schema: DetailEnvelope } },
  errors: [404],
});
const WebhookReplace = requestSchema('WebhookReplace', webhookSchemas.replace);
const WebhookPatch = requestSchema('WebhookPatch', webhookSchemas.patch);
const changeWebhook = (method: 'PUT' | 'PATCH') => ({
  ...base,
  operationId: method === 'PUT' ? 'replaceWebhook' : 'updateWebhook',
  summary: method === 'PUT' ? 'Replace a webhook' : 'Change some fields of a webhook',
  description: method === 'PUT' ? 'Every field as on create.' : 'Only the fields sent change. Setting `status` to 1 re-enables a disabled webhook.',
  params: webhookPath,
  body: parsedBy(method === 'PUT' ? WebhookReplace : WebhookPatch, (body) => parseWebhookInput(body, method === 'PUT' ? 'replace' : 'patch')),
  bodyOptional: method === 'PATCH',
  answers: { 200: { description: 'The webhook.', schema: DetailEnvelope } },
  errors: [404],
});
const deleteWebhook = operation({
  ...base,
  operationId: 'deleteWebhook',
  summary: 'Delete a webhook',
  params: webhookPath,
  answers: { 200: { description: 'Deleted.', schema: envelope('DeletedWebhookAnswer', z.object({ webhook_id: z.string() })) } },
  errors: [404],
});
const listDeliveries = operation({
  ...base,
  operationId: 'listWebhookDeliveries',
  summary: 'The delivery log of a webhook',
  description: 'Every attempt, newest first; `event_id` narrows it to one event.',
  params: webhookPath,
  // `event_id` as sent: one that names no event lists none.
  query: parsedBy(pageQuery().extend({ event_id: z.string().max(255).optional().meta({ description: 'one event (its UUID)' }) }), (query) => ({
    page: parsePageRequest(query),
    eventId: typeof query.event_id === 'string' && query.event_id.trim() ? query.event_id.trim().toLowerCase() : undefined,
  })),
  answers: { 200: { description: 'A page of attempts.', schema: envelope('WebhookDeliveryListAnswer', page(DeliveryAnswer)) } },
  errors: [404],
});
const redeliver = operation({
  ...base,
  operationId: 'redeliverWebhookEvent',
  summary: 'Deliver an event again',
  description: 'Schedules one more delivery of an event the webhook subscribed to (202). An inactive webhook is 409.',
  params: asSent(webhookId.extend({ event_id: textParam('the event id (a UUID)') })),
  answers: { 202: { description: 'Scheduled.', schema: envelope('RedeliveryAnswer', z.object({ webhook_id: z.string(), event_id: z.string() })) } },
  errors: [404, 409, 503],
});

/**
 * the API (docs/api.md) (create) and the calls it implies (docs/api.md "Webhooks", docs/webhooks.md): list, get,
 * replace (PUT), partial update (PATCH), delete, the delivery log and redelivery of one event.
 * A webhook of another customer is "not found".
 */
export function webhookRoutes(deps: { webhooks: WebhookService }): RoutesPlugin {
  return async (app) => {
    app.post('/webhooks', { schema: createWebhook }, async (request, reply) => {
      const input = request.body;
      const { webhook, secret } = await deps.webhooks.create(request.caller, input);
      return reply
        .code(201)
        .send({ status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_CREATED, request.locale), data: { ...toWebhookResponse(webhook), secret } });
    });

    app.get('/webhooks', { schema: listWebhooks }, async (request) => {
      const page = request.query;
      const { rows, total } = await deps.webhooks.list(request.caller, page);
      return { status: true, message: null, data: pageResponse(rows.map(toWebhookDetail), page, total) };
    });

    app.get('/webhooks/:webhook_id', { schema: getWebhook }, async (request) => {
      const webhook = await deps.webhooks.get(request.caller, request.params.webhook_id);
      return { status: true, message: null, data: toWebhookDetail(webhook) };
    });

    for (const method of ['PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: '/webhooks/:webhook_id',
        schema: operation(changeWebhook(method)),
        // An unknown webhook is 404 whatever the body: looked up before the body is checked; no body is an empty one.
        preValidation: async (request: FastifyRequest) => {
          await deps.webhooks.get(request.caller, (request.params as { webhook_id: string }).webhook_id);
          if (request.body === undefined) request.body = {};
        },
        handler: async (request) => {
          const patch = request.body;
          const webhook = await deps.webhooks.update(request.caller, request.params.webhook_id, patch);
          return { status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_UPDATED, request.locale), data: toWebhookDetail(webhook) };
        },
      });
    }

    app.delete('/webhooks/:webhook_id', { schema: deleteWebhook }, async (request) => {
      await deps.webhooks.remove(request.caller, request.params.webhook_id);
      return { status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_DELETED, request.locale), data: { webhook_id: request.params.webhook_id } };
    });

    app.get('/webhooks/:webhook_id/deliveries', { schema: listDeliveries }, async (request) => {
      const { page, eventId } = request.query;
      const { rows, total } = await deps.webhooks.deliveries(request.caller, request.params.webhook_id, { ...page, eventId });
      return { status: true, message: null, data: pageResponse(rows.map(toDeliveryResponse), page, total) };
    });

    app.post('/webhooks/:webhook_id/deliveries/:event_id/redeliver', { schema: redeliver }, async (request, reply) => {
      const eventId = request.params.event_id.trim();
      if (!eventId) throw new DomainError('WEBHOOK_EVENT_NOT_FOUND');
      const data = await deps.webhooks.redeliver(request.caller, request.params.webhook_id, eventId);
      return reply.code(202).send({ status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_REDELIVERY_SCHEDULED, request.locale), data });
    });
  };
}
