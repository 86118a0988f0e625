import { CarrierBusyError, CarrierRefusedError, type Carrier, type Quote, type QuoteParties, type ShipmentSpec } from './carrier';
import { outboundFailureText } from './carrier-http';
import { bestQuote, type Preference } from './registry';
import type { AccountCarrierOptions } from './account-carrier';
import { ArasCarrier } from './aras';
import { ConsignmentApiCarrier, type LookupBudget } from './consignment-api';
import { DhlExpressCarrier } from './dhl-express';
import { HepsijetCarrier } from './hepsijet';
import { KolayGelsinCarrier } from './kolay-gelsin';
import { HepsiburadaCarrier, TrendyolCarrier } from './marketplace-carrier';
import { MngCarrier } from './mng';
import { SendeoCarrier } from './sendeo';
import { SuratCarrier } from './surat';
import { YurticiCarrier } from './yurtici';
import { sealingContext, type CredentialsVault } from './credentials-vault';
import type { CarrierRegistry } from './registry';
import type { CarrierAccountRecord } from '../db/carrier-accounts.repository';
import { CARRIER_ACCOUNT_STATUS, type CarrierKind } from '../domain/carrier-account';
import { DomainError, type Issue } from '../domain/errors';
import { isStorableProviderId, providerIssue } from '../domain/providers';
import type { OutboundHttp } from '../http/outbound';

/** Each carrier kind's class, built from the account's identity, credentials, settings and lookup budget. */
const ACCOUNT_CARRIERS: Record<CarrierKind, new (options: AccountCarrierOptions<never, never> & { lookupBudget: LookupBudget }) => Carrier> = {
  consignment_api: ConsignmentApiCarrier,
  dhl_express: DhlExpressCarrier,
  sendeo: SendeoCarrier,
  kolay_gelsin: KolayGelsinCarrier,
  surat: SuratCarrier,
  yurtici: YurticiCarrier,
  aras: ArasCarrier,
  mng: MngCarrier,
  hepsijet: HepsijetCarrier,
  trendyol: TrendyolCarrier,
  hepsiburada: HepsiburadaCarrier,
};

/** A provider as `GET /providers` and lookups show it. */
export interface ProviderInfo {
  id: number;
  name: string;
  logo: string;
  /** `sandbox` for the built-in carriers, the carrier kind of an account otherwise */
  carrier: string;
  /** 1 takes bookings, 0 disabled (accounts only; sandbox carriers are always 1) */
  status: number;
  supports: { quotes: boolean; cancel_in_transit: boolean; push_tracking: boolean };
}

/**
 * What the provider directory needs of the database, as functions the wiring hands in (src/services/providers.service.ts
 * builds them over the repositories), so src/carriers never imports src/db.
 */
export interface ProviderAccounts {
  /** the customer's live account with this provider id (any status) */
  find(customerId: number, providerId: number): Promise<CarrierAccountRecord | undefined>;
  /** any account by provider id, deleted and disabled ones included (their consignments are still followed) */
  findForCarrier(providerId: number): Promise<(CarrierAccountRecord & { sealed: Buffer }) | undefined>;
  /** the customer's live accounts, disabled ones included, by provider id */
  listAll(customerId: number): Promise<CarrierAccountRecord[]>;
  /** takes one call from the account's shared budget of the current window (all workers together) */
  takeLookup(call: { providerId: number; windowSeconds: number; limit: number }): Promise<{ allowed: boolean; retryAfterMs: number }>;
}

export interface ProvidersDeps {
  accounts: ProviderAccounts;
  /** the built-in (sandbox) carriers */
  registry: CarrierRegistry;
  publicBaseUrl: string;
  vault: CredentialsVault;
  /** outbound HTTP to carriers (the private-network policy of WEBHOOK_ALLOW_PRIVATE) */
  http: OutboundHttp;
  /** remote lookups per minute per account, all workers together (CARRIER_LOOKUPS_PER_MIN) */
  lookupsPerMinute: number;
}

/** One provider's answer when cheapest or fastest compares them (kept in the consignment's history). */
export interface ConsideredQuote {
  providerId: number;
  name: string;
  quote?: Quote;
  /** why it was left out: it does not take the shipment, it could not be asked, or its price is in another currency */
  note?: string;
}

