import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { InjectOptions } from 'fastify';
import { routeTable } from '../../src/api/app';
import { multipart } from '../support/multipart';
import { startTestService, type TestService } from '../support/test-service';

/**
 * The OpenAPI document (GET /api/v1/openapi.json): valid OpenAPI 3.1, listing exactly the routes Fastify
 * serves, and true: a walk through every operation checks each answer against the schema the document
 * gives for its status (an answer with an undocumented status fails too).
 */
type Operation = { operationId: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
  webhooks: Record<string, unknown>;
};

let svc: TestService;
let key: string;
let doc: Document;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const operations = new Map<string, { method: string; path: string; op: Operation }>();
const exercised = new Map<string, Set<number>>();

beforeAll(async () => {
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '1', CARRIER_PUSH_TOKENS: '1=push-token-0123456789' });
  ({ apiKey: key } = await svc.customer('OpenAPI walk'));
  const res = await svc.request({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = JSON.parse(res.body) as Document;
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) operations.set(op.operationId, { method: method.toUpperCase(), path, op });
  }
});
afterAll(async () => svc?.stop());

/** Calls an operation and checks the answer against the document: its status is documented, its JSON body matches. */
async function call(
  operationId: string,
  options: Omit<InjectOptions, 'method'> & { apiKey?: string; lang?: string; params?: Record<string, string | number> },
) {
  const entry = operations.get(operationId);
  if (!entry) throw new Error(`no operation ${operationId} in the document`);
  const url = options.url ?? entry.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(options.params?.[name])));
  const { params: _params, ...inject } = options;
  const res = await svc.request({ ...inject, method: entry.method as 'GET', url });
  const documented = entry.op.responses[String(res.statusCode)];
  expect({ operationId, status: res.statusCode, documented: documented !== undefined, body: documented ? undefined : res.body }).toEqual({
    operationId,
    status: res.statusCode,
    documented: true,
    body: undefined,
  });
  const type = String(res.headers['content-type'] ?? '').split(';')[0];
  const content = documented.content?.[type];
  expect({ operationId, status: res.statusCode, type, documentedType: content !== undefined }).toEqual({
    operationId,
    status: res.statusCode,
    type,
    documentedType: true,
  });
  if (type === 'application/json' && content?.schema) {
    const { $ref } = content.schema as { $ref?: string };
    const validate = ajv.compile($ref ? { $ref: `openapi.json${$ref}` } : (content.schema as object));
    const body: unknown = JSON.parse(res.body);
    const ok = validate(body);
    expect({ operationId, status: res.statusCode, errors: ok ? null : validate.errors }).toEqual({ operationId, status: res.statusCode, errors: null });
  }
  exercised.set(operationId, (exercised.get(operationId) ?? new Set()).add(res.statusCode));
  return res;
}
const json = (payload: unknown) => ({ headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
const dataOf = <T>(res: { body: string }) => (JSON.parse(res.body) as { data: T }).data;

describe('the document', () => {
  it('is valid OpenAPI 3.1 (checked by an OpenAPI schema validator)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    const out = execFileSync(process.execPath, [require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js'), join(dir, 'openapi.json')], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ valid: true });
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks)).toEqual(['consignment.status.updated', 'consignment.deleted']);
  });

  it("lists every route Fastify serves, and nothing else (the reference page's files and the console's pages aside)", () => {
    const served = routeTable(svc.app)
      .filter((r) => !r.hidden && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}')}`)
      .sort();
    const documented = [...operations.values()].map((o) => `${o.method} ${o.path}`).sort();
    expect(documented).toEqual(served);
    // The hidden ones are the reference page's, and the console's pages (and `/`, which redirects to them): HTML, not the API.
    expect(
      routeTable(svc.app)
        .filter((r) => r.hidden && !r.url.startsWith('/docs') && !r.url.startsWith('/console') && r.url !== '/')
        .map((r) => `${r.method} ${r.url}`),
    ).toEqual([]);
  });

  it('describes every operation: summary, tags, security, Accept-Language', () => {
    for (const { op } of operations.values()) {
      const o = op as Operation & { summary?: string; tags?: string[]; security?: unknown[]; parameters?: { in: string; name: string }[] };
      expect({ id: o.operationId, summary: typeof o.summary, tags: (o.tags?.length ?? 0) > 0, security: Array.isArray(o.security) }).toEqual({
        id: o.operationId,
        summary: 'string',
        tags: true,
        security: true,
      });
      expect(o.parameters?.some((p) => p.in === 'header' && p.name === 'accept-language')).toBe(true);
    }
  });
});

