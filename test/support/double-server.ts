/**
 * What the carriers' and marketplaces' HTTP doubles share: the queue of faults a test arms with `failNext`, and the
 * loopback server's life (listen on 127.0.0.1, answers run later after a fault's delay, close). Each double keeps its
 * own contract, its own fault kinds and its own answers; only this scaffolding is common.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How `failNext` arms a fault: how many requests it takes (default 1), and only those of one operation if given. */
export interface FaultOptions<Op> {
  times?: number;
  operation?: Op;
}

/**
 * The armed faults, first armed first taken. A request takes the first fault armed for its operation or for any
 * operation; each fault serves `times` requests and then leaves the queue.
 */
export class FaultQueue<F, Op> {
  private entries: { fault: F; remaining: number; operation?: Op }[] = [];

  push(fault: F, opts: FaultOptions<Op> = {}): void {
    this.entries.push({ fault, remaining: opts.times ?? 1, operation: opts.operation });
  }

  /** the fault for this request, if any; `where` narrows which faults this point of the request may take */
  take(operation: Op | undefined | null, where?: (fault: F) => boolean): F | undefined {
    const i = this.entries.findIndex((e) => (!where || where(e.fault)) && (!e.operation || e.operation === operation));
    if (i < 0) return undefined;
    const entry = this.entries[i];
    if (--entry.remaining <= 0) this.entries.splice(i, 1);
    return entry.fault;
  }

  clear(): void {
    this.entries = [];
  }
}

/**
 * A double's HTTP server on the loopback interface. Answers held back by a fault run through `later`, so that
 * `close()` can cancel them: a closed double must not act on a request afterwards.
 */
export class DoubleServer {
  private readonly timers = new Set<NodeJS.Timeout>();
  port = 0;

  constructor(readonly server: Server) {}

  /** listens on 127.0.0.1 (`port`, default any free one) and returns the port */
  async listen(port: number | undefined): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port ?? 0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** runs `fn` after `ms` unless the double is closed first */
  later(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  /** an answer held back `ms` (`send` runs then), dropped if the caller hangs up first: nobody is left to hear it */
  hold(req: IncomingMessage, ms: number, send: () => void): void {
    const timer = this.later(ms, send);
    req.socket.once('close', () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    });
  }

  /** cancels what `later` still holds, drops every open connection and stops listening */
  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
