import type { Text } from '../messages';

/** The carrier accounts page: list, create, rotate credentials, disable; the providers the customer can use. */
export const CARRIER_ACCOUNT_TEXTS = {} satisfies Record<string, Text>;
