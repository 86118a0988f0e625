import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import type { CredentialsVault } from '../src/carriers/credentials-vault';
import { takeOrderSourceCall } from '../src/db/carrier-call-windows.repository';
import type { Database } from '../src/db/database';
import {
  findSourceForPull,
  hasDraftingCreate,
  insertOrderEvent,
  listWriteBacksDue,
  markOrderEventsStarted,
  recordPull,
  recordWriteBack,
  setSourceSetting,
  type LastPull,
} from '../src/db/order-sources.repository';
import { isMarketplace, ORDER_SOURCE_ACTIVE, orderSourceSealingContext, type Marketplace, type MarketplaceSettings } from '../src/domain/order-source';
import type { OutboundHttp } from '../src/http/outbound';
import { marketplaceLimits } from '../src/marketplaces/clients';
import { packageAction, packageEventKey } from '../src/imports/marketplace-orders';
import {
  MarketplaceBusyError,
  MarketplaceRefusedError,
  type MarketplaceClient,
  type MarketplaceClientOptions,
  type MarketplacePackage,
} from '../src/marketplaces/marketplace';
import type { Metrics } from '../src/metrics';
import type { OrderEventStarter } from '../src/temporal/order-event.starter';
import type { MarketplaceActivities } from '../workflows/activities';

/** Where a source's first pull starts: a week back, so the open packages of a newly connected shop become drafts. */
const FIRST_PULL_LOOKBACK_MS = 7 * 24 * 3600_000;
/** Each pull starts this far before the last one ended: a package the marketplace dates late is still seen (the events dedup). */
const PULL_OVERLAP_MS = 15 * 60_000;
/** Write-backs one pull round makes at most (the rest in the next round). */
const WRITE_BACKS_PER_ROUND = 200;

export type MarketplaceClients = (platform: Marketplace, options: MarketplaceClientOptions<Record<string, string>, MarketplaceSettings>) => MarketplaceClient;

export interface MarketplaceActivityDeps {
  db: Database;
  vault: CredentialsVault;
  /** outbound HTTP with the private-network policy of WEBHOOK_ALLOW_PRIVATE */
  marketplaceHttp: OutboundHttp;
  /** each marketplace's client (src/marketplaces/clients.ts) */
  marketplaceClients: MarketplaceClients;
  orderEvents: OrderEventStarter;
  /** PUBLIC_BASE_URL: where a marketplace's webhook is registered to (the source's delivery URL) */
  publicBaseUrl: string;
  /** the name and kind a provider id is known by (the carrier written back to the marketplace) */
  providerOf: (providerId: number) => Promise<{ name: string; carrier: string } | undefined>;
  /** the account's budget of calls by the marketplace's documented limits, shared by every worker (default: in the database) */
  marketplaceBudget?: (source: { id: string; platform: Marketplace }, group: string) => Promise<void>;
  metrics?: Pick<Metrics, 'orderEvents'>;
  now?: () => Date;
}

/** Tells Temporal the pull is alive (a long pull pages for minutes); outside an activity (tests) nothing. */
function heartbeat(details?: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // not in an activity
  }
}

/** A marketplace's "wait" as a retry after that wait; other failures as they are (Temporal retries them). */
function retryable(error: unknown): unknown {
  return error instanceof MarketplaceBusyError
    ? ApplicationFailure.create({ message: error.message, type: 'MARKETPLACE_BUSY', nextRetryDelay: error.retryAfterMs })
    : error;
}

