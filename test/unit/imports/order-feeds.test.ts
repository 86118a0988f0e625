import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferSource, detectDelimiter, readCsvRecords } from '../../../src/imports/csv-stream';
import { parseImportOptions, type ImportOptions } from '../../../src/imports/import-options';
import { mapOrder, orderGroups, type MappedOrder } from '../../../src/imports/order-mapper';
import { deliveryHeaders, isWooCommercePing, signBody, topicAction, verifySignature } from '../../../src/imports/order-webhooks';
import { mapPlatformOrder, orderIdentity } from '../../../src/imports/platform-orders';
import { resolveLayout } from '../../../src/imports/presets';
import { SHOPIFY_ORDER_1001 } from './shopify-order-1001';

const csv = (name: string) => readFileSync(join(__dirname, '../../fixtures/imports', name));
const payload = (name: string) => readFileSync(join(__dirname, '../../fixtures/order-feeds', name));
const order = (name: string) => JSON.parse(payload(name).toString('utf8')) as Record<string, unknown>;
const consignor = { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', postal_code: '34710', phone_number: '+902161234567' };
const options = (preset: 'shopify' | 'woocommerce', extra: Record<string, unknown> = {}): ImportOptions =>
  parseImportOptions({ preset, consignor, preference: 1, ...extra });

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The CSV import's pipeline, in memory: the orders of an export file as an import maps them. */
async function imported(file: Buffer, opts: ImportOptions): Promise<MappedOrder[]> {
  const delimiter = detectDelimiter(file.toString('utf8').slice(0, 4096));
  const header = (await collect(readCsvRecords(bufferSource(file, 101), { offset: 0, row: 1, delimiter })))[0].fields;
  const { layout } = resolveLayout(opts.preset, header, opts.mapping);
  const groups = await collect(orderGroups(readCsvRecords(bufferSource(file, 101), { offset: 0, row: 1, delimiter }), layout));
  return groups.map((rows) => mapOrder(rows, layout, opts));
}

describe('order webhook signatures', () => {
  const body = payload('shopify-orders-create.json');
  const secret = 'shpss_0123456789abcdef';

  it('accepts the base64 HMAC-SHA256 of the raw body with the secret', () => {
    expect(verifySignature(body, secret, signBody(body, secret))).toBe(true);
  });

  it('refuses another secret, an altered body, a truncated or missing signature, without throwing', () => {
    const good = signBody(body, secret);
    expect(verifySignature(body, 'another-secret-123', good)).toBe(false);
    expect(verifySignature(Buffer.concat([body, Buffer.from(' ')]), secret, good)).toBe(false);
    expect(verifySignature(body, secret, good.slice(0, 10))).toBe(false);
    expect(verifySignature(body, secret, undefined)).toBe(false);
    expect(verifySignature(body, secret, '')).toBe(false);
  });
});

describe('topics and deliveries', () => {
  it('maps each platform topic to what it asks, and ignores the rest', () => {
    expect(topicAction('shopify', 'orders/create', {})).toBe('create');
    expect(topicAction('shopify', 'orders/cancelled', {})).toBe('cancel');
    expect(topicAction('shopify', 'orders/updated', {})).toBeNull();
    expect(topicAction('woocommerce', 'order.created', {})).toBe('create');
    expect(topicAction('woocommerce', 'order.updated', { status: 'cancelled' })).toBe('cancel');
    expect(topicAction('woocommerce', 'order.updated', { status: 'completed' })).toBeNull();
    expect(topicAction('woocommerce', 'product.created', {})).toBeNull();
  });

  it("recognises WooCommerce's unsigned ping, and nothing signed as one", () => {
    expect(isWooCommercePing(Buffer.from('webhook_id=17'), {})).toBe(true);
    expect(isWooCommercePing(Buffer.from('webhook_id=17'), { 'x-wc-webhook-signature': 'abc' })).toBe(false);
    expect(isWooCommercePing(Buffer.from('{"id":1}'), {})).toBe(false);
  });

  it("dedups on the platform's event id, else on the topic and body", () => {
    const body = Buffer.from('{"id":1}');
    const shopify = deliveryHeaders(
      'shopify',
      { 'x-shopify-topic': 'orders/create', 'x-shopify-event-id': 'ev-1', 'x-shopify-triggered-at': '2025-03-14T07:21:05.123Z' },
      body,
    );
    expect(shopify).toMatchObject({ topic: 'orders/create', dedupKey: 'shopify:ev-1', triggeredAt: '2025-03-14T07:21:05.123Z' });
    expect(deliveryHeaders('woocommerce', { 'x-wc-webhook-delivery-id': 'd-9' }, body).dedupKey).toBe('woocommerce:d-9');
    const a = deliveryHeaders('shopify', { 'x-shopify-topic': 'orders/create' }, body).dedupKey;
    expect(a).toMatch(/^sha256:/);
    expect(deliveryHeaders('shopify', { 'x-shopify-topic': 'orders/create' }, Buffer.from(body)).dedupKey).toBe(a);
    expect(deliveryHeaders('shopify', { 'x-shopify-topic': 'orders/cancelled' }, body).dedupKey).not.toBe(a);
  });

  it("identifies orders (Shopify's id exactly, from its GraphQL id) and refuses bodies that are none", () => {
    expect(orderIdentity('shopify', order('shopify-orders-create.json'), 'create')).toEqual({ orderId: '5104958001123456789', orderNo: '#1001' });
    expect(orderIdentity('woocommerce', order('woocommerce-order-created.json'), 'create')).toEqual({ orderId: '2051', orderNo: '2051' });
    expect(orderIdentity('shopify', { id: 5 }, 'create')).toEqual({ notAnOrder: true });
    expect(orderIdentity('shopify', { id: 5 }, 'cancel')).toEqual({ orderId: '5', orderNo: null });
    expect(orderIdentity('shopify', [1, 2], 'create')).toEqual({ notAnOrder: true });
    expect(orderIdentity('woocommerce', { line_items: [] }, 'create')).toEqual({ notAnOrder: true });
  });
});

describe('one mapping per platform: a webhook order gives the draft its CSV export gives', () => {
  it('Shopify orders/create = the Shopify export of the same order (weights from the webhook)', async () => {
    const webhook = mapPlatformOrder('shopify', order('shopify-orders-create.json'), options('shopify'));
    expect(webhook.issues).toEqual([]);
    expect(webhook.weightFromDefaults).toBe(false);
    // The export carries no weight: given as the import's package default, the drafts are the same.
    const fromCsv = (await imported(csv('shopify-orders.csv'), options('shopify', { package: { weight: 1.25 } })))[0];
    expect(fromCsv.orderNo).toBe('#1001');
    expect(webhook.draft).toEqual(fromCsv.draft);
    expect(webhook.draft).toMatchObject({
      reference_no: '#1001',
      preference: 1,
      consignor,
      consignee: SHOPIFY_ORDER_1001.consignee,
      packages: [{ weight: 1.25, items: SHOPIFY_ORDER_1001.items }],
    });
    // The gift card does not ship (requires_shipping false): left out, in the export's column as in the webhook.
    expect(webhook.draft!.packages![0].items).toHaveLength(2);
  });

  it('Shopify without weights: the package default, and says so', () => {
    const o = order('shopify-orders-create.json');
    const items = (o.line_items as Record<string, unknown>[]).map((i) => ({ ...i, grams: 0 }));
    const mapped = mapPlatformOrder('shopify', { ...o, total_weight: 0, line_items: items }, options('shopify', { package: { weight: 2 } }));
    expect(mapped.weightFromDefaults).toBe(true);
    expect(mapped.draft!.packages![0].weight).toBe(2);
  });

  it('WooCommerce order.created = the WooCommerce export of the same order (package defaults: no weights sent)', async () => {
    const opts = options('woocommerce', { package: { weight: 0.8, length: 20, width: 15, height: 10 } });
    const webhook = mapPlatformOrder('woocommerce', order('woocommerce-order-created.json'), opts);
    expect(webhook.issues).toEqual([]);
    expect(webhook.weightFromDefaults).toBe(true);
    const fromCsv = (await imported(csv('woocommerce-orders.csv'), opts))[0];
    expect(fromCsv.orderNo).toBe('2051');
    expect(webhook.draft).toEqual(fromCsv.draft);
    expect(webhook.draft).toMatchObject({
      reference_no: '2051',
      consignee: {
        name: 'Zeynep Kaya',
        email: 'zeynep.kaya@example.com',
        phone_number: '05321112233',
        address: 'İnönü Sk. No:4, Daire 8',
        city: 'Bursa',
        state_code: 'TR16',
        postal_code: '16010',
        country: 'TR',
      },
      packages: [
        {
          weight: 0.8,
          length: 20,
          width: 15,
          height: 10,
          items: [
            { description: "Zeytinyağlı sabun (3'lü) [ZS-3]", quantity: 2, unit_price: 89.9 },
            { description: 'Lavanta kesesi [LK-1]', quantity: 1, unit_price: 45 },
          ],
        },
      ],
    });
  });

  it('an order without a shipping address is no draft: the issues name the draft fields', () => {
    const mapped = mapPlatformOrder('shopify', { ...order('shopify-orders-create.json'), shipping_address: null }, options('shopify'));
    expect(mapped.draft).toBeNull();
    expect(mapped.issues.map((i) => [i.path, i.code])).toContainEqual(['consignee.name', 'NOT_BLANK']);
  });
});