/** The choice as the consignment's history tells it: what was chosen, by which preference, and every answer considered. */
export function describeChoice(preference: Preference, chosen: ConsideredQuote, considered: readonly ConsideredQuote[]): string {
  const priced = (q: Quote) => `${q.baseCost.toFixed(2)} ${q.currency}, ${q.transitDays} day${q.transitDays === 1 ? '' : 's'}`;
  const answers = considered.map((c) => `${c.name} (#${c.providerId}): ${[c.quote && priced(c.quote), c.note].filter(Boolean).join('; ')}`);
  return `Carrier chosen: ${chosen.name} (#${chosen.providerId}), the ${preference === 2 ? 'fastest' : 'cheapest'} of ${considered.length} asked — ${answers.join(' | ')}`.slice(
    0,
    2000,
  );
}

/** Cheapest and fastest compare prices in the currency consignment costs are kept in. */
const COMPARED_CURRENCY = 'TRY';

/** Lookups are budgeted in 10-second windows: any 60 seconds then see at most 7/6 of the per-minute budget. */
const BUDGET_WINDOW_SECONDS = 10;

const accountName = (a: Pick<CarrierAccountRecord, 'providerId' | 'description' | 'carrier'>) => a.description || `${a.carrier} #${a.providerId}`;

/**
 * The providers a customer can ship with: the built-in carriers (the registry) and its own carrier accounts.
 * Resolves a draft's `provider_id` for its customer and is the carrier factory: it builds the carrier an
 * account books, tracks and cancels through, with its credentials opened.
 */
