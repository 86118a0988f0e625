import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTrackingActivities } from '../../activities/tracking.activities';
import type { Carrier, TrackingQuery } from '../../src/carriers/carrier';
import type { Providers } from '../../src/carriers/providers';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { startTracking } from '../../src/db/tracking.repository';
import { openTestDatabase } from '../support/test-service';

/**
 * A tracking round against the read model (docs/carriers.md, "Tracking"), with a carrier that takes four tracking
 * codes a request: a round whose due consignments leave its batch short fills it with the consignments due soonest
 * that were not asked lately, so that the carrier is asked in full batches.
 */
let db: Database;
let drop: () => Promise<void>;
let customerId: number;

const INTERVAL_MS = 60_000;
const PROVIDER_ID = 7;

beforeAll(async () => {
  ({ db, drop } = await openTestDatabase());
  await migrate(db);
  customerId = (await createCustomer(db, { name: 'Rounds' })).caller.customerId;
}, 60_000);
afterAll(async () => drop?.());

/** A consignment in flight, due in `dueInS` seconds, last asked `askedAgoS` seconds ago (never: null). */
async function tracked(code: string, dueInS: number, askedAgoS: number | null): Promise<void> {
  const uuid = randomUUID();
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO consignments (uuid, customer_id, status, provider_id, consignor, consignee, consignment_type) VALUES ($1, $2, 3, $3, '{}', '{}', 1) RETURNING id`,
    [uuid, customerId, PROVIDER_ID],
  );
  await startTracking(db, { consignmentId: Number(rows[0].id), uuid, providerId: PROVIDER_ID, trackingCode: code, carrierReference: null, firstCheckInMs: 0 });
  await db.query(
    `UPDATE consignment_tracking SET next_check_at = now() + $2 * interval '1 second',
       asked_at = CASE WHEN $3::int IS NULL THEN NULL ELSE now() - $3::int * interval '1 second' END
     WHERE tracking_code = $1`,
    [code, dueInS, askedAgoS],
  );
}

describe('a tracking round', () => {
  it('fills a short batch with the consignments due soonest that were not asked lately, and asks none of them again at once', async () => {
    const requests: string[][] = [];
    const carrier = {
      kind: 'test',
      name: 'Four-a-request',
      trackingLimits: { batchSize: 4, minReaskMs: 0 },
      track: async () => [],
      trackMany: async (shipments: TrackingQuery[]) => {
        requests.push(shipments.map((s) => s.trackingCode));
        return shipments.map((shipment) => ({ shipment, events: [] }));
      },
    } as unknown as Carrier;
    const providers = { carrierFor: async () => carrier } as unknown as Providers;
    const activities = createTrackingActivities({ db, providers, consignmentStarter: { carrierEvent: async () => true }, trackingIntervalMs: INTERVAL_MS });

    await tracked('DUE-1', -1, 60);
    await tracked('DUE-2', -5, null);
    await tracked('SOON-NEVER-ASKED', 10, null);
    await tracked('SOON-ASKED-40S-AGO', 20, 40);
    await tracked('SOON-BUT-NO-ROOM', 25, 50);
    await tracked('SOON-ASKED-10S-AGO', 5, 10);
    await tracked('DUE-IN-40S', 40, null);

    const round = await activities.trackingRound({ providerId: PROVIDER_ID, intervalMs: INTERVAL_MS });
    expect(requests.map((codes) => [...codes].sort())).toEqual([['DUE-1', 'DUE-2', 'SOON-ASKED-40S-AGO', 'SOON-NEVER-ASKED']]);
    expect(round).toMatchObject({ gone: false, asked: 4, requests: 1, changed: 0, failed: 0 });

    // Those four are due again an interval later, together; the others keep their own time.
    const again = await activities.trackingRound({ providerId: PROVIDER_ID, intervalMs: INTERVAL_MS });
    expect(again).toMatchObject({ asked: 0, requests: 0 });
    expect(requests).toHaveLength(1);
    const { rows } = await db.query<{ tracking_code: string; due_in_s: number }>(
      `SELECT tracking_code, round(EXTRACT(EPOCH FROM next_check_at - now()))::int AS due_in_s FROM consignment_tracking ORDER BY tracking_code`,
    );
    const dueIn = Object.fromEntries(rows.map((r) => [r.tracking_code, Number(r.due_in_s)]));
    for (const code of ['DUE-1', 'DUE-2', 'SOON-ASKED-40S-AGO', 'SOON-NEVER-ASKED']) expect(dueIn[code]).toBeGreaterThanOrEqual(58);
    expect(dueIn['SOON-BUT-NO-ROOM']).toBeLessThanOrEqual(25);
    expect(dueIn['SOON-ASKED-10S-AGO']).toBeLessThanOrEqual(5);
  });
});
