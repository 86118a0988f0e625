import { randomUUID } from 'node:crypto';
import type { CredentialsVault } from '../carriers/credentials-vault';
import type { Caller } from '../db/customers.repository';
import type { Database } from '../db/database';
import {
  deleteOrderSource,
  findOrderSource,
  findSourceForDelivery,
  insertOrderEvent,
  insertOrderSource,
  listOrderEvents,
  listOrderSources,
  markOrderEventsStarted,
  updateOrderSource,
  type OrderEventRecord,
  type OrderSourceRecord,
} from '../db/order-sources.repository';
import { DomainError } from '../domain/errors';
import { ORDER_SOURCE_ACTIVE, secretHint, type OrderPlatform } from '../domain/order-source';
import { pageOffset, type PageRequest } from '../domain/pagination';
import type { OrderSourceInput } from '../imports/order-source-input';
import { deliveryHeaders, isWooCommercePing, PLATFORM_HEADERS, topicAction, verifySignature } from '../imports/order-webhooks';
import { orderIdentity } from '../imports/platform-orders';
import type { Metrics } from '../metrics';
import type { OrderEventStarter } from '../temporal/order-event.starter';
import type { ProviderService } from './providers.service';

export interface OrderSourceServiceDeps {
  db: Database;
  vault: CredentialsVault;
  events: OrderEventStarter;
  providers: Pick<ProviderService, 'issue'>;
  /** PUBLIC_BASE_URL: a source's delivery URL is `{publicBaseUrl}/api/v1/order-sources/{id}/orders` */
  publicBaseUrl: string;
  metrics?: Pick<Metrics, 'orderEvents'>;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

/** What sealed secrets are bound to: the source, its customer and platform (ciphertexts cannot be swapped between rows). */
const sealingContext = (id: string, customerId: number, platform: OrderPlatform) => `order-source:${id}:${customerId}:${platform}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a delivery became. */
export type DeliveryOutcome = { kind: 'ping' } | { kind: 'ignored'; topic: string } | { kind: 'queued' | 'redelivered'; event: OrderEventRecord };

/**
 * Order sources (issue 26): a customer's shop connections, with their signing secret sealed like carrier
 * credentials; and the receiving of their order webhooks: verified, queued durably (the event row, unique on
 * the platform's event id) and answered at once, while a workflow per event makes the draft.
 */
export function createOrderSourceService(deps: OrderSourceServiceDeps) {
  const get = async (caller: Caller, id: string): Promise<OrderSourceRecord> => {
    const found = UUID.test(id) ? await findOrderSource(deps.db, caller.customerId, id) : undefined;
    if (!found) throw new DomainError('ORDER_SOURCE_NOT_FOUND');
    return found;
  };

  const checkProvider = async (caller: Caller, input: OrderSourceInput) => {
    const issue = await deps.providers.issue(caller.customerId, input.defaults.provider_id);
    if (issue) throw new DomainError('VALIDATION_FAILED', [issue]);
  };

  const seal = (id: string, customerId: number, platform: OrderPlatform, secret: string) => ({
    sealed: deps.vault.seal({ secret }, sealingContext(id, customerId, platform)),
    hint: secretHint(secret),
  });

  const count = (platform: OrderPlatform, outcome: string) => deps.metrics?.orderEvents.inc({ platform, outcome });

  return {
    deliveryUrl: (id: string) => `${deps.publicBaseUrl}/api/v1/order-sources/${id}/orders`,

    async create(caller: Caller, input: OrderSourceInput): Promise<OrderSourceRecord> {
      await checkProvider(caller, input);
      const id = randomUUID();
      const { sealed, hint } = seal(id, caller.customerId, input.platform, input.secret!);
      return insertOrderSource(deps.db, {
        id,
        customerId: caller.customerId,
        platform: input.platform,
        name: input.name,
        secret: sealed,
        secretHint: hint,
        defaults: input.defaults,
        process: input.process,
        status: input.status,
      });
    },

    get,

    list: (caller: Caller, page: PageRequest) => listOrderSources(deps.db, caller.customerId, { limit: page.limit, offset: pageOffset(page) }),

    async replace(caller: Caller, id: string, input: OrderSourceInput): Promise<OrderSourceRecord> {
      const current = await get(caller, id);
      if (input.platform !== current.platform) throw new DomainError('VALIDATION_FAILED', [{ code: 'ORDER_SOURCE_PLATFORM_FIXED', field: 'platform' }]);
      await checkProvider(caller, input);
      const secret = input.secret === undefined ? undefined : seal(id, caller.customerId, current.platform, input.secret);
      const updated = await updateOrderSource(deps.db, caller.customerId, id, {
        name: input.name,
        defaults: input.defaults,
        process: input.process,
        status: input.status,
        secret,
      });
      if (!updated) throw new DomainError('ORDER_SOURCE_NOT_FOUND');
      return updated;
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await get(caller, id);
      if (!(await deleteOrderSource(deps.db, caller.customerId, id))) throw new DomainError('ORDER_SOURCE_NOT_FOUND');
    },

    async events(caller: Caller, id: string, page: PageRequest): Promise<{ rows: OrderEventRecord[]; total: number }> {
      const source = await get(caller, id);
      return listOrderEvents(deps.db, source.id, { limit: page.limit, offset: pageOffset(page) });
    },

    /**
     * One webhook delivery to a source's URL. An unknown, deleted or disabled source is "not found" (nothing
     * said about which); a bad or missing signature is refused before anything is read or stored; a body
     * that is not an order is refused with the reason. A new event is committed, then its workflow started
     * (a relay starts it if that fails), then answered: the platform's timeout is never waited out. A
     * redelivery (same event id) answers the first event and does nothing again.
     */
    async receive(sourceId: string, headers: Record<string, string | string[] | undefined>, body: Buffer): Promise<DeliveryOutcome> {
      const source = UUID.test(sourceId) ? await findSourceForDelivery(deps.db, sourceId) : undefined;
      if (!source || source.status !== ORDER_SOURCE_ACTIVE) throw new DomainError('ORDER_SOURCE_NOT_FOUND');
      const platform = source.platform;
      if (platform === 'woocommerce' && isWooCommercePing(body, headers)) {
        count(platform, 'ping');
        return { kind: 'ping' };
      }
      const delivery = deliveryHeaders(platform, headers, body);
      const secret = String(deps.vault.open(source.sealedSecret, sealingContext(source.id, source.customerId, platform)).secret);
      if (!verifySignature(body, secret, delivery.signature)) {
        count(platform, 'rejected');
        throw new DomainError('ORDER_SIGNATURE_INVALID');
      }
      if (!delivery.topic) {
        count(platform, 'invalid');
        throw new DomainError('ORDER_TOPIC_MISSING', { params: { header: PLATFORM_HEADERS[platform].topic } });
      }
      let order: unknown;
      try {
        order = JSON.parse(body.toString('utf8'));
      } catch {
        count(platform, 'invalid');
        throw new DomainError('ORDER_NOT_JSON');
      }
      const action = topicAction(platform, delivery.topic, order);
      if (!action) {
        count(platform, 'ignored');
        return { kind: 'ignored', topic: delivery.topic };
      }
      const identity = orderIdentity(platform, order, action);
      if ('notAnOrder' in identity) {
        count(platform, 'invalid');
        throw new DomainError('ORDER_NOT_AN_ORDER', { params: { platform } });
      }
      const { event, created } = await insertOrderEvent(deps.db, {
        sourceId: source.id,
        dedupKey: delivery.dedupKey,
        topic: delivery.topic.slice(0, 100),
        action,
        orderId: identity.orderId,
        orderNo: identity.orderNo,
        payload: body.toString('utf8'),
        triggeredAt: delivery.triggeredAt,
      });
      if (!created) {
        count(platform, 'redelivered');
        return { kind: 'redelivered', event };
      }
      count(platform, 'received');
      try {
        await deps.events.start({
          sourceId: source.id,
          eventId: event.id,
          summary: `${platform} ${delivery.topic} ${identity.orderNo ?? identity.orderId} → source ${source.name}`,
        });
        await markOrderEventsStarted(deps.db, [event.id]);
      } catch (error) {
        // Queued all the same: the relay starts it once the receiver's claim has run out.
        deps.log?.warn({ err: error, orderEvent: event.id }, 'order event: starting its workflow failed; the relay will');
      }
      return { kind: 'queued', event };
    },
  };
}

export type OrderSourceService = ReturnType<typeof createOrderSourceService>;
