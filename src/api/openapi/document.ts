import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_WEBHOOK_HEADER } from '../../carriers/consignment-api';
import { DELETED_EVENT, deletedEventSchema, STATUS_UPDATED_EVENT, statusEventSchema } from '../../domain/webhook';
import { PACKAGE_VERSION } from '../../project-root';
import { answerSchema, components, componentRef, documentOf, operation } from './operation';

/** Where the document and the reference page are served. */
export const OPENAPI_PATH = '/api/v1/openapi.json';
export const REFERENCE_PAGE_PATH = '/docs';

answerSchema('StatusEvent', statusEventSchema, { description: 'The body of a status change delivery (docs/webhooks.md).' });
answerSchema('DeletedEvent', deletedEventSchema, { description: 'The body of a draft deletion delivery (docs/webhooks.md).' });

const DESCRIPTION = `Consignment shipping: search addresses, create draft consignments, process them (carrier booking and
label), look them up, cancel them, receive status changes by webhook, import orders from CSV files, and take
orders from Shopify and WooCommerce shops as they are placed.

**Envelope.** Every answer is \`{"status": true, "message": …, "data": …}\` or \`{"status": false, "errors": [{"message": …, "field"?: …}]}\`.

**API key.** \`APIKEY: <key>\` or \`Authorization: APIKEY <key>\`.

**Language.** \`Accept-Language: tr\` gives Turkish messages, anything else English; \`Content-Language\` says which.

**Idempotency.** Draft creation and imports take an \`Idempotency-Key\`: a retry with the same key answers the first outcome.

**Rate limit.** The two lookups allow 300 requests a minute per API key (\`RateLimit-*\` headers; 429 with \`Retry-After\` beyond).`;

const TAGS = [
  { name: 'Address search', description: 'Countries, cities, districts and postal codes for filling in parties.' },
  { name: 'Drafts', description: 'Create, change and process draft consignments (status 24).' },
  { name: 'Consignments', description: 'Look up and cancel consignments.' },
  { name: 'Labels', description: 'Label downloads by signed link.' },
  { name: 'Documents', description: 'Files drafts reference: invoices, certificates (PDF, PNG, JPEG).' },
  { name: 'Webhooks', description: 'Status changes pushed to your endpoint (docs/webhooks.md).' },
  { name: 'Carrier accounts', description: 'Your own accounts with carriers (docs/carriers.md).' },
  { name: 'Providers', description: 'The carriers you can ship with; their logos and the public tracking view.' },
  { name: 'Imports', description: 'Orders from CSV exports become drafts (docs/imports.md).' },
  { name: 'Order sources', description: 'Shopify and WooCommerce shops whose orders become drafts as they are placed (docs/order-feeds.md).' },
  { name: 'Carrier callbacks', description: 'Called by carriers and remote services, not by customers.' },
  { name: 'Sandbox', description: 'Make sandbox carriers emit tracking events (SANDBOX=1).' },
  { name: 'Service', description: 'Health, readiness and this document.' },
];

/** A webhook delivery as an OpenAPI webhook: the POST your endpoint receives. */
const webhookOperation = (summary: string, what: string, schema: string) => ({
  post: {
    summary,
    description: `${what}, to each active webhook subscribed to it, in order per consignment, at least once (deduplicate on \`id\`). Signed as Standard Webhooks: \`webhook-signature\` is \`v1,\` + base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\` with your secret. Any 2xx answer counts as delivered; others are retried.`,
    parameters: [
      { in: 'header', name: 'webhook-id', required: true, schema: { type: 'string' }, description: 'the event id' },
      { in: 'header', name: 'webhook-timestamp', required: true, schema: { type: 'integer' }, description: 'Unix seconds' },
      {
        in: 'header',
        name: 'webhook-signature',
        required: true,
        schema: { type: 'string' },
        description: '`v1,<base64>`, space-separated when there are several',
      },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: componentRef(schema) } } },
    responses: { '2XX': { description: 'Delivered.' }, default: { description: 'Not delivered: retried with backoff.' } },
  },
});

