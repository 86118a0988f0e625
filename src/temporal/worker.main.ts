import { loadConfig } from '../config';
import { failStartup, stopOnSignals } from '../process';
import { startRuntime } from '../runtime';

/** `npm run worker`: a Temporal worker alone, for production (needs TEMPORAL_ADDRESS). */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.temporal.address) throw new Error('npm run worker needs TEMPORAL_ADDRESS (use npm start for the all-in-one process)');
  const runtime = await startRuntime(config, { api: false, worker: true });
  stopOnSignals(runtime);
  runtime.logger.info({ taskQueue: config.temporal.taskQueue }, 'worker running');
  await runtime.worker!.done;
}

main().catch(failStartup);
