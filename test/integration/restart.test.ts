import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/ports';
import { exited, isAlive as alive, spawnService, waitHealthy as waitFor } from '../support/service-process';
import { openDatabase } from '../../src/db/database';
import { openTestDatabase } from '../support/test-service';

/**
 * `npm start` as a user runs it: one process with its own Temporal dev server (SQLite under DATA_DIR).
 * Killed with SIGKILL — no chance to clean up — and started again on the same DATA_DIR, it must come back
 * with every draft and its workflow intact. Then SIGTERM must stop it cleanly, dev server included.
 */
const API_KEY = 'cf_restartTestKey000000000000000001';

let dataDir: string;
let env: NodeJS.ProcessEnv;
let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let base: string;

function startService() {
  return spawnService(env);
}

const waitHealthy = (child: ReturnType<typeof spawnService>) => waitFor(base, child);

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { apikey: API_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as { status: boolean; data: { id: number; reference_no: string; invoice_number: string | null } } };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'consignflow-restart-'));
  database = process.env.DATABASE_URL ? await openTestDatabase() : undefined;
  if (database) await database.db.close(); // the service opens its own pool on the scratch database
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  base = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    PORT: String(port),
    TEMPORAL_DEV_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEYS: API_KEY,
    LOG_LEVEL: 'warn',
    ADDRESS_COUNTRIES: 'TR',
    TEMPORAL_ADDRESS: '',
    DATABASE_URL: database?.url ?? '',
  };
});

afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  if (database) {
    const admin = await openDatabase({ url: process.env.DATABASE_URL!, poolSize: 1 });
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(database.url!).pathname.slice(1)} WITH (FORCE)`);
    await admin.close();
  }
});

describe('npm start survives kill -9', () => {
  it('keeps drafts and workflows across a SIGKILL restart and stops cleanly on SIGTERM', async () => {
    const first = startService();
    try {
      await waitHealthy(first);
      const created = [];
      for (let i = 0; i < 3; i++) {
        const res = await call('POST', '/api/v1/consignments/draft', { reference_no: `KILL-${i}`, consignor: { name: 'Gönderen' }, consignee: { name: 'Alıcı' } });
        expect(res.status).toBe(201);
        created.push(res.json.data);
      }
      const devServerPid = Number(readFileSync(join(dataDir, 'temporal', 'temporal-dev.pid'), 'utf8'));
      first.kill('SIGKILL');
      await exited(first);

      const second = startService();
      try {
        await waitHealthy(second);
        // The orphaned dev server of the killed run was stopped and replaced.
        expect(alive(devServerPid)).toBe(false);
        for (const draft of created) {
          const found = await call('GET', `/api/v1/consignments/find/reference_no/${draft.reference_no}`);
          expect(found.status).toBe(200);
          expect(found.json.data.id).toBe(draft.id);
        }
        // The workflow of a draft made before the kill still answers updates.
        const updated = await call('PUT', `/api/v1/consignments/draft/${created[0].id}`, { invoice_number: 'AFTER-RESTART' });
        expect(updated.status).toBe(200);
        expect(updated.json.data.invoice_number).toBe('AFTER-RESTART');
        const devServer2 = Number(readFileSync(join(dataDir, 'temporal', 'temporal-dev.pid'), 'utf8'));
        second.kill('SIGTERM');
        expect(await exited(second)).toBe(0);
        expect(alive(devServer2)).toBe(false);
      } finally {
        if (second.exitCode === null) second.kill('SIGKILL');
      }
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
    }
  }, 240_000);
});
