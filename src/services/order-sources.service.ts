import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
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
import {
  DEFAULT_POLL_INTERVAL_SECONDS,
  isMarketplace,
  ORDER_SOURCE_ACTIVE,
  orderSourceSealingContext,
  secretHint,
  type OrderPlatform,
} from '../domain/order-source';
import { pageOffset, type PageRequest } from '../domain/pagination';
import type { OrderSourceInput } from '../imports/order-source-input';
import { deliveryHeaders, isWooCommercePing, PLATFORM_HEADERS, topicAction, verifySignature } from '../imports/order-webhooks';
import { orderIdentity } from '../imports/platform-orders';
import type { Metrics } from '../metrics';
import type { OrderEventStarter } from '../temporal/order-event.starter';
import type { OrderSourcePulls } from '../temporal/order-source-pull.starter';
import type { ProviderService } from './providers.service';
import type { CarrierAccountInput } from '../domain/carrier-account';

export interface OrderSourceServiceDeps {
  db: Database;
  vault: CredentialsVault;
  events: OrderEventStarter;
  /** the pull schedules of marketplace sources */
  pulls: Pick<OrderSourcePulls, 'ensure' | 'trigger' | 'remove'>;
  /** the carrier accounts of marketplaces' own carriers, made and kept with their sources (the carrier account service) */
  carrierAccounts: {
    create(caller: Caller, input: CarrierAccountInput): Promise<{ providerId: number }>;
    replace(caller: Caller, providerId: number, input: CarrierAccountInput): Promise<unknown>;
  };
  providers: Pick<ProviderService, 'issue'>;
  /** PUBLIC_BASE_URL: a source's delivery URL is `{publicBaseUrl}/api/v1/order-sources/{id}/orders` */
  publicBaseUrl: string;
  metrics?: Pick<Metrics, 'orderEvents'>;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a delivery became. */
export type DeliveryOutcome =
  { kind: 'ping' } | { kind: 'pull' } | { kind: 'ignored'; topic: string } | { kind: 'queued' | 'redelivered'; event: OrderEventRecord };

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
    sealed: deps.vault.seal({ secret }, orderSourceSealingContext(id, customerId, platform)),
    hint: secretHint(secret),
  });
  /** A marketplace's API credentials, sealed; the hint is of its secret part (Trendyol's api_secret, Hepsiburada's service_key). */
  const sealCredentials = (id: string, customerId: number, platform: OrderPlatform, credentials: Record<string, string>) => ({
    sealed: deps.vault.seal(credentials, orderSourceSealingContext(id, customerId, platform, 'credentials')),
    hint: secretHint(credentials.api_secret ?? credentials.service_key ?? ''),
  });

  /** The carrier account of a marketplace's own carrier: the source's credentials and the settings its client needs. */
  const marketplaceCarrierInput = (input: OrderSourceInput, credentials: Record<string, string> | undefined): CarrierAccountInput => ({
    carrier: input.platform as 'trendyol' | 'hepsiburada',
    description: `${input.name}: ${input.platform === 'trendyol' ? "Trendyol's carriers" : "Hepsiburada's carriers"}`,
    ...(credentials && { credentials }),
    settings: Object.fromEntries(
      Object.entries({ base_url: input.settings.base_url, integrator_name: input.settings.integrator_name, user_agent: input.settings.user_agent }).filter(
        ([, v]) => v !== undefined,
      ),
    ),
    status: 1,
  });

  /** A marketplace source's schedule, as its record says (disabled: paused). */
  const schedule = (caller: Caller, source: OrderSourceRecord) =>
    deps.pulls.ensure({
      sourceId: source.id,
      customerCode: caller.customerCode,
      name: source.name,
      intervalSeconds: source.settings.poll_interval ?? DEFAULT_POLL_INTERVAL_SECONDS,
      paused: source.status !== ORDER_SOURCE_ACTIVE,
    });

  const count = (platform: OrderPlatform, outcome: string) => deps.metrics?.orderEvents.inc({ platform, outcome });

  return {
    /** Where a shop sends its orders; where a marketplace sends its notices (Hepsiburada: the base of its push paths). */
    deliveryUrl: (source: { id: string; platform: OrderPlatform }) =>
      `${deps.publicBaseUrl}/api/v1/order-sources/${source.id}/${isMarketplace(source.platform) ? 'push/notices' : 'orders'}`,

    /**
     * A shop source keeps the shop's signing secret. A marketplace source keeps its API credentials and gets a webhook
     * credential of ours (answered this once as `webhookCredential`: the marketplace signs nothing), and its schedule,
     * which pulls at once.
     */
    async create(caller: Caller, input: OrderSourceInput): Promise<OrderSourceRecord & { webhookCredential?: string }> {
      await checkProvider(caller, input);
      const id = randomUUID();
      const marketplace = isMarketplace(input.platform);
      const webhookCredential = marketplace ? randomBytes(24).toString('base64url') : undefined;
      // The marketplace's own carrier ships some packages ("Trendyol pays"): its account is made with the source.
      const carrier = marketplace ? await deps.carrierAccounts.create(caller, marketplaceCarrierInput(input, input.credentials)) : undefined;
      const { sealed, hint } = seal(id, caller.customerId, input.platform, webhookCredential ?? input.secret!);
      const source = await insertOrderSource(deps.db, {
        id,
        customerId: caller.customerId,
        platform: input.platform,
        name: input.name,
        secret: sealed,
        secretHint: hint,
        defaults: input.defaults,
        process: input.process,
        status: input.status,
        ...(input.credentials && { credentials: sealCredentials(id, caller.customerId, input.platform, input.credentials) }),
        settings: { ...input.settings, ...(carrier && { carrier_provider_id: carrier.providerId }) },
      });
      if (!marketplace) return source;
      await schedule(caller, source);
      return { ...source, webhookCredential };
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
        ...(input.credentials && { credentials: sealCredentials(id, caller.customerId, current.platform, input.credentials) }),
        // What the service keeps in the settings (the marketplace carrier's account, the registered webhook) stays.
        settings: {
          ...input.settings,
          ...(current.settings.carrier_provider_id && { carrier_provider_id: current.settings.carrier_provider_id }),
          ...(current.settings.webhook_id && { webhook_id: current.settings.webhook_id }),
        },
      });
      if (!updated) throw new DomainError('ORDER_SOURCE_NOT_FOUND');
      if (isMarketplace(updated.platform)) {
        const providerId = updated.settings.carrier_provider_id;
        if (providerId !== undefined) await deps.carrierAccounts.replace(caller, providerId, marketplaceCarrierInput(input, input.credentials));
        await schedule(caller, updated);
      }
      return updated;
    },

    async remove(caller: Caller, id: string): Promise<void> {
      const source = await get(caller, id);
      if (!(await deleteOrderSource(deps.db, caller.customerId, id))) throw new DomainError('ORDER_SOURCE_NOT_FOUND');
      if (isMarketplace(source.platform)) await deps.pulls.remove(id);
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
      if (isMarketplace(platform)) {
        // Unsigned: its credential is checked, nothing of the body is trusted or kept; the pull reads the packages.
        const credential = String(deps.vault.open(source.sealedSecret, orderSourceSealingContext(source.id, source.customerId, platform)).secret);
        if (!sameSecret(marketplaceCredentialOf(headers), credential)) {
          count(platform, 'rejected');
          throw new DomainError('ORDER_CREDENTIAL_INVALID');
        }
        count(platform, 'ping');
        await deps.pulls.trigger(source.id);
        return { kind: 'pull' };
      }
      if (platform === 'woocommerce' && isWooCommercePing(body, headers)) {
        count(platform, 'ping');
        return { kind: 'ping' };
      }
      const delivery = deliveryHeaders(platform, headers, body);
      const secret = String(deps.vault.open(source.sealedSecret, orderSourceSealingContext(source.id, source.customerId, platform)).secret);
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

/**
 * The credential a marketplace's webhook presents: Trendyol's `x-api-key` (its API_KEY authentication), or the password
 * of Basic auth (Trendyol's BASIC_AUTHENTICATION, Hepsiburada's push, whatever the user name).
 */
function marketplaceCredentialOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const key = headers['x-api-key'];
  if (typeof key === 'string' && key.length > 0 && key.length <= 512) return key.trim();
  const auth = headers.authorization;
  const basic = typeof auth === 'string' ? /^Basic\s+([A-Za-z0-9+/=]{1,1024})$/i.exec(auth.trim()) : null;
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

/** Constant-time comparison of what was presented with the credential (a wrong length is simply wrong). */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
