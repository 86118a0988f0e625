import type { PackageInput, PartyInput } from './draft';

/**
 * Live order feeds (docs/order-feeds.md): the shop platforms that deliver order webhooks, the states an
 * event goes through, and what a source fills into every draft. Pure: no I/O.
 */
export const ORDER_PLATFORMS = ['shopify', 'woocommerce', 'trendyol', 'hepsiburada'] as const;
export type OrderPlatform = (typeof ORDER_PLATFORMS)[number];

/** The shops that push signed webhooks, and the marketplaces whose packages are pulled on a schedule (their webhooks only hint). */
export const SHOP_PLATFORMS = ['shopify', 'woocommerce'] as const;
export type ShopPlatform = (typeof SHOP_PLATFORMS)[number];
export const MARKETPLACES = ['trendyol', 'hepsiburada'] as const;
export type Marketplace = (typeof MARKETPLACES)[number];
export const isMarketplace = (platform: OrderPlatform): platform is Marketplace => (MARKETPLACES as readonly string[]).includes(platform);

/** How often a marketplace source is pulled: every 5 minutes unless the source says otherwise (1 minute to a day). */
export const DEFAULT_POLL_INTERVAL_SECONDS = 300;

/**
 * received: queued, its workflow runs; drafted: a draft was made; processed: and booked with a label;
 * cancelled: a cancel event cancelled the order's draft or consignment; duplicate: the order was drafted
 * already (another event of it, or the reference is taken); failed: see `errors`.
 */
export const ORDER_EVENT_STATES = ['received', 'drafted', 'processed', 'cancelled', 'duplicate', 'failed'] as const;
export type OrderEventState = (typeof ORDER_EVENT_STATES)[number];

/**
 * What an event asks: a new order becomes a draft, a changed one (a marketplace package's address fixed) updates
 * its draft, a cancelled one cancels its draft or consignment.
 */
export type OrderEventAction = 'create' | 'update' | 'cancel';

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

/** A marketplace source's settings, as stored: its API host, how it identifies us, how often it is pulled. */
export interface MarketplaceSettings {
  base_url?: string;
  /** Trendyol: the integrator name of the User-Agent `<seller_id> - <name>` (default SelfIntegration) */
  integrator_name?: string;
  /** Hepsiburada: the User-Agent it requires (the integrator's developer user name) */
  user_agent?: string;
  /** Hepsiburada: the carrier phone its intransit call requires, for a carrier its built-in table lacks */
  tracking_phone_number?: string;
  /** seconds between pulls (default 300) */
  poll_interval?: number;
  /** Trendyol: register our webhook at Trendyol, so a changed package is pulled at once (default true) */
  register_webhook?: boolean;
  /** the marketplace's code of a carrier we book with, by our provider id (e.g. Hepsiburada's `{"1001": "YK"}`) */
  carrier_codes?: Record<string, string>;
  /** the carrier account the marketplace's own carrier books through ("Trendyol pays"), made with the source */
  carrier_provider_id?: number;
  /** Trendyol: the id of our webhook registered there (by the first pull) */
  webhook_id?: string;
}

/**
 * What a source's sealed values are bound to (its id, customer and platform, and which value), so a ciphertext cannot
 * be moved to another row or field: the webhook secret (or credential) and a marketplace's API credentials.
 */
export const orderSourceSealingContext = (id: string, customerId: number, platform: OrderPlatform, value: 'secret' | 'credentials' = 'secret'): string =>
  value === 'secret' ? `order-source:${id}:${customerId}:${platform}` : `order-source-credentials:${id}:${customerId}:${platform}`;
