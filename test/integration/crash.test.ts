import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { exited, serviceFixture } from '../support/service-process';

/**
 * The whole service (API, worker, Temporal dev server child) is killed with SIGKILL while drafts are being
 * processed. After a restart every consignment ends processed exactly once: one carrier booking, one
 * label, one "processed" history entry — never two, whatever stage the kill interrupted.
 */
const API_KEY = 'cf_crashTestKey00000000000000000001';
let service: Awaited<ReturnType<typeof serviceFixture>>;

const party = (city: string) => ({ name: 'Çağlar Güneş', country: 'TR', city, address: 'İnönü Cad. 5', phone_number: '+905321234567' });

beforeAll(async () => {
  service = await serviceFixture('crash', API_KEY);
});
afterAll(async () => service?.cleanup());

describe('kill -9 in the middle of processing', () => {
  it('ends with exactly one booking and one label per consignment', async () => {
    const drafts: { id: number; uuid: string }[] = [];
    const first = service.start();
    try {
      await service.waitHealthy(first);
      for (let i = 0; i < 4; i++) {
        const res = await service.api('POST', '/api/v1/consignments/draft', { preference: (i % 2) + 1, consignor: party('Bursa'), consignee: party('Konya'), packages: [{ weight: 1 + i }] });
        expect(res.status).toBe(201);
        drafts.push(res.json.data as unknown as { id: number; uuid: string });
      }
      // Processing requests in flight, then the kill at staggered moments of their progress.
      const inFlight = drafts.map((d, i) => sleep(i * 25).then(() => service.api('POST', `/api/v1/consignments/draft/${d.id}/start-process`).catch(() => undefined)));
      await sleep(120);
      first.kill('SIGKILL');
      await exited(first);
      await Promise.all(inFlight);
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
    }

    const second = service.start();
    try {
      await service.waitHealthy(second);
      // Updates the workflows accepted before the kill finish on their own (after the task and activity
      // timeouts); a request that never reached a workflow is retried by its client, as here.
      const deadline = Date.now() + 100_000;
      for (const d of drafts) {
        for (;;) {
          const { json } = await service.api('GET', `/api/v1/consignments/${d.id}/details`);
          if (json.data.status !== 24) break;
          if (Date.now() > deadline - 60_000) {
            const retry = await service.api('POST', `/api/v1/consignments/draft/${d.id}/start-process`);
            if (retry.status === 200) break;
          }
          if (Date.now() > deadline) throw new Error(`draft ${d.id} was never processed`);
          await sleep(500);
        }
        const { json } = await service.api('GET', `/api/v1/consignments/${d.id}/details`);
        expect([2, 3]).toContain(json.data.status);
        expect(json.data.labels as unknown[]).toHaveLength(1);
        expect((json.data.details as { status: number }[]).filter((h) => h.status === 2 || h.status === 3)).toHaveLength(1);
      }
      expect(await service.stop(second)).toBe(0);
    } finally {
      if (second.exitCode === null) second.kill('SIGKILL');
    }

    await service.withDatabase(async (db) => {
      for (const d of drafts) {
        const bookings = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM carrier_bookings WHERE booking_key = $1', [d.uuid]);
        const labels = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM labels WHERE consignment_id = $1', [d.id]);
        const events = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM consignment_events WHERE consignment_id = $1`, [d.id]);
        expect([bookings.rows[0].n, labels.rows[0].n, events.rows[0].n]).toEqual([1, 1, 1]);
      }
    });
  }, 300_000);
});
