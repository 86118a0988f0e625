import { CarrierRefusedError, type Carrier, type ShipmentSpec } from '../../../src/carriers/carrier';
import {
  IN_TRANSIT_CANCEL_REFUSED,
  SANDBOX_ECONOMY_ID,
  SANDBOX_ECONOMY_LOGO_SVG,
  SANDBOX_EXPRESS_ID,
  SANDBOX_EXPRESS_LOGO_SVG,
  SANDBOX_LOGOS,
  UNKNOWN_SHIPMENT,
  createSandboxCarriers,
} from '../../../src/carriers/sandbox-carriers';

/** What booking carries besides the shipment (the sandbox carriers do not use it). */
const order = { draft: {}, reference: 'REF-1', labelFormat: 'pdf' as const };

const BASE = 'https://ship.example.com';
const NOW = new Date('2025-03-14T09:00:00Z');
const domestic = (weightKg: number, desi = 0): ShipmentSpec => ({ fromCountry: 'TR', toCountry: 'TR', weightKg, desi, packageCount: 1 });
const abroad = (weightKg: number, desi = 0): ShipmentSpec => ({ fromCountry: 'TR', toCountry: 'DE', weightKg, desi, packageCount: 1 });

function carriers(): { express: Carrier; economy: Carrier } {
  const [express, economy] = createSandboxCarriers({ publicBaseUrl: `${BASE}/`, now: () => NOW });
  return { express, economy };
}

