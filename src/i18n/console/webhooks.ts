import type { Text } from '../messages';

/** The webhooks page: list, create, disable; delivery log and redelivery. */
export const WEBHOOK_TEXTS = {} satisfies Record<string, Text>;
