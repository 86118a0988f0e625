import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { draftBody } from '../support/consignments';
import { exited, serviceFixture } from '../support/service-process';

/**
 * SIGTERM under load: `/readyz` turns 503 first (for SHUTDOWN_DELAY_MS), then the API stops taking
 * connections and finishes the requests it has, the worker finishes its activities, and the process exits 0.
 * Every answer is a success (never a 5xx); a request cut off at the door (its connection refused, or reset
 * while it waited in the listen backlog as the port closed) is retried after a restart with its
 * Idempotency-Key, as a client would, and gets its outcome: nothing is lost and nothing is made twice.
 */
const API_KEY = 'cf_shutdownTestKey0000000000000001';
const CLIENTS = 6;
let service: Awaited<ReturnType<typeof serviceFixture>>;

beforeAll(async () => {
  service = await serviceFixture('shutdown', API_KEY, { SHUTDOWN_DELAY_MS: '1500' });
});
afterAll(async () => service?.cleanup());

type Outcome = { status: number; body: Record<string, any> } | { error: string }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One request on a connection of its own. */
function send(method: string, path: string, body?: unknown, key?: string): Promise<Outcome> {
  const url = new URL(path, service.base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = {
    apikey: API_KEY,
    ...(key ? { 'idempotency-key': key } : {}),
    ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
  };
  return new Promise((resolve) => {
    const req = httpRequest(url, { method, agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(payload);
  });
}

describe('SIGTERM under load', () => {
  it('turns not-ready first, answers every request it accepted, loses nothing and exits 0', async () => {
    const child = service.start();
    /** Requests with their keys: what they answered before the stop, or why they were not answered. */
    const drafts: { key: string; body: Record<string, unknown>; id?: number }[] = [];
    const processing: { key: string; draft: number; answered: boolean }[] = [];
    const cutOff: string[] = [];
    const failures: string[] = [];
    let stopping = false;
    let sigtermAt = 0;
    let notReadyAt = 0;
    try {
      await service.waitHealthy(child);
      const client = async (c: number) => {
        for (let n = 0; !stopping || Date.now() - sigtermAt < 5_000; n++) {
          const draft = { key: `sd-${c}-${n}`, body: draftBody({ preference: 1 }) as Record<string, unknown>, id: undefined as number | undefined };
          drafts.push(draft);
          const made = await send('POST', '/api/v1/consignments/draft', draft.body, draft.key);
          if ('error' in made) return void cutOff.push(`draft: ${made.error}`);
          if (made.status !== 201) return void failures.push(`draft: HTTP ${made.status} ${JSON.stringify(made.body)}`);
          draft.id = made.body.data.id as number;
          const processed = { key: `sp-${c}-${n}`, draft: draft.id, answered: false };
          processing.push(processed);
          const done = await send('POST', `/api/v1/consignments/draft/${draft.id}/start-process`, undefined, processed.key);
          if ('error' in done) return void cutOff.push(`process: ${done.error}`);
          if (done.status !== 200) return void failures.push(`process ${draft.id}: HTTP ${done.status} ${JSON.stringify(done.body)}`);
          processed.answered = true;
        }
      };
      const watchReadiness = async () => {
        while (!notReadyAt) {
          const ready = await send('GET', '/readyz');
          if ('error' in ready) return;
          if (ready.status === 503) {
            expect(ready.body.errors[0].message).toBe('The service is shutting down.');
            notReadyAt = Date.now();
          }
          await sleep(50);
        }
      };
      const load = Array.from({ length: CLIENTS }, (_, c) => client(c));
      await sleep(3_000);
      const readiness = watchReadiness();
      stopping = true;
      sigtermAt = Date.now();
      child.kill('SIGTERM');
      await Promise.all([...load, readiness]);
      expect(await exited(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }

    const answered = processing.filter((p) => p.answered).length;
    console.log(
      `shutdown under load: ${drafts.filter((d) => d.id).length} drafts created and ${answered} processed with an answer; /readyz 503 after ${notReadyAt - sigtermAt} ms; ${cutOff.length} requests cut off at the door (${[...new Set(cutOff)].join(', ')}), retried after the restart`,
    );
    // Never an error answer; every client ends at the closed door.
    expect(failures).toEqual([]);
    expect(notReadyAt).toBeGreaterThan(0);
    expect(cutOff).toHaveLength(CLIENTS);
    expect(answered).toBeGreaterThan(0);

    // After a restart every request, answered or cut off, has its outcome when retried with its key, once.
    const again = service.start();
    try {
      await service.waitHealthy(again);
      for (const draft of drafts) {
        const res = await service.api<{ id: number }>('POST', '/api/v1/consignments/draft', draft.body, { 'idempotency-key': draft.key });
        expect(res.status).toBe(201);
        if (draft.id !== undefined) expect(res.json.data.id).toBe(draft.id);
        draft.id = res.json.data.id;
      }
      for (const p of processing) {
        const res = await service.api<{ barcode: string }>('POST', `/api/v1/consignments/draft/${p.draft}/start-process`, undefined, {
          'idempotency-key': p.key,
        });
        expect(res.status).toBe(200);
        const { json } = await service.api<{ status: number; labels: unknown[] }>('GET', `/api/v1/consignments/${p.draft}/details`);
        expect([2, 3]).toContain(json.data.status);
        expect(json.data.labels).toHaveLength(1);
      }
      expect(await service.stop(again)).toBe(0);
    } finally {
      if (again.exitCode === null) again.kill('SIGKILL');
    }
    // One consignment per draft request, one label per processed one.
    await service.withDatabase(async (db) => {
      const { rows } = await db.query<{ consignments: number; labels: number }>(
        'SELECT (SELECT count(*)::int FROM consignments) AS consignments, (SELECT count(*)::int FROM labels) AS labels',
      );
      expect(rows[0]).toEqual({ consignments: drafts.length, labels: processing.length });
    });
  }, 180_000);
});
