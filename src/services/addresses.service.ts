import { loadedAddressCountries, searchAddresses, type AddressSearchQuery } from '../db/addresses.repository';
import type { Database } from '../db/database';

/** The address search for the API: routes reach the addresses repository through here. */
export function createAddressService(deps: { db: Database }) {
  return {
    search: (query: AddressSearchQuery) => searchAddresses(deps.db, query),
    /** The countries whose address data is loaded (ADDRESS_COUNTRIES): the only ones a search finds anything in. */
    countries: async (): Promise<string[]> => [...(await loadedAddressCountries(deps.db))].sort(),
  };
}

export type AddressService = ReturnType<typeof createAddressService>;
