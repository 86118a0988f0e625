import { searchAddresses, type AddressSearchQuery } from '../db/addresses.repository';
import type { Database } from '../db/database';

/** The address search for the API: routes reach the addresses repository through here. */
export function createAddressService(deps: { db: Database }) {
  return {
    search: (query: AddressSearchQuery) => searchAddresses(deps.db, query),
  };
}

export type AddressService = ReturnType<typeof createAddressService>;
