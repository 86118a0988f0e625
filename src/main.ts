import { loadConfig } from './config';
import { failStartup, stopOnSignals } from './shutdown';
import { startRuntime } from './runtime';

/** `npm start`: the whole service in one process on the embedded default (dev server + worker + API + PGlite). */
async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config, { api: true, worker: true });
  stopOnSignals(runtime);
  try {
    await runtime.app!.listen({ port: config.port, host: config.host });
  } catch (error) {
    // e.g. the port is taken: stop the worker and the dev server child before exiting, or it outlives us
    await runtime.stop().catch(() => undefined);
    throw error;
  }
  runtime.logger.info(
    { api: `http://${config.host}:${config.port}/api/v1`, temporalUi: runtime.devServer?.uiUrl, database: config.databaseUrl ? 'postgresql' : 'pglite' },
    'consignflow is running',
  );
}

main().catch(failStartup);
