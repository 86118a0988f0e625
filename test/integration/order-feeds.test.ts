import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { insertOrderEvent } from '../../src/db/order-sources.repository';
import { STATUS } from '../../src/domain/statuses';
import { orderEventWorkflowId } from '../../src/temporal/order-event.starter';
import { consignmentApi, waitForStatus } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';
import { waitFor } from '../support/wait';

/**
 * Live order feeds over HTTP (docs/order-feeds.md): order sources, and Shopify and WooCommerce order webhooks
 * signed as the platforms sign them (the fixtures are their documented example payloads, with Turkish
 * addresses), through the real runtime: Temporal, the worker and the database.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/order-feeds', name), 'utf8');
const SHOPIFY_ORDER = fixture('shopify-orders-create.json');
const WOO_ORDER = fixture('woocommerce-order-created.json');
const SECRET = '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';
const WOO_SECRET = 'wc-webhook-secret-0123456789';
const consignor = { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+902161234567' };

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Anadolu Butik'));
  ({ apiKey: otherKey } = await svc.customer('Başka Mağaza'));
});
afterAll(async () => svc?.stop());

const sign = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('base64');

async function createSource(body: Record<string, unknown>, apiKey = key): Promise<Json> {
  const res = await svc.request({ method: 'POST', url: '/api/v1/order-sources', apiKey, payload: body });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

/** POSTs a body to a source's delivery URL as Shopify does: signed, with its topic and event id. */
function shopify(
  sourceId: string,
  body: string,
  options: { topic?: string; eventId?: string; secret?: string; signature?: string | null; lang?: string } = {},
) {
  const signature = options.signature === undefined ? sign(body, options.secret ?? SECRET) : options.signature;
  return svc.request({
    method: 'POST',
    url: `/api/v1/order-sources/${sourceId}/orders`,
    lang: options.lang,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': options.topic ?? 'orders/create',
      'x-shopify-shop-domain': 'anadolu-butik.myshopify.com',
      'x-shopify-event-id': options.eventId ?? randomUUID(),
      'x-shopify-triggered-at': '2025-03-14T07:21:05.123Z',
      'x-shopify-api-version': '2025-01',
      ...(signature === null ? {} : { 'x-shopify-hmac-sha256': signature }),
    },
    payload: body,
  });
}

/** POSTs a body as WooCommerce does. */
function woocommerce(sourceId: string, body: string, options: { topic?: string; deliveryId?: string } = {}) {
  return svc.request({
    method: 'POST',
    url: `/api/v1/order-sources/${sourceId}/orders`,
    headers: {
      'content-type': 'application/json',
      'x-wc-webhook-source': 'https://sabun-atolyesi.example/',
      'x-wc-webhook-topic': options.topic ?? 'order.created',
      'x-wc-webhook-resource': 'order',
      'x-wc-webhook-event': (options.topic ?? 'order.created').split('.')[1],
      'x-wc-webhook-id': '17',
      'x-wc-webhook-delivery-id': options.deliveryId ?? randomUUID().replace(/-/g, ''),
      'x-wc-webhook-signature': sign(body, WOO_SECRET),
    },
    payload: body,
  });
}

async function events(sourceId: string, lang?: string): Promise<Json[]> {
  const res = await svc.request({ method: 'GET', url: `/api/v1/order-sources/${sourceId}/events?limit=100`, apiKey: key, lang });
  expect(res.statusCode).toBe(200);
  return res.json().data.results;
}

const eventSettled = (sourceId: string, eventId: number, states: string[] = ['drafted', 'processed', 'cancelled', 'duplicate', 'failed']) =>
  waitFor(`order event ${eventId} settled`, async () => (await events(sourceId)).find((e) => e.id === eventId && states.includes(e.state)), {
    timeoutMs: 30_000,
  });

/** A Shopify order of its own (id, name, line item prices), so tests do not share drafts. */
function shopifyOrder(n: number, changes: (order: Json) => void = () => undefined): string {
  const order = JSON.parse(SHOPIFY_ORDER) as Json;
  order.id = 5104958001000000000 + n;
  order.admin_graphql_api_id = `gid://shopify/Order/${5104958001000000000n + BigInt(n)}`;
  order.name = `#${2000 + n}`;
  order.order_number = 2000 + n;
  changes(order);
  return JSON.stringify(order);
}

