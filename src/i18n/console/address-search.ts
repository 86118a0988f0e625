import type { Text } from '../messages';

/** The address search page: the address search endpoint as a search box. */
export const ADDRESS_SEARCH_TEXTS = {} satisfies Record<string, Text>;
