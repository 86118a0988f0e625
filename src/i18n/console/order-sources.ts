import type { Text } from '../messages';

/** The order sources page: create Shopify or WooCommerce sources, their delivery URL and event log. */
export const ORDER_SOURCE_TEXTS = {} satisfies Record<string, Text>;