describe('order sources', () => {
  it('are created, listed, read, replaced and deleted; the secret is never shown; another customer gets 404', async () => {
    const source = await createSource({
      platform: 'shopify',
      name: 'Anadolu Butik',
      secret: SECRET,
      consignor,
      preference: 1,
      package: { weight: 1, length: 30, width: 20, height: 10 },
    });
    expect(source).toMatchObject({
      platform: 'shopify',
      name: 'Anadolu Butik',
      status: 1,
      process: false,
      secret_hint: `****${SECRET.slice(-4)}`,
      delivery_url: `http://consignflow.test/api/v1/order-sources/${source.id}/orders`,
    });
    const get = await svc.request({ method: 'GET', url: `/api/v1/order-sources/${source.id}`, apiKey: key });
    expect(get.statusCode).toBe(200);
    expect(get.body).not.toContain(SECRET);
    const list = await svc.request({ method: 'GET', url: '/api/v1/order-sources', apiKey: key });
    expect(list.json().data.results.map((s: Json) => s.id)).toContain(source.id);
    expect(list.body).not.toContain(SECRET);

    for (const [method, url] of [
      ['GET', `/api/v1/order-sources/${source.id}`],
      ['GET', `/api/v1/order-sources/${source.id}/events`],
      ['DELETE', `/api/v1/order-sources/${source.id}`],
    ] as const) {
      const res = await svc.request({ method, url, apiKey: otherKey, lang: 'tr' });
      expect([res.statusCode, res.json().errors[0].message]).toEqual([404, 'Sipariş kaynağı bulunamadı.']);
    }
    const put = await svc.request({
      method: 'PUT',
      url: `/api/v1/order-sources/${source.id}`,
      apiKey: otherKey,
      payload: { platform: 'shopify', name: 'x', consignor },
    });
    expect(put.statusCode).toBe(404);

    const replaced = await svc.request({
      method: 'PUT',
      url: `/api/v1/order-sources/${source.id}`,
      apiKey: key,
      payload: { platform: 'shopify', name: 'Renamed', consignor, preference: 2 },
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data).toMatchObject({ name: 'Renamed', preference: 2, secret_hint: source.secret_hint });
    // The old secret still signs: a PUT without a secret keeps it.
    expect((await shopify(source.id, shopifyOrder(900), { topic: 'products/update' })).statusCode).toBe(200);
    const platformChange = await svc.request({
      method: 'PUT',
      url: `/api/v1/order-sources/${source.id}`,
      apiKey: key,
      payload: { platform: 'woocommerce', name: 'x', consignor },
    });
    expect([platformChange.statusCode, platformChange.json().errors[0].field]).toEqual([400, 'platform']);

    const deleted = await svc.request({ method: 'DELETE', url: `/api/v1/order-sources/${source.id}`, apiKey: key });
    expect(deleted.statusCode).toBe(200);
    expect((await svc.request({ method: 'GET', url: `/api/v1/order-sources/${source.id}`, apiKey: key })).statusCode).toBe(404);
    // A deleted source's URL is gone too.
    expect((await shopify(source.id, shopifyOrder(901))).statusCode).toBe(404);
  });

  it('refuse what imports refuse: no sender, unknown fields, a carrier that is not yours, processing without a weight', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/api/v1/order-sources',
      apiKey: key,
      payload: { platform: 'etsy', name: '', secret: 'short', color: 'red' },
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: Json) => e.field)
        .sort(),
    ).toEqual(['color', 'name', 'platform', 'secret'].sort());
    const noSender = await svc.request({
      method: 'POST',
      url: '/api/v1/order-sources',
      apiKey: key,
      payload: { platform: 'shopify', name: 'x', secret: SECRET },
    });
    expect(noSender.json().errors.map((e: Json) => e.field)).toContain('consignor.name');
    const provider = await svc.request({
      method: 'POST',
      url: '/api/v1/order-sources',
      apiKey: key,
      payload: { platform: 'shopify', name: 'x', secret: SECRET, consignor, provider_id: 999999 },
    });
    expect([provider.statusCode, provider.json().errors[0].field]).toEqual([400, 'provider_id']);
    const woo = await svc.request({
      method: 'POST',
      url: '/api/v1/order-sources',
      apiKey: key,
      payload: { platform: 'woocommerce', name: 'x', secret: SECRET, consignor, preference: 1, process: true },
    });
    expect(woo.json().errors.map((e: Json) => e.field)).toContain('package.weight');
  });
});

