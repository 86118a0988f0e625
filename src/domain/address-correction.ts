/** A change address resolution made to a party (src/address/address-resolver.ts); each is a history entry. */
export type PartyRole = 'consignor' | 'consignee';
export type ResolvedField = 'state' | 'city' | 'postal_code';

export interface AddressCorrection {
  party: PartyRole;
  field: ResolvedField;
  from: string | null;
  to: string;
}