describe('sandbox carriers', () => {
  it('are providers 1 and 2 with absolute logo URLs and their capabilities', async () => {
    const { express, economy } = carriers();
    expect([express.id, economy.id]).toEqual([SANDBOX_EXPRESS_ID, SANDBOX_ECONOMY_ID]);
    expect([express.id, economy.id]).toEqual([1, 2]);
    expect(express.name).not.toEqual(economy.name);
    expect(express.logoUrl).toBe(`${BASE}/api/v1/providers/1/logo.svg`);
    expect(economy.logoUrl).toBe(`${BASE}/api/v1/providers/2/logo.svg`);
    expect(express.supportsCancelInTransit).toBe(true);
    expect(economy.supportsCancelInTransit).toBe(false);
    expect(express.supportsPush && economy.supportsPush).toBe(true);
  });

  it('exports an SVG logo per provider', async () => {
    expect(SANDBOX_LOGOS[1]).toBe(SANDBOX_EXPRESS_LOGO_SVG);
    expect(SANDBOX_LOGOS[2]).toBe(SANDBOX_ECONOMY_LOGO_SVG);
    for (const svg of [SANDBOX_EXPRESS_LOGO_SVG, SANDBOX_ECONOMY_LOGO_SVG]) {
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    }
  });

  it('refuses a base URL that is not absolute http(s)', async () => {
    expect(() => createSandboxCarriers({ publicBaseUrl: '/relative' })).toThrow(/absolute URL/);
    expect(() => createSandboxCarriers({ publicBaseUrl: 'ftp://x.example' })).toThrow(/http/);
  });

  it('price domestic shipments by chargeable weight from their step tables', async () => {
    const { express, economy } = carriers();
    expect(await express.quote(domestic(0.5))).toEqual({ providerId: 1, baseCost: 95, currency: 'TRY', transitDays: 1, serviceName: 'Express Domestic' });
    expect(await economy.quote(domestic(0.5))).toEqual({ providerId: 2, baseCost: 60, currency: 'TRY', transitDays: 3, serviceName: 'Economy Domestic' });
    expect((await express.quote(domestic(3)))?.baseCost).toBe(135);
    expect((await express.quote(domestic(10)))?.baseCost).toBe(190);
    expect((await express.quote(domestic(25)))?.baseCost).toBe(320);
    // 2 kg actual but 12 desi: billed as 12 kg
    expect((await express.quote(domestic(2, 12)))?.baseCost).toBe(320);
    expect((await economy.quote(domestic(2, 12)))?.baseCost).toBe(210);
    // per started kg above 30
    expect((await express.quote(domestic(32.5)))?.baseCost).toBe(320 + 3 * 12);
    expect((await economy.quote(domestic(32.5)))?.baseCost).toBe(210 + 3 * 8);
  });

  it('price international shipments higher and slower than domestic', async () => {
    const { express, economy } = carriers();
    expect(await express.quote(abroad(0.5))).toEqual({ providerId: 1, baseCost: 780, currency: 'TRY', transitDays: 3, serviceName: 'Express International' });
    expect(await economy.quote(abroad(0.5))).toEqual({ providerId: 2, baseCost: 450, currency: 'TRY', transitDays: 8, serviceName: 'Economy International' });
    expect((await express.quote(abroad(4, 6)))?.baseCost).toBe(2300);
    for (const c of [express, economy]) {
      for (const kg of [0.5, 3, 8, 20]) {
        expect((await c.quote(abroad(kg)))!.baseCost).toBeGreaterThan((await c.quote(domestic(kg)))!.baseCost);
        expect((await c.quote(abroad(kg)))!.transitDays).toBeGreaterThan((await c.quote(domestic(kg)))!.transitDays);
      }
    }
  });

  it('make provider 1 faster and dearer, provider 2 cheaper and slower, in both zones', async () => {
    const { express, economy } = carriers();
    for (const spec of [domestic(0.3), domestic(4), domestic(9), domestic(28), abroad(0.3), abroad(4), abroad(9), abroad(28)]) {
      const e = (await express.quote(spec))!;
      const c = (await economy.quote(spec))!;
      expect(e.baseCost).toBeGreaterThan(c.baseCost);
      expect(e.transitDays).toBeLessThan(c.transitDays);
    }
  });

  it('refuse shipments over their maximum chargeable weight', async () => {
    const { express, economy } = carriers();
    expect(await express.quote(domestic(70))).toMatchObject({ providerId: 1 });
    expect(await express.quote(domestic(70.5))).toBeNull();
    expect(await economy.quote(domestic(50))).toMatchObject({ providerId: 2 });
    expect(await economy.quote(domestic(51))).toBeNull();
    // economy takes at most 30 kg abroad; desi counts too
    expect(await economy.quote(abroad(30))).toMatchObject({ providerId: 2 });
    expect(await economy.quote(abroad(5, 31))).toBeNull();
    expect(await express.quote(abroad(5, 31))).toMatchObject({ providerId: 1 });
  });

  it('refuse malformed shipments', async () => {
    const { express } = carriers();
    expect(await express.quote({ ...domestic(1), toCountry: '' })).toBeNull();
    expect(await express.quote(domestic(-2))).toBeNull();
    expect(await express.quote(domestic(Number.NaN))).toBeNull();
  });

  it('book idempotently: the same key gives the same tracking code', async () => {
    const { express, economy } = carriers();
    const key = '5f0c6a2e-8a51-4c1e-9a37-0f3d2b7c9e11';
    const req = { bookingKey: key, shipment: domestic(2), serviceBarcode: 'CF00000000426', ...order };
    const first = await express.book(req);
    const again = await express.book(req);
    const fresh = await createSandboxCarriers({ publicBaseUrl: BASE })[0].book(req);
    expect(again.trackingCode).toBe(first.trackingCode);
    expect(fresh.trackingCode).toBe(first.trackingCode);
    expect(first.trackingCode).toMatch(/^SBE[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(first.trackingUrl).toBe(`${BASE}/api/v1/providers/1/track/${first.trackingCode}`);
    expect(first.bookedAt).toEqual(NOW);
    expect(first.cost).toEqual(await express.quote(domestic(2)));
    // other keys and other carriers give other codes
    expect((await express.book({ ...req, bookingKey: `${key}x` })).trackingCode).not.toBe(first.trackingCode);
    const other = await economy.book(req);
    expect(other.trackingCode).toMatch(/^SBC/);
    expect(other.trackingCode.slice(3)).not.toBe(first.trackingCode.slice(3));
  });

  it('book a pickup with express and a drop-off with economy', async () => {
    const { express, economy } = carriers();
    const req = { bookingKey: 'k1', shipment: domestic(1), serviceBarcode: 'CF00000000426', ...order };
    expect((await express.book(req)).pickupBooked).toBe(true);
    expect((await economy.book(req)).pickupBooked).toBe(false);
  });

  it('refuse to book what they cannot carry', async () => {
    const { economy } = carriers();
    const booking = economy.book({ bookingKey: 'k2', shipment: abroad(45), serviceBarcode: 'CF00000000426', ...order });
    await expect(booking).rejects.toBeInstanceOf(CarrierRefusedError);
    await expect(booking).rejects.toMatchObject({ carrierId: 2, reason: expect.stringContaining('30 kg') });
  });

  it('cancel in transit only with provider 1; both cancel before pickup', async () => {
    const { express, economy } = carriers();
    for (const carrier of [express, economy]) {
      const booking = await carrier.book({ bookingKey: 'k3', shipment: domestic(1), serviceBarcode: 'CF00000000426', ...order });
      const base = { bookingKey: 'k3', trackingCode: booking.trackingCode };
      expect(await carrier.cancel({ ...base, inTransit: false })).toEqual({ accepted: true });
      const inTransit = await carrier.cancel({ ...base, inTransit: true });
      if (carrier.id === 1) expect(inTransit).toEqual({ accepted: true });
      else expect(inTransit).toEqual({ accepted: false, reason: IN_TRANSIT_CANCEL_REFUSED });
    }
    expect(IN_TRANSIT_CANCEL_REFUSED).toBe('carrier does not cancel shipments in transit');
  });

  it('refuse to cancel a tracking code that is not the booking’s', async () => {
    const { express } = carriers();
    const result = await express.cancel({ bookingKey: 'k4', trackingCode: 'SBE0000000000', inTransit: false });
    expect(result).toEqual({ accepted: false, reason: UNKNOWN_SHIPMENT });
    expect(UNKNOWN_SHIPMENT).toBe('no shipment with this tracking code for this booking');
  });

  it('track nothing by polling (sandbox events are pushed)', async () => {
    const { express, economy } = carriers();
    expect(await express.track({ bookingKey: 'k', trackingCode: 'SBE0000000000' })).toEqual([]);
    expect(await economy.track({ bookingKey: 'k', trackingCode: 'SBC0000000000' })).toEqual([]);
  });
});
