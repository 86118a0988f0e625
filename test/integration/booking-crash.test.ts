import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { turkishDomesticDraft, waitForProcessed } from '../support/consignments';
import { SENDEO_TEST_CUSTOMER, startSendeoDouble, type SendeoDouble } from '../support/carriers/sendeo-double';
import { exited, serviceFixture } from '../support/service-process';
import { waitFor } from '../support/wait';

/**
 * A kill -9 of `npm start` while Sendeo holds the answer to a booking it made. After the restart, a client that
 * retries with its Idempotency-Key gets the label of that one delivery, and a draft whose client never comes
 * back is processed by the service itself (the booking retried after its heartbeat stopped, or settled after the
 * grace period): no booking is left hanging off a draft, and none is made twice.
 */
const API_KEY = 'cf_bookingCrashKey0000000000000001';
let service: Awaited<ReturnType<typeof serviceFixture>>;
let sd: SendeoDouble;

beforeAll(async () => {
  sd = await startSendeoDouble();
  // The double listens on loopback: private targets allowed. The default carrier wait (30 s), a short grace period.
  service = await serviceFixture('booking-crash', API_KEY, { WEBHOOK_ALLOW_PRIVATE: '1', BOOKING_GRACE_MS: '5000' });
});
afterAll(async () => {
  await service?.cleanup();
  await sd?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('kill -9 while Sendeo holds the answer to a booking it made', () => {
  it('a retry with the same key gets that delivery’s label; a draft nobody asks about again is processed by the service', async () => {
    const held = (reference: string) => [...sd.deliveries.values()].filter((d) => d.request.CustomerReferenceType === reference);
    const process = (id: number, key: string) =>
      service.api<Json>('POST', `/api/v1/consignments/draft/${id}/start-process`, undefined, { 'idempotency-key': key });
    const first = service.start();
    const drafts: Record<'retried' | 'abandoned', number> = { retried: 0, abandoned: 0 };
    try {
      await service.waitHealthy(first);
      const account = await service.api<Json>('POST', '/api/v1/carrier-accounts', {
        carrier: 'sendeo',
        description: 'Sendeo',
        credentials: { customer_code: SENDEO_TEST_CUSTOMER.code, password: SENDEO_TEST_CUSTOMER.password },
        settings: { base_url: sd.baseUrl, rates: { bands: [{ up_to: 20, price: 110 }] } },
      });
      expect(account.status).toBe(201);
      for (const name of ['retried', 'abandoned'] as const) {
        const created = await service.api('POST', '/api/v1/consignments/draft', turkishDomesticDraft(account.json.data.provider_id, `CRASH-${name}`));
        expect(created.status).toBe(201);
        drafts[name] = created.json.data.id;
      }
      sd.failNext({ kind: 'applyThenHold', ms: 35_000 }, { operation: 'SETDELIVERY', times: 2 });
      const answers = [process(drafts.retried, 'crash-retried'), process(drafts.abandoned, 'crash-abandoned')].map((p) =>
        p.then(
          (res) => res.status,
          () => 'connection lost',
        ),
      );
      // The premise: Sendeo booked both and holds both answers when the kill comes.
      await waitFor('Sendeo to hold both deliveries', () => held('CRASH-retried').length + held('CRASH-abandoned').length === 2, { timeoutMs: 30_000 });
      first.kill('SIGKILL');
      await exited(first);
      expect(await Promise.all(answers)).toEqual(['connection lost', 'connection lost']);
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
    }

    const second = service.start();
    try {
      await service.waitHealthy(second);
      const tries: (number | string)[] = [];
      let processed: Json | undefined;
      const deadline = Date.now() + 120_000;
      while (!processed) {
        const res = await process(drafts.retried, 'crash-retried').catch(() => undefined);
        tries.push(res?.status ?? 'connection lost');
        if (res?.status === 200) processed = res.json.data;
        else if (res && res.status !== 503) throw new Error(`retry answered ${res.status} ${JSON.stringify(res.json)}`);
        else if (Date.now() > deadline) throw new Error(`no answer to the retries: ${tries.join(', ')}`);
        else await sleep(1_000);
      }
      console.log(`booking crash: the retries after the restart answered ${tries.join(', ')}`);
      expect(held('CRASH-retried')).toHaveLength(1);
      expect(processed.providerTrackingCode).toBe(held('CRASH-retried')[0].trackingNumber);
      expect(Buffer.from(processed.base64label, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

      // Nobody asks about the other draft again: the service finishes it within the grace period.
      const details = async (id: number) => (await service.api<Json>('GET', `/api/v1/consignments/${id}/details`)).json.data;
      const abandoned = await waitForProcessed(details, drafts.abandoned, { timeoutMs: 90_000, intervalMs: 1_000 });
      expect(held('CRASH-abandoned')).toHaveLength(1);
      expect(abandoned.labels).toHaveLength(1);
      expect(abandoned.labels[0].tracking_code).toBe(held('CRASH-abandoned')[0].trackingNumber);
      expect((abandoned.details as Json[]).some((h) => /^Booking recovered: Sendeo already held this consignment/.test(h.message))).toBe(true);
      expect(await service.stop(second)).toBe(0);
    } finally {
      if (second.exitCode === null) second.kill('SIGKILL');
    }
    expect(sd.requests.filter((r) => r.operation === 'SETDELIVERY')).toHaveLength(2);
    await service.withDatabase(async (db) => {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM carrier_bookings WHERE cancelled_at IS NULL');
      expect(rows[0].n).toBe(2);
    });
  }, 300_000);
});
