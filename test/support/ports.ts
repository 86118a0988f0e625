import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A free loopback port for a process a test starts, chosen BELOW the kernel's ephemeral range: ports the OS
 * hands out to `listen(0)` and to outgoing connections (a Temporal dev server binds several of those while it
 * starts) come from that range, so they cannot take a port chosen here before its process has bound it.
 * Each port is handed out once per test process.
 */
const handedOut = new Set<number>();

function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const LOW = 20000;
const HIGH = Math.max(LOW + 1000, ephemeralStart() - 1);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}
