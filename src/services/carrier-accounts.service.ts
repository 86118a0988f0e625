import type { CredentialsVault } from '../carriers/credentials-vault';
import {
  deleteCarrierAccount,
  findCarrierAccount,
  findSealedCredentials,
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

export interface CarrierAccountServiceDeps {
  db: Database;
  vault: CredentialsVault;
}

/** The additional data a sealed value is bound to: its account, customer and carrier kind. */
export const sealingContext = (providerId: number, customerId: number, carrier: string): string => `carrier-account:${providerId}:${customerId}:${carrier}`;

/** A customer's carrier accounts. Credentials go in sealed and never come out here (only a masked hint). */
export function createCarrierAccountService(deps: CarrierAccountServiceDeps) {
  const get = async (caller: Caller, providerId: number): Promise<CarrierAccountRecord> => {
    const found = await findCarrierAccount(deps.db, caller.customerId, providerId);
    if (!found) throw new DomainError('CARRIER_ACCOUNT_NOT_FOUND');
    return found;
  };

  const seal = (providerId: number, customerId: number, carrier: CarrierKind, credentials: Record<string, unknown>) => ({
    sealed: deps.vault.seal(credentials, sealingContext(providerId, customerId, carrier)),
    hint: credentialsHint(carrier, credentials),
  });

  return {
    async create(caller: Caller, input: CarrierAccountInput): Promise<CarrierAccountRecord> {
      const providerId = await nextProviderId(deps.db);
      const { sealed, hint } = seal(providerId, caller.customerId, input.carrier, input.credentials!);
      return insertCarrierAccount(deps.db, {
        providerId,
        customerId: caller.customerId,
        carrier: input.carrier,
        description: input.description,
        credentials: sealed,
        credentialsHint: hint,
        settings: input.settings,
        status: input.status,
      });
    },

    list: (caller: Caller, page: PageRequest) => listCarrierAccounts(deps.db, caller.customerId, { limit: page.limit, offset: pageOffset(page) }),

    get,

    /** PUT: every field; credentials left out are kept. The carrier kind of an account does not change. */
    async replace(caller: Caller, providerId: number, input: CarrierAccountInput): Promise<CarrierAccountRecord> {
      const current = await get(caller, providerId);
      if (input.carrier !== current.carrier) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_CHOICE', field: 'carrier' }]);
      const credentials = input.credentials && seal(providerId, caller.customerId, input.carrier, input.credentials);
      const updated = await updateCarrierAccount(deps.db, caller.customerId, providerId, { description: input.description, settings: input.settings, status: input.status, credentials });
      if (!updated) throw new DomainError('CARRIER_ACCOUNT_NOT_FOUND');
      return updated;
    },

    async remove(caller: Caller, providerId: number): Promise<void> {
      if (!(await deleteCarrierAccount(deps.db, caller.customerId, providerId))) throw new DomainError('CARRIER_ACCOUNT_NOT_FOUND');
    },

    /** The account's credentials in the clear, for the activities that call its carrier (never for responses or logs). */
    async credentialsOf(providerId: number): Promise<Record<string, unknown> | undefined> {
      const found = await findSealedCredentials(deps.db, providerId);
      return found && deps.vault.open(found.sealed, sealingContext(providerId, found.customerId, found.carrier));
    },
  };
}

export type CarrierAccountService = ReturnType<typeof createCarrierAccountService>;
