import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { resolveTemporalCli, type ResolvedCli } from './temporal-cli';

export interface DevServerOptions {
  /** Directory for the SQLite file and pid file; absent = in-memory (tests). */
  dataDir?: string;
  ip?: string;
  port: number;
  /** Web UI port; absent = headless */
  uiPort?: number;
  namespace: string;
  cliPath?: string;
  log?: (msg: string) => void;
  /** SQLite pragmas of the file-backed server (default SQLITE_PRAGMAS; benchmarks compare others) */
  sqlitePragmas?: readonly string[];
}

export interface DevServer {
  address: string;
  uiUrl?: string;
  cli: ResolvedCli;
  stop(): Promise<void>;
}

/** `temporal server start-dev --search-attribute Name=Type` spelling of each key. */
function devServerSearchAttributeArgs(): string[] {
  const cliType: Record<string, string> = {
    INT: 'Int',
    KEYWORD: 'Keyword',
    TEXT: 'Text',
    BOOL: 'Bool',
    DATETIME: 'Datetime',
    DOUBLE: 'Double',
    KEYWORD_LIST: 'KeywordList',
  };
  return SEARCH_ATTRIBUTE_KEYS.flatMap((key) => ['--search-attribute', `${key.name}=${cliType[key.type]}`]);
}

/**
 * The dev server's SQLite file in WAL mode with `synchronous=normal`: far more workflows per second and less
 * server CPU per workflow than SQLite's defaults (bench/engine.ts compares them). A killed process loses nothing
 * (WAL is replayed at the next start); a power loss or OS crash may lose the last transactions committed
 * before it (docs/operations.md, "Durability of the embedded engine").
 */
export const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'] as const;

/** Dynamic config the service relies on: update-with-start (draft creation) and a generous update rate. */
export const DYNAMIC_CONFIG = [
  'frontend.enableExecuteMultiOperation=true',
  'frontend.enableUpdateWorkflowExecution=true',
  'system.enableEagerWorkflowStart=true',
];

/**
 * Runs `temporal server start-dev` as a child process with the project's search attributes and waits
 * until its frontend accepts connections. A dev server orphaned by a killed parent (kill -9) is found
 * through its pid file and stopped first, so the SQLite file has one owner.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const log = options.log ?? (() => undefined);
  const ip = options.ip ?? '127.0.0.1';
  const address = `${ip}:${options.port}`;
  const cli = resolveTemporalCli({ cliPath: options.cliPath, log });
  if (!cli.path) return startSdkDownloadedServer(options, cli);

  const pidFile = options.dataDir ? join(options.dataDir, 'temporal-dev.pid') : undefined;
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  if (pidFile) await stopOrphan(pidFile, log);

  const args = [
    'server',
    'start-dev',
    '--ip',
    ip,
    '--port',
    String(options.port),
    '--namespace',
    options.namespace,
    '--log-level',
    'warn',
    '--log-format',
    'json',
  ];
  args.push(...(options.dataDir ? ['--db-filename', join(options.dataDir, 'temporal.sqlite')] : []));
  if (options.dataDir) for (const pragma of options.sqlitePragmas ?? SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  args.push(...(options.uiPort ? ['--ui-port', String(options.uiPort), '--ui-ip', ip, '--ui-disable-news-fetch'] : ['--headless']));
  args.push(...devServerSearchAttributeArgs());
  for (const value of DYNAMIC_CONFIG) args.push('--dynamic-config-value', value);

  const child = spawn(cli.path, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-4000);
  });
  if (pidFile && child.pid) writeFileSync(pidFile, String(child.pid));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  try {
    await waitForPort(ip, options.port, 60_000, exited);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`Temporal dev server did not start (${(error as Error).message}). Its log ends with:\n${stderrTail}`);
  }
  log(`temporal dev server (${cli.source}: ${cli.path}) on ${address}${options.uiPort ? `, Web UI http://${ip}:${options.uiPort}` : ''}`);
  return {
    address,
    uiUrl: options.uiPort ? `http://${ip}:${options.uiPort}` : undefined,
    cli,
    stop: () => stopChild(child, exited, pidFile),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, pidFile?: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timeout = sleep(10_000).then(() => 'timeout' as const);
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  }
  if (pidFile) rmSync(pidFile, { force: true });
}

/** The process exists and is not a zombie (an orphan that exited but was not reaped holds no port or file). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // not Linux: signal 0 is all there is
  }
}

/**
 * Stops the dev server of `dataDir` left running by a process that was killed (its pid file names it): what a
 * start does first, for a supervisor or a test that removes the folder afterwards.
 */
export function stopOrphanedDevServer(dataDir: string, log: (msg: string) => void = () => undefined): Promise<void> {
  return stopOrphan(join(dataDir, 'temporal-dev.pid'), log);
}

async function stopOrphan(pidFile: string, log: (msg: string) => void): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return;
  }
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // not Linux, or the process is gone
  }
  if (pid > 0 && isAlive(pid) && (cmdline === '' || cmdline.includes('start-dev'))) {
    log(`stopping orphaned temporal dev server (pid ${pid}) left by an earlier run`);
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    // Gone for good before a new server takes its ports and SQLite file (a loaded machine is slow to kill).
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) throw new Error(`the orphaned temporal dev server (pid ${pid}) did not stop`);
  }
  rmSync(pidFile, { force: true });
}

async function waitForPort(host: string, port: number, timeoutMs: number, exited: Promise<number | null>): Promise<void> {
  let childExit: number | null | undefined;
  void exited.then((code) => (childExit = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (childExit !== undefined) throw new Error(`exited with code ${childExit}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host, port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`port ${port} not open after ${timeoutMs} ms`);
}

/** Last resort for machines with internet and no CLI: the SDK downloads and supervises the dev server itself. */
async function startSdkDownloadedServer(options: DevServerOptions, cli: ResolvedCli): Promise<DevServer> {
  const { TestWorkflowEnvironment } = require('@temporalio/testing') as typeof import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', downloadDir: options.dataDir ? join(options.dataDir, 'temporal-cli') : undefined },
      ip: options.ip ?? '127.0.0.1',
      port: options.port,
      namespace: options.namespace,
      dbFilename: options.dataDir ? join(options.dataDir, 'temporal.sqlite') : undefined,
      ui: Boolean(options.uiPort),
      uiPort: options.uiPort,
      searchAttributes: SEARCH_ATTRIBUTE_KEYS,
      extraArgs: DYNAMIC_CONFIG.flatMap((v) => ['--dynamic-config-value', v]),
    },
  });
  const address = `${options.ip ?? '127.0.0.1'}:${options.port}`;
  options.log?.(`temporal dev server (downloaded by the SDK) on ${address}`);
  return { address, uiUrl: options.uiPort ? `http://${options.ip ?? '127.0.0.1'}:${options.uiPort}` : undefined, cli, stop: () => env.teardown() };
}
