import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { exited, isAlive, serviceFixture } from '../support/service-process';

/**
 * `npm start` as a user runs it: one process with its own Temporal dev server (SQLite under DATA_DIR).
 * Killed with SIGKILL — no chance to clean up — and started again on the same DATA_DIR, it must come back
 * with every draft and its workflow intact. Then SIGTERM must stop it cleanly, dev server included.
 */
const API_KEY = 'cf_restartTestKey000000000000000001';
let service: Awaited<ReturnType<typeof serviceFixture>>;

beforeAll(async () => {
  service = await serviceFixture('restart', API_KEY, { ADDRESS_COUNTRIES: 'TR' });
});
afterAll(async () => service?.cleanup());

/** pids of running Temporal dev servers started with files under `dir` */
function devServersOf(dir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return cmdline.includes('start-dev') && cmdline.includes(dir);
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

const devServerPid = () => Number(readFileSync(join(service.dataDir, 'temporal', 'temporal-dev.pid'), 'utf8'));

describe('npm start survives kill -9', () => {
  it('keeps drafts and workflows across a SIGKILL restart and stops cleanly on SIGTERM', async () => {
    const first = service.start();
    const created: { id: number; reference_no: string }[] = [];
    try {
      await service.waitHealthy(first);
      for (let i = 0; i < 3; i++) {
        const res = await service.api<{ id: number; reference_no: string }>('POST', '/api/v1/consignments/draft', {
          reference_no: `KILL-${i}`,
          consignor: { name: 'Gönderen' },
          consignee: { name: 'Alıcı' },
        });
        expect(res.status).toBe(201);
        created.push(res.json.data);
      }
      const orphan = devServerPid();
      first.kill('SIGKILL');
      await exited(first);

      const second = service.start();
      try {
        await service.waitHealthy(second);
        // The orphaned dev server of the killed run was stopped and replaced.
        expect(isAlive(orphan)).toBe(false);
        for (const draft of created) {
          const found = await service.api('GET', `/api/v1/consignments/find/reference_no/${draft.reference_no}`);
          expect(found.status).toBe(200);
          expect(found.json.data.id).toBe(draft.id);
        }
        // The workflow of a draft made before the kill still answers updates.
        const updated = await service.api<{ invoice_number: string }>('PUT', `/api/v1/consignments/draft/${created[0].id}`, {
          invoice_number: 'AFTER-RESTART',
        });
        expect(updated.status).toBe(200);
        expect(updated.json.data.invoice_number).toBe('AFTER-RESTART');
        // Address data was loaded at the first start and is searchable after the restart.
        const search = await service.api<{ results: { city: string }[] }>('GET', '/api/v1/address/search?countryIso2=TR&keyword=kadikoy&searchFields[]=city');
        expect(search.json.data.results[0].city).toBe('Kadıköy');
        const devServer = devServerPid();
        expect(await service.stop(second)).toBe(0);
        expect(isAlive(devServer)).toBe(false);
      } finally {
        if (second.exitCode === null) second.kill('SIGKILL');
      }
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
    }
  }, 240_000);
});

describe('npm start on a taken port', () => {
  it('exits with 1 and leaves no dev server running', async () => {
    // Another program holds the API port; the dev server and worker start before the API listens.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(new URL(service.base).port), '127.0.0.1', resolve));
    try {
      const child = service.start();
      expect(await exited(child)).toBe(1);
      expect(child.stderrTail()).toContain('EADDRINUSE');
      // Its dev server (the one process whose command line names this DATA_DIR) is gone, and so is its pid file.
      expect(devServersOf(service.dataDir)).toEqual([]);
      expect(existsSync(join(service.dataDir, 'temporal', 'temporal-dev.pid'))).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 120_000);
});

describe('npm start under a process manager', () => {
  it('stops everything when npm itself gets SIGTERM', async () => {
    const npm = service.start(true);
    try {
      await service.waitHealthy(npm);
      const devServer = devServerPid();
      expect(await service.stop(npm)).toBe(0);
      // npm's child is the service itself (`exec`), so the signal reached it: no service, no dev server left.
      for (let i = 0; i < 50 && isAlive(devServer); i++) await sleep(100);
      expect(isAlive(devServer)).toBe(false);
      expect(
        await fetch(`${service.base}/healthz`).then(
          () => 'answering',
          () => 'gone',
        ),
      ).toBe('gone');
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 120_000);
});
