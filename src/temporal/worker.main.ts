import { loadConfig } from '../config';
import { failStartup, stopOnSignals } from '../shutdown';
import { startRuntime } from '../runtime';
import { temporalSdkMetrics } from './worker';
import { startWorkerHttp } from './worker-http';

/** `npm run worker`: a Temporal worker alone, for production (needs TEMPORAL_ADDRESS). */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.temporal.address) throw new Error('npm run worker needs TEMPORAL_ADDRESS (use npm start for the all-in-one process)');
  const runtime = await startRuntime(config, { api: false, worker: true });
  stopOnSignals(runtime);
  if (config.metricsPort > 0) {
    // Closed by the exit that follows the runtime's stop (stopOnSignals).
    await startWorkerHttp({ port: config.metricsPort, host: config.host, metrics: runtime.metrics, sdkMetrics: temporalSdkMetrics, health: runtime.health });
  }
  runtime.logger.info(
    { taskQueue: config.temporal.taskQueue, metrics: config.metricsPort > 0 ? `http://${config.host}:${config.metricsPort}/metrics` : null },
    'worker running',
  );
  await runtime.worker!.done;
}

main().catch(failStartup);
