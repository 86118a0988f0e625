import type { PackageInput, PartyInput } from './draft';

/**
 * Live order feeds (docs/order-feeds.md): the shop platforms that deliver order webhooks, the states an
 * event goes through, and what a source fills into every draft. Pure: no I/O.
 */
export const ORDER_PLATFORMS = ['shopify', 'woocommerce'] as const;
export type OrderPlatform = (typeof ORDER_PLATFORMS)[number];

/**
 * received: queued, its workflow runs; drafted: a draft was made; processed: and booked with a label;
 * cancelled: a cancel event cancelled the order's draft or consignment; duplicate: the order was drafted
 * already (another event of it, or the reference is taken); failed: see `errors`.
 */
export const ORDER_EVENT_STATES = ['received', 'drafted', 'processed', 'cancelled', 'duplicate', 'failed'] as const;
export type OrderEventState = (typeof ORDER_EVENT_STATES)[number];

/** What an event asks: a new order becomes a draft, a cancelled one cancels its draft or consignment. */
export type OrderEventAction = 'create' | 'cancel';

/** The draft defaults of a source: the CSV import options that fill every draft (consignor, carrier choice, package). */
export interface OrderSourceDefaults {
  preference: number | null;
  provider_id: number | null;
  address_resolver_type: number | null;
  consignor: PartyInput | null;
  package: Omit<PackageInput, 'items'> | null;
}

/** 1 active (deliveries accepted), 0 disabled (its delivery URL answers 404). */
export const ORDER_SOURCE_ACTIVE = 1;

/** The masked hint of a secret: its last four characters. */
export function secretHint(secret: string): string {
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}
