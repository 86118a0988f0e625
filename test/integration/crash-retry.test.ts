import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { draftBody, party } from '../support/consignments';
import { exited, serviceFixture } from '../support/service-process';
import { waitFor } from '../support/wait';

/**
 * Clients that retry after a crash get the outcome. The all-in-one service is killed with SIGKILL while
 * drafts are being processed, each `start-process` sent with its own Idempotency-Key. After a restart every
 * client retries its request with the same key until it has an answer, and every answer is the label: a
 * processing the kill interrupted is waited for (the key names the workflow update, so the retry attaches to
 * it), one that finished but whose answer was lost is read back, one answered before the kill is replayed.
 * Nothing is booked, labelled or reported twice.
 */
const API_KEY = 'cf_crashRetryKey000000000000000001';
const DRAFTS = 24;
const STAGGER_MS = 40;
let service: Awaited<ReturnType<typeof serviceFixture>>;

beforeAll(async () => {
  service = await serviceFixture('crash-retry', API_KEY);
});
afterAll(async () => service?.cleanup());

type Answer = number | 'connection lost';

describe('kill -9 during processing, clients retrying with their Idempotency-Key', () => {
  it('answers every retry with the label of the one processing its key started', async () => {
    const drafts: { id: number; uuid: string }[] = [];
    const answers: (Answer | undefined)[] = [];
    const keyOf = (i: number) => `crash-retry-${i}`;
    const process = (i: number) =>
      service.api<{ barcode: string; base64label: string }>('POST', `/api/v1/consignments/draft/${drafts[i].id}/start-process`, undefined, {
        'idempotency-key': keyOf(i),
      });
    let killed = false;
    const first = service.start();
    try {
      await service.waitHealthy(first);
      const someone = { name: 'Çağlar Güneş', address: 'İnönü Cad. 5', phone_number: '+905321234567' };
      for (let i = 0; i < DRAFTS; i++) {
        const res = await service.api(
          'POST',
          '/api/v1/consignments/draft',
          draftBody({ preference: 1, consignor: party('Bursa', someone), consignee: party('Konya', someone), packages: [{ weight: 1 + i }] }),
        );
        expect(res.status).toBe(201);
        drafts.push(res.json.data as unknown as { id: number; uuid: string });
      }
      const inFlight = drafts.map(async (_d, i) => {
        await sleep(i * STAGGER_MS);
        if (killed) return;
        answers[i] = await process(i).then(
          (res) => res.status,
          () => 'connection lost' as const,
        );
      });
      // The kill comes as soon as one request has its answer: later ones are on their way or not sent yet.
      await waitFor('a first answered processing', () => answers.includes(200), { timeoutMs: 60_000, intervalMs: 2 });
      first.kill('SIGKILL');
      killed = true;
      await exited(first);
      await Promise.all(inFlight);
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
    }
    // The premise: some requests were answered, some were cut off by the kill, some never sent.
    const lost = answers.filter((a) => a === 'connection lost').length;
    expect(answers.filter((a) => a === 200).length).toBeGreaterThanOrEqual(1);
    expect(lost).toBeGreaterThanOrEqual(1);

    const second = service.start();
    const outcomes: { barcode: string; replayed: boolean }[] = [];
    try {
      await service.waitHealthy(second);
      for (let i = 0; i < DRAFTS; i++) {
        const deadline = Date.now() + 90_000;
        for (;;) {
          const res = await process(i).catch(() => undefined);
          if (res?.status === 200) {
            expect(Buffer.from(res.json.data.base64label, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
            outcomes.push({ barcode: res.json.data.barcode, replayed: res.headers.get('idempotent-replayed') === 'true' });
            break;
          }
          // Only "not yet" answers are retried: a refusal (409 and the like) fails the test.
          if (res && res.status !== 503)
            throw new Error(`draft ${drafts[i].id} (before the kill: ${answers[i]}): retry answered ${res.status} ${JSON.stringify(res.json)}`);
          if (Date.now() > deadline) throw new Error(`draft ${drafts[i].id}: no answer to its retries`);
          await sleep(500);
        }
        const { json } = await service.api<{ barcode: string; labels: unknown[] }>('GET', `/api/v1/consignments/${drafts[i].id}/details`);
        expect(outcomes[i].barcode).toBe(json.data.barcode);
        expect(json.data.labels).toHaveLength(1);
      }
      // Answered before the kill: replayed from the stored answer.
      answers.forEach((a, i) => a === 200 && expect(outcomes[i].replayed).toBe(true));
      // Another key is another request: the draft is no longer a draft.
      expect(
        (await service.api('POST', `/api/v1/consignments/draft/${drafts[0].id}/start-process`, undefined, { 'idempotency-key': 'another-key' })).status,
      ).toBe(409);
      expect(await service.stop(second)).toBe(0);
    } finally {
      if (second.exitCode === null) second.kill('SIGKILL');
    }
    console.log(
      `crash retry: ${answers.filter((a) => a === 200).length} answered before the kill, ${lost} cut off, ${answers.filter((a) => a === undefined).length} not sent; every retry answered with its label`,
    );

    await service.withDatabase(async (db) => {
      for (const d of drafts) {
        const counts = await db.query<{ bookings: number; labels: number; events: number; processed: number }>(
          `SELECT (SELECT count(*)::int FROM carrier_bookings WHERE booking_key = $1) AS bookings,
                  (SELECT count(*)::int FROM labels WHERE consignment_id = $2) AS labels,
                  (SELECT count(*)::int FROM consignment_events WHERE consignment_id = $2) AS events,
                  (SELECT count(*)::int FROM consignment_history WHERE consignment_id = $2 AND status IN (2, 3)) AS processed`,
          [d.uuid, d.id],
        );
        expect(counts.rows[0]).toEqual({ bookings: 1, labels: 1, events: 1, processed: 1 });
      }
    });
  }, 240_000);
});
