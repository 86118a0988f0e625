import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** how long to keep probing before failing (ms) */
  timeoutMs?: number;
  /** pause between probes (ms) */
  intervalMs?: number;
}

/**
 * Probes until `probe` gives a truthy value and returns it; throws `timed out waiting for <what>` when
 * the time is up. For conditions the system reaches asynchronously (signals, workflows, deliveries).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 100 } = options;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}
