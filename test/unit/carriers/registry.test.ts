import type { Carrier, Quote, ShipmentSpec } from '../../../src/carriers/carrier';
import { CarrierRegistry } from '../../../src/carriers/registry';
import { createSandboxCarriers } from '../../../src/carriers/sandbox-carriers';

const spec = (weightKg: number, toCountry = 'TR'): ShipmentSpec => ({ fromCountry: 'TR', toCountry, weightKg, desi: 0, packageCount: 1 });

/** A carrier with a fixed quote (or none), for tie-breaking cases. */
function fixed(id: number, quote: Omit<Quote, 'providerId'> | null): Carrier {
  return {
    id,
    name: `fixed ${id}`,
    kind: 'fixed-test',
    logoUrl: `https://x.example/${id}.svg`,
    supportsCancelInTransit: true,
    supportsPush: false,
    supportsQuotes: true,
    quote: async () => (quote ? { providerId: id, ...quote } : null),
    book: () => Promise.reject(new Error('not used')),
    sentKey: (req) => req.bookingKey,
    cancel: () => Promise.resolve({ accepted: true }),
    track: () => Promise.resolve([]),
  };
}
const q = (baseCost: number, transitDays: number) => ({ baseCost, transitDays, currency: 'TRY', serviceName: 's' });

describe('CarrierRegistry', () => {
  const registry = new CarrierRegistry(createSandboxCarriers({ publicBaseUrl: 'http://127.0.0.1:8080' }));

  it('finds carriers by id and lists them in id order', async () => {
    expect(registry.get(1)).toMatchObject({ id: 1, name: 'Sandbox Express' });
    expect(registry.get(2)).toMatchObject({ id: 2, name: 'Sandbox Economy' });
    expect(registry.get(3)).toBeUndefined();
    expect(registry.all().map((c) => c.id)).toEqual([1, 2]);
    expect(new CarrierRegistry([fixed(5, null), fixed(2, null)]).all().map((c) => c.id)).toEqual([2, 5]);
  });

  it('rejects duplicate ids', async () => {
    expect(() => new CarrierRegistry([fixed(1, null), fixed(1, null)])).toThrow(/duplicate/);
  });

  it('preference 0 takes the given provider, or nothing', async () => {
    expect((await registry.choose(spec(2), 0, 1))?.carrier.id).toBe(1);
    expect((await registry.choose(spec(2), 0, 2))?.carrier.id).toBe(2);
    expect((await registry.choose(spec(2), 0, 2))?.quote).toEqual(await registry.get(2)!.quote(spec(2)));
    expect(await registry.choose(spec(2), 0, 9)).toBeNull();
    expect(await registry.choose(spec(2), 0, null)).toBeNull();
    expect(await registry.choose(spec(2), 0)).toBeNull();
    // provider 2 takes at most 30 kg abroad
    expect(await registry.choose(spec(40, 'DE'), 0, 2)).toBeNull();
  });

  it('preference 1 and 2 choose different sandbox carriers', async () => {
    for (const s of [spec(2), spec(12), spec(2, 'DE')]) {
      expect((await registry.choose(s, 1))?.carrier.id).toBe(2);
      expect((await registry.choose(s, 2))?.carrier.id).toBe(1);
    }
  });

  it('skips carriers that cannot take the shipment', async () => {
    // 40 kg abroad: only provider 1 can, so it is also the cheapest
    expect((await registry.choose(spec(40, 'DE'), 1))?.carrier.id).toBe(1);
    expect((await registry.choose(spec(40, 'DE'), 2))?.carrier.id).toBe(1);
    expect(await registry.choose(spec(500), 1)).toBeNull();
    expect(await registry.choose(spec(500), 2)).toBeNull();
  });

  it('breaks ties: cheapest → lower id; fastest → cheaper, then lower id', async () => {
    const tie = new CarrierRegistry([fixed(3, q(100, 2)), fixed(2, q(100, 5)), fixed(4, q(90, 2)), fixed(1, null)]);
    expect((await tie.choose(spec(1), 1))?.carrier.id).toBe(4);
    expect((await tie.choose(spec(1), 2))?.carrier.id).toBe(4);
    const sameCost = new CarrierRegistry([fixed(3, q(100, 2)), fixed(2, q(100, 2)), fixed(1, q(100, 3))]);
    expect((await sameCost.choose(spec(1), 1))?.carrier.id).toBe(1);
    expect((await sameCost.choose(spec(1), 2))?.carrier.id).toBe(2);
  });
});
