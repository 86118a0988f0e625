import { loadConfig } from '../config';
import { failStartup, stopOnSignals } from '../shutdown';
import { startRuntime } from '../runtime';

/** `npm run api`: the HTTP API alone, for production next to separate workers (needs TEMPORAL_ADDRESS). */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.temporal.address) throw new Error('npm run api needs TEMPORAL_ADDRESS (use npm start for the all-in-one process)');
  const runtime = await startRuntime(config, { api: true, worker: false });
  stopOnSignals(runtime);
  await runtime.app!.listen({ port: config.port, host: config.host });
}

main().catch(failStartup);
