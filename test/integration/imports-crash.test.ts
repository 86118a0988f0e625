import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../support/ports';
import { exited, serviceFixture } from '../support/service-process';

/**
 * The whole service (API, worker, Temporal dev server child) is killed with SIGKILL in the middle of an
 * import. After a restart on the same DATA_DIR the import finishes by itself, and every order of the file
 * has exactly one consignment, with its lifecycle workflow: none lost, none twice.
 */
const API_KEY = 'cf_importCrashKey000000000000000001';
const ORDERS = 3000;
let service: Awaited<ReturnType<typeof serviceFixture>>;
let temporalPort: number;

beforeAll(async () => {
  temporalPort = await freePort();
  service = await serviceFixture('import-crash', API_KEY, { TEMPORAL_DEV_PORT: String(temporalPort) });
});
afterAll(async () => service?.cleanup());

function file(): string {
  const lines = ['reference_no,consignee_name,consignee_city,consignee_country,item_description,item_quantity'];
  for (let i = 0; i < ORDERS; i++) {
    lines.push(`CRASH-${i},Müşteri ${i},Ankara,TR,Kilim yastık,1`);
    if (i % 3 === 0) lines.push(`CRASH-${i},,,,Lokum kutusu,2`);
  }
  return lines.join('\n') + '\n';
}

async function importState(id: string) {
  const res = await fetch(`${service.base}/api/v1/imports/${id}`, { headers: { apikey: API_KEY } });
  return ((await res.json()) as { data: { state: string; counts: Record<string, number> } }).data;
}

describe('kill -9 in the middle of an import', () => {
  it('finishes after a restart with every order created exactly once', async () => {
    let id = '';
    const first = service.start();
    try {
      await service.waitHealthy(first);
      const form = new FormData();
      form.append('options', JSON.stringify({ preset: 'generic', consignor: { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul' } }));
      form.append('file', new Blob([file()], { type: 'text/csv' }), 'orders.csv');
      const res = await fetch(`${service.base}/api/v1/imports`, { method: 'POST', headers: { apikey: API_KEY }, body: form });
      expect(res.status).toBe(202);
      id = ((await res.json()) as { data: { id: string } }).data.id;
      // Killed once the import is under way, before it is done.
      for (let i = 0; i < 600; i++) {
        const { counts } = await importState(id);
        if (counts.created > 0) break;
        await sleep(50);
      }
      first.kill('SIGKILL');
      await exited(first);
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
    }
    const before = await service.withDatabase(async (db) =>
      Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM consignments WHERE import_id = $1', [id])).rows[0].n),
    );
    expect(before).toBeLessThan(ORDERS);

    const second = service.start();
    try {
      await service.waitHealthy(second);
      // The activities the kill interrupted are retried once their heartbeat times out.
      // On a loaded machine this takes minutes: wait while orders keep being created, up to three minutes without
      // any. The first new order needs the killed batches' heartbeat timeouts (30 s) to expire, their retries to
      // start the interrupted batches' lifecycle workflows, and the worker to run those; with another test file
      // sharing the two cores (CI runs two at a time) that took longer than a minute.
      let data = await importState(id);
      for (let last = data.counts.created, since = Date.now(); data.state !== 'completed' && Date.now() - since < 180_000;) {
        await sleep(250);
        data = await importState(id);
        if (data.counts.created !== last) [last, since] = [data.counts.created, Date.now()];
      }
      expect(data).toMatchObject({ state: 'completed', counts: { orders: ORDERS, created: ORDERS, failed: 0, duplicates: 0, cancelled: 0 } });
      // Every consignment has its lifecycle workflow, the ones whose start the kill interrupted included.
      const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
      try {
        const client = new Client({ connection });
        const query = `ImportId = "${id}" AND WorkflowType = "consignmentWorkflow" AND ExecutionStatus = "Running"`;
        // The outbox relay starts them after the import completed, at the engine's pace: wait while it makes
        // progress, up to a minute without any.
        let count = 0;
        for (let last = -1, since = Date.now(); count !== ORDERS && Date.now() - since < 60_000;) {
          count = (await client.workflow.count(query)).count;
          if (count !== last) [last, since] = [count, Date.now()];
          if (count !== ORDERS) await sleep(500);
        }
        expect(count).toBe(ORDERS);
      } finally {
        await connection.close();
      }
      expect(await service.stop(second)).toBe(0);
    } finally {
      if (second.exitCode === null) second.kill('SIGKILL');
    }

    await service.withDatabase(async (db) => {
      const { rows } = await db.query<{ n: number; refs: number; seqs: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT reference_no)::int AS refs,
                (SELECT count(*)::int FROM import_orders WHERE import_id = $2 AND state = 'created') AS seqs
           FROM consignments WHERE import_id = $1`,
        [id, id],
      );
      expect(rows[0]).toEqual({ n: ORDERS, refs: ORDERS, seqs: ORDERS });
      const history = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM consignment_history h JOIN consignments c ON c.id = h.consignment_id WHERE c.import_id = $1 AND h.event_key = 'created'`,
        [id],
      );
      expect(history.rows[0].n).toBe(ORDERS);
    });
  }, 600_000);
});
