import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { OrderEventAction, ShopPlatform } from '../domain/order-source';

/**
 * How Shopify and WooCommerce sign and describe an order webhook (docs/order-feeds.md): the signature header
 * (base64 HMAC-SHA256 of the raw body with the shared secret), the topic, the event's id (our dedup key) and
 * when it was triggered. Header names are lower case, as Node gives them.
 */
export const PLATFORM_HEADERS = {
  shopify: {
    signature: 'x-shopify-hmac-sha256',
    topic: 'x-shopify-topic',
    eventId: 'x-shopify-event-id',
    fallbackId: 'x-shopify-webhook-id',
    triggeredAt: 'x-shopify-triggered-at',
    shop: 'x-shopify-shop-domain',
  },
  woocommerce: {
    signature: 'x-wc-webhook-signature',
    topic: 'x-wc-webhook-topic',
    eventId: 'x-wc-webhook-delivery-id',
    fallbackId: undefined,
    triggeredAt: undefined,
    shop: 'x-wc-webhook-source',
  },
} as const;

type Headers = Record<string, string | string[] | undefined>;
const one = (headers: Headers, name: string | undefined): string | undefined => {
  const value = name ? headers[name] : undefined;
  return typeof value === 'string' && value.length > 0 && value.length <= 1024 ? value.trim() : undefined;
};

/** base64 HMAC-SHA256 of `body` with `secret`: what both platforms send. */
export function signBody(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** Whether `given` is the body's signature under `secret`, compared in constant time (a wrong length is simply wrong). */
export function verifySignature(body: Buffer, secret: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(signBody(body, secret), 'utf8');
  const actual = Buffer.from(given.trim(), 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** WooCommerce's test delivery when a webhook is saved: `webhook_id=<id>` as a form body, unsigned. */
export function isWooCommercePing(body: Buffer, headers: Headers): boolean {
  return one(headers, PLATFORM_HEADERS.woocommerce.signature) === undefined && /^webhook_id=\d{1,20}$/.test(body.toString('latin1').trim());
}

/**
 * What a topic asks of us: Shopify `orders/create` and `orders/cancelled`; WooCommerce `order.created`, and
 * `order.updated` when the order is now cancelled. Any other topic is acknowledged and ignored (null).
 */
export function topicAction(platform: ShopPlatform, topic: string, body: unknown): Exclude<OrderEventAction, 'update'> | null {
  if (platform === 'shopify') return topic === 'orders/create' ? 'create' : topic === 'orders/cancelled' ? 'cancel' : null;
  if (topic === 'order.created') return 'create';
  const status = typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined;
  return topic === 'order.updated' && status === 'cancelled' ? 'cancel' : null;
}

export interface DeliveryHeaders {
  signature: string | undefined;
  topic: string | undefined;
  /** the platform's event id, else a hash of topic and body (a repeated body is the same event) */
  dedupKey: string;
  triggeredAt: string | null;
}

export function deliveryHeaders(platform: ShopPlatform, headers: Headers, body: Buffer): DeliveryHeaders {
  const names = PLATFORM_HEADERS[platform];
  const topic = one(headers, names.topic);
  const eventId = one(headers, names.eventId) ?? one(headers, names.fallbackId);
  const triggered = one(headers, names.triggeredAt);
  const at = triggered ? new Date(triggered) : undefined;
  return {
    signature: one(headers, names.signature),
    topic,
    dedupKey: eventId
      ? `${platform}:${eventId.slice(0, 255)}`
      : `sha256:${createHash('sha256')
          .update(`${topic ?? ''}\n`)
          .update(body)
          .digest('hex')}`,
    triggeredAt: at && !Number.isNaN(at.getTime()) ? at.toISOString() : null,
  };
}
