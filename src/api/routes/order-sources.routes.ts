import type { FastifyRequest } from 'fastify';
import { asSent, pageParams } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';
import { z } from 'zod';
import { ORDER_EVENT_STATES } from '../../domain/order-source';
import { pageResponse } from '../../domain/pagination';
import { orderSourceBodies, parseOrderSourceInput } from '../../imports/order-source-input';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import type { OrderSourceService } from '../../services/order-sources.service';
import { OrderEventAnswer, OrderSourceAnswer, toOrderEventResponse, toOrderSourceResponse } from '../mappers/order-source.mapper';
import { envelope, operation, page, requestSchema } from '../openapi/operation';

/** Largest order webhook body accepted (Shopify orders with hundreds of line items stay far below). */
export const MAX_ORDER_WEBHOOK_BYTES = 2 * 1024 * 1024;

const sourceIdObject = z.object({ id: z.string().min(1).max(64).meta({ description: 'the order source id (a uuid)' }) });
const sourceId = asSent(sourceIdObject);
const SourceEnvelope = envelope('OrderSourceAnswer', OrderSourceAnswer);
const base = { tags: ['Order sources'], access: 'apiKey' } as const;
const sourceLinks = (status: number) => ({
  [status]: Object.fromEntries(
    ['getOrderSource', 'replaceOrderSource', 'deleteOrderSource', 'listOrderEvents'].map((id) => [id, { id: '$response.body#/data/id' }]),
  ),
});

const createSource = operation({
  ...base,
  operationId: 'createOrderSource',
  summary: 'Connect a shop (Shopify, WooCommerce)',
  description:
    "A shop whose orders become drafts the moment they are placed (docs/order-feeds.md). Register the answer's `delivery_url` as the shop's order webhook, signed with the same `secret` (stored encrypted, never shown again). The draft defaults are those of CSV imports.",
  body: parsedBy(requestSchema('OrderSourceCreate', orderSourceBodies.create), (body) => parseOrderSourceInput(body, 'create')),
  answers: { 201: { description: 'The source, with its delivery URL.', schema: SourceEnvelope } },
  links: sourceLinks(201),
});
const listSources = operation({
  ...base,
  operationId: 'listOrderSources',
  summary: 'Your order sources',
  query: pageParams(),
  answers: { 200: { description: 'A page of sources.', schema: envelope('OrderSourceListAnswer', page(OrderSourceAnswer)) } },
});
const getSource = operation({
  ...base,
  operationId: 'getOrderSource',
  summary: 'An order source',
  params: sourceId,
  answers: { 200: { description: 'The source.', schema: SourceEnvelope } },
  errors: [404],
});
const replaceSource = operation({
  ...base,
  operationId: 'replaceOrderSource',
  summary: 'Replace an order source',
  description: 'Every field as on create (the platform cannot change); `secret` may be left out to keep the stored one.',
  params: sourceId,
  body: parsedBy(requestSchema('OrderSourceReplace', orderSourceBodies.replace), (body) => parseOrderSourceInput(body, 'replace')),
  answers: { 200: { description: 'The source.', schema: SourceEnvelope } },
  errors: [404],
});
const deleteSource = operation({
  ...base,
  operationId: 'deleteOrderSource',
  summary: 'Delete an order source',
  description: 'Its delivery URL answers 404 from now on; drafts it made stay.',
  params: sourceId,
  answers: { 200: { description: 'Deleted.', schema: envelope('DeletedOrderSourceAnswer', z.object({ id: z.string() })) } },
  errors: [404],
});
const listEvents = operation({
  ...base,
  operationId: 'listOrderEvents',
  summary: "An order source's received events",
  description: 'Newest first, each with its state (received, drafted, processed, cancelled, duplicate, failed) and, when it failed, why.',
  params: sourceId,
  query: pageParams(),
  answers: { 200: { description: 'A page of events.', schema: envelope('OrderEventListAnswer', page(OrderEventAnswer)) } },
  errors: [404],
});

/** A notice's path: the source, and whatever path the marketplace adds under the delivery URL (Hepsiburada's `orders`, `lineitems/{id}/cancel`, …). */
const noticePath = sourceIdObject.extend({
  '*': z.string().max(512).meta({ description: "the rest of the path, as the marketplace sends it (`notices`, Hepsiburada's `notices/orders`, …)" }),
});

