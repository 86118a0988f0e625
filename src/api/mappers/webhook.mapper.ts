import type { DeliveryAttempt, WebhookRecord } from '../../db/webhooks.repository';

/** the API (docs/api.md): the webhook as create returns it. */
export function toWebhookResponse(w: WebhookRecord) {
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
export function toWebhookDetail(w: WebhookRecord) {
  return {
    ...toWebhookResponse(w),
    disabled_reason: w.disabledReason,
    disabled_at: w.disabledAt,
    failing_since: w.failingSince,
    updated_at: w.updatedAt,
  };
}

/** One attempt of `GET /webhooks/{webhook_id}/deliveries`. */
export function toDeliveryResponse(a: DeliveryAttempt) {
  return {
    event_id: a.eventId,
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
