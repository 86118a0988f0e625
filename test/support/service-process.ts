import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase, type Database } from '../../src/db/database';
import { stopOrphanedDevServer } from '../../src/temporal/dev-server';
import { freePort } from './ports';
import { scratchDatabase } from './scratch-database';

const ROOT = join(__dirname, '..', '..');

/**
 * What `npm start` runs, to run it without npm's process in between: its environment settings (the
 * `NAME=value` words of `exec env … node`) and node's arguments (V8 heap limits included).
 */
export function startCommand(script = 'start'): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts[script].split(/\s+/);
  const env: Record<string, string> = {};
  if (words[0] === 'exec' && words[1] === 'env') words.splice(0, 2);
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift()!.split('=');
    env[name] = value;
  }
  if (words.shift() !== 'node') throw new Error(`npm run ${script} does not run node: ${pkg.scripts[script]}`);
  return { env, args: words };
}

/**
 * `npm start` as a user runs it: by default what it runs, as one child process (so kill -9 reaches the
 * service itself); with `viaNpm`, npm itself (so a signal reaches npm first, as from a process manager).
 */
export function spawnService(env: NodeJS.ProcessEnv, viaNpm = false): ChildProcess & { stderrTail: () => string } {
  const start = startCommand();
  const child = viaNpm
    ? spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(process.execPath, start.args, { cwd: ROOT, env: { ...start.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  child.stderr?.on('data', (c: Buffer) => (tail = (tail + c.toString()).slice(-3000)));
  return Object.assign(child, { stderrTail: () => tail });
}

export async function waitHealthy(base: string, child: ChildProcess & { stderrTail: () => string }, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${child.stderrTail()}`);
    try {
      const res = await fetch(`${base}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`service not healthy in time: ${child.stderrTail()}`);
}

export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Everything a test of the real `npm start` process needs: free ports, a DATA_DIR, a scratch PostgreSQL
 * database when DATABASE_URL is set (PGlite under DATA_DIR otherwise), a bootstrap API key, and a small
 * JSON client. `cleanup()` removes the directory and drops the database.
 */
export async function serviceFixture(name: string, apiKey: string, extraEnv: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `consignflow-${name}-`));
  const serverUrl = process.env.DATABASE_URL;
  const scratch = serverUrl ? await scratchDatabase(serverUrl) : undefined;
  const databaseUrl = scratch?.url;
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    TEMPORAL_DEV_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEYS: apiKey,
    LOG_LEVEL: 'warn',
    ADDRESS_COUNTRIES: 'none',
    TEMPORAL_ADDRESS: '',
    DATABASE_URL: databaseUrl ?? '',
    ...extraEnv,
  };
  return {
    base,
    dataDir,
    /** starts the service; `overrides` change settings for this start only (same ports, DATA_DIR and database) */
    start: (viaNpm = false, overrides: Record<string, string> = {}) => spawnService({ ...env, ...overrides }, viaNpm),
    waitHealthy: (child: ReturnType<typeof spawnService>) => waitHealthy(base, child),
    async api<T = { id: number; status: number } & Record<string, unknown>>(
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { apikey: apiKey, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, headers: res.headers, json: (await res.json()) as { status: boolean; data: T } };
    },
    /** SIGTERM, then the exit code once the process (and its dev server child) has stopped */
    stop(child: ChildProcess): Promise<number | null> {
      child.kill('SIGTERM');
      return exited(child);
    },
    /** runs `check` on the service's database, for checks after it stopped (PGlite allows one process at a time) */
    async withDatabase<T>(check: (db: Database) => Promise<T>): Promise<T> {
      const db = await (databaseUrl ? openDatabase({ url: databaseUrl }) : openDatabase({ dataDir: join(dataDir, 'pglite') }));
      try {
        return await check(db);
      } finally {
        await db.close();
      }
    },
    async cleanup() {
      // A service killed with SIGKILL leaves its dev server running; it would outlive the folder.
      await stopOrphanedDevServer(join(dataDir, 'temporal'));
      rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    },
  };
}