describe('Shopify orders', () => {
  let source: Json;
  beforeAll(async () => {
    source = await createSource({
      platform: 'shopify',
      name: 'Anadolu Butik (Shopify)',
      secret: SECRET,
      consignor,
      preference: 1,
      package: { weight: 1, length: 30, width: 20, height: 10 },
    });
  });

  it('orders/create becomes a draft with the mapped fields; a redelivery makes nothing twice', async () => {
    const eventId = randomUUID();
    const res = await shopify(source.id, SHOPIFY_ORDER, { eventId });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ outcome: 'queued', state: 'received' });
    const event = await eventSettled(source.id, res.json().data.event);
    expect(event).toMatchObject({ state: 'drafted', topic: 'orders/create', action: 'create', order_id: '5104958001123456789', order_no: '#1001', errors: [] });

    const details = await consignmentApi(svc, key).details(event.consignment);
    expect(details).toMatchObject({
      reference_no: '#1001',
      status: STATUS.NEW_DRAFT,
      weight: 1.25,
      consignor: { name: 'Anadolu Butik', city: 'İstanbul' },
      consignee: {
        name: 'Ayşe Yılmaz',
        email: 'ayse.yilmaz@example.com',
        address: 'Bağdat Cd. No:5, D:3',
        city: 'İstanbul',
        postal_code: '34710',
        countryIso3: 'TUR',
      },
    });
    expect(details.packages[0].items.map((i: Json) => [i.description, i.quantity, i.unit_price, i.currency])).toEqual([
      ['Pamuklu tişört - Beyaz / M [TS-001-M]', 2, 149.9, 'TRY'],
      ['Türk kahvesi, 250 g [TK-250]', 1, 120, 'TRY'],
    ]);

    // The same event again (Shopify retries until it gets a 2xx): the first event answers, nothing new.
    const again = await shopify(source.id, SHOPIFY_ORDER, { eventId });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ outcome: 'redelivered', event: event.id, state: 'drafted' });
    // Another event of the same order (a second orders/create): no second draft either.
    const other = await shopify(source.id, SHOPIFY_ORDER);
    expect((await eventSettled(source.id, other.json().data.event)).state).toBe('duplicate');
    const found = await svc.request({ method: 'GET', url: `/api/v1/consignments?reference_no=${encodeURIComponent('#1001')}`, apiKey: key });
    expect(found.json().data.results.map((c: Json) => c.id)).toEqual([event.consignment]);
    expect((await events(source.id)).filter((e) => e.order_no === '#1001')).toHaveLength(2);
  });

  it('a wrong or missing signature is 401 (localized) and stores nothing', async () => {
    const before = (await events(source.id)).length;
    const wrong = await shopify(source.id, shopifyOrder(1), { secret: 'not-the-secret-at-all' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ status: false, errors: [{ message: expect.stringContaining('signature') }] });
    const tr = await shopify(source.id, shopifyOrder(1), { signature: null, lang: 'tr' });
    expect([tr.statusCode, tr.json().errors[0].message]).toEqual([401, expect.stringContaining('imza')]);
    const garbage = await shopify(source.id, shopifyOrder(1), { signature: 'x'.repeat(500) });
    expect(garbage.statusCode).toBe(401);
    expect(await events(source.id)).toHaveLength(before);
  });

  it('an unknown or disabled source is 404, whatever the signature', async () => {
    expect((await shopify(randomUUID(), SHOPIFY_ORDER)).statusCode).toBe(404);
    expect((await shopify('not-a-uuid', SHOPIFY_ORDER)).statusCode).toBe(404);
    const disabled = await createSource({ platform: 'shopify', name: 'Kapalı', secret: SECRET, consignor, status: 0 });
    expect((await shopify(disabled.id, SHOPIFY_ORDER)).statusCode).toBe(404);
  });

  it('a body that is not an order is 400 with the reason; other topics are acknowledged and ignored', async () => {
    const notJson = await shopify(source.id, 'order=1');
    expect([notJson.statusCode, notJson.json().errors[0].message]).toEqual([400, expect.stringContaining('not JSON')]);
    const notOrder = await shopify(source.id, JSON.stringify({ hello: 'world' }));
    expect([notOrder.statusCode, notOrder.json().errors[0].message]).toEqual([400, expect.stringContaining('not a shopify order')]);
    const ignored = await shopify(source.id, shopifyOrder(2), { topic: 'orders/paid' });
    expect([ignored.statusCode, ignored.json().data.outcome]).toEqual([200, 'ignored']);
  });

  it('an order that cannot become a draft is kept as failed, with its error in the events', async () => {
    const res = await shopify(
      source.id,
      shopifyOrder(3, (o) => (o.shipping_address = null)),
    );
    expect(res.statusCode).toBe(200);
    const event = await eventSettled(source.id, res.json().data.event);
    expect(event).toMatchObject({ state: 'failed', order_no: '#2003', consignment: null });
    expect(event.errors).toContainEqual({ field: 'consignee.name', message: 'This value should not be blank.' });
    const tr = (await events(source.id, 'tr')).find((e) => e.id === event.id)!;
    expect(tr.errors).toContainEqual({ field: 'consignee.name', message: 'Bu değer boş bırakılmamalıdır.' });
  });

  it('orders/cancelled cancels the draft', async () => {
    const body = shopifyOrder(4);
    const created = await eventSettled(source.id, (await shopify(source.id, body)).json().data.event);
    expect(created.state).toBe('drafted');
    const cancelledOrder = JSON.parse(body) as Json;
    cancelledOrder.cancelled_at = '2025-03-14T12:00:00+03:00';
    cancelledOrder.cancel_reason = 'customer';
    const res = await shopify(source.id, JSON.stringify(cancelledOrder), { topic: 'orders/cancelled' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Order cancellation received: its draft or consignment is being cancelled.');
    const cancel = await eventSettled(source.id, res.json().data.event);
    expect(cancel).toMatchObject({ state: 'cancelled', action: 'cancel', consignment: created.consignment });
    await waitForStatus(consignmentApi(svc, key), created.consignment, STATUS.CANCELLED);
    // An order this source never drafted: nothing to cancel, said so.
    const unknown = await shopify(source.id, shopifyOrder(5), { topic: 'orders/cancelled' });
    expect((await eventSettled(source.id, unknown.json().data.event)).errors[0].message).toContain('never became a draft');
  });

  it('with process: true the order becomes a consignment with a PDF label', async () => {
    const processing = await createSource({
      platform: 'shopify',
      name: 'Etiketli',
      secret: SECRET,
      consignor,
      preference: 1,
      process: true,
      package: { weight: 1, length: 30, width: 20, height: 10 },
    });
    const res = await shopify(
      processing.id,
      shopifyOrder(6, (o) => (o.shipping_address.phone = '+905321112233')),
    );
    expect(res.statusCode).toBe(200);
    const event = await eventSettled(processing.id, res.json().data.event, ['processed', 'failed']);
    expect(event).toMatchObject({ state: 'processed', errors: [] });
    const details = await consignmentApi(svc, key).details(event.consignment);
    expect(details.status).not.toBe(STATUS.NEW_DRAFT);
    expect(details.barcode).toBeTruthy();
    const url = new URL(details.labels[0].file_url);
    const label = await svc.request({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toContain('application/pdf');
    expect(label.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Cancelled in the shop after its label: the consignment is cancelled at the carrier (before pickup).
    const cancelled = await shopify(processing.id, shopifyOrder(6), { topic: 'orders/cancelled' });
    expect(await eventSettled(processing.id, cancelled.json().data.event)).toMatchObject({ state: 'cancelled', consignment: event.consignment });
    await waitForStatus(consignmentApi(svc, key), event.consignment, STATUS.CANCELLED);
  });
});

describe('WooCommerce orders', () => {
  let source: Json;
  beforeAll(async () => {
    source = await createSource({
      platform: 'woocommerce',
      name: 'Sabun Atölyesi',
      secret: WOO_SECRET,
      consignor,
      preference: 1,
      package: { weight: 0.8, length: 20, width: 15, height: 10 },
    });
  });

  it("answers WooCommerce's ping when the webhook is saved", async () => {
    const res = await svc.request({
      method: 'POST',
      url: `/api/v1/order-sources/${source.id}/orders`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'webhook_id=17',
    });
    expect([res.statusCode, res.json().data.outcome]).toEqual([200, 'ping']);
  });

  it('order.created becomes a draft with the package defaults, and its history says why; order.updated to cancelled cancels it', async () => {
    const res = await woocommerce(source.id, WOO_ORDER);
    expect(res.statusCode).toBe(200);
    const event = await eventSettled(source.id, res.json().data.event);
    expect(event).toMatchObject({ state: 'drafted', order_id: '2051', order_no: '2051' });
    const details = await consignmentApi(svc, key).details(event.consignment);
    expect(details).toMatchObject({ reference_no: '2051', weight: 0.8, consignee: { name: 'Zeynep Kaya', city: 'Bursa', postal_code: '16010' } });
    expect(details.details.map((h: Json) => h.message)).toContainEqual(expect.stringContaining('WooCommerce sends no item weights'));

    // An update that is not a cancellation changes nothing.
    const completed = await woocommerce(source.id, JSON.stringify({ ...JSON.parse(WOO_ORDER), status: 'completed' }), { topic: 'order.updated' });
    expect(completed.json().data.outcome).toBe('ignored');
    const cancelled = await woocommerce(source.id, JSON.stringify({ ...JSON.parse(WOO_ORDER), status: 'cancelled' }), { topic: 'order.updated' });
    expect((await eventSettled(source.id, cancelled.json().data.event)).state).toBe('cancelled');
    await waitForStatus(consignmentApi(svc, key), event.consignment, STATUS.CANCELLED);
  });
});

describe('durable queueing', () => {
  it('an event stored but never started (the process died after the commit) is started by the relay', async () => {
    const source = await createSource({ platform: 'shopify', name: 'Relay', secret: SECRET, consignor, preference: 1, package: { weight: 1 } });
    // What the receiving request commits before it starts the workflow: the event row, its own outbox entry.
    const { event } = await insertOrderEvent(svc.db, {
      sourceId: source.id,
      dedupKey: 'shopify:relay-1',
      topic: 'orders/create',
      action: 'create',
      orderId: '7007',
      orderNo: '#2007',
      payload: shopifyOrder(7, (o) => (o.admin_graphql_api_id = 'gid://shopify/Order/7007')),
      triggeredAt: null,
    });
    // The premise: no workflow of it exists (its receiver "died" holding the claim).
    await expect(svc.runtime.client.workflow.getHandle(orderEventWorkflowId(source.id, event.id)).describe()).rejects.toThrow();
    // The receiver's claim runs out.
    await svc.db.query(`UPDATE order_events SET claimed_until = now() - interval '1 second' WHERE id = $1`, [event.id]);
    const settled = await eventSettled(source.id, event.id);
    expect(settled).toMatchObject({ state: 'drafted', order_no: '#2007' });
    await svc.runtime.client.workflow.getHandle(orderEventWorkflowId(source.id, event.id)).result();
  });
});

describe('metrics', () => {
  it('count events by platform and outcome', async () => {
    const text = await svc.runtime.metrics.registry.getSingleMetricAsString('consignflow_order_events_total');
    for (const [platform, outcome] of [
      ['shopify', 'received'],
      ['shopify', 'redelivered'],
      ['shopify', 'rejected'],
      ['shopify', 'drafted'],
      ['shopify', 'failed'],
      ['woocommerce', 'ping'],
      ['woocommerce', 'cancelled'],
    ]) {
      expect(text).toMatch(new RegExp(`consignflow_order_events_total\\{platform="${platform}",outcome="${outcome}"\\} [1-9]`));
    }
  });

  it('an event whose row id another database of the same Temporal namespace used before is still processed', async () => {
    const source = await createSource({ platform: 'shopify', name: 'Shared namespace', secret: SECRET, consignor, preference: 1, package: { weight: 1 } });
    // Another database counts its events from 1 too: its finished workflow for the next id of ours stands in the
    // namespace (REJECT_DUPLICATE), under the id a row id alone would give.
    const next = Number((await svc.db.query<{ n: string | number }>(`SELECT nextval(pg_get_serial_sequence('order_events', 'id')) AS n`)).rows[0].n) + 1;
    const other = await svc.runtime.client.workflow.start('orderEventWorkflow', {
      workflowId: `order-event:${next}`,
      taskQueue: 'another-database',
      args: [{ eventId: next }],
    });
    await other.terminate('another database');
    const res = await shopify(source.id, shopifyOrder(8), { eventId: 'shared-namespace-1' });
    expect(res.json().data.event).toBe(next);
    expect((await eventSettled(source.id, next)).state).toBe('drafted');
  });
});
