import { ALLOWED_TRANSITIONS, STATUS, STATUS_CATALOG, canTransition, cancelRule, statusMessage, statusName } from '../../../src/domain/statuses';

describe('status catalog', () => {
  it('keeps the numbers given by the API (docs/api.md) and docs/architecture.md', () => {
    // The API's own numbers.
    expect([STATUS.NEW_DRAFT, STATUS.SENDED_TO_PROVIDER, STATUS.LABEL_CREATED, STATUS.AWAITING_PICKUP]).toEqual([24, 1, 2, 3]);
    // Ours: the carrier-driven statuses from 4 on, in this order; stored and sent to clients, so never renumbered.
    const carrierDriven = ['PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED', 'RETURNED', 'EXCEPTION', 'CANCELLED'] as const;
    expect(carrierDriven.map((name) => STATUS[name])).toEqual(carrierDriven.map((_, i) => 4 + i));
    // And no other status.
    expect(Object.keys(STATUS)).toHaveLength(4 + carrierDriven.length);
  });

  it.each(Object.entries(STATUS))('%s (%i) has its name and non-empty en and tr texts', (name, code) => {
    const entry = STATUS_CATALOG[code];
    expect(entry.name).toBe(name);
    expect(entry.en.trim()).not.toBe('');
    expect(entry.tr.trim()).not.toBe('');
    expect(entry.tr).not.toBe(entry.en);
  });

  it('has exactly the statuses of STATUS', () => {
    expect(
      Object.keys(STATUS_CATALOG)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(Object.values(STATUS).sort((a, b) => a - b));
  });

  it('marks delivered, returned and cancelled as final, and only those', () => {
    const finals = Object.values(STATUS_CATALOG)
      .filter((entry) => entry.final)
      .map((entry) => entry.name)
      .sort();
    expect(finals).toEqual(['CANCELLED', 'DELIVERED', 'RETURNED']);
  });

  it('gives the API contract texts for draft and sent-to-provider', () => {
    expect(statusName(24)).toBe('NEW_DRAFT');
    expect(statusMessage(24, 'en')).toBe('New draft');
    expect(statusMessage(24, 'tr')).toBe('Yeni taslak');
    expect(statusName(1)).toBe('SENDED_TO_PROVIDER');
    expect(statusMessage(1, 'en')).toBe('Consignment sent to provider');
    expect(statusMessage(1, 'tr')).toBe('Gönderi kargo firmasına iletildi');
  });

  it('names unknown statuses as unknown', () => {
    expect(statusName(99)).toBe('UNKNOWN');
    expect(statusMessage(99, 'en')).toBe('Unknown status 99');
    expect(statusMessage(99, 'tr')).toBe('Bilinmeyen durum 99');
  });
});

describe('transitions', () => {
  it('has an entry for every status, pointing only at known statuses', () => {
    const codes = Object.values(STATUS).sort((a, b) => a - b);
    expect(
      Object.keys(ALLOWED_TRANSITIONS)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(codes);
    for (const code of codes) {
      expect(Array.isArray(ALLOWED_TRANSITIONS[code])).toBe(true);
      for (const to of ALLOWED_TRANSITIONS[code]) expect(codes).toContain(to);
    }
  });

  it('lets final statuses go nowhere', () => {
    for (const [code, entry] of Object.entries(STATUS_CATALOG)) {
      if (entry.final) expect(ALLOWED_TRANSITIONS[Number(code)]).toEqual([]);
    }
  });

  it('lets nothing go back to draft', () => {
    for (const code of Object.values(STATUS)) expect(canTransition(code, STATUS.NEW_DRAFT)).toBe(false);
  });

  it.each([
    [24, 2, true],
    [24, 3, true],
    [24, 10, true],
    [24, 1, false],
    [24, 7, false],
    [2, 1, true],
    [3, 4, true],
    [1, 5, true],
    [4, 7, true],
    [5, 5, true],
    [6, 10, true],
    [6, 7, true],
    [9, 10, true],
    [7, 10, false],
    [10, 10, false],
    [8, 5, false],
    [99, 24, false],
  ])('%i → %i is %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });
});

describe('cancel rule', () => {
  it('follows the transition table for every status', () => {
    for (const code of Object.values(STATUS)) {
      const rule = cancelRule(code);
      expect(rule.refusal === null).toBe(canTransition(code, STATUS.CANCELLED));
    }
  });

  it.each([
    [24, { refusal: null, carrier: false, inTransit: false }],
    [2, { refusal: null, carrier: true, inTransit: false }],
    [3, { refusal: null, carrier: true, inTransit: false }],
    [1, { refusal: null, carrier: true, inTransit: false }],
    [4, { refusal: null, carrier: true, inTransit: true }],
    [5, { refusal: null, carrier: true, inTransit: true }],
    [6, { refusal: null, carrier: true, inTransit: true }],
    [9, { refusal: null, carrier: true, inTransit: true }],
    [7, { refusal: { code: 'ALREADY_DELIVERED' } }],
    [10, { refusal: { code: 'ALREADY_CANCELLED' } }],
    [8, { refusal: { code: 'CANCEL_FAILED', params: { reason: 'the shipment was returned to the consignor' } } }],
  ])('status %i → %o', (status, expected) => {
    expect(cancelRule(status)).toEqual(expected);
  });
});
