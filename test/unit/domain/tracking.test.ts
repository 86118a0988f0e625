import { describe, expect, it } from '@jest/globals';
import { isCarrierReported } from '../../../src/domain/tracking';

describe('isCarrierReported', () => {
  it('is true for the statuses tracking events lead to, false for ours, undefined for names the catalog lacks', () => {
    for (const name of ['PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED', 'RETURNED', 'EXCEPTION']) expect(isCarrierReported(name)).toBe(true);
    for (const name of ['NEW_DRAFT', 'LABEL_CREATED', 'AWAITING_PICKUP', 'SENDED_TO_PROVIDER', 'CANCELLED']) expect(isCarrierReported(name)).toBe(false);
    expect(isCarrierReported('ZUGESTELLT')).toBeUndefined();
    expect(isCarrierReported('toString')).toBeUndefined();
  });
});
