import type { Marketplace, MarketplaceSettings } from '../domain/order-source';
import { HepsiburadaClient, type HepsiburadaCredentials, type HepsiburadaSettings } from './hepsiburada';
import type { MarketplaceClient, MarketplaceClientOptions } from './marketplace';
import { TRENDYOL_CALL_GROUPS, TrendyolClient, type TrendyolCredentials, type TrendyolSettings } from './trendyol';

/** Each marketplace's client, built from a source's opened credentials and its settings. */
export function marketplaceClients(platform: Marketplace, options: MarketplaceClientOptions<Record<string, string>, MarketplaceSettings>): MarketplaceClient {
  switch (platform) {
    case 'trendyol':
      return new TrendyolClient(options as unknown as MarketplaceClientOptions<TrendyolCredentials, TrendyolSettings>);
    case 'hepsiburada':
      return new HepsiburadaClient(options as unknown as MarketplaceClientOptions<HepsiburadaCredentials, HepsiburadaSettings>);
  }
}

/**
 * The documented request limits, per group of calls, that a seller's key may spend (docs/order-feeds.md, "Limits"):
 * Trendyol's per-minute limits of the lowest listing tier and its "50 requests to one endpoint in 10 seconds";
 * Hepsiburada's 1000 requests a second.
 */
export function marketplaceLimits(platform: Marketplace, group: string): { windowSeconds: number; limit: number }[] {
  if (platform === 'hepsiburada') return [{ windowSeconds: 1, limit: 1000 }];
  const perMinute = TRENDYOL_CALL_GROUPS[group as keyof typeof TRENDYOL_CALL_GROUPS];
  return [{ windowSeconds: 10, limit: 50 }, ...(perMinute ? [{ windowSeconds: 60, limit: perMinute }] : [])];
}
