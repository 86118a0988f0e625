import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports';

/**
 * A PostgreSQL server of the test's own: initialised with `initdb` in a temporary folder and run on a port of
 * its own, so a test can stop and start it under load without touching the machine's shared server. Run as
 * the `postgres` user when the test runs as root (PostgreSQL refuses root). Debian's server binaries live in
 * /usr/lib/postgresql/<version>/bin; `PG_BIN_DIR` points elsewhere.
 */
export interface OwnPostgres {
  url: string;
  port: number;
  /** starts the server on the same folder and port; resolves when it accepts connections */
  start(): Promise<void>;
  /** `fast` (SIGINT: sessions ended, clean shutdown) or `immediate` (SIGQUIT: a crash, WAL replayed at the next start) */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** stops it (if running) and removes the folder */
  cleanup(): Promise<void>;
}

export function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function initOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found (set PG_BIN_DIR)');
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'consignflow-own-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], { stdio: 'pipe', ...user });
  const port = await freePort();
  let server: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = '';

  const ready = async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (server?.exitCode !== null) throw new Error(`PostgreSQL exited (${server?.exitCode}): ${log.slice(-2000)}`);
      try {
        execFileSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q'], { stdio: 'ignore' });
        return;
      } catch {
        await sleep(100);
      }
    }
    throw new Error(`PostgreSQL on port ${port} not ready: ${log.slice(-2000)}`);
  };

  const own: OwnPostgres = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      // fsync off: the faults here are process stops, not power losses, and the test's folder is thrown away.
      const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'];
      server = spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], ...user });
      server.stderr?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-8000)));
      const child = server;
      exited = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      await ready();
    },
    async stop(mode = 'fast') {
      if (!server || server.exitCode !== null || server.signalCode !== null) return;
      server.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      await exited;
    },
    async cleanup() {
      await own.stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}
