import { applyDraftPatch, parseDraftInput, type DraftInput } from '../../../src/domain/draft';
import { DomainError, type Issue } from '../../../src/domain/errors';

type Mode = 'create' | 'update';

/** The issues of a body that must be refused. */
function issuesOf(body: unknown, mode: Mode = 'create'): Issue[] {
  try {
    parseDraftInput(body, mode);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return (error as DomainError).issues;
  }
  throw new Error('expected the body to be refused');
}

/** A valid create body that reaches every nested level, so any path can be set on it. */
function baseBody(): Record<string, unknown> {
  return {
    consignor: { name: 'Ayşe Yılmaz', country: 'TR' },
    consignee: { name: 'Hans Müller', country: 'DE' },
    packages: [{ weight: 1, items: [{ description: 'Book' }, { description: 'Pen' }] }],
    documents: [{ id: 1 }],
    special_services: [{ service_type: 'COD' }],
  };
}

/** Copy of the base body with `value` at a dotted path like `packages.0.items.1.gtip`. */
function withValue(path: string, value: unknown, body = baseBody()): Record<string, unknown> {
  const keys = path.split('.');
  let node = body as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
  return body;
}

function valueAt(data: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], data);
}

const parties = ['consignor', 'consignee'] as const;

describe('parseDraftInput string bounds (docs/api.md)', () => {
  const fields: [string, number][] = [
    ['reference_no', 255],
    ['invoice_number', 255],
    ['specific_shipping_method', 255],
    ['specific_provider_barcode', 255],
    ...parties.flatMap((party): [string, number][] => [
      [`${party}.name`, 255],
      [`${party}.attention_name`, 255],
      [`${party}.state`, 100],
      [`${party}.city`, 100],
      [`${party}.postal_code`, 30],
      [`${party}.address`, 1000],
      [`${party}.phone_number`, 20],
      [`${party}.tax_number`, 255],
      [`${party}.eori_number`, 255],
      [`${party}.state_code`, 255],
    ]),
    ['packages.0.provider_packaging_type', 255],
    ['packages.0.items.1.description', 255],
    ['packages.0.items.1.gtip', 16],
    ['packages.0.items.1.category', 255],
    ['special_services.0.service_type', 255],
  ];

  it.each(fields)('%s accepts %i characters and refuses one more', (field, max) => {
    const accepted = parseDraftInput(withValue(field, 'x'.repeat(max)), 'create');
    expect(valueAt(accepted, field)).toBe('x'.repeat(max));
    expect(issuesOf(withValue(field, 'x'.repeat(max + 1)))).toEqual([{ code: 'TOO_LONG', field, params: { max } }]);
  });

  it.each(parties)('%s.email accepts 255 characters and refuses 256', (party) => {
    const email = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    expect(parseDraftInput(withValue(`${party}.email`, email(255)), 'create')[party]?.email).toBe(email(255));
    expect(issuesOf(withValue(`${party}.email`, email(256)))).toEqual([{ code: 'TOO_LONG', field: `${party}.email`, params: { max: 255 } }]);
  });

  it('measures the length after trimming', () => {
    const draft = parseDraftInput(withValue('consignee.phone_number', `  ${'5'.repeat(20)}  `), 'create');
    expect(draft.consignee?.phone_number).toBe('5'.repeat(20));
  });

  it('trims strings and turns blank optional strings into null', () => {
    const body = withValue('consignee', { name: '  Ali  ', city: '', state: '   ', country: ' tr ' });
    expect(parseDraftInput(body, 'create').consignee).toEqual({ name: 'Ali', city: null, state: null, country: 'TR' });
  });

  it('refuses a non-string for a string field', () => {
    expect(issuesOf(withValue('consignee.phone_number', 5551234))).toEqual([
      { code: 'INVALID_TYPE', field: 'consignee.phone_number', params: { type: 'string' } },
    ]);
  });
});