export function createMarketplaceActivities(deps: MarketplaceActivityDeps): MarketplaceActivities {
  const now = deps.now ?? (() => new Date());
  const budget = deps.marketplaceBudget ?? marketplaceBudget(deps.db);

  /** The source and its client, or undefined when it is gone, disabled or not a marketplace. */
  const open = async (sourceId: string) => {
    const source = await findSourceForPull(deps.db, sourceId);
    if (!source || source.status !== ORDER_SOURCE_ACTIVE || !isMarketplace(source.platform) || !source.sealedCredentials) return undefined;
    const credentials = deps.vault.open(source.sealedCredentials, orderSourceSealingContext(source.id, source.customerId, source.platform, 'credentials'));
    const client = deps.marketplaceClients(source.platform, {
      credentials: credentials as Record<string, string>,
      settings: source.settings,
      http: deps.marketplaceHttp,
      budget: (group: string) => budget({ id: source.id, platform: source.platform as Marketplace }, group),
      now,
    });
    return { source, platform: source.platform, client };
  };

  /**
   * Registers our webhook at the marketplace once (Trendyol: by the first pull, unless the source says not to), so a
   * changed package is pulled at once; a refusal is shown on the source and tried again by the next pull, and never
   * stops the pull itself.
   */
  const registerWebhook = async ({ source, client }: NonNullable<Awaited<ReturnType<typeof open>>>): Promise<string | undefined> => {
    if (!client.registerWebhook || source.settings.register_webhook === false || source.settings.webhook_id) return undefined;
    const credential = String(deps.vault.open(source.sealedSecret, orderSourceSealingContext(source.id, source.customerId, source.platform)).secret);
    try {
      const id = await client.registerWebhook(`${deps.publicBaseUrl}/api/v1/order-sources/${source.id}/push/notices`, credential);
      await setSourceSetting(deps.db, source.id, 'webhook_id', id);
      return undefined;
    } catch (error) {
      if (!(error instanceof MarketplaceRefusedError) && !(error instanceof MarketplaceBusyError)) throw retryable(error);
      return `webhook registration: ${error.message}`.slice(0, 500);
    }
  };

  return {
    /**
     * The packages changed since the last pull (less an overlap), each as an order event when it asks something
     * (new, changed, cancelled): inserted once (the event key is the package as mapped), its workflow started (the
     * relay starts what a crash left). The window moves on only when the whole of it was pulled.
     */
    async pullOrderSource({ sourceId }) {
      const opened = await open(sourceId);
      if (!opened) return { packages: 0, events: 0 };
      const { source, platform, client } = opened;
      const registration = await registerWebhook(opened);
      const to = now();
      const from = source.pulledUntil ? new Date(new Date(source.pulledUntil).getTime() - PULL_OVERLAP_MS) : new Date(to.getTime() - FIRST_PULL_LOOKBACK_MS);
      let packages = 0;
      let events = 0;
      const pull: LastPull = {
        at: to.toISOString(),
        from: from.toISOString(),
        to: to.toISOString(),
        packages: 0,
        events: 0,
        ...(registration && { error: registration }),
      };
      const onPage = async (page: MarketplacePackage[]) => {
        const started: number[] = [];
        for (const pkg of page) {
          packages++;
          const action = packageAction(pkg, await hasDraftingCreate(deps.db, source.id, pkg.id));
          if (!action) continue;
          const { event, created } = await insertOrderEvent(deps.db, {
            sourceId: source.id,
            dedupKey: packageEventKey(platform, pkg),
            topic: `${platform} package ${pkg.state}`,
            action,
            orderId: pkg.id,
            orderNo: pkg.orderNumber.replace(/\0/g, '').slice(0, 255),
            payload: JSON.stringify(pkg),
            triggeredAt: pkg.changedAt.toISOString(),
            // The marketplace's own carrier ships it: nothing of ours to write back.
            ...(action === 'create' && pkg.marketplaceCarrier && { writeBack: { state: 'not-needed' as const, at: to.toISOString() } }),
          });
          if (!created) continue;
          events++;
          deps.metrics?.orderEvents.inc({ platform, outcome: 'received' });
          await deps.orderEvents.start({
            sourceId: source.id,
            eventId: event.id,
            summary: `${platform} package ${pkg.id} (order ${pkg.orderNumber}) ${action} → source ${source.name}`,
          });
          started.push(event.id);
        }
        await markOrderEventsStarted(deps.db, started);
        heartbeat({ packages, events });
      };
      try {
        await client.pull({ from, to }, onPage);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await recordPull(deps.db, source.id, { lastPull: { ...pull, packages, events, error: reason.slice(0, 500) } });
        // Refused credentials: shown on the source until they are fixed; the next scheduled pull asks again.
        if (error instanceof MarketplaceRefusedError) return { packages, events };
        throw retryable(error);
      }
      await recordPull(deps.db, source.id, { pulledUntil: to, lastPull: { ...pull, packages, events } });
      return { packages, events };
    },

    /**
     * Every processed package of the source not written back yet: the marketplace is told the carrier and tracking
     * number (its contract's calls). A refusal is recorded on the event (and counted), never retried; a fault is
     * retried with the whole round, which skips what was recorded.
     */
    async writeBackOrderSource({ sourceId }) {
      const opened = await open(sourceId);
      if (!opened) return { done: 0, refused: 0 };
      const { source, platform, client } = opened;
      let done = 0;
      let refused = 0;
      for (const due of await listWriteBacksDue(deps.db, source.id, WRITE_BACKS_PER_ROUND)) {
        const pkg = JSON.parse(due.payload) as MarketplacePackage;
        const provider = await deps.providerOf(due.providerId);
        const carrierCode = source.settings.carrier_codes?.[String(due.providerId)];
        let result;
        try {
          result = await client.writeBack({
            packageId: pkg.id,
            carrierName: provider?.name ?? `Provider ${due.providerId}`,
            carrierKind: provider?.carrier ?? 'unknown',
            ...(carrierCode && { carrierCode }),
            trackingCode: due.trackingCode,
            trackingUrl: due.trackingUrl ?? '',
            parcels: due.parcels,
            desi: due.desi,
            shippedAt: new Date(due.processedAt),
          });
        } catch (error) {
          if (!(error instanceof MarketplaceRefusedError)) {
            await recordPull(deps.db, source.id, {
              lastPull: {
                ...(source.lastPull ?? emptyPull(now())),
                writeBacks: { done, refused },
                error: `write-back: ${String((error as Error).message).slice(0, 400)}`,
              },
            });
            throw retryable(error);
          }
          result = { done: false as const, reason: error.message };
        }
        const at = now().toISOString();
        if (result.done) {
          done++;
          await recordWriteBack(deps.db, due.eventId, { state: 'done', at, calls: result.calls });
        } else {
          refused++;
          await recordWriteBack(deps.db, due.eventId, { state: 'refused', at, reason: result.reason.slice(0, 500) });
        }
        deps.metrics?.orderEvents.inc({ platform, outcome: result.done ? 'written-back' : 'write-back-refused' });
        heartbeat({ done, refused });
      }
      return { done, refused };
    },
  };
}

const emptyPull = (at: Date): LastPull => ({ at: at.toISOString(), from: at.toISOString(), to: at.toISOString(), packages: 0, events: 0 });

/**
 * A source's budget shared by every worker (the database counts the calls of each window): a call over a limit is a
 * MarketplaceBusyError with the time to the next window, which the pull waits out.
 */
export function marketplaceBudget(db: Database) {
  return async (source: { id: string; platform: Marketplace }, group: string): Promise<void> => {
    for (const { windowSeconds, limit } of marketplaceLimits(source.platform, group)) {
      const taken = await takeOrderSourceCall(db, { sourceId: source.id, group: `${group}/${windowSeconds}s`, windowSeconds, limit });
      if (!taken.allowed)
        throw new MarketplaceBusyError(taken.retryAfterMs, `${source.platform}'s limit of ${limit} ${group} calls in ${windowSeconds} s was reached`);
    }
  };
}
