import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCommand } from './service-process';

/**
 * The production form of the service in tests: `npm run build` once per test run (test files that need it
 * may run side by side, so the build happens under a lock and is not repeated), then `npm run api` and `npm
 * run worker` as package.json runs them, as child processes with their output kept.
 */
const ROOT = join(__dirname, '..', '..');
const LOCK = join(ROOT, '.build.lock');
const MARK = join(ROOT, 'dist', '.built-for-test-run');

export async function buildOnce(): Promise<void> {
  const run = process.env.TEST_RUN_ID ?? 'unknown';
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another test file is building; a lock older than any build was left by a killed run.
      if (Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000) rmSync(LOCK, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    let built = '';
    try {
      built = readFileSync(MARK, 'utf8');
    } catch {
      // not built in this run
    }
    if (built !== run) {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'pipe' });
      writeFileSync(MARK, run);
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

export type CompiledProcess = ChildProcess & { output: () => string };

export function runCompiled(script: 'api' | 'worker', env: Record<string, string>): CompiledProcess {
  const { env: scriptEnv, args } = startCommand(script);
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...scriptEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  return Object.assign(child, { output: () => output });
}
