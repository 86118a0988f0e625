import { createHash } from 'node:crypto';
import {
  CarrierRefusedError,
  type Booking,
  type BookingRequest,
  type CancelResult,
  type Carrier,
  type Quote,
  type ShipmentRef,
  type ShipmentSpec,
  type TrackingEvent,
} from './carrier';
import { chargeableWeight, isPriceable, priceFor, type RateTable, type Zone, zoneOf } from './rate-table';

/**
 * The two sandbox carriers seeded as providers 1 and 2 (docs/api.md, "Carriers"). They differ where the
 * service's choices show: provider 1 is faster and dearer and cancels in transit; provider 2 is
 * cheaper and slower, refuses cancellation in transit, and takes less weight abroad. They keep no
 * state: tracking codes derive from the booking key, and tracking events are pushed by the sandbox
 * events endpoint, not polled.
 */

export const SANDBOX_EXPRESS_ID = 1;
export const SANDBOX_ECONOMY_ID = 2;

interface SandboxConfig {
  id: number;
  name: string;
  /** Service name per zone, as printed on the label. */
  services: Record<Zone, string>;
  /** Tracking code prefix, so a code tells its carrier. */
  prefix: string;
  rates: Record<Zone, RateTable>;
  supportsCancelInTransit: boolean;
  /** Courier collects from the consignor (true) or the consignor drops the parcel off (false). */
  pickup: boolean;
}

/** The weight bands every sandbox table prices by: inclusive upper bounds in kg. */
const BANDS_KG = [1, 5, 10, 30];
const banded = (prices: number[], rest: Omit<RateTable, 'steps'>): RateTable => ({
  steps: BANDS_KG.map((upToKg, i) => ({ upToKg, price: prices[i] })),
  ...rest,
});

/** Prices in TRY by chargeable weight (max of kg and desi), one price per band of BANDS_KG. */
export const SANDBOX_CARRIERS: readonly SandboxConfig[] = [
  {
    id: SANDBOX_EXPRESS_ID,
    name: 'Sandbox Express',
    services: { domestic: 'Express Domestic', international: 'Express International' },
    prefix: 'SBE',
    rates: {
      domestic: banded([95, 135, 190, 320], { perKgAbove: 12, maxKg: 70, transitDays: 1 }),
      international: banded([780, 1450, 2300, 4900], { perKgAbove: 160, maxKg: 70, transitDays: 3 }),
    },
    supportsCancelInTransit: true,
    pickup: true,
  },
  {
    id: SANDBOX_ECONOMY_ID,
    name: 'Sandbox Economy',
    services: { domestic: 'Economy Domestic', international: 'Economy International' },
    prefix: 'SBC',
    rates: {
      domestic: banded([60, 85, 125, 210], { perKgAbove: 8, maxKg: 50, transitDays: 3 }),
      international: banded([450, 890, 1450, 3100], { perKgAbove: 105, maxKg: 30, transitDays: 8 }),
    },
    supportsCancelInTransit: false,
    pickup: false,
  },
];

export const SANDBOX_EXPRESS_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" role="img" aria-label="Sandbox Express">
  <rect width="160" height="48" rx="8" fill="#c8102e"/>
  <path d="M22 8 L12 27 H21 L17 40 L32 19 H23 L28 8 Z" fill="#ffd200"/>
  <text x="40" y="22" font-family="DejaVu Sans, Arial, sans-serif" font-size="11" font-weight="bold" fill="#ffffff">SANDBOX</text>
  <text x="40" y="37" font-family="DejaVu Sans, Arial, sans-serif" font-size="14" font-weight="bold" fill="#ffffff">EXPRESS</text>
</svg>
`;

export const SANDBOX_ECONOMY_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" role="img" aria-label="Sandbox Economy">
  <rect width="160" height="48" rx="8" fill="#00695c"/>
  <rect x="10" y="14" width="22" height="20" rx="2" fill="#c8a165"/>
  <path d="M10 20 H32 M21 14 V20" stroke="#8d6e3f" stroke-width="2"/>
  <text x="40" y="22" font-family="DejaVu Sans, Arial, sans-serif" font-size="11" font-weight="bold" fill="#ffffff">SANDBOX</text>
  <text x="40" y="37" font-family="DejaVu Sans, Arial, sans-serif" font-size="14" font-weight="bold" fill="#ffffff">ECONOMY</text>
</svg>
`;

/** Provider id → SVG, for the route that serves `/api/v1/providers/{id}/logo.svg`. */
export const SANDBOX_LOGOS: Readonly<Record<number, string>> = {
  [SANDBOX_EXPRESS_ID]: SANDBOX_EXPRESS_LOGO_SVG,
  [SANDBOX_ECONOMY_ID]: SANDBOX_ECONOMY_LOGO_SVG,
};

