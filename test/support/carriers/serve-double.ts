import { createInterface } from 'node:readline';

/**
 * What every standalone carrier double does once started: prints each request it receives as `show` says, hands
 * each line typed on stdin to `command` as words, and closes on SIGINT or SIGTERM.
 */
export function serveDouble<R>(double: { requests: R[]; close(): Promise<void> }, show: (request: R) => void, command: (words: string[]) => void): void {
  let shown = 0;
  setInterval(() => {
    for (const r of double.requests.slice(shown)) show(r);
    shown = double.requests.length;
  }, 250).unref();
  createInterface({ input: process.stdin }).on('line', (line) => command(line.trim().split(/\s+/)));
  const stop = () => void double.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
