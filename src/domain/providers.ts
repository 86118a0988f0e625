import { CARRIER_ACCOUNT_STATUS } from './carrier-account';
import type { Issue } from './errors';

/** What is known of a provider id for a customer: a built-in carrier, one of its carrier accounts (with the account's status), or nothing. */
export type ProviderFound = { builtIn: true } | { status: number } | undefined;

/**
 * The one provider-existence rule: the issue with a draft's or booking's `provider_id`. Unknown (another
 * customer's account included, or deleted) is PROVIDER_NOT_FOUND; a disabled account is PROVIDER_DISABLED;
 * an absent id has none (processing asks for a carrier choice separately).
 */
export function providerIssue(providerId: number | null | undefined, found: ProviderFound): Issue | undefined {
  if (providerId == null) return undefined;
  if (!found) return { code: 'PROVIDER_NOT_FOUND', field: 'provider_id', params: { provider_id: providerId } };
  if ('status' in found && found.status !== CARRIER_ACCOUNT_STATUS.ACTIVE)
    return { code: 'PROVIDER_DISABLED', field: 'provider_id', params: { provider_id: providerId } };
  return undefined;
}

/** A provider id an account can have (a positive int4): anything else is unknown without asking the database. */
export const isStorableProviderId = (providerId: number): boolean => Number.isSafeInteger(providerId) && providerId > 0 && providerId <= 2_147_483_647;
