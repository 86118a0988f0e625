import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { canTransition, STATUS } from '../../src/domain/statuses';
import { consignmentApi, draftBody, waitForStatus, type ConsignmentApi } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Cancelling through HTTP agrees with the status table of the README: a consignment can be cancelled when
 * its status may move to CANCELLED; where the parcel is with the carrier (4, 5, 6, 9) the carrier decides
 * (sandbox provider 1 accepts in transit, provider 2 refuses). Expectations come from the table, so the
 * table and the cancel path can never disagree again (OUT_FOR_DELIVERY once did).
 */

let svc: TestService;
let key: string;
let consignments: ConsignmentApi;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key } = await svc.customer('Cancel rule'));
  consignments = consignmentApi(svc, key);
});
afterAll(async () => svc?.stop());

const WITH_CARRIER = [STATUS.PICKED_UP, STATUS.IN_TRANSIT, STATUS.OUT_FOR_DELIVERY, STATUS.EXCEPTION] as number[];

/** Sandbox events that bring a processed consignment to each status. */
const PATHS: [string, string[]][] = [
  ['processed', []],
  ['PICKED_UP', ['PICKED_UP']],
  ['IN_TRANSIT', ['PICKED_UP', 'IN_TRANSIT']],
  ['OUT_FOR_DELIVERY', ['PICKED_UP', 'OUT_FOR_DELIVERY']],
  ['EXCEPTION', ['PICKED_UP', 'EXCEPTION']],
  ['DELIVERED', ['PICKED_UP', 'DELIVERED']],
  ['RETURNED', ['PICKED_UP', 'RETURNED']],
];

const REFUSALS: Record<number, string> = {
  [STATUS.DELIVERED]: 'Shipment already delivered',
  [STATUS.RETURNED]: 'Consignment cancel failed: the shipment was returned to the consignor',
};

describe('cancel follows the status table', () => {
  it.each(PATHS.flatMap(([name, events]) => [1, 2].map((provider) => [name, provider, events] as const)))(
    '%s with provider %i',
    async (_name, provider, events) => {
      const done = await consignments.processed(draftBody({ preference: 0, provider_id: provider }));
      let status = (await consignments.details(done.id)).status;
      for (const event of events) {
        expect((await consignments.sandboxEvent(done.id, { event })).statusCode).toBe(202);
        status = STATUS[event as keyof typeof STATUS];
        await waitForStatus(consignments, done.id, status);
      }

      const res = await svc.request({ method: 'POST', url: `/api/v1/consignments/${done.id}/cancel`, apiKey: key });
      const after = (await consignments.details(done.id)).status;
      if (!canTransition(status, STATUS.CANCELLED)) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ status: false, errors: [{ message: REFUSALS[status] }] });
        expect(after).toBe(status);
      } else if (WITH_CARRIER.includes(status) && provider === 2) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ status: false, errors: [{ message: 'Consignment cancel failed: carrier does not cancel shipments in transit' }] });
        expect(after).toBe(status);
      } else {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ status: true, data: { consignment: done.id } });
        expect(after).toBe(STATUS.CANCELLED);
      }
    },
  );

  it('lets OUT_FOR_DELIVERY move to CANCELLED in the table (the carrier decides)', () => {
    expect(canTransition(STATUS.OUT_FOR_DELIVERY, STATUS.CANCELLED)).toBe(true);
  });
});