export const IN_TRANSIT_CANCEL_REFUSED = 'carrier does not cancel shipments in transit';
export const UNKNOWN_SHIPMENT = 'no shipment with this tracking code for this booking';

export interface SandboxCarrierOptions {
  /** PUBLIC_BASE_URL: logo and tracking URLs are absolute under it. */
  publicBaseUrl: string;
  /** Clock for `bookedAt` (tests). */
  now?: () => Date;
}

// Crockford base32: no I, L, O, U, so codes read aloud and typed by hand survive.
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TRACKING_CHARS = 10; // 50 bits of the hash

class SandboxCarrier implements Carrier {
  readonly kind = 'sandbox';
  readonly id: number;
  readonly name: string;
  readonly logoUrl: string;
  readonly supportsCancelInTransit: boolean;
  readonly supportsPush = true;
  readonly supportsQuotes = true;

  constructor(
    private readonly config: SandboxConfig,
    private readonly baseUrl: string,
    private readonly now: () => Date,
  ) {
    this.id = config.id;
    this.name = config.name;
    this.logoUrl = `${baseUrl}/api/v1/providers/${config.id}/logo.svg`;
    this.supportsCancelInTransit = config.supportsCancelInTransit;
  }

  async quote(s: ShipmentSpec): Promise<Quote | null> {
    const assessed = this.assess(s);
    return 'quote' in assessed ? assessed.quote : null;
  }

  async book(req: BookingRequest): Promise<Booking> {
    if (!req.bookingKey) throw new CarrierRefusedError(this.id, 'booking key is empty');
    const assessed = this.assess(req.shipment);
    if (!('quote' in assessed)) throw new CarrierRefusedError(this.id, assessed.reason);
    const trackingCode = this.trackingCodeFor(req.bookingKey);
    return {
      trackingCode,
      trackingUrl: `${this.baseUrl}/api/v1/providers/${this.id}/track/${trackingCode}`,
      pickupBooked: this.config.pickup,
      bookedAt: this.now(),
      cost: assessed.quote,
    };
  }

  readonly idempotentBooking = true;

  /** The booking key itself: the tracking code is derived from it, so booking again finds the same shipment. */
  sentKey(req: BookingRequest): string {
    return req.bookingKey;
  }

  async cancel(req: ShipmentRef & { inTransit: boolean }): Promise<CancelResult> {
    if (req.trackingCode !== this.trackingCodeFor(req.bookingKey)) return { accepted: false, reason: UNKNOWN_SHIPMENT };
    if (req.inTransit && !this.supportsCancelInTransit) return { accepted: false, reason: IN_TRANSIT_CANCEL_REFUSED };
    return { accepted: true };
  }

  async track(_shipment: ShipmentRef): Promise<TrackingEvent[]> {
    return [];
  }

  /** Same key, same code: a retried booking finds the shipment it already made. */
  trackingCodeFor(bookingKey: string): string {
    const digest = createHash('sha256').update(`consignflow-sandbox:${this.id}:${bookingKey}`).digest();
    let bits = 0n;
    for (let i = 0; i < 8; i++) bits = (bits << 8n) | BigInt(digest[i]);
    let code = '';
    for (let i = 0; i < TRACKING_CHARS; i++) code += BASE32[Number((bits >> BigInt(59 - 5 * i)) & 31n)];
    return this.config.prefix + code;
  }

  private assess(s: ShipmentSpec): { quote: Quote } | { reason: string } {
    if (!isPriceable(s)) return { reason: 'shipment data is incomplete or invalid' };
    const zone = zoneOf(s);
    const table = this.config.rates[zone];
    const kg = chargeableWeight(s);
    const price = priceFor(table, kg);
    if (price === null) return { reason: `chargeable weight ${kg} kg is over the ${zone} maximum of ${table.maxKg} kg` };
    return {
      quote: { providerId: this.id, baseCost: price, currency: 'TRY', transitDays: table.transitDays, serviceName: this.config.services[zone] },
    };
  }
}

/** Providers 1 (Sandbox Express) and 2 (Sandbox Economy). */
export function createSandboxCarriers(opts: SandboxCarrierOptions): Carrier[] {
  let base: URL;
  try {
    base = new URL(opts.publicBaseUrl);
  } catch {
    throw new Error(`publicBaseUrl must be an absolute URL, got ${JSON.stringify(opts.publicBaseUrl)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`publicBaseUrl must be http(s), got ${opts.publicBaseUrl}`);
  const baseUrl = opts.publicBaseUrl.replace(/\/+$/, '');
  const now = opts.now ?? (() => new Date());
  return SANDBOX_CARRIERS.map((config) => new SandboxCarrier(config, baseUrl, now));
}