describe('parseDraftInput countries and currencies', () => {
  it.each([
    ['tr', 'TR'],
    ['TUR', 'TR'],
    ['deu', 'DE'],
    ['Us', 'US'],
  ])('normalises party country %s to %s', (sent, iso2) => {
    expect(parseDraftInput(withValue('consignee.country', sent), 'create').consignee?.country).toBe(iso2);
  });

  it('normalises item origin to ISO2', () => {
    expect(parseDraftInput(withValue('packages.0.items.0.origin', 'chn'), 'create').packages?.[0].items?.[0].origin).toBe('CN');
  });

  it.each([
    ['XX', 'INVALID_COUNTRY', undefined],
    ['ZZZ', 'INVALID_COUNTRY', undefined],
    ['T', 'TOO_SHORT', { min: 2 }],
    ['TURK', 'TOO_LONG', { max: 3 }],
  ])('refuses country %s with %s', (sent, code, params) => {
    const expected = { code, field: 'consignor.country', ...(params && { params }) };
    expect(issuesOf(withValue('consignor.country', sent))).toEqual([expected]);
    expect(issuesOf(withValue('packages.0.items.1.origin', sent))).toEqual([{ ...expected, field: 'packages.0.items.1.origin' }]);
  });

  it('upper-cases a 3-letter currency code', () => {
    expect(parseDraftInput(withValue('packages.0.items.0.currency_code', 'eur'), 'create').packages?.[0].items?.[0].currency_code).toBe('EUR');
  });

  it.each([
    ['US', 'LENGTH_EXACT', { length: 3 }],
    ['USDT', 'LENGTH_EXACT', { length: 3 }],
    ['U$D', 'INVALID_CHOICE', undefined],
  ])('refuses currency %s with %s', (sent, code, params) => {
    expect(issuesOf(withValue('packages.0.items.0.currency_code', sent))).toEqual([
      { code, field: 'packages.0.items.0.currency_code', ...(params && { params }) },
    ]);
  });
});

describe('parseDraftInput types, choices and ranges', () => {
  it.each([
    ['preference', 3, 'INVALID_CHOICE', undefined],
    ['preference', '1', 'INVALID_CHOICE', undefined],
    ['provider_id', 0, 'NOT_POSITIVE', undefined],
    ['provider_id', 1.5, 'INVALID_TYPE', { type: 'integer' }],
    ['provider_id', '7', 'INVALID_TYPE', { type: 'integer' }],
    ['provider_id', 2 ** 31, 'TOO_LARGE', { max: 2_147_483_647 }],
    ['address_resolver_type', -1, 'TOO_SMALL', { min: 0 }],
    ['incoterms_type', 'DDU', 'INVALID_TYPE', { type: 'integer' }],
    ['generate_provider_barcode', 'true', 'INVALID_TYPE', { type: 'boolean' }],
    ['consignee.party_type', 'company', 'INVALID_CHOICE', undefined],
    ['consignee.email', 'not-an-email', 'INVALID_EMAIL', undefined],
    ['consignee', 'Hans', 'INVALID_TYPE', { type: 'object' }],
    ['packages', {}, 'INVALID_TYPE', { type: 'array' }],
    ['packages.0.package_type', 3, 'INVALID_CHOICE', undefined],
    ['packages.0.post_type', 4.5, 'INVALID_TYPE', { type: 'integer' }],
    ['packages.0.weight', -0.1, 'TOO_SMALL', { min: 0 }],
    ['packages.0.length', 'long', 'INVALID_TYPE', { type: 'number' }],
    ['packages.0.width', 1_000_001, 'TOO_LARGE', { max: 1_000_000 }],
    ['packages.0.height', -1, 'TOO_SMALL', { min: 0 }],
    ['packages.0.dangerous_goods', 'no', 'INVALID_TYPE', { type: 'boolean' }],
    ['packages.0.items', 'book', 'INVALID_TYPE', { type: 'array' }],
    ['packages.0.items.1.quantity', 0, 'NOT_POSITIVE', undefined],
    ['packages.0.items.1.quantity', 2.5, 'INVALID_TYPE', { type: 'integer' }],
    ['packages.0.items.1.unit_price', -0.01, 'TOO_SMALL', { min: 0 }],
    ['documents.0', {}, 'NOT_BLANK', undefined],
    ['documents.0.id', 0, 'NOT_POSITIVE', undefined],
    ['documents.0.id', 'abc', 'INVALID_TYPE', { type: 'integer' }],
    ['special_services.0.service_type', '   ', 'NOT_BLANK', undefined],
    ['special_services.0', { details: {} }, 'NOT_BLANK', undefined],
    ['special_services.0.details', [], 'INVALID_TYPE', { type: 'object' }],
    ['special_services.0.details', 'x', 'INVALID_TYPE', { type: 'object' }],
  ])('%s = %j → %s', (path, value, code, params) => {
    // An object value replaces an array entry, so a missing required key is reported below it.
    const field = path === 'documents.0' ? 'documents.0.id' : path === 'special_services.0' ? 'special_services.0.service_type' : path;
    expect(issuesOf(withValue(path, value))).toEqual([{ code, field, ...(params && { params }) }]);
  });

  it('accepts every allowed choice', () => {
    const body = withValue('packages.0.package_type', 2, withValue('consignee.party_type', 'business'));
    const draft = parseDraftInput({ ...body, preference: 2, generate_provider_barcode: true }, 'create');
    expect(draft.packages?.[0].package_type).toBe(2);
    expect(draft.consignee?.party_type).toBe('business');
    expect(draft.preference).toBe(2);
    expect(draft.generate_provider_barcode).toBe(true);
  });

  it('keeps special service details', () => {
    const draft = parseDraftInput(withValue('special_services.0.details', { amount: 120.5, currency: 'TRY' }), 'create');
    expect(draft.special_services).toEqual([{ service_type: 'COD', details: { amount: 120.5, currency: 'TRY' } }]);
  });

  it.each([
    ['packages', 50, () => ({})],
    ['documents', 20, () => ({ id: 1 })],
    ['special_services', 20, () => ({ service_type: 'COD' })],
  ])('caps %s at %i entries', (field, max, entry) => {
    expect(parseDraftInput(withValue(field, Array.from({ length: max }, entry)), 'create')[field as keyof DraftInput]).toHaveLength(max);
    expect(issuesOf(withValue(field, Array.from({ length: max + 1 }, entry)))).toEqual([{ code: 'TOO_MANY_ENTRIES', field, params: { max } }]);
  });

  it('caps items per package at 100', () => {
    const items = (n: number) => Array.from({ length: n }, () => ({ quantity: 1 }));
    expect(parseDraftInput(withValue('packages.0.items', items(100)), 'create').packages?.[0].items).toHaveLength(100);
    expect(issuesOf(withValue('packages.0.items', items(101)))).toEqual([{ code: 'TOO_MANY_ENTRIES', field: 'packages.0.items', params: { max: 100 } }]);
  });

  it('treats null collections as empty and null defaulted fields as not sent', () => {
    const draft = parseDraftInput({ ...baseBody(), packages: null, incoterms_type: null, generate_provider_barcode: null }, 'create');
    expect(draft.packages).toEqual([]);
    expect(draft).not.toHaveProperty('incoterms_type');
    expect(draft).not.toHaveProperty('generate_provider_barcode');
  });

  it('strips unknown keys at every level', () => {
    const body = withValue('packages.0.items.0.colour', 'red', withValue('consignee.nickname', 'H'));
    const draft = parseDraftInput({ ...body, customer_id: 99 }, 'create');
    expect(draft).not.toHaveProperty('customer_id');
    expect(draft.consignee).not.toHaveProperty('nickname');
    expect(draft.packages?.[0].items?.[0]).not.toHaveProperty('colour');
  });
});

