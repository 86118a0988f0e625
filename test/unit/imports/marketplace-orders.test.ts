import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../../../src/domain/errors';
import { marketplaceDraft, marketplaceDraftPatch, packageAction, packageEventKey, packageReference } from '../../../src/imports/marketplace-orders';
import { parseOrderSourceInput } from '../../../src/imports/order-source-input';
import type { MarketplacePackage } from '../../../src/marketplaces/marketplace';
import { packageOf } from '../../../src/carriers/marketplace-carrier';

const pkg = (over: Partial<MarketplacePackage> = {}): MarketplacePackage => ({
  id: '3330111',
  orderNumber: '10654411111',
  version: 'v1',
  state: 'open',
  changedAt: new Date('2026-11-24T09:00:00Z'),
  consignee: {
    name: 'Ayşe Yılmaz',
    country: 'TR',
    state: 'İstanbul',
    city: 'Sarıyer',
    address: 'Maslak Mahallesi Saat Sokak No:5 D:19',
    postal_code: '34485',
    phone_number: '5321234567',
  },
  items: [{ description: 'Seramik kupa', quantity: 2, unit_price: 149.9, currency_code: 'TRY' }],
  raw: {},
  ...over,
});

const DEFAULTS = {
  preference: 0,
  provider_id: 1,
  address_resolver_type: null,
  consignor: { name: 'Anadolu Butik', country: 'TR', city: 'Kadıköy', state: 'İstanbul', address: 'Moda Cad. No:12', phone_number: '+902165551122' },
  package: { weight: 1, length: 30, width: 20, height: 10 },
};

describe('what a pulled package asks of its source', () => {
  it('drafts an open package, updates a drafted one, cancels a drafted one that was cancelled or split, and leaves the rest', () => {
    expect(packageAction(pkg(), false)).toBe('create');
    expect(packageAction(pkg(), true)).toBe('update');
    expect(packageAction(pkg({ state: 'cancelled' }), true)).toBe('cancel');
    expect(packageAction(pkg({ state: 'replaced' }), true)).toBe('cancel');
    expect(packageAction(pkg({ state: 'cancelled' }), false)).toBeNull();
    expect(packageAction(pkg({ state: 'waiting' }), false)).toBeNull();
    expect(packageAction(pkg({ state: 'shipped' }), false)).toBeNull();
    expect(packageAction(pkg({ state: 'shipped' }), true)).toBeNull();
  });

  it('keys an event by what is mapped: the same package seen again is the same event, a fixed address a new one', () => {
    const key = packageEventKey('trendyol', pkg());
    // The marketplace's own version (a status moved by our write-back) is not part of it.
    expect(packageEventKey('trendyol', pkg({ version: 'v2', changedAt: new Date() }))).toBe(key);
    expect(packageEventKey('trendyol', pkg({ consignee: { ...pkg().consignee, city: 'Beşiktaş' } }))).not.toBe(key);
    expect(packageEventKey('trendyol', pkg({ state: 'cancelled' }))).not.toBe(key);
    expect(key).toMatch(/^trendyol:3330111:[0-9a-f]{32}$/);
  });
});

describe('the draft of a package', () => {
  it('takes the consignee and lines from the marketplace and the rest from the source, under a reference naming the package', () => {
    const { draft } = marketplaceDraft(pkg(), DEFAULTS);
    expect(draft).toMatchObject({
      preference: 0,
      provider_id: 1,
      reference_no: '10654411111-3330111',
      consignor: { name: 'Anadolu Butik' },
      consignee: { name: 'Ayşe Yılmaz', city: 'Sarıyer', state: 'İstanbul' },
      packages: [{ weight: 1, length: 30, items: [{ description: 'Seramik kupa', quantity: 2, unit_price: 149.9 }] }],
    });
    expect(packageOf(packageReference(pkg()))).toBe('3330111');
  });

  it("goes to the marketplace's own carrier with its tracking number when the marketplace ships it", () => {
    const { draft } = marketplaceDraft(pkg({ marketplaceCarrier: { name: 'Trendyol Express', trackingNumber: '7280027504111111' } }), DEFAULTS, 1005);
    expect(draft).toMatchObject({ preference: 0, provider_id: 1005, specific_provider_barcode: '7280027504111111' });
  });

  it('answers the issues of a package that cannot be a draft, naming the fields', () => {
    const result = marketplaceDraft(pkg({ consignee: { ...pkg().consignee, email: 'not-an-email' } }), DEFAULTS);
    expect(result.draft).toBeUndefined();
    expect(result.issues.map((i) => i.field)).toEqual(['consignee.email']);
  });

  it('changes only the consignee and the lines of the draft, keeping its package sizes', () => {
    const current = marketplaceDraft(pkg(), DEFAULTS).draft!;
    const patch = marketplaceDraftPatch(pkg({ consignee: { ...pkg().consignee, city: 'Beşiktaş' }, items: [{ description: 'Kupa', quantity: 1 }] }), current);
    expect(patch).toEqual({
      consignee: expect.objectContaining({ city: 'Beşiktaş' }),
      packages: [expect.objectContaining({ weight: 1, length: 30, items: [expect.objectContaining({ description: 'Kupa', quantity: 1 })] })],
    });
  });
});

describe('a marketplace order source as sent', () => {
  const base = { name: 'Trendyol', consignor: DEFAULTS.consignor, package: DEFAULTS.package };
  const refused = (body: object, mode: 'create' | 'replace' = 'create') => {
    try {
      parseOrderSourceInput(body, mode);
    } catch (error) {
      if (error instanceof DomainError) return error.issues.map((i) => `${i.field}:${i.code}`);
      throw error;
    }
    return [];
  };

  it("takes the marketplace's credentials and settings, its poll interval within a minute and a day", () => {
    const input = parseOrderSourceInput(
      {
        ...base,
        platform: 'trendyol',
        credentials: { seller_id: '2738', api_key: 'k', api_secret: 's' },
        settings: { poll_interval: 120, integrator_name: 'Consignflow' },
      },
      'create',
    );
    expect(input).toMatchObject({ platform: 'trendyol', credentials: { seller_id: '2738' }, settings: { poll_interval: 120 } });
    expect(input.secret).toBeUndefined();
  });

  it('refuses a shop field on a marketplace, a marketplace field on a shop, missing credentials and bad settings, naming each', () => {
    expect(refused({ ...base, platform: 'trendyol', secret: 'abcdefghij', settings: { poll_interval: 10 } })).toEqual(
      expect.arrayContaining(['secret:ORDER_FIELD_SHOP_ONLY', 'credentials:NOT_BLANK', 'settings.poll_interval:TOO_SMALL']),
    );
    expect(refused({ ...base, platform: 'shopify', credentials: {} })).toEqual(
      expect.arrayContaining(['secret:NOT_BLANK', 'credentials:ORDER_FIELD_MARKETPLACE_ONLY']),
    );
    expect(refused({ ...base, platform: 'hepsiburada', credentials: { merchant_id: 'm', service_key: 'k' } })).toEqual(['settings.user_agent:NOT_BLANK']);
    expect(refused({ ...base, platform: 'trendyol', credentials: { seller_id: 'abc', api_key: 'k', api_secret: 's', extra: 1 } })).toEqual(
      expect.arrayContaining(['credentials.seller_id:INVALID_CHOICE', 'credentials.extra:UNKNOWN_FIELD']),
    );
    // A replace may leave the credentials out (the stored ones stay) and may send back what a GET showed.
    expect(refused({ ...base, platform: 'trendyol', settings: { carrier_provider_id: 1005 } }, 'replace')).toEqual([]);
  });
});
