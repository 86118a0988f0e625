import type { ItemInput, PartyInput } from '../domain/draft';
import type { TrackingEventName } from '../domain/tracking';
import type { OutboundHttp } from '../http/outbound';

/**
 * A marketplace's seller API as order sources use it (docs/order-feeds.md, "Marketplaces"): packages pulled in a
 * window of their last change, what was shipped written back, and, where the marketplace ships a package with its own
 * carrier, that carrier's label. Each marketplace (Trendyol, Hepsiburada) implements it from its published contract;
 * the order-source workflows call it through activities and never see its HTTP.
 */

/** What became of a package at the marketplace, as an order source acts on it. */
export type PackageState =
  /** to be shipped: a draft is made (or updated, when it changed) */
  | 'open'
  /** not shippable yet (Trendyol's Awaiting): nothing is done until it opens */
  | 'waiting'
  /** cancelled at the marketplace (by the customer, the marketplace, or the seller's "cannot supply"): its draft is cancelled */
  | 'cancelled'
  /** broken up into new packages (split, partial cancel): its draft is cancelled, the new packages come as their own */
  | 'replaced'
  /** shipped, delivered, returned: in the carrier's hands already; a package first seen so is not drafted */
  | 'shipped';

/** A package as the marketplace answers it, in the terms of a draft. */
export interface MarketplacePackage {
  /** the marketplace's package id: one draft per package (Trendyol's shipmentPackageId, Hepsiburada's package number or line id) */
  id: string;
  /** the order number the customer and the seller panel show */
  orderNumber: string;
  /** a value that changes whenever the package does (its last-modified time, or a hash of what we map): a new version is a new event */
  version: string;
  state: PackageState;
  /** when the marketplace last changed it (for the pull window and the event log) */
  changedAt: Date;
  /** the customer's delivery address and contact, as a draft's consignee */
  consignee: PartyInput;
  /** the lines to ship, as a draft's items (unit price and currency as sold) */
  items: ItemInput[];
  /**
   * The marketplace ships it with its own carrier contract ("Trendyol pays"): that carrier's name and the tracking
   * number the marketplace assigned. The label comes from the marketplace (`carrierLabel`); no other carrier is booked.
   */
  marketplaceCarrier?: { name: string; trackingNumber: string };
  /** the package as the marketplace answered it (stored with the event, shown in the event log) */
  raw: unknown;
}

/** What a pull asks: packages changed within the window, handed over a page at a time. */
export interface PullWindow {
  from: Date;
  to: Date;
}

/** What was shipped, to write back to the marketplace after processing. */
export interface ShippedPackage {
  packageId: string;
  /** the carrier we booked: its name (the provider's), its kind (`yurtici`, `mng`, … or `sandbox`) */
  carrierName: string;
  carrierKind: string;
  /** the marketplace's own code of that carrier, where the source's settings name one (`carrier_codes`) */
  carrierCode?: string;
  trackingCode: string;
  trackingUrl: string;
  /** the number of parcels and their total desi, where the marketplace asks */
  parcels: number;
  desi: number;
  shippedAt: Date;
}

/** The outcome of a write-back: done, or the marketplace's refusal in its words (shown in the event log, never retried). */
export type WriteBackResult = { done: true; calls: string[] } | { done: false; reason: string };

export interface MarketplaceClient {
  /** Every package changed within the window, a page at a time (`onPage` is awaited before the next page is asked). */
  pull(window: PullWindow, onPage: (packages: MarketplacePackage[]) => Promise<void>): Promise<void>;
  /** The packages with these ids as they are now (at most 50 a call), for tracking a marketplace carrier's parcels. */
  packages(ids: string[]): Promise<MarketplacePackage[]>;
  /** Tells the marketplace what was shipped with the seller's own carrier (status and tracking number, as its contract asks). */
  writeBack(shipped: ShippedPackage): Promise<WriteBackResult>;
  /** The label of a package the marketplace ships with its carrier (ZPL), made at the marketplace if it is not made yet. */
  carrierLabel?(pkg: { id: string; trackingNumber: string; parcels: number }): Promise<{ zpl: string }>;
  /**
   * What the marketplace's own carrier did with a package it ships (its status history), as tracking events with stable
   * ids, oldest first; where the marketplace reports it.
   */
  carrierEvents?(pkg: MarketplacePackage): { id: string; event: TrackingEventName; at: Date; text: string }[];
  /**
   * Registers (or updates) the marketplace's webhook to `url`, authenticated by `credential` (an API key we generated),
   * where the marketplace offers webhook registration through its API; answers its id.
   */
  registerWebhook?(url: string, credential: string): Promise<string>;
}

/**
 * A failure the marketplace asks us to wait out (429, an outage): activities retry it after `retryAfterMs`, never
 * giving up on an order.
 */
export class MarketplaceBusyError extends Error {
  constructor(
    readonly retryAfterMs: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'MarketplaceBusyError';
  }
}

/** The marketplace refused the account's credentials or our request for good: shown on the source, not retried. */
export class MarketplaceRefusedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MarketplaceRefusedError';
  }
}

/** What every marketplace client is built from. */
export interface MarketplaceClientOptions<Credentials, Settings> {
  credentials: Credentials;
  settings: Settings;
  /** outbound HTTP with the private-network policy of WEBHOOK_ALLOW_PRIVATE */
  http: OutboundHttp;
  /**
   * Takes one call of `group` from the source's budget shared by every worker (the marketplace's documented limits),
   * or throws MarketplaceBusyError with the wait.
   */
  budget?: (group: string) => Promise<void>;
  now?: () => Date;
}
