import type { Marketplace, MarketplaceSettings } from '../domain/order-source';
import { marketplaceClients } from '../marketplaces/clients';
import { MarketplaceBusyError, MarketplaceRefusedError, type MarketplaceClient } from '../marketplaces/marketplace';
import { AccountCarrier, type AccountCarrierOptions } from './account-carrier';
import {
  CarrierBusyError,
  CarrierInputError,
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type Quote,
  type ShipmentRef,
  type TrackedShipment,
  type TrackingEvent,
  type TrackingLimits,
  type TrackingQuery,
} from './carrier';
import { RemoteUnavailableError } from './carrier-http';

/**
 * A marketplace's own carrier (docs/order-feeds.md, "When the marketplace ships"): Trendyol ships a "Trendyol pays"
 * package with Trendyol Express or Aras, Hepsiburada its own carriers' packages, under a tracking number the
 * marketplace assigned. Booking books nothing: it asks the marketplace for that package's label (ZPL), which becomes
 * the consignment's; tracking reads the package's status history at the marketplace. The account is made with its
 * marketplace order source, from the same credentials; its drafts name the package in their reference_no
 * (`<order number>-<package id>`) and the tracking number in `specific_provider_barcode`.
 */
export class MarketplaceCarrier extends AccountCarrier<Record<string, string>, MarketplaceSettings> implements Carrier {
  readonly supportsCancelInTransit = false;
  readonly supportsPush = false;
  readonly supportsQuotes = false;
  /** Asking the label again gives the same package's label: nothing to record before, nothing to look up after. */
  readonly idempotentBooking = true;
  /** The marketplaces' package look-ups take 50 ids a call. */
  readonly trackingLimits: TrackingLimits = { batchSize: 50, minReaskMs: 0 };
  private readonly client: MarketplaceClient;

  constructor(
    readonly kind: Marketplace,
    options: AccountCarrierOptions<Record<string, string>, MarketplaceSettings>,
  ) {
    super(options, options.settings.base_url ?? '');
    this.client = marketplaceClients(kind, { credentials: options.credentials, settings: options.settings, http: options.http, now: this.now });
  }

  /** Priced by the marketplace, not by us: never chosen by cheapest or fastest. */
  async quote(): Promise<Quote | null> {
    return null;
  }

  /** The marketplace's tracking number: what identifies the shipment there. */
  sentKey(req: BookingRequest): string {
    return req.draft.specific_provider_barcode ?? req.serviceBarcode;
  }

  async book(req: BookingRequest): Promise<Booking> {
    const trackingNumber = req.draft.specific_provider_barcode?.trim();
    const packageId = packageOf(req.reference);
    if (!trackingNumber || !packageId)
      throw new CarrierInputError(this.id, [
        { field: 'specific_provider_barcode', reason: `${this.name} ships only the marketplace's own packages, drafted by their order source` },
      ]);
    const parcels = Math.max(1, req.draft.packages?.length ?? 1);
    const { zpl } = await this.call(() => this.client.carrierLabel!({ id: packageId, trackingNumber, parcels }));
    const barcodes = [...zpl.matchAll(/\^BC[^^]*\^FD(?:>:)?([^^]+)\^FS/g)].map((m) => m[1].trim());
    return {
      trackingCode: trackingNumber,
      trackingUrl: this.logoUrl.replace(/\/logo\.svg$/, `/track/${encodeURIComponent(trackingNumber)}`),
      pickupBooked: false,
      bookedAt: this.now(),
      cost: { providerId: this.id, baseCost: 0, currency: 'TRY', transitDays: 0, serviceName: this.name },
      carrierReference: packageId,
      label: { content: Buffer.from(zpl.endsWith('\n') ? zpl : `${zpl}\n`), contentType: 'application/zpl' },
      // One barcode per parcel, read from the marketplace's ZPL: our PDF prints the same.
      ...(barcodes.length === parcels ? { pieceBarcodes: barcodes } : {}),
    };
  }

  /** The package is the marketplace's: cancelled there (by the seller panel or the customer), or not at all. */
  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    const [pkg] = await this.call(() => this.client.packages([req.carrierReference ?? '']));
    if (pkg && (pkg.state === 'cancelled' || pkg.state === 'replaced')) return { accepted: true };
    return { accepted: false, reason: `${this.name}: the marketplace ships this package; cancel the order in its seller panel` };
  }

  async track(shipment: ShipmentRef): Promise<TrackingEvent[]> {
    const [answer] = await this.trackMany([shipment]);
    if ('error' in answer) throw new CarrierRefusedError(this.id, answer.error);
    return answer.events;
  }

  /** The packages' status histories, 50 a call; a package the marketplace does not answer has no events. */
  async trackMany(shipments: TrackingQuery[]): Promise<TrackedShipment[]> {
    const ids = shipments.map((s) => s.carrierReference ?? '').filter(Boolean);
    const packages = ids.length ? await this.call(() => this.client.packages(ids)) : [];
    const byId = new Map(packages.map((p) => [p.id, p]));
    return shipments.map((shipment) => {
      const pkg = byId.get(shipment.carrierReference ?? '');
      const events = pkg && this.client.carrierEvents ? this.client.carrierEvents(pkg) : [];
      return { shipment, events: events.map((e) => ({ eventId: e.id, event: e.event, occurredAt: e.at, message: e.text })) };
    });
  }

  /** A marketplace call, its failures as carriers' (a wait, a refusal, a fault a retry can fix). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof MarketplaceBusyError) throw new CarrierBusyError(this.id, error.retryAfterMs, error.message);
      if (error instanceof MarketplaceRefusedError) throw new CarrierRefusedError(this.id, error.message);
      throw new RemoteUnavailableError(this.id, error instanceof Error ? error.message : String(error));
    }
  }
}

/** The package id a marketplace draft's reference_no names: `<order number>-<package id>`. */
export function packageOf(reference: string): string | undefined {
  const at = reference.lastIndexOf('-');
  return at > 0 && at < reference.length - 1 ? reference.slice(at + 1) : undefined;
}

/** Trendyol's carriers of "Trendyol pays" packages, through the seller's API key. */
export class TrendyolCarrier extends MarketplaceCarrier {
  constructor(options: AccountCarrierOptions<Record<string, string>, MarketplaceSettings>) {
    super('trendyol', options);
  }
}

/** Hepsiburada's carriers of the packages it ships, through the merchant's service key. */
export class HepsiburadaCarrier extends MarketplaceCarrier {
  constructor(options: AccountCarrierOptions<Record<string, string>, MarketplaceSettings>) {
    super('hepsiburada', options);
  }
}
