import { z } from 'zod';
import type { OrderEventRecord, OrderSourceRecord } from '../../db/order-sources.repository';
import { ORDER_EVENT_STATES, ORDER_PLATFORMS } from '../../domain/order-source';
import { ERROR_MESSAGES, translate, type Locale } from '../../i18n/messages';
import { answerSchema } from '../openapi/operation';
import { formatTimestamp } from './timestamps';

export const OrderSourceAnswer = answerSchema(
  'OrderSource',
  z.object({
    id: z.string().meta({ description: 'the source id (a uuid)' }),
    platform: z.enum(ORDER_PLATFORMS),
    name: z.string(),
    delivery_url: z.string().meta({
      description:
        'where the shop sends its order webhooks (no API key: the signature is the proof); for a marketplace, where its webhook notices go (Hepsiburada: the base URL of its pushes)',
    }),
    secret_hint: z.string().meta({ description: 'the last characters of the signing secret (a marketplace: of our webhook credential), never the secret' }),
    webhook_credential: z.string().optional().meta({
      description:
        'a marketplace source, in the answer to its creation only: the credential its webhook must present (x-api-key, or the Basic auth password). Never shown again.',
    }),
    credentials_hint: z.string().nullable().meta({ description: 'a marketplace source: the last characters of its API secret, never the credentials' }),
    settings: z.record(z.string(), z.unknown()).meta({ description: 'a marketplace source: its connection settings and poll interval (empty for shops)' }),
    last_pull: z
      .object({
        at: z.string(),
        from: z.string(),
        to: z.string(),
        packages: z.int(),
        events: z.int(),
        write_backs: z.object({ done: z.int(), refused: z.int() }).optional(),
        error: z.string().optional(),
      })
      .nullable()
      .meta({ description: 'a marketplace source: what its last pull asked, saw and made, or why it failed (retried)' }),
    pulled_until: z.string().nullable().meta({ description: 'a marketplace source: where the next pull starts (less an overlap)' }),
    process: z.boolean(),
    status: z.int().meta({ description: '1 active, 0 disabled' }),
    consignor: z.record(z.string(), z.unknown()).nullable(),
    preference: z.int().nullable(),
    provider_id: z.int().nullable(),
    address_resolver_type: z.int().nullable(),
    package: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
  { description: 'A shop connection of yours; its signing secret is never shown.' },
);

export const OrderEventAnswer = answerSchema(
  'OrderEvent',
  z.object({
    id: z.int(),
    topic: z.string().meta({ examples: ['orders/create', 'order.created'] }),
    action: z.enum(['create', 'update', 'cancel']),
    order_id: z.string().nullable().meta({ description: "the platform's order id" }),
    order_no: z.string().nullable().meta({ description: 'the order number as the shop shows it (Shopify `#1001`), the draft’s reference_no' }),
    state: z.enum(ORDER_EVENT_STATES),
    consignment: z.int().nullable().meta({ description: 'the draft or consignment the event made or cancelled' }),
    errors: z
      .array(z.object({ message: z.string(), field: z.string().optional() }))
      .meta({ description: 'why the event failed (or duplicates), in the language asked for' }),
    write_back: z
      .object({ state: z.enum(['done', 'refused', 'not-needed']), at: z.string(), calls: z.array(z.string()).optional(), reason: z.string().optional() })
      .nullable()
      .meta({ description: "a marketplace package: what was written back of its shipment (the marketplace's calls, or its refusal)" }),
    received_at: z.string(),
    updated_at: z.string(),
  }),
);

/** A source as responses show it: its delivery URL, never its secret (only a masked hint). */
export function toOrderSourceResponse(s: OrderSourceRecord & { webhookCredential?: string }, deliveryUrl: string): z.output<typeof OrderSourceAnswer> {
  const { writeBacks, ...lastPull } = s.lastPull ?? ({} as NonNullable<OrderSourceRecord['lastPull']>);
  return {
    id: s.id,
    platform: s.platform,
    name: s.name,
    delivery_url: deliveryUrl,
    secret_hint: s.secretHint,
    ...(s.webhookCredential && { webhook_credential: s.webhookCredential }),
    credentials_hint: s.credentialsHint,
    settings: { ...s.settings },
    last_pull: s.lastPull ? { ...lastPull, ...(writeBacks && { write_backs: writeBacks }) } : null,
    pulled_until: s.pulledUntil,
    process: s.process,
    status: s.status,
    consignor: (s.defaults.consignor as Record<string, unknown> | null) ?? null,
    preference: s.defaults.preference ?? null,
    provider_id: s.defaults.provider_id ?? null,
    address_resolver_type: s.defaults.address_resolver_type ?? null,
    package: (s.defaults.package as Record<string, unknown> | null) ?? null,
    created_at: formatTimestamp(s.createdAt),
    updated_at: formatTimestamp(s.updatedAt),
  };
}

export function toOrderEventResponse(e: OrderEventRecord, locale: Locale): z.output<typeof OrderEventAnswer> {
  return {
    id: e.id,
    topic: e.topic,
    action: e.action,
    order_id: e.orderId,
    order_no: e.orderNo,
    state: e.state,
    consignment: e.consignmentId,
    errors: (e.errors ?? []).map((issue) => ({
      message: translate(ERROR_MESSAGES[issue.code] ?? ERROR_MESSAGES.VALIDATION_FAILED, locale, issue.params),
      ...(issue.field ? { field: issue.field } : {}),
    })),
    write_back: e.writeBack,
    received_at: formatTimestamp(e.receivedAt),
    updated_at: formatTimestamp(e.updatedAt),
  };
}
