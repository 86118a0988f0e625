import { describe, expect, it } from '@jest/globals';
import { isProcessed, type ConsignmentRecord } from '../../../src/domain/consignment';
import { newDraft, referenceUsed } from '../../../src/domain/draft';
import { DomainError } from '../../../src/domain/errors';
import { planProcessing, type PlannerPorts } from '../../../src/domain/processing-planner';
import { providerIssue } from '../../../src/domain/providers';
import { isDraft, requireDraft, STATUS } from '../../../src/domain/statuses';
import { carrierEventOf } from '../../../src/domain/tracking';

/** The rules decided in one place each (#27): the workflow, its activities and the service's pre-checks all call these. */
describe('one definition per rule', () => {
  it('not a draft: only status 24', () => {
    expect(isDraft(STATUS.NEW_DRAFT)).toBe(true);
    for (const status of [STATUS.LABEL_CREATED, STATUS.CANCELLED, null, undefined]) expect(isDraft(status)).toBe(false);
    expect(() => requireDraft(STATUS.LABEL_CREATED)).toThrow(expect.objectContaining({ code: 'NOT_DRAFT' }));
    expect(isProcessed({ status: STATUS.LABEL_CREATED, barcode: 'CF1' })).toBe(true);
    expect(isProcessed({ status: STATUS.CANCELLED, barcode: null })).toBe(false);
    expect(isProcessed({ status: STATUS.NEW_DRAFT, barcode: null })).toBe(false);
  });

  it('provider exists: unknown, disabled, built in, absent', () => {
    expect(providerIssue(9, undefined)).toEqual({ code: 'PROVIDER_NOT_FOUND', field: 'provider_id', params: { provider_id: 9 } });
    expect(providerIssue(9, { status: 0 })).toEqual({ code: 'PROVIDER_DISABLED', field: 'provider_id', params: { provider_id: 9 } });
    expect(providerIssue(9, { status: 1 })).toBeUndefined();
    expect(providerIssue(1, { builtIn: true })).toBeUndefined();
    expect(providerIssue(null, undefined)).toBeUndefined();
  });

  it('reference taken, and what a new draft starts as', () => {
    expect(referenceUsed()).toMatchObject({ code: 'REFERENCE_USED', issues: [expect.objectContaining({ field: 'reference_no' })] });
    expect(newDraft({ uuid: 'u', draft: {} })).toEqual({ uuid: 'u', draft: {}, status: STATUS.NEW_DRAFT, statusMessage: 'New draft' });
  });

  it('a carrier event, however it came: pushed, sandbox or polled', () => {
    const now = new Date('2026-01-02T03:04:05Z');
    expect(carrierEventOf(3, { eventId: 'e1', event: 'PICKED_UP', occurredAt: '2026-01-01T00:00:00+03:00', location: 'Ankara' }, now)).toEqual({
      eventId: '3:e1',
      event: 'PICKED_UP',
      occurredAt: '2025-12-31T21:00:00.000Z',
      location: 'Ankara',
      message: null,
    });
    expect(carrierEventOf(3, { eventId: 'e2', event: 'DELIVERED', occurredAt: new Date('2026-01-01T00:00:00Z') }, now).occurredAt).toBe(
      '2026-01-01T00:00:00.000Z',
    );
    expect(carrierEventOf(3, { eventId: 'e3', event: 'IN_TRANSIT' }, now)).toEqual({
      eventId: '3:e3',
      event: 'IN_TRANSIT',
      occurredAt: now.toISOString(),
      location: null,
      message: null,
    });
  });
});

describe('the processing planner', () => {
  const party = { name: 'A', address: 'Street 1', city: 'Ankara', country: 'TR', phone_number: '+905321234567' };
  const record = (over: Partial<ConsignmentRecord> = {}): ConsignmentRecord =>
    ({
      id: 41,
      uuid: 'uuid-41',
      customer_id: 7,
      status: STATUS.NEW_DRAFT,
      preference: 1,
      provider_id: null,
      address_resolver_type: 0,
      reference_no: 'R-1',
      invoice_number: null,
      incoterms_type: 1,
      specific_shipping_method: null,
      generate_provider_barcode: false,
      specific_provider_barcode: null,
      consignor: party,
      consignee: party,
      packages: [{ id: 1, desi: 1, quantity: 1, weight: 2, length: 10, width: 10, height: 10, items: [] }],
      documents: [],
      special_services: [],
      barcode: null,
      ...over,
    }) as unknown as ConsignmentRecord;
  const ports = (over: Partial<PlannerPorts> = {}): PlannerPorts => ({
    findProcessKey: async () => undefined,
    resolveAddresses: async (draft) => ({ draft, corrections: [], problems: [] }),
    providerIssue: async () => undefined,
    refuseTakenReference: async () => undefined,
    isBuiltIn: (id) => id <= 2,
    carrierPushes: async (id) => id === 2,
    chooseSpecific: async (_shipment, id) => (id === 1 || id === 2 ? id : undefined),
    chooseAmong: async () => ({ providerId: 2, note: 'the cheapest of 2' }),
    serviceBarcode: (id) => `CF${id}`,
    ...over,
  });

  it('cheapest or fastest: the chosen provider, with how it was chosen', async () => {
    const plan = await planProcessing(ports(), record(), { patch: null, processKey: 'k1' });
    expect(plan).toMatchObject({
      providerId: 2,
      draft: { provider_id: 2 },
      choice: 'the cheapest of 2',
      carrierPushes: true,
      carrierInProcess: true,
      serviceBarcode: 'CF41',
      patched: false,
      replacePackages: false,
      processKey: 'k1',
    });
    expect(plan).not.toHaveProperty('addressCorrections');
  });

  it('a carrier account named: booked as is, its carrier decides when it books', async () => {
    const plan = await planProcessing(ports(), record({ preference: 0, provider_id: 9 }), { patch: null });
    expect(plan).toMatchObject({ providerId: 9, carrierInProcess: false, carrierPushes: false });
    expect(plan).not.toHaveProperty('choice');
    expect(plan).not.toHaveProperty('processKey');
  });

  it('refuses: not a draft, no carrier, every validation issue at once', async () => {
    await expect(planProcessing(ports(), record({ status: STATUS.LABEL_CREATED }), { patch: null })).rejects.toMatchObject({ code: 'NOT_DRAFT' });
    await expect(planProcessing(ports({ chooseAmong: async () => undefined }), record(), { patch: null })).rejects.toMatchObject({
      code: 'NO_CARRIER_AVAILABLE',
    });
    const refusal = await planProcessing(
      ports({ providerIssue: async () => providerIssue(9, undefined) }),
      record({ consignee: {} as never, provider_id: 9 }),
      { patch: null },
    ).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).issues.map((i) => i.code)).toContain('PROVIDER_NOT_FOUND');
    expect((refusal as DomainError).issues.length).toBeGreaterThan(1);
  });

  it('recognises its own processing after a lost answer: the plan of what was done', async () => {
    const done = record({ status: STATUS.LABEL_CREATED, provider_id: 1, barcode: 'CF41' });
    const plan = await planProcessing(ports({ findProcessKey: async () => 'k1' }), done, { patch: null, processKey: 'k1' });
    expect(plan).toMatchObject({ providerId: 1, serviceBarcode: 'CF41', patched: false, replacePackages: false, carrierInProcess: true, processKey: 'k1' });
    await expect(planProcessing(ports({ findProcessKey: async () => 'other' }), done, { patch: null, processKey: 'k1' })).rejects.toMatchObject({
      code: 'NOT_DRAFT',
    });
  });
});
