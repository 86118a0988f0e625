import { translate, type Locale, type Text } from '../messages';
import { COMMON_TEXTS } from './common';
import { CONSIGNMENT_TEXTS } from './consignments';
import { IMPORT_TEXTS } from './imports';
import { WEBHOOK_TEXTS } from './webhooks';
import { CARRIER_ACCOUNT_TEXTS } from './carrier-accounts';
import { ORDER_SOURCE_TEXTS } from './order-sources';
import { DRAFT_TEXTS } from './drafts';
import { ADDRESS_SEARCH_TEXTS } from './address-search';

/**
 * Every text of the console, in the catalogue style of the API's messages: one `{ en, tr }` per key, `{name}`
 * for values. One module per area of the console; a key is unique across them (test/unit/console/texts.test.ts checks).
 */
export const CONSOLE_TEXTS = {
  ...COMMON_TEXTS,
  ...CONSIGNMENT_TEXTS,
  ...IMPORT_TEXTS,
  ...WEBHOOK_TEXTS,
  ...CARRIER_ACCOUNT_TEXTS,
  ...ORDER_SOURCE_TEXTS,
  ...DRAFT_TEXTS,
  ...ADDRESS_SEARCH_TEXTS,
} satisfies Record<string, Text>;

export type ConsoleTextKey = keyof typeof CONSOLE_TEXTS;

/** A translator for one locale: `t('PAGE_OF', { page: 1, pages: 3, total: 250 })`. */
export type Translate = (key: ConsoleTextKey, params?: Record<string, string | number>) => string;

export function consoleTranslator(locale: Locale): Translate {
  return (key, params) => translate(CONSOLE_TEXTS[key], locale, params);
}
