import { z } from 'zod';
import type { DeliveryAttempt, WebhookRecord } from '../../db/webhooks.repository';
import { DATA_TYPES, SECURITY_TYPES, WEBHOOK_EVENTS } from '../../domain/webhook';
import { answerSchema } from '../openapi/operation';

const webhookFields = {
  webhook_id: z.string().meta({ description: 'the public id, `wh_…`' }),
  description: z.string(),
  endpoint: z.string(),
  subscribedEvent: z.enum(WEBHOOK_EVENTS),
  securityType: z.enum(SECURITY_TYPES),
  dataType: z.enum(DATA_TYPES),
  data: z.string(),
  securityData: z.array(z.object({ headerKey: z.string(), headerValue: z.string() })),
  status: z.literal([0, 1]).meta({ description: '1 active, 0 inactive' }),
  created_at: z.string(),
};
export const WebhookAnswer = answerSchema('Webhook', z.object(webhookFields), { description: 'A webhook as created.' });
export const CreatedWebhookAnswer = answerSchema(
  'CreatedWebhook',
  z.object({ ...webhookFields, secret: z.string().meta({ description: 'the signing secret (`whsec_…`), shown only here' }) }),
);
export const WebhookDetailAnswer = answerSchema(
  'WebhookDetail',
  z.object({
    ...webhookFields,
    disabled_reason: z.string().nullable().meta({ description: 'why the service disabled it (deliveries kept failing); null unless it did' }),
    disabled_at: z.string().nullable(),
    failing_since: z.string().nullable(),
    updated_at: z.string(),
  }),
  { description: 'A webhook with its delivery state.' },
);
export const DeliveryAnswer = answerSchema(
  'WebhookDelivery',
  z.object({
    event_id: z.uuid(),
    consignment: z.int().nullable().meta({ description: 'the consignment whose event it was (null once the consignment was deleted)' }),
    attempt: z.int().min(1),
    redelivery: z.boolean(),
    attempted_at: z.string(),
    http_status: z.int().nullable(),
    latency_ms: z.int().min(0),
    success: z.boolean(),
    error: z.string().nullable(),
    response_body: z.string().nullable(),
  }),
  { description: 'One delivery attempt.' },
);

/** the API (docs/api.md): the webhook as create returns it. */
export function toWebhookResponse(w: WebhookRecord): z.output<typeof WebhookAnswer> {
  return {
    webhook_id: w.webhookId,
    description: w.description,
    endpoint: w.endpoint,
    subscribedEvent: w.subscribedEvent,
    securityType: w.securityType,
    dataType: w.dataType,
    data: w.data,
    securityData: w.securityData.map(({ headerKey, headerValue }) => ({ headerKey, headerValue })),
    status: w.status,
    created_at: w.createdAt,
  };
}

/**
 * The webhook resource plus the delivery state (extension): why the service disabled it (null unless it did), since when
 * deliveries have been failing, and the last change.
 */
export function toWebhookDetail(w: WebhookRecord): z.output<typeof WebhookDetailAnswer> {
  return {
    ...toWebhookResponse(w),
    disabled_reason: w.disabledReason,
    disabled_at: w.disabledAt,
    failing_since: w.failingSince,
    updated_at: w.updatedAt,
  };
}

/** One attempt of `GET /webhooks/{webhook_id}/deliveries`. */
export function toDeliveryResponse(a: DeliveryAttempt): z.output<typeof DeliveryAnswer> {
  return {
    event_id: a.eventId,
    consignment: a.consignmentId,
    attempt: a.attempt,
    redelivery: a.redelivery,
    attempted_at: a.attemptedAt,
    http_status: a.httpStatus,
    latency_ms: a.latencyMs,
    success: a.success,
    error: a.error,
    response_body: a.responseBody,
  };
}
