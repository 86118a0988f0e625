import type { FastifyPluginAsync } from 'fastify';
import { DomainError } from '../../domain/errors';
import { parseWebhookInput, type WebhookInput } from '../../domain/webhook';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import { toDeliveryResponse, toWebhookDetail, toWebhookResponse } from '../mappers/webhook.mapper';
import type { WebhookService } from '../../services/webhooks.service';
import { pageResponse, parsePageRequest } from '../../domain/pagination';

type WebhookParams = { Params: { webhook_id: string } };

/**
 * the API (docs/api.md) (create) and the calls it implies (docs/api.md "Webhooks", docs/webhooks.md): list, get,
 * replace (PUT), partial update (PATCH), delete, the delivery log and redelivery of one event.
 * A webhook of another customer is "not found".
 */
export function webhookRoutes(deps: { webhooks: WebhookService }): FastifyPluginAsync {
  return async (app) => {
    app.post('/webhooks', async (request, reply) => {
      const input = parseWebhookInput(request.body, 'create') as WebhookInput;
      const { webhook, secret } = await deps.webhooks.create(request.caller, input);
      return reply.code(201).send({ status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_CREATED, request.locale), data: { ...toWebhookResponse(webhook), secret } });
    });

    app.get('/webhooks', async (request) => {
      const page = parsePageRequest(request.query);
      const { rows, total } = await deps.webhooks.list(request.caller, page);
      return { status: true, message: null, data: pageResponse(rows.map(toWebhookDetail), page, total) };
    });

    app.get<WebhookParams>('/webhooks/:webhook_id', async (request) => {
      const webhook = await deps.webhooks.get(request.caller, request.params.webhook_id);
      return { status: true, message: null, data: toWebhookDetail(webhook) };
    });

    for (const method of ['PUT', 'PATCH'] as const) {
      app.route<WebhookParams>({
        method,
        url: '/webhooks/:webhook_id',
        handler: async (request) => {
          await deps.webhooks.get(request.caller, request.params.webhook_id);
          const patch = parseWebhookInput(request.body ?? {}, method === 'PUT' ? 'replace' : 'patch');
          const webhook = await deps.webhooks.update(request.caller, request.params.webhook_id, patch);
          return { status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_UPDATED, request.locale), data: toWebhookDetail(webhook) };
        },
      });
    }

    app.delete<WebhookParams>('/webhooks/:webhook_id', async (request) => {
      await deps.webhooks.remove(request.caller, request.params.webhook_id);
      return { status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_DELETED, request.locale), data: { webhook_id: request.params.webhook_id } };
    });

    app.get<WebhookParams & { Querystring: { event_id?: string } }>('/webhooks/:webhook_id/deliveries', async (request) => {
      const page = parsePageRequest(request.query);
      const eventId = typeof request.query.event_id === 'string' && request.query.event_id.trim() ? request.query.event_id.trim().toLowerCase() : undefined;
      const { rows, total } = await deps.webhooks.deliveries(request.caller, request.params.webhook_id, { ...page, eventId });
      return { status: true, message: null, data: pageResponse(rows.map(toDeliveryResponse), page, total) };
    });

    app.post<{ Params: { webhook_id: string; event_id: string } }>('/webhooks/:webhook_id/deliveries/:event_id/redeliver', async (request, reply) => {
      const eventId = request.params.event_id.trim();
      if (!eventId) throw new DomainError('WEBHOOK_EVENT_NOT_FOUND');
      const data = await deps.webhooks.redeliver(request.caller, request.params.webhook_id, eventId);
      return reply.code(202).send({ status: true, message: translate(SUCCESS_MESSAGES.WEBHOOK_REDELIVERY_SCHEDULED, request.locale), data });
    });
  };
}