export function createProviders(deps: ProvidersDeps) {
  const logoOf = (providerId: number) => `${deps.publicBaseUrl}/api/v1/providers/${providerId}/logo.svg`;
  const builtIn = (c: Carrier): ProviderInfo => ({
    id: c.id,
    name: c.name,
    logo: c.logoUrl,
    carrier: 'sandbox',
    status: CARRIER_ACCOUNT_STATUS.ACTIVE,
    supports: { quotes: c.supportsQuotes, cancel_in_transit: c.supportsCancelInTransit, push_tracking: c.supportsPush },
  });
  const ofAccount = (a: CarrierAccountRecord): ProviderInfo => ({
    id: a.providerId,
    name: accountName(a),
    logo: logoOf(a.providerId),
    carrier: a.carrier,
    status: a.status,
    supports:
      a.carrier === 'consignment_api'
        ? // priced by the remote when it books; cancels as the remote decides; statuses by lookup after its webhook
          { quotes: false, cancel_in_transit: true, push_tracking: a.statusWebhook.registered }
        : a.carrier === 'kolay_gelsin'
          ? // priced by the account's rate table; cancels in transit as a return; statuses by query after its webhook
            { quotes: a.settings.rates !== undefined, cancel_in_transit: true, push_tracking: a.statusWebhook.registered }
          : a.carrier === 'sendeo' || a.carrier === 'surat' || a.carrier === 'yurtici' || a.carrier === 'aras' || a.carrier === 'mng'
            ? // priced by the account's rate table; cancels before pickup only; polled (the contracts have no webhook)
              { quotes: a.settings.rates !== undefined, cancel_in_transit: false, push_tracking: false }
            : a.carrier === 'hepsijet'
              ? // priced by the account's rate table; recalled in transit until out for delivery; polled
                { quotes: a.settings.rates !== undefined, cancel_in_transit: true, push_tracking: false }
              : a.carrier === 'trendyol' || a.carrier === 'hepsiburada'
                ? // the marketplace's own carrier: priced and cancelled by the marketplace; its package statuses polled
                  { quotes: false, cancel_in_transit: false, push_tracking: false }
                : // dhl_express: rated by its rating operation; no cancel once DHL holds the parcel; polled
                  { quotes: true, cancel_in_transit: false, push_tracking: false },
  });

  /** Built carriers of accounts, rebuilt when the account changed (credentials or settings). */
  const built = new Map<number, { updatedAt: string; carrier: Carrier }>();

  /**
   * The carrier that books, tracks and cancels for `providerId`: a built-in one, or the account's carrier
   * with its credentials opened (deleted or disabled accounts too: their consignments are still followed).
   */
  const carrierFor = async (providerId: number): Promise<Carrier | undefined> => {
    const own = deps.registry.get(providerId);
    if (own) return own;
    const account = await deps.accounts.findForCarrier(providerId);
    if (!account) return undefined;
    const cached = built.get(providerId);
    if (cached && cached.updatedAt === account.updatedAt) return cached.carrier;
    const credentials = deps.vault.open(account.sealed, sealingContext(providerId, account.customerId, account.carrier));
    const lookupBudget = async () => {
      const taken = await deps.accounts.takeLookup({
        providerId,
        windowSeconds: BUDGET_WINDOW_SECONDS,
        limit: Math.max(1, Math.floor((deps.lookupsPerMinute * BUDGET_WINDOW_SECONDS) / 60)),
      });
      if (!taken.allowed) throw new CarrierBusyError(providerId, taken.retryAfterMs, 'the account’s lookup budget for this window is spent');
    };
    const identity = { providerId, name: accountName(account), logoUrl: logoOf(providerId), http: deps.http };
    const Kind = Object.hasOwn(ACCOUNT_CARRIERS, account.carrier) ? ACCOUNT_CARRIERS[account.carrier as CarrierKind] : undefined;
    if (!Kind) return undefined;
    // Credentials and settings as stored: each kind's schema (src/domain/carrier-account.ts) checked them when they were written.
    const carrier = new Kind({ ...identity, credentials: credentials as never, settings: account.settings as never, lookupBudget });
    built.set(providerId, { updatedAt: account.updatedAt, carrier });
    return carrier;
  };

  return {
    /**
     * The issue with `provider_id` for a new draft or booking of `customerId`: unknown (another customer's
     * account included), deleted, or disabled. None for an absent id.
     */
    async issue(customerId: number, providerId: number | null | undefined): Promise<Issue | undefined> {
      if (providerId == null || deps.registry.get(providerId)) return providerIssue(providerId, { builtIn: true });
      return providerIssue(providerId, isStorableProviderId(providerId) ? await deps.accounts.find(customerId, providerId) : undefined);
    },

    /** What the customer can use: the built-in carriers, then its accounts (disabled ones with status 0). */
    async list(customerId: number): Promise<ProviderInfo[]> {
      return [...deps.registry.all().map(builtIn), ...(await deps.accounts.listAll(customerId)).map(ofAccount)];
    },

    /** Any provider by id, as a consignment booked with it shows it (deleted accounts included). */
    async describe(providerId: number): Promise<ProviderInfo | undefined> {
      const carrier = deps.registry.get(providerId);
      if (carrier) return builtIn(carrier);
      const account = await deps.accounts.findForCarrier(providerId);
      return account && ofAccount(account);
    },

    /**
     * Preference 1 (cheapest) or 2 (fastest) among every provider the customer can use that prices shipments:
     * the built-in carriers and its active accounts (rating operations and rate tables), asked together. A
     * provider that cannot be asked is left out with the reason, not waited for again. Null when none quotes.
     */
    async choose(
      customerId: number,
      spec: ShipmentSpec,
      parties: QuoteParties,
      preference: Preference,
    ): Promise<{ chosen: (ConsideredQuote & { quote: Quote }) | null; considered: ConsideredQuote[] }> {
      const accounts = (await deps.accounts.listAll(customerId)).filter((a) => a.status === CARRIER_ACCOUNT_STATUS.ACTIVE && ofAccount(a).supports.quotes);
      const ids = [...deps.registry.all().map((c) => c.id), ...accounts.map((a) => a.providerId)];
      const considered = await Promise.all(
        ids.map(async (providerId): Promise<ConsideredQuote> => {
          const carrier = await carrierFor(providerId);
          const name = carrier?.name ?? `Provider ${providerId}`;
          try {
            const quote = carrier && (await carrier.quote(spec, parties));
            if (!quote) return { providerId, name, note: 'does not take this shipment' };
            if (quote.currency !== COMPARED_CURRENCY)
              return { providerId, name, quote, note: `priced in ${quote.currency}; only ${COMPARED_CURRENCY} prices are compared` };
            return { providerId, name, quote };
          } catch (error) {
            return { providerId, name, note: error instanceof CarrierRefusedError ? error.reason : outboundFailureText(error) };
          }
        }),
      );
      const comparable = considered.filter((c): c is ConsideredQuote & { quote: Quote } => c.quote !== undefined && c.note === undefined);
      const best = bestQuote(
        comparable.map((c) => ({ ...c, carrier: { id: c.providerId } })),
        preference,
      );
      return { chosen: best && comparable.find((c) => c.providerId === best.providerId)!, considered };
    },

    /** True when the id is a built-in carrier (quoted and booked in process) rather than an account. */
    isBuiltIn: (providerId: number) => deps.registry.get(providerId) !== undefined,

    /**
     * The carrier of `providerId` for a booking, a lookup or a cancellation, or VALIDATION_FAILED naming
     * `provider_id` (the provider-existence rule) when no carrier has that id.
     */
    async requireCarrier(providerId: number): Promise<Carrier> {
      const carrier = await carrierFor(providerId);
      const issue = providerIssue(providerId, carrier ? { builtIn: true } : undefined);
      if (issue || !carrier) throw new DomainError('VALIDATION_FAILED', [issue!]);
      return carrier;
    },

    carrierFor,
  };
}

export type Providers = ReturnType<typeof createProviders>;