const marketplaceNoticeOptions = {
  operationId: 'receiveMarketplaceNotice',
  summary: "A marketplace's notice",
  description:
    "Called by Trendyol (its webhook, registered at the source's `delivery_url`) or Hepsiburada (its pushes, to paths under the `delivery_url` given to it as the base URL), not by customers: no API key. Marketplaces sign nothing: the notice must present the source's webhook credential (`x-api-key`, or Basic auth with it as the password); nothing of its body is kept or trusted: the source is pulled at once, and the pull reads the packages. A wrong or missing credential is 401; an unknown or disabled source 404.",
  tags: ['Carrier callbacks'],
  access: 'orderWebhookSignature',
  params: asSent(noticePath),
  answers: {
    200: {
      description: 'The credential is right: the source is pulled now.',
      schema: envelope('MarketplaceNoticeAnswer', z.object({ outcome: z.literal('pull'), event: z.null(), state: z.null() })),
    },
  },
  errors: [401, 404],
} satisfies Parameters<typeof operation>[0];
const marketplaceNotice = operation(marketplaceNoticeOptions);

const marketplacePush = operation({
  ...marketplaceNoticeOptions,
  operationId: 'receiveMarketplacePush',
  summary: "A marketplace's notice (PUT)",
});

const receiveOrders = operation({
  operationId: 'receiveOrderWebhook',
  summary: "A shop's order webhook",
  description:
    "Called by Shopify (`orders/create`, `orders/cancelled`) or WooCommerce (`order.created`, `order.updated`), not by customers: no API key, the signature is the proof (`X-Shopify-Hmac-Sha256` or `X-WC-Webhook-Signature`: base64 HMAC-SHA256 of the raw body with the source's secret). Answered once the event is queued durably; its draft is made in a workflow. A redelivery (same `X-Shopify-Event-Id` / `X-WC-Webhook-Delivery-ID`) does nothing again. WooCommerce's unsigned ping (`webhook_id=…`) is answered. Other topics are acknowledged and ignored. An unknown or disabled source is 404.",
  tags: ['Carrier callbacks'],
  access: 'orderWebhookSignature',
  params: sourceId,
  bodyContent: {
    required: true,
    content: {
      'application/json': { schema: { type: 'object', description: 'the order, as the platform sends it (Shopify `Order`, WooCommerce REST `order`)' } },
      'application/x-www-form-urlencoded': {
        schema: { type: 'object', properties: { webhook_id: { type: 'string' } }, description: "WooCommerce's ping when a webhook is saved" },
      },
    },
  },
  answers: {
    200: {
      description: 'Received (queued, a redelivery, a ping or an ignored topic).',
      schema: envelope(
        'OrderWebhookAnswer',
        z.object({
          outcome: z.enum(['queued', 'redelivered', 'ignored', 'ping', 'pull']).meta({
            description: "`pull`: a marketplace's notice, checked by its credential; the source is pulled now",
          }),
          event: z.int().nullable().meta({ description: 'the event id (GET …/events)' }),
          state: z.enum(ORDER_EVENT_STATES).nullable(),
        }),
      ),
    },
  },
  errors: [404],
});

