import { randomBytes } from 'node:crypto';
import type { Caller } from '../db/customers.repository';
import type { Queryable } from '../db/database';
import { findEvent } from '../db/status-events.repository';
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listConsignmentDeliveries,
  listDeliveries,
  listWebhooks,
  updateWebhook,
  type WebhookRecord,
} from '../db/webhooks.repository';
import { DomainError } from '../domain/errors';
import { WEBHOOK_STATUS, type WebhookInput } from '../domain/webhook';
import type { WebhookDeliveryStarter } from '../temporal/webhook-delivery.starter';
import { generateSecret } from '../webhooks/signature';
import { resolveTarget, TargetRefusedError, type Resolver } from '../webhooks/ssrf';
import type { PageRequest } from '../domain/pagination';

export interface WebhookServiceDeps {
  db: Queryable;
  deliveries: WebhookDeliveryStarter;
  /** WEBHOOK_ALLOW_PRIVATE: no address check at registration */
  allowPrivate: boolean;
  /** tests: a resolver standing in for DNS */
  resolve?: Resolver;
}

const PUBLIC_ID = /^wh_[0-9A-Za-z]{1,64}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `wh_` + 24 base62 characters (~143 bits): not guessable, so ids reveal nothing about other customers. */
export function newWebhookId(): string {
  let id = '';
  for (const b of randomBytes(48)) {
    if (b >= 248) continue; // 248 = 4 × 62 keeps the alphabet uniform
    id += BASE62[b % 62];
    if (id.length === 24) break;
  }
  return `wh_${id.padEnd(24, '0')}`;
}

/** Webhook registration and its delivery log. Every call is scoped to the caller's customer. */
export function createWebhookService(deps: WebhookServiceDeps) {
  /** SSRF rule at registration (docs/webhooks.md): the host must resolve to public addresses only. */
  const vetEndpoint = async (endpoint: string) => {
    if (deps.allowPrivate) return;
    try {
      await resolveTarget(new URL(endpoint), { allowPrivate: false, resolve: deps.resolve });
    } catch (error) {
      if (error instanceof TargetRefusedError) throw new DomainError('VALIDATION_FAILED', [{ code: 'ENDPOINT_NOT_PUBLIC', field: 'endpoint' }]);
      throw error;
    }
  };

  const get = async (caller: Caller, webhookId: string): Promise<WebhookRecord> => {
    const found = PUBLIC_ID.test(webhookId) ? await findWebhook(deps.db, caller.customerId, webhookId) : undefined;
    if (!found) throw new DomainError('WEBHOOK_NOT_FOUND');
    return found;
  };

  return {
    /** Stores the webhook with a new signing secret, which is returned this once. */
    async create(caller: Caller, input: WebhookInput): Promise<{ webhook: WebhookRecord; secret: string }> {
      await vetEndpoint(input.endpoint);
      const secret = generateSecret();
      const webhook = await insertWebhook(deps.db, { webhookId: newWebhookId(), customerId: caller.customerId, secret, input });
      return { webhook, secret };
    },

    list: (caller: Caller, page: PageRequest) => listWebhooks(deps.db, caller.customerId, page),

    get,

    /** PUT (every field) and PATCH (the fields sent). A changed endpoint is checked again. */
    async update(caller: Caller, webhookId: string, patch: Partial<WebhookInput>): Promise<WebhookRecord> {
      await get(caller, webhookId);
      if (patch.endpoint !== undefined) await vetEndpoint(patch.endpoint);
      const updated = await updateWebhook(deps.db, caller.customerId, webhookId, patch);
      if (!updated) throw new DomainError('WEBHOOK_NOT_FOUND');
      return updated;
    },

    /** Deletes the webhook and its delivery log; queued deliveries find it gone and stop. */
    async remove(caller: Caller, webhookId: string): Promise<void> {
      if (!PUBLIC_ID.test(webhookId) || !(await deleteWebhook(deps.db, caller.customerId, webhookId))) throw new DomainError('WEBHOOK_NOT_FOUND');
    },

    /** The latest deliveries of one of the caller's consignments' events, to any of its webhooks (the console's detail page). */
    async deliveriesOfConsignment(caller: Caller, consignmentId: number, limit = 50) {
      return listConsignmentDeliveries(deps.db, caller.customerId, consignmentId, limit);
    },

    /** When this webhook next retries the consignment's first undelivered event (undefined: no retry is waiting). */
    async nextAttempt(caller: Caller, webhookId: string, consignmentId: number): Promise<Date | undefined> {
      const webhook = await get(caller, webhookId);
      return deps.deliveries.nextAttempt(webhook.webhookId, consignmentId);
    },

    async deliveries(caller: Caller, webhookId: string, page: PageRequest & { eventId?: string }) {
      const webhook = await get(caller, webhookId);
      return listDeliveries(deps.db, webhook.id, page);
    },

    /**
     * Sends one event again, even if it was delivered: it joins the end of the queue of its consignment for
     * this webhook. Only events of the caller's consignments that the webhook subscribes to; only when active.
     */
    async redeliver(caller: Caller, webhookId: string, eventId: string): Promise<{ webhook_id: string; event_id: string }> {
      const webhook = await get(caller, webhookId);
      const event = await findEvent(deps.db, eventId.toLowerCase(), caller.customerId);
      if (!event || event.event !== webhook.subscribedEvent) throw new DomainError('WEBHOOK_EVENT_NOT_FOUND');
      if (webhook.status !== WEBHOOK_STATUS.ACTIVE) throw new DomainError('WEBHOOK_INACTIVE');
      await deps.deliveries.enqueue({ webhook, customerCode: caller.customerCode, consignmentId: event.consignmentId, eventId: event.id, redelivery: true });
      return { webhook_id: webhook.webhookId, event_id: event.id };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
