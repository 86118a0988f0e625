import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { outboundFailureText } from '../carriers/carrier-http';
import { deleteStatusWebhook, registerStatusWebhook, type ConsignmentApiCredentials } from '../carriers/consignment-api';
import { sealingContext, type CredentialsVault } from '../carriers/credentials-vault';
import {
  deleteCarrierAccount,
  findCarrierAccount,
  findCarrierAccountForCarrier,
  findSealedCredentials,
  findStatusWebhook,
  saveStatusWebhook,
  insertCarrierAccount,
  listCarrierAccounts,
  nextProviderId,
  updateCarrierAccount,
  type CarrierAccountRecord,
} from '../db/carrier-accounts.repository';
import type { Caller } from '../db/customers.repository';
import type { Database } from '../db/database';
import { credentialsHint, type CarrierAccountInput, type CarrierKind } from '../domain/carrier-account';
import { DomainError } from '../domain/errors';
import { pageOffset, type PageRequest } from '../domain/pagination';
import type { OutboundHttp } from '../http/outbound';

export interface CarrierAccountServiceDeps {
  db: Database;
  vault: CredentialsVault;
  /** to register status webhooks at remotes; without it none are registered (the workflow polls) */
  statusWebhooks?: {
    http: OutboundHttp;
    /** PUBLIC_BASE_URL: the remote sends to `{publicBaseUrl}/api/v1/carrier-accounts/{provider_id}/status-updates` */
    publicBaseUrl: string;
    log?: (fields: Record<string, unknown>, message: string) => void;
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The webhook id of accounts whose webhook the customer registers in the carrier's portal (nothing to delete remotely). */
const PORTAL_WEBHOOK = 'carrier-portal';

/** A customer's carrier accounts. Credentials go in sealed and never come out here (only a masked hint). */
export function createCarrierAccountService(deps: CarrierAccountServiceDeps) {
  const get = async (caller: Caller, providerId: number): Promise<CarrierAccountRecord> => {
    const found = await findCarrierAccount(deps.db, caller.customerId, providerId);
    if (!found) throw new DomainError('CARRIER_ACCOUNT_NOT_FOUND');
    return found;
  };

  /** The account's credentials in the clear, for calls to its carrier (never for responses or logs). */
  const credentialsOf = async (providerId: number): Promise<Record<string, unknown> | undefined> => {
    const found = await findSealedCredentials(deps.db, providerId);
    return found && deps.vault.open(found.sealed, sealingContext(providerId, found.customerId, found.carrier));
  };

  const seal = (providerId: number, customerId: number, carrier: CarrierKind, credentials: Record<string, unknown>) => ({
    sealed: deps.vault.seal(credentials, sealingContext(providerId, customerId, carrier)),
    hint: credentialsHint(carrier, credentials),
  });

  /**
   * Registers the account's status webhook at the remote (a consignment_api account), replacing the one it
   * had. A remote that refuses or does not answer leaves the account without one: the reason is shown with
   * the account, its consignments are polled, and a later PUT tries again.
   */
  const connectStatusWebhook = async (account: CarrierAccountRecord, credentials: Record<string, unknown>, previous?: Record<string, unknown>) => {
    if (account.carrier === 'kolay_gelsin') return acceptPortalWebhook(account, credentials);
    const hooks = deps.statusWebhooks;
    if (!hooks || account.carrier !== 'consignment_api') return;
    const old = await findStatusWebhook(deps.db, account.providerId);
    if (old?.id && previous) await deleteStatusWebhook(hooks.http, previous as unknown as ConsignmentApiCredentials, old.id).catch(() => undefined);
    const secret = randomBytes(32).toString('base64url');
    try {
      const id = await registerStatusWebhook(hooks.http, credentials as unknown as ConsignmentApiCredentials, {
        endpoint: `${hooks.publicBaseUrl}/api/v1/carrier-accounts/${account.providerId}/status-updates`,
        secret,
        description: `consignflow carrier account ${account.providerId}`,
      });
      await saveStatusWebhook(deps.db, account.providerId, { id, secretHash: sha256(secret) });
    } catch (error) {
      const reason = outboundFailureText(error);
      hooks.log?.({ providerId: account.providerId, reason }, 'status webhook not registered at the remote');
      await saveStatusWebhook(deps.db, account.providerId, { error: reason });
    }
  };

  /**
   * A Kolay Gelsin account's webhook is registered by the customer in Kolay Gelsin's portal (the contract has no
   * operation for it), with the account's `webhook_secret` as its Basic auth password or hash value: we keep
   * the secret's hash to check deliveries against. Without a secret its consignments are polled.
   */
  const acceptPortalWebhook = async (account: CarrierAccountRecord, credentials: Record<string, unknown>) => {
    const secret = credentials.webhook_secret;
    if (typeof secret === 'string' && secret) await saveStatusWebhook(deps.db, account.providerId, { id: PORTAL_WEBHOOK, secretHash: sha256(secret) });
    else await saveStatusWebhook(deps.db, account.providerId, { error: 'no webhook_secret: statuses are polled' });
  };

  return {
    async create(caller: Caller, input: CarrierAccountInput): Promise<CarrierAccountRecord> {
      const providerId = await nextProviderId(deps.db);
      const { sealed, hint } = seal(providerId, caller.customerId, input.carrier, input.credentials!);
      const account = await insertCarrierAccount(deps.db, {
        providerId,
        customerId: caller.customerId,
        carrier: input.carrier,
        description: input.description,
        credentials: sealed,
        credentialsHint: hint,
        settings: input.settings,
        status: input.status,
      });
      await connectStatusWebhook(account, input.credentials!);
      return get(caller, providerId);
    },

    list: (caller: Caller, page: PageRequest) => listCarrierAccounts(deps.db, caller.customerId, { limit: page.limit, offset: pageOffset(page) }),

    get,

    /** PUT: every field; credentials left out are kept. The carrier kind of an account does not change. */
    async replace(caller: Caller, providerId: number, input: CarrierAccountInput): Promise<CarrierAccountRecord> {
      const current = await get(caller, providerId);
      if (input.carrier !== current.carrier) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_CHOICE', field: 'carrier' }]);
      const previous = await credentialsOf(providerId);
      const credentials = input.credentials && seal(providerId, caller.customerId, input.carrier, input.credentials);
      const updated = await updateCarrierAccount(deps.db, caller.customerId, providerId, {
        description: input.description,
        settings: input.settings,
        status: input.status,
        credentials,
      });
      if (!updated) throw new DomainError('CARRIER_ACCOUNT_NOT_FOUND');
      // New credentials (another remote or key) move the webhook; an account without one tries again.
      if (input.credentials || !current.statusWebhook.registered) await connectStatusWebhook(updated, input.credentials ?? previous!, previous);
      return get(caller, providerId);
    },

    /** Deletes the account (soft: its consignments are still followed) and its status webhook at the remote. */
    async remove(caller: Caller, providerId: number): Promise<void> {
      const webhook = await findStatusWebhook(deps.db, providerId);
      const credentials = webhook?.id ? await credentialsOf(providerId) : undefined;
      if (!(await deleteCarrierAccount(deps.db, caller.customerId, providerId))) throw new DomainError('CARRIER_ACCOUNT_NOT_FOUND');
      if (webhook?.id && webhook.id !== PORTAL_WEBHOOK && credentials && deps.statusWebhooks) {
        try {
          await deleteStatusWebhook(deps.statusWebhooks.http, credentials as unknown as ConsignmentApiCredentials, webhook.id);
          await saveStatusWebhook(deps.db, providerId, { error: 'deleted with the account' });
        } catch (error) {
          deps.statusWebhooks.log?.({ providerId, reason: outboundFailureText(error) }, 'status webhook not deleted at the remote');
        }
      }
    },

    /**
     * The account whose status webhook delivery carries `secret` (compared by hash, in constant time); a
     * deleted account's webhook no longer counts.
     */
    async verifyStatusWebhook(
      providerId: number,
      secret: string | undefined,
    ): Promise<{ providerId: number; customerId: number; carrier: string } | undefined> {
      if (!secret || !Number.isSafeInteger(providerId) || providerId <= 0 || providerId > 2_147_483_647) return undefined;
      const account = await findCarrierAccountForCarrier(deps.db, providerId);
      if (!account || account.deleted || !account.statusWebhookSecretHash) return undefined;
      const [given, expected] = [Buffer.from(sha256(secret), 'hex'), Buffer.from(account.statusWebhookSecretHash, 'hex')];
      return given.length === expected.length && timingSafeEqual(given, expected)
        ? { providerId, customerId: account.customerId, carrier: account.carrier }
        : undefined;
    },

    credentialsOf,
  };
}

export type CarrierAccountService = ReturnType<typeof createCarrierAccountService>;
