import { describe, expect, it } from '@jest/globals';
import type { DraftInput } from '../../../src/domain/draft';
import { processingIssues } from '../../../src/domain/processing';
import { cashOnDelivery, isReturn } from '../../../src/domain/special-services';

const withServices = (special_services: DraftInput['special_services']): DraftInput => ({ special_services });

describe('special services carriers act on', () => {
  it('reads cash on delivery: amount (rounded to cents), currency TRY and payment cash by default, either spelling of the type', () => {
    expect(cashOnDelivery(withServices([{ service_type: 'insurance' }, { service_type: 'COD', details: { amount: 99.999 } }]))).toEqual({
      cod: { index: 1, amount: 100, currency: 'TRY', payment: 'cash' },
    });
    expect(cashOnDelivery(withServices([{ service_type: 'cash_on_delivery', details: { amount: 10, currency: 'EUR', payment: 'card' } }])).cod).toMatchObject({
      currency: 'EUR',
      payment: 'card',
    });
    expect(cashOnDelivery(withServices([{ service_type: 'insurance' }]))).toEqual({});
    expect(cashOnDelivery({})).toEqual({});
  });

  it('names the detail at fault: a missing or non-positive amount, an unknown currency or payment', () => {
    expect(cashOnDelivery(withServices([{ service_type: 'cod' }])).issue).toEqual({ code: 'NOT_POSITIVE', field: 'special_services.0.details.amount' });
    expect(cashOnDelivery(withServices([{ service_type: 'cod', details: { amount: -5 } }])).issue?.field).toBe('special_services.0.details.amount');
    expect(cashOnDelivery(withServices([{ service_type: 'cod', details: { amount: 5, currency: 'lira' } }])).issue).toEqual({
      code: 'INVALID_CHOICE',
      field: 'special_services.0.details.currency',
    });
    expect(cashOnDelivery(withServices([{ service_type: 'cod', details: { amount: 5, payment: 'cheque' } }])).issue).toEqual({
      code: 'INVALID_CHOICE',
      field: 'special_services.0.details.payment',
    });
  });

  it('refuses processing a draft whose cash on delivery has no amount', () => {
    expect(processingIssues(withServices([{ service_type: 'cash_on_delivery', details: {} }]))).toContainEqual({
      code: 'NOT_POSITIVE',
      field: 'special_services.0.details.amount',
    });
    expect(processingIssues(withServices([{ service_type: 'cash_on_delivery', details: { amount: 12 } }])).map((i) => i.field)).not.toContain(
      'special_services.0.details.amount',
    );
  });

  it('tells a return from the customer', () => {
    expect(isReturn(withServices([{ service_type: 'Return' }]))).toBe(true);
    expect(isReturn(withServices([{ service_type: 'cod', details: { amount: 1 } }]))).toBe(false);
  });
});
