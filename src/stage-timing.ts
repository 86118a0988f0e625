import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/**
 * Where an HTTP request's time goes, by stage (`db`: database statements and transactions, queueing for the
 * connection included; `engine`: Temporal updates and starts, the workflow's activities included), answered
 * in its `Server-Timing` header (docs/operations.md). A request's stages live in an AsyncLocalStorage entered
 * by the API for that request; work outside a request (activities, the relay) is not counted anywhere.
 */
export type StageTimes = Map<string, number>;

const current = new AsyncLocalStorage<StageTimes>();

/** Runs `fn` with a fresh set of stage times for everything it starts (the API enters one per request). */
export function withStageTimes<T>(times: StageTimes, fn: () => T): T {
  return current.run(times, fn);
}

/** Runs `fn` outside any request's stage times (work started by one request on behalf of many). */
export function withoutStageTimes<T>(fn: () => T): T {
  return current.exit(fn);
}

/** Runs `fn`, adding its duration to `stage` of the current request, if any. */
export async function timeStage<T>(stage: string, fn: () => Promise<T>): Promise<T> {
  const times = current.getStore();
  if (!times) return fn();
  const started = performance.now();
  try {
    return await fn();
  } finally {
    times.set(stage, (times.get(stage) ?? 0) + performance.now() - started);
  }
}

/** `db;dur=1.2, engine;dur=30.5, total;dur=33.0`: the stages in the order first entered, then the total. */
export function serverTiming(times: StageTimes, totalMs: number): string {
  return [...times, ['total', totalMs] as const].map(([stage, ms]) => `${stage};dur=${ms.toFixed(1)}`).join(', ');
}