describe('parseDraftInput body shape and modes', () => {
  it.each([null, [], 'draft', 42, true])('refuses a body that is not an object (%j) with one issue', (body) => {
    for (const mode of ['create', 'update'] as const) {
      expect(issuesOf(body, mode)).toEqual([{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
    }
  });

  it('create requires consignor and consignee', () => {
    expect(issuesOf({})).toEqual([
      { code: 'NOT_BLANK', field: 'consignor' },
      { code: 'NOT_BLANK', field: 'consignee' },
    ]);
    expect(issuesOf({ consignor: null, consignee: {} })).toEqual([{ code: 'NOT_BLANK', field: 'consignor' }]);
  });

  it('create accepts only consignor and consignee, each with no fields', () => {
    expect(parseDraftInput({ consignor: {}, consignee: {} }, 'create')).toEqual({ consignor: {}, consignee: {} });
  });

  it('update accepts an empty body', () => {
    expect(parseDraftInput({}, 'update')).toEqual({});
  });

  it('update keeps absent fields absent', () => {
    expect(parseDraftInput({ reference_no: 'R-1', consignee: { city: 'İzmir' } }, 'update')).toEqual({
      reference_no: 'R-1',
      consignee: { city: 'İzmir' },
    });
  });

  it('update still validates what is sent', () => {
    expect(issuesOf({ consignee: { postal_code: '1'.repeat(31) } }, 'update')).toEqual([
      { code: 'TOO_LONG', field: 'consignee.postal_code', params: { max: 30 } },
    ]);
  });

  it('reports every issue together, with nested paths', () => {
    const body = baseBody();
    withValue('consignee.name', 'x'.repeat(256), body);
    withValue('packages.0.items.1.gtip', '1'.repeat(17), body);
    withValue('documents.0', {}, body);
    withValue('consignor.email', 'nope', body);
    const issues = issuesOf({ ...body, preference: 0 });
    expect(issues).toHaveLength(5);
    expect(issues).toEqual(
      expect.arrayContaining([
        { code: 'TOO_LONG', field: 'consignee.name', params: { max: 255 } },
        { code: 'TOO_LONG', field: 'packages.0.items.1.gtip', params: { max: 16 } },
        { code: 'NOT_BLANK', field: 'documents.0.id' },
        { code: 'INVALID_EMAIL', field: 'consignor.email' },
        { code: 'PREFERENCE_RULE', field: 'provider_id' },
      ]),
    );
  });
});

describe('preference rule', () => {
  const parties = { consignor: {}, consignee: {} };

  it.each([
    ['create', { ...parties, preference: 0 }],
    ['create', { ...parties, preference: 0, provider_id: null }],
    ['update', { preference: 0 }],
    ['update', { preference: 0, provider_id: null }],
  ] as [Mode, object][])('%s refuses %j', (mode, body) => {
    expect(issuesOf(body, mode)).toEqual([{ code: 'PREFERENCE_RULE', field: 'provider_id' }]);
  });

  it('reports a provider_id of the wrong type once, as a type error', () => {
    expect(issuesOf({ ...parties, preference: 0, provider_id: '' })).toEqual([{ code: 'INVALID_TYPE', field: 'provider_id', params: { type: 'integer' } }]);
  });

  it.each([
    ['create', { ...parties, preference: 0, provider_id: 2 }],
    ['create', { ...parties, preference: 1 }],
    ['create', { ...parties }],
    ['create', { ...parties, provider_id: 2 }],
    ['update', { preference: 0, provider_id: 1 }],
    ['update', { preference: 2 }],
  ] as [Mode, object][])('%s accepts %j', (mode, body) => {
    expect(() => parseDraftInput(body, mode)).not.toThrow();
  });
});

describe('applyDraftPatch', () => {
  const current: DraftInput = {
    preference: 1,
    reference_no: 'R-1',
    invoice_number: 'INV-1',
    incoterms_type: 2,
    consignor: { name: 'Ayşe', city: 'İstanbul', country: 'TR' },
    consignee: { name: 'Hans', city: 'Berlin', country: 'DE', phone_number: '+49 30 1234' },
    packages: [{ weight: 1 }, { weight: 2 }],
    documents: [{ id: 1 }],
    special_services: [{ service_type: 'COD' }],
  };

  it('returns the draft unchanged for an empty patch', () => {
    expect(applyDraftPatch(current, {})).toEqual(current);
  });

  it('replaces sent scalars, clears on null and keeps the rest', () => {
    const next = applyDraftPatch(current, { reference_no: 'R-2', invoice_number: null });
    expect(next).toEqual({ ...current, reference_no: 'R-2', invoice_number: null });
  });

  it('merges parties field by field', () => {
    const next = applyDraftPatch(current, { consignee: { city: 'München', phone_number: null } });
    expect(next.consignee).toEqual({ name: 'Hans', city: 'München', country: 'DE', phone_number: null });
    expect(next.consignor).toEqual(current.consignor);
  });

  it('treats undefined values in a patch as not sent', () => {
    const next = applyDraftPatch(current, { reference_no: undefined, consignee: { name: undefined, city: 'Hamburg' } });
    expect(next.reference_no).toBe('R-1');
    expect(next.consignee).toEqual({ ...current.consignee, city: 'Hamburg' });
  });

  it('sets a party the draft did not have', () => {
    const { consignee: _omitted, ...withoutConsignee } = current;
    expect(applyDraftPatch(withoutConsignee, { consignee: { name: 'Jo' } }).consignee).toEqual({ name: 'Jo' });
  });

  it('replaces sent collections whole', () => {
    const next = applyDraftPatch(current, { packages: [{ weight: 5 }], documents: [], special_services: [{ service_type: 'INSURANCE' }] });
    expect(next.packages).toEqual([{ weight: 5 }]);
    expect(next.documents).toEqual([]);
    expect(next.special_services).toEqual([{ service_type: 'INSURANCE' }]);
  });

  it('does not modify its inputs', () => {
    const snapshot = structuredClone(current);
    applyDraftPatch(current, { consignor: { city: 'Ankara' }, reference_no: 'R-3' });
    expect(current).toEqual(snapshot);
  });

  it('works with a parsed update body', () => {
    const next = applyDraftPatch(current, parseDraftInput({ consignor: { city: ' Ankara ' } }, 'update'));
    expect(next.consignor).toEqual({ name: 'Ayşe', city: 'Ankara', country: 'TR' });
    expect(next.reference_no).toBe('R-1');
  });
});
