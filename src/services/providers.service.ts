import { createProviders, type Providers } from '../carriers/providers';
import type { CredentialsVault } from '../carriers/credentials-vault';
import type { CarrierRegistry } from '../carriers/registry';
import { findCarrierAccount, findCarrierAccountForCarrier, listAllCarrierAccounts } from '../db/carrier-accounts.repository';
import { takeCarrierCall } from '../db/carrier-call-windows.repository';
import type { Database } from '../db/database';
import type { OutboundHttp } from '../http/outbound';

export type { ConsideredQuote, ProviderInfo } from '../carriers/providers';

export interface ProviderServiceDeps {
  db: Database;
  /** the built-in (sandbox) carriers */
  registry: CarrierRegistry;
  publicBaseUrl: string;
  vault: CredentialsVault;
  /** outbound HTTP to carriers (the private-network policy of WEBHOOK_ALLOW_PRIVATE) */
  http: OutboundHttp;
  /** remote lookups per minute per account, all workers together (CARRIER_LOOKUPS_PER_MIN) */
  lookupsPerMinute: number;
}

/**
 * The providers a customer can ship with (src/carriers/providers.ts), over the carrier-account repositories.
 * One object serves the API (lists, lookups, pre-checks) and is handed to the activities as their carrier
 * factory (typed as `Providers`, so activities never import this layer).
 */
export function createProviderService({ db, ...deps }: ProviderServiceDeps): Providers {
  return createProviders({
    ...deps,
    accounts: {
      find: (customerId, providerId) => findCarrierAccount(db, customerId, providerId),
      findForCarrier: (providerId) => findCarrierAccountForCarrier(db, providerId),
      listAll: (customerId) => listAllCarrierAccounts(db, customerId),
      takeLookup: (call) => takeCarrierCall(db, { ...call, kind: 'lookup' }),
    },
  });
}

export type ProviderService = Providers;