/** Order sources of the caller's customer: create, list, get, replace (PUT), delete, and their events. Another customer's is "not found". */
export function orderSourceRoutes(deps: { orderSources: OrderSourceService }): RoutesPlugin {
  const show = (s: Parameters<typeof toOrderSourceResponse>[0]) => toOrderSourceResponse(s, deps.orderSources.deliveryUrl(s));
  return async (app) => {
    app.post('/order-sources', { schema: createSource }, async (request, reply) => {
      const source = await deps.orderSources.create(request.caller, request.body);
      const message = source.webhookCredential ? SUCCESS_MESSAGES.MARKETPLACE_SOURCE_CREATED : SUCCESS_MESSAGES.ORDER_SOURCE_CREATED;
      return reply.code(201).send({ status: true, message: translate(message, request.locale), data: show(source) });
    });

    app.get('/order-sources', { schema: listSources }, async (request) => {
      const pageRequest = request.query;
      const { rows, total } = await deps.orderSources.list(request.caller, pageRequest);
      return { status: true, message: null, data: pageResponse(rows.map(show), pageRequest, total) };
    });

    app.get('/order-sources/:id', { schema: getSource }, async (request) => ({
      status: true,
      message: null,
      data: show(await deps.orderSources.get(request.caller, request.params.id)),
    }));

    // An unknown source is 404 whatever the body: looked up before the body is checked.
    const sourceExists = async (request: FastifyRequest) => void (await deps.orderSources.get(request.caller, (request.params as { id: string }).id));
    app.put('/order-sources/:id', { schema: replaceSource, preValidation: sourceExists }, async (request) => {
      const source = await deps.orderSources.replace(request.caller, request.params.id, request.body);
      return { status: true, message: translate(SUCCESS_MESSAGES.ORDER_SOURCE_UPDATED, request.locale), data: show(source) };
    });

    app.delete('/order-sources/:id', { schema: deleteSource }, async (request) => {
      await deps.orderSources.remove(request.caller, request.params.id);
      return { status: true, message: translate(SUCCESS_MESSAGES.ORDER_SOURCE_DELETED, request.locale), data: { id: request.params.id } };
    });

    app.get('/order-sources/:id/events', { schema: listEvents }, async (request) => {
      const pageRequest = request.query;
      const { rows, total } = await deps.orderSources.events(request.caller, request.params.id, pageRequest);
      return {
        status: true,
        message: null,
        data: pageResponse(
          rows.map((e) => toOrderEventResponse(e, request.locale)),
          pageRequest,
          total,
        ),
      };
    });
  };
}

/**
 * The delivery URL of order sources (no API key). Its own context: the body is kept as the raw bytes that were
 * signed, whatever the content type (the JSON parser of the rest of the API would re-serialise it), within
 * MAX_ORDER_WEBHOOK_BYTES.
 */
export function orderDeliveryRoutes(deps: { orderSources: OrderSourceService }): RoutesPlugin {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_ORDER_WEBHOOK_BYTES }, (_request, body, done) => done(null, body));
    // A marketplace's notices: Trendyol's webhook at the delivery URL, Hepsiburada's pushes at paths under it
    // (`/orders`, `/packages`, `/lineitems/{id}/cancel`, …), with POST or PUT.
    app.post('/order-sources/:id/push/*', { schema: marketplaceNotice, bodyLimit: MAX_ORDER_WEBHOOK_BYTES }, receive);
    app.put('/order-sources/:id/push/*', { schema: marketplacePush, bodyLimit: MAX_ORDER_WEBHOOK_BYTES }, receive);
    app.post('/order-sources/:id/orders', { schema: receiveOrders, bodyLimit: MAX_ORDER_WEBHOOK_BYTES }, async (request) => receive(request));

    async function receive(request: FastifyRequest) {
      const { id } = request.params as { id: string };
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await deps.orderSources.receive(id, request.headers, body);
      const t = (text: (typeof SUCCESS_MESSAGES)[keyof typeof SUCCESS_MESSAGES]) => translate(text, request.locale);
      switch (outcome.kind) {
        case 'ping':
          return { status: true, message: t(SUCCESS_MESSAGES.ORDER_SOURCE_PING), data: { outcome: 'ping', event: null, state: null } };
        case 'pull':
          return { status: true, message: t(SUCCESS_MESSAGES.MARKETPLACE_PULL_TRIGGERED), data: { outcome: 'pull', event: null, state: null } };
        case 'ignored':
          return { status: true, message: t(SUCCESS_MESSAGES.ORDER_EVENT_IGNORED), data: { outcome: 'ignored', event: null, state: null } };
        default:
          return {
            status: true,
            message: t(
              outcome.kind === 'redelivered'
                ? SUCCESS_MESSAGES.ORDER_EVENT_REDELIVERED
                : outcome.event.action === 'cancel'
                  ? SUCCESS_MESSAGES.ORDER_CANCEL_QUEUED
                  : SUCCESS_MESSAGES.ORDER_EVENT_QUEUED,
            ),
            data: { outcome: outcome.kind, event: outcome.event.id, state: outcome.event.state },
          };
      }
    }
  };
}
