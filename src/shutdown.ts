// How the process ends: once on SIGINT/SIGTERM (stopping the runtime in order), or at once when start-up fails.
import type { Runtime } from './runtime';

/** Stops the runtime once on SIGINT/SIGTERM (the dev server child included), then exits. */
export function stopOnSignals(runtime: Runtime): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    runtime.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** Start-up failures print one clear line (config errors list every variable) and exit non-zero. */
export function failStartup(error: unknown): never {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