describe('every operation answers as documented', () => {
  it('walks the API: drafts, processing, lookups, labels, tracking, cancel, webhooks, carrier accounts, imports', async () => {
    await call('getOpenApiDocument', {});
    await call('getHealth', {});
    await call('getReadiness', {});
    await call('getMetrics', {});
    await call('searchAddresses', { url: '/api/v1/address/search?countryIso2=TR&keyword=kadikoy&searchFields[]=city', apiKey: key });
    await call('searchAddresses', { url: '/api/v1/address/search?countryIso2=XX', apiKey: key, lang: 'tr' });
    await call('listProviders', { apiKey: key });
    await call('getProviderLogo', { params: { id: 1 } });
    await call('getProviderLogo', { params: { id: 999 } });

    // Drafts
    const body = {
      reference_no: 'OAS-1',
      provider_id: 1,
      consignor: { name: 'Ayşe Yılmaz', country: 'TR', city: 'İstanbul', address: 'Caferağa Mah. Moda Cd. 1', phone_number: '+905551112233' },
      consignee: { name: 'Mehmet Kaya', country: 'TR', city: 'Ankara', address: 'Kızılay Mah. 1', phone_number: '+905559998877' },
      packages: [{ package_type: 1, weight: 1.2, length: 30, width: 20, height: 10 }],
    };
    await call('createDraft', { ...json(body), headers: { ...json(body).headers, 'idempotency-key': 'oas-1' }, apiKey: key });
    const created = dataOf<{ id: number }>(
      await call('createDraft', { ...json(body), headers: { ...json(body).headers, 'idempotency-key': 'oas-1' }, apiKey: key }),
    );
    await call('createDraft', { ...json(body), apiKey: key }); // reference used: 409
    await call('createDraft', { ...json({ ...body, reference_no: 'OAS-2' }), headers: { ...json(body).headers, 'idempotency-key': 'oas-1' }, apiKey: key }); // 422
    await call('createDraft', { ...json({ consignor: 5 }), apiKey: key });
    await call('createDraft', { ...json(body) }); // no key: 401
    await call('createDraft', { headers: { 'content-type': 'text/plain' }, payload: 'x', apiKey: key }); // 415
    await call('updateDraft', { params: { id: created.id }, ...json({ consignee: { city: 'Ankara' } }), apiKey: key, lang: 'tr' });
    await call('updateDraft', { params: { id: 987654 }, ...json({}), apiKey: key });
    await call('updateDraft', { params: { id: 'abc' }, ...json({}), apiKey: key });
    await call('processDraft', { params: { id: created.id }, apiKey: key });
    await call('processDraft', { params: { id: created.id }, apiKey: key }); // no longer a draft: 409
    // An Idempotency-Key used again with another body: 422, on processing and cancelling as on creation.
    await call('processDraft', {
      params: { id: created.id },
      ...json({ label_format: 'zpl' }),
      headers: { ...json({}).headers, 'idempotency-key': 'oas-p' },
      apiKey: key,
    });
    await call('processDraft', {
      params: { id: created.id },
      ...json({ label_format: 'pdf' }),
      headers: { ...json({}).headers, 'idempotency-key': 'oas-p' },
      apiKey: key,
    });
    await call('updateDraft', { params: { id: created.id }, ...json({}), apiKey: key }); // 409
    await call('deleteDraft', { params: { id: created.id }, apiKey: key }); // not a draft: 409
    const doomed = dataOf<{ id: number }>(await call('createDraft', { ...json({ ...body, reference_no: 'OAS-DEL' }), apiKey: key }));
    await call('deleteDraft', { params: { id: doomed.id }, apiKey: key });
    await call('deleteDraft', { params: { id: doomed.id }, apiKey: key }); // 404

    // Lookups, label, tracking, sandbox events
    await call('findConsignmentByReference', { params: { reference_no: 'OAS-1' }, apiKey: key });
    await call('findConsignmentByReference', { params: { reference_no: 'NOPE' }, apiKey: key });
    await call('listConsignments', { url: '/api/v1/consignments?status=2&status=3&limit=5', apiKey: key });
    await call('listConsignments', { url: '/api/v1/consignments?limit=500', apiKey: key });
    const detail = dataOf<{ labels: { file_url: string }[]; barcode: string }>(
      await call('getConsignmentDetails', { params: { id: created.id }, apiKey: key }),
    );
    const labelUrl = new URL(detail.labels[0].file_url);
    await call('downloadLabel', { url: `${labelUrl.pathname}${labelUrl.search}` });
    await call('downloadLabel', { url: `${labelUrl.pathname}?hash=${'x'.repeat(32)}` });
    await call('trackConsignment', { params: { id: 1, code: detail.barcode } });
    await call('trackConsignment', { params: { id: 1, code: 'NOPE' } });
    await call('emitSandboxEvent', { params: { id: created.id }, ...json({ event: 'PICKED_UP', location: 'İstanbul Hub' }), apiKey: key });
    await call('emitSandboxEvent', { params: { id: created.id }, ...json({ event: 'TELEPORTED' }), apiKey: key });
    await call('pushCarrierEvents', {
      params: { id: 1 },
      ...json({ events: [{ tracking_code: 'NOPE', event_id: 'e1', event: 'PICKED_UP' }] }),
      headers: { 'content-type': 'application/json', authorization: 'Bearer push-token-0123456789' },
    });
    await call('pushCarrierEvents', { params: { id: 1 }, ...json({ events: [] }) });
    await call('receiveAccountStatusWebhook', { params: { provider_id: 5 }, ...json({}) });

    // Merged labels and customs documents
    await call('mergeLabels', { ...json({ consignments: [created.id, 'CF00000000000'], layout: 'a4' }), apiKey: key });
    await call('mergeLabels', { ...json({ consignments: [created.id], format: 'zpl' }), apiKey: key });
    await call('mergeLabels', { ...json({ consignments: [987654] }), apiKey: key }); // none has a label: 409
    await call('mergeLabels', { ...json({ consignments: [] }), apiKey: key });
    const abroad = {
      ...body,
      reference_no: 'OAS-INTL',
      consignee: { ...body.consignee, country: 'DE', city: 'Berlin', postal_code: '10115' },
      packages: [
        { ...body.packages[0], items: [{ description: 'Kilim', gtip: '630493000000', origin: 'TR', currency_code: 'EUR', unit_price: 20, quantity: 1 }] },
      ],
    };
    const international = dataOf<{ id: number }>(await call('createDraft', { ...json(abroad), apiKey: key }));
    await call('customsDocument', { params: { id: international.id, file: 'cn22.pdf' }, apiKey: key });
    await call('customsDocument', { params: { id: international.id, file: 'cn23.pdf' }, apiKey: key }); // 409
    await call('customsDocument', { params: { id: 987654, file: 'proforma.pdf' }, apiKey: key });

    // Cancel: a draft at once, then again (409)
    const other = dataOf<{ id: number }>(await call('createDraft', { ...json({ ...body, reference_no: 'OAS-3' }), apiKey: key }));
    await call('cancelConsignment', { params: { value: String(other.id) }, apiKey: key });
    await call('cancelConsignment', { params: { value: 'OAS-3' }, apiKey: key });
    await call('cancelConsignment', { params: { value: 'NOPE' }, apiKey: key });
    await call('cancelConsignment', { params: { value: 'OAS-3' }, headers: { 'idempotency-key': 'oas-c' }, apiKey: key });
    await call('cancelConsignment', {
      params: { value: 'OAS-3' },
      ...json({ reason: 'x' }),
      headers: { ...json({}).headers, 'idempotency-key': 'oas-c' },
      apiKey: key,
    });

    // Webhooks
    const hook = {
      description: 'status changes',
      endpoint: 'http://127.0.0.1:9/hook',
      subscribedEvent: 'consignment.status.updated',
      securityType: 'header',
      dataType: 'JSON',
      data: '',
      securityData: [],
      status: 0,
    };
    const webhook = dataOf<{ webhook_id: string }>(await call('createWebhook', { ...json(hook), apiKey: key }));
    await call('createWebhook', { ...json({ ...hook, endpoint: 'ftp://x' }), apiKey: key });
    await call('listWebhooks', { url: '/api/v1/webhooks?page=1&limit=5', apiKey: key });
    await call('getWebhook', { params: { webhook_id: webhook.webhook_id }, apiKey: key });
    await call('getWebhook', { params: { webhook_id: 'nope' }, apiKey: key });
    await call('updateWebhook', { params: { webhook_id: webhook.webhook_id }, ...json({ description: 'renamed' }), apiKey: key });
    await call('replaceWebhook', { params: { webhook_id: webhook.webhook_id }, ...json(hook), apiKey: key });
    await call('listWebhookDeliveries', { params: { webhook_id: webhook.webhook_id }, apiKey: key });
    await call('redeliverWebhookEvent', { params: { webhook_id: webhook.webhook_id, event_id: '00000000-0000-4000-8000-000000000000' }, apiKey: key });
    await call('deleteWebhook', { params: { webhook_id: webhook.webhook_id }, apiKey: key });

    // Carrier accounts
    const account = {
      carrier: 'consignment_api',
      description: 'remote',
      credentials: { base_url: 'http://127.0.0.1:9', api_key: 'remote-key-123456' },
      settings: {},
    };
    const created_account = dataOf<{ provider_id: number }>(await call('createCarrierAccount', { ...json(account), apiKey: key }));
    await call('createCarrierAccount', { ...json({ carrier: 'unknown' }), apiKey: key });
    await call('listCarrierAccounts', { apiKey: key });
    await call('getCarrierAccount', { params: { provider_id: created_account.provider_id }, apiKey: key });
    await call('getCarrierAccount', { params: { provider_id: 99999999999 }, apiKey: key });
    await call('replaceCarrierAccount', {
      params: { provider_id: created_account.provider_id },
      ...json({ ...account, credentials: undefined, description: 'renamed' }),
      apiKey: key,
    });
    await call('deleteCarrierAccount', { params: { provider_id: created_account.provider_id }, apiKey: key });

    // Order sources and their webhook deliveries (signed, no API key)
    const sourceBody = {
      platform: 'shopify',
      name: 'Shop',
      secret: 'shpss_0123456789abcdef',
      consignor: { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', phone_number: '+902161234567' },
      preference: 1,
    };
    const source = dataOf<{ id: string }>(await call('createOrderSource', { ...json(sourceBody), apiKey: key }));
    await call('createOrderSource', { ...json({ platform: 'etsy' }), apiKey: key });
    await call('listOrderSources', { apiKey: key });
    await call('getOrderSource', { params: { id: source.id }, apiKey: key });
    await call('getOrderSource', { params: { id: 'nope' }, apiKey: key });
    await call('replaceOrderSource', { params: { id: source.id }, ...json({ ...sourceBody, secret: undefined, name: 'Renamed' }), apiKey: key });
    const order = JSON.stringify({ id: 1, admin_graphql_api_id: 'gid://shopify/Order/1', name: '#OAS-1', line_items: [] });
    const signed = (topic: string, secret = sourceBody.secret) => ({
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-event-id': `oas-${topic}`,
      'x-shopify-hmac-sha256': createHmac('sha256', secret).update(order).digest('base64'),
    });
    await call('receiveOrderWebhook', { params: { id: source.id }, headers: signed('orders/create'), payload: order });
    await call('receiveOrderWebhook', { params: { id: source.id }, headers: signed('orders/create', 'wrong-secret-0000'), payload: order }); // 401
    await call('receiveOrderWebhook', { params: { id: source.id }, headers: signed('orders/create'), payload: '{}' }); // signed for another body: 401
    await call('receiveOrderWebhook', { params: { id: 'nope' }, headers: signed('orders/create'), payload: order }); // 404
    // A marketplace's notices (a shop source has no marketplace credential: 401)
    await call('receiveMarketplaceNotice', { url: `/api/v1/order-sources/${source.id}/push/notices`, headers: { 'x-api-key': 'not-it' }, payload: '{}' });
    await call('receiveMarketplaceNotice', { url: '/api/v1/order-sources/nope/push/notices', payload: '{}' }); // 404
    await call('receiveMarketplacePush', { url: `/api/v1/order-sources/${source.id}/push/notices/orders/1/shippingaddress`, payload: '{}' });
    await call('receiveMarketplacePush', { url: '/api/v1/order-sources/nope/push/notices/lineitems/1/cancel', payload: '{}' }); // 404
    await call('listOrderEvents', { params: { id: source.id }, apiKey: key });
    await call('listOrderEvents', { params: { id: 'nope' }, apiKey: key });
    await call('deleteOrderSource', { params: { id: source.id }, apiKey: key });
    await call('deleteOrderSource', { params: { id: source.id }, apiKey: key }); // 404

    // Documents
    const upload = multipart([{ name: 'file', filename: 'invoice.pdf', type: 'application/pdf', content: '%PDF-1.4\n%%EOF\n' }]);
    const uploaded = dataOf<{ id: number }>(await call('uploadDocument', { payload: upload.payload, headers: upload.headers, apiKey: key }));
    const notAFile = multipart([{ name: 'file', filename: 'notes.txt', content: 'just text' }]);
    await call('uploadDocument', { payload: notAFile.payload, headers: notAFile.headers, apiKey: key }); // 415
    const withDocument = dataOf<{ id: number }>(
      await call('createDraft', { ...json({ ...body, reference_no: 'OAS-DOC', documents: [{ id: uploaded.id }] }), apiKey: key }),
    );
    const documentUrl = new URL(
      dataOf<{ documents: { file_url: string }[] }>(await call('getConsignmentDetails', { params: { id: withDocument.id }, apiKey: key })).documents[0]
        .file_url,
    );
    await call('downloadDocument', { url: `${documentUrl.pathname}${documentUrl.search}` });
    await call('downloadDocument', { url: `${documentUrl.pathname}?hash=${'x'.repeat(32)}` });

    // Imports
    const template = await call('getImportTemplate', { apiKey: key });
    const imported = dataOf<{ id: string }>(
      await call('startImport', {
        ...json({
          preset: 'generic',
          consignor: { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+902161234567' },
          csv: template.body.replace(/^\uFEFF/, ''),
        }),
        apiKey: key,
      }),
    );
    await call('startImport', { ...json({ preset: 'nope', csv: 'a,b\n1,2\n' }), apiKey: key });
    await call('listImports', { apiKey: key });
    await call('getImport', { params: { id: imported.id }, apiKey: key });
    await call('getImport', { params: { id: 'nope' }, apiKey: key });
    await call('listImportErrors', { params: { id: imported.id }, apiKey: key });
    await call('listImportErrors', { url: `/api/v1/imports/${imported.id}/errors?format=csv`, apiKey: key });
    await call('listImportCorrections', { params: { id: imported.id }, apiKey: key });
    await call('listImportCorrections', { params: { id: 'nope' }, apiKey: key });
    await call('importLabels', { params: { id: imported.id }, apiKey: key }); // its drafts have no labels: 409
    await call('importLabels', { url: `/api/v1/imports/${imported.id}/labels?format=zpl&layout=a4`, apiKey: key });
    await call('importLabels', { params: { id: 'nope' }, apiKey: key });
    const cancelled = await call('cancelImport', { params: { id: imported.id }, apiKey: key });
    expect([200, 409]).toContain(cancelled.statusCode);

    // Every operation of the document was called.
    expect([...operations.keys()].filter((id) => !exercised.has(id))).toEqual([]);
    const documented = [...operations.values()].flatMap(({ op }) => Object.keys(op.responses).map((status) => `${op.operationId} ${status}`));
    const reached = [...exercised].flatMap(([id, statuses]) => [...statuses].map((status) => `${id} ${status}`));
    console.log(
      `the walk reached ${reached.length} of ${documented.length} documented answers (the rest need faults, limits or other callers: 413, 415, 429, 503, …)`,
    );
  });
});