/** The document's parts that no route carries: security schemes, the webhook, components. */
function finish(document: Record<string, unknown>): Record<string, unknown> {
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  for (const operations of Object.values(paths)) {
    for (const op of Object.values(operations)) {
      // A body that is not one JSON schema (multipart imports) is stated whole by its route.
      if (op['x-request-body']) {
        op.requestBody = op['x-request-body'];
        delete op['x-request-body'];
      }
      const links = op['x-links'] as Record<string, Record<string, Record<string, string>>> | undefined;
      for (const [status, targets] of Object.entries(links ?? {})) {
        const response = (op.responses as Record<string, Record<string, unknown>>)[status];
        response.links = Object.fromEntries(Object.entries(targets).map(([operationId, parameters]) => [operationId, { operationId, parameters }]));
      }
      delete op['x-links'];
      if (op['x-body-optional']) {
        (op.requestBody as { required?: boolean }).required = false;
        delete op['x-body-optional'];
      }
    }
  }
  document.components = { ...(document.components as object), schemas: components() };
  return document;
}

/**
 * The OpenAPI 3.1 document (GET /api/v1/openapi.json), generated from the routes' schemas by @fastify/swagger,
 * and the reference page (/docs, Swagger UI served from the npm package: no CDN). Registered before the routes,
 * so every route is seen.
 */
export const openApiPlugin = fp(
  async function openApi(app: FastifyInstance): Promise<void> {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'consignflow API', version: PACKAGE_VERSION, description: DESCRIPTION, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
        servers: [{ url: '/', description: 'this service' }],
        tags: TAGS,
        components: {
          securitySchemes: {
            ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'APIKEY', description: 'The API key as is.' },
            ApiKeyAuthorization: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`APIKEY <key>`.' },
            CarrierToken: { type: 'http', scheme: 'bearer', description: "A carrier's push token (CARRIER_PUSH_TOKENS)." },
            StatusWebhookSecret: {
              type: 'apiKey',
              in: 'header',
              name: STATUS_WEBHOOK_HEADER,
              description: 'The secret registered with the remote service (or its `hash` header).',
            },
            StatusWebhookBasic: { type: 'http', scheme: 'basic', description: "The secret as the Basic auth password (Kolay Gelsin's portal)." },
            ShopifyHmac: {
              type: 'apiKey',
              in: 'header',
              name: 'X-Shopify-Hmac-Sha256',
              description: "Shopify's signature: base64 HMAC-SHA256 of the raw body with the order source's secret. No API key.",
            },
            WooCommerceSignature: {
              type: 'apiKey',
              in: 'header',
              name: 'X-WC-Webhook-Signature',
              description: "WooCommerce's signature: base64 HMAC-SHA256 of the raw body with the order source's secret. No API key.",
            },
          },
        },
        security: [{ ApiKeyHeader: [] }, { ApiKeyAuthorization: [] }],
        webhooks: {
          [STATUS_UPDATED_EVENT]: webhookOperation(
            'A consignment changed status',
            'One POST per status change (processing, every carrier status, cancellation)',
            'StatusEvent',
          ),
          [DELETED_EVENT]: webhookOperation('A draft was deleted', 'One POST when a draft is deleted, its last event', 'DeletedEvent'),
        },
      } as never,
      // Routes carry their zod schemas (validation); the document describes each by its operation.
      transform: ({ schema, url }) => ({ schema: documentOf(schema) as never, url }),
      transformObject: (documentObject) => finish((documentObject as { openapiObject: Record<string, unknown> }).openapiObject) as never,
    });
    await app.register(swaggerUi, {
      routePrefix: REFERENCE_PAGE_PATH,
      // BaseLayout: no top bar (its logo and URL box are Swagger UI's, not ours).
      uiConfig: { url: OPENAPI_PATH, layout: 'BaseLayout', docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
      theme: { title: 'consignflow API reference' },
      staticCSP: true,
    });
    app.get(
      OPENAPI_PATH,
      {
        schema: operation({
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          description: 'The OpenAPI 3.1 description of every route the service serves; clients can be generated from it (docs/api.md, "Clients").',
          tags: ['Service'],
          access: 'public',
          answers: { 200: { description: 'The OpenAPI document.', content: { 'application/json': { schema: { type: 'object' } } } } },
        }),
      },
      async () => app.swagger(),
    );
  },
  { name: 'openapi' },
);
