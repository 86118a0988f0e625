import type { Database } from '../src/db/database';
import type { Metrics } from '../src/metrics';
import { findEventsToDeliver, findEventSubscribers, markEventDispatched } from '../src/db/status-events.repository';
import { disableWebhook, findWebhookById, lastAttempt, markFailing, recordAttempt } from '../src/db/webhooks.repository';
import { WEBHOOK_STATUS } from '../src/domain/webhook';
import { createWebhookSender, type WebhookSender } from '../src/webhooks/http-delivery';
import { signatureHeaders } from '../src/webhooks/signature';
import type { Resolver } from '../src/webhooks/ssrf';
import type { WebhookDeliveryStarter } from '../src/temporal/webhook-delivery.starter';
import type { StatusEventActivities, WebhookDeliveryActivities } from '../workflows/activities';
import type { DeliveryPolicy } from '../workflows/webhook-delivery.messages';
import { asActivity } from './failures';

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: deliver to any address (development, tests) */
  allowPrivate: boolean;
  retry: DeliveryPolicy;
  /** tests: a resolver standing in for DNS */
  resolve?: Resolver;
}

export interface WebhookActivityDeps {
  db: Database;
  /** the process's metrics (webhook deliveries) */
  metrics?: Metrics;
  /** signal-with-start of delivery workflows */
  deliveries: WebhookDeliveryStarter;
  webhooks: WebhookSettings;
  /** tests and benchmarks: an HTTP sender of their own */
  webhookSender?: WebhookSender;
}

/**
 * How long a delivery activity keeps starting POSTs: with at most 15 s per POST (DNS 5 s, then 10 s for
 * the whole answer), it stays well inside its 30 s start-to-close timeout.
 */
const BATCH_SENDING_MS = 10_000;

/** Top-level and `data` keys in the order docs/webhooks.md lists them (jsonb keeps its own order). */
const BODY_KEYS = ['id', 'event', 'created_at', 'data'];
const DATA_KEYS = ['consignment', 'uuid', 'reference_no', 'barcode', 'status', 'status_name', 'status_message', 'previous_status', 'location', 'occurred_at'];
function ordered(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in value) out[key] = value[key];
  for (const key of Object.keys(value)) if (!(key in out)) out[key] = value[key];
  return out;
}
export function deliveryBody(payload: Record<string, unknown>): string {
  const body = ordered(payload, BODY_KEYS);
  if (body.data && typeof body.data === 'object') body.data = ordered(body.data as Record<string, unknown>, DATA_KEYS);
  return JSON.stringify(body);
}

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}

/**
 * Webhook side of status events. The consignment workflow publishes each outbox event once its change is
 * stored, in order; publishing queues it for every active subscriber, and the delivery workflows POST it.
 */
export function createWebhookActivities({ db, deliveries, webhooks, webhookSender, metrics }: WebhookActivityDeps) {
  const sender = webhookSender ?? createWebhookSender({ allowPrivate: webhooks.allowPrivate, resolve: webhooks.resolve });

  return {
    /**
     * Queues the event for each active webhook of the customer subscribed to it (one delivery workflow per
     * webhook × consignment, so order holds) and marks it handed over. Safe to retry: a second signal of the
     * same event is dropped by the queue, and a delivered event is not sent again.
     */
    publishStatusEvent({ eventId }) {
      return asActivity(async () => {
        const event = await findEventSubscribers(db, eventId);
        if (!event) return;
        await Promise.all(
          event.subscribers.map((webhook) => deliveries.enqueue({ webhook, customerCode: event.customerCode, consignmentId: event.consignmentId, eventId })),
        );
        await markEventDispatched(db, eventId);
      });
    },

    /**
     * POSTs queued events of one consignment to the webhook, in order, one attempt each, every attempt
     * recorded; an event already delivered is skipped (unless it is a redelivery, which comes alone). The
     * webhook is read again each call: one deactivated, disabled or deleted meanwhile gets nothing more.
     * 2xx: next event. 410: the webhook is disabled. Another failure on the first event sent throws, and the
     * workflow's retry policy tries again; after events were delivered it returns them as `completed`, so
     * the failed one gets its own retry schedule. After 10 s of sending it stops early (`done` with fewer
     * `completed`): the workflow queues the rest in the next batch.
     */
    deliverWebhookEvents({ webhookId, events }) {
      return asActivity(async () => {
        const webhook = await findWebhookById(db, webhookId);
        if (!webhook || webhook.status !== WEBHOOK_STATUS.ACTIVE) return { completed: 0, delivered: 0, outcome: 'inactive' };
        const stored = await findEventsToDeliver(
          db,
          webhookId,
          webhook.customerId,
          events.map((e) => e.eventId),
        );
        const securityHeaders: Record<string, string> = {};
        for (const { headerKey, headerValue } of webhook.securityData) securityHeaders[headerKey] = headerValue;
        let failing = webhook.failingSince !== null;
        let completed = 0;
        let delivered = 0;
        const sendUntil = Date.now() + BATCH_SENDING_MS;
        for (const { eventId, redelivery = false } of events) {
          // A slow receiver: stop well inside the start-to-close timeout (the rest go in the next batch),
          // so a timed-out attempt can never still be sending while its retry starts.
          if (completed > 0 && Date.now() > sendUntil) break;
          const event = stored.get(eventId);
          if (!event || (!redelivery && event.delivered)) {
            completed++; // gone with its consignment, or delivered before: nothing to send
            continue;
          }
          const body = deliveryBody(event.payload);
          const result = await sender.post({
            url: webhook.endpoint,
            headers: { ...securityHeaders, ...signatureHeaders(webhook.secret, eventId, body) },
            body,
          });
          const success = result.error === null && result.status !== null && result.status >= 200 && result.status < 300;
          const error = success ? null : (result.error ?? `HTTP ${result.status}`);
          await recordAttempt(db, {
            webhookId,
            eventId,
            redelivery,
            httpStatus: result.status,
            latencyMs: result.latencyMs,
            success,
            error,
            responseBody: result.responseBody,
          });
          metrics?.webhookDeliveries.inc({ outcome: success ? 'delivered' : 'failed' });
          if (failing === success) {
            await markFailing(db, webhookId, !success);
            failing = !success;
          }
          if (success) {
            completed++;
            delivered++;
            continue;
          }
          if (result.status === 410) {
            await disableWebhook(db, webhookId, `The endpoint answered 410 Gone to event ${eventId}; the webhook was disabled.`);
            return { completed, delivered, outcome: 'gone' };
          }
          if (delivered === 0) throw new Error(`webhook ${webhook.webhookId}, event ${eventId}: ${error}`);
          return { completed, delivered, outcome: 'failed' };
        }
        return { completed, delivered, outcome: 'done' };
      });
    },

    /** The delivery of an event failed for the whole retry window: the webhook is disabled with the reason. */
    disableFailingWebhook({ webhookId, eventId, windowMs }) {
      return asActivity(async () => {
        const last = await lastAttempt(db, webhookId, eventId);
        const lastText = last ? ` Last attempt ${last.attemptedAt}: ${last.error ?? `HTTP ${last.httpStatus}`}.` : '';
        await disableWebhook(db, webhookId, `Deliveries of event ${eventId} failed for ${duration(windowMs)}; the webhook was disabled.${lastText}`);
      });
    },
  } satisfies StatusEventActivities & WebhookDeliveryActivities;
}
