import { createHash } from 'node:crypto';
import { parseDraftInput, type DraftInput } from '../domain/draft';
import { DomainError, type Issue } from '../domain/errors';
import type { OrderEventAction, OrderSourceDefaults } from '../domain/order-source';
import type { MarketplacePackage } from '../marketplaces/marketplace';

/**
 * Marketplace packages as order events and drafts (docs/order-feeds.md, "What is mapped"): which event a package seen
 * by a pull makes, and the draft a package becomes with its source's defaults (the sender, the carrier choice, the
 * package sizes and weight, which no marketplace gives).
 */

/**
 * What a pulled package asks of its source, given whether an earlier event of it made a draft: a new open package is
 * drafted, a changed one updates its draft, a cancelled or replaced (split) one cancels it. A package not shippable yet,
 * or first seen already shipped, asks nothing; nor does a cancelled one that never became a draft.
 */
export function packageAction(pkg: Pick<MarketplacePackage, 'state'>, drafted: boolean): OrderEventAction | null {
  switch (pkg.state) {
    case 'open':
      return drafted ? 'update' : 'create';
    case 'cancelled':
    case 'replaced':
      return drafted ? 'cancel' : null;
    case 'waiting':
    case 'shipped':
      return null;
  }
}

/**
 * The event key of a package as seen: what we map of it (its state, the consignee, the lines, the marketplace's
 * carrier), hashed. A pull seeing it again unchanged (the next overlapping window, or a status change of our own write-
 * back) makes no event; a changed address or line does.
 */
export function packageEventKey(platform: string, pkg: MarketplacePackage): string {
  const seen = JSON.stringify([pkg.state, pkg.consignee, pkg.items, pkg.marketplaceCarrier ?? null]);
  return `${platform}:${pkg.id}:${createHash('sha256').update(seen).digest('hex').slice(0, 32)}`;
}

/** A draft's reference_no for a package: the order number the seller knows, and the package (an order may be split). */
export const packageReference = (pkg: Pick<MarketplacePackage, 'orderNumber' | 'id'>): string => `${pkg.orderNumber}-${pkg.id}`.slice(0, 255);

/**
 * The draft of a package: the consignee and lines from the marketplace, everything else from the source's defaults
 * (a package carried by the marketplace's own carrier goes to it: `marketplaceProviderId`). Checked as an API draft
 * is: the issues name the draft's fields.
 */
export function marketplaceDraft(
  pkg: MarketplacePackage,
  defaults: OrderSourceDefaults,
  marketplaceProviderId?: number,
): { draft: DraftInput; issues: [] } | { draft?: undefined; issues: Issue[] } {
  const carriedByMarketplace = pkg.marketplaceCarrier !== undefined && marketplaceProviderId !== undefined;
  const body = {
    ...(carriedByMarketplace
      ? { preference: 0, provider_id: marketplaceProviderId, specific_provider_barcode: pkg.marketplaceCarrier!.trackingNumber }
      : {
          ...(defaults.preference != null && { preference: defaults.preference }),
          ...(defaults.provider_id != null && { provider_id: defaults.provider_id }),
        }),
    ...(defaults.address_resolver_type != null && { address_resolver_type: defaults.address_resolver_type }),
    reference_no: packageReference(pkg),
    consignor: defaults.consignor ?? {},
    consignee: pkg.consignee,
    packages: [{ ...(defaults.package ?? {}), items: pkg.items }],
  };
  try {
    return { draft: parseDraftInput(body, 'create'), issues: [] };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'VALIDATION_FAILED') return { issues: error.issues };
    throw error;
  }
}

/** What a changed package changes of its draft: the consignee and the lines (the package's sizes stay the source's). */
export function marketplaceDraftPatch(pkg: MarketplacePackage, current: DraftInput): DraftInput {
  const [first, ...rest] = current.packages ?? [{}];
  return parseDraftInput({ consignee: pkg.consignee, packages: [{ ...first, items: pkg.items }, ...rest] }, 'update');
}
