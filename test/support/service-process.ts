import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = join(__dirname, '..', '..');

/** `npm start` as a user runs it, as one child process (so kill -9 reaches the service itself). */
export function spawnService(env: NodeJS.ProcessEnv): ChildProcess & { stderrTail: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
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
