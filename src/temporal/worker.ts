import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createActivities, type ActivityDeps } from '../../activities';
import { PREBUILT_WORKFLOW_BUNDLE, bundleWorkflowsInThread } from './bundling';

export { WORKFLOWS_PATH, PREBUILT_WORKFLOW_BUNDLE, buildWorkflowBundle, bundleWorkflowsInThread } from './bundling';

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** a prebuilt bundle (tests build it once); otherwise dist/workflow-bundle.js, or the workflows bundled now in a thread */
  workflowBundle?: WorkflowBundleWithSourceMap;
  /** workflows kept in memory between tasks (WORKER_MAX_CACHED_WORKFLOWS); bounds the worker's memory */
  maxCachedWorkflows?: number;
  logger?: Logger;
}

export interface RunningWorker {
  worker: Worker;
  /** resolves when the worker has stopped */
  done: Promise<void>;
  isRunning(): boolean;
  stop(): Promise<void>;
}

let runtimeInstalled = false;
/** Where the SDK's own Prometheus exporter listens (loopback), when this process installed the runtime with it. */
let sdkMetricsUrl: string | undefined;

/**
 * Routes the SDK's logs into our pino logger (WARN and above), leaves SIGINT/SIGTERM to our own shutdown,
 * which stops the API first and the dev server last, and has the SDK export its worker metrics (task slots,
 * polls, latencies) on a loopback port that our `/metrics` appends. Once per process.
 */
export async function installTemporalRuntime(logger?: Logger): Promise<void> {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const forward = (entry: { level: LogLevel; message: string; meta?: unknown }) => {
    const level = entry.level === 'ERROR' ? 'error' : 'warn';
    logger?.[level]({ temporal: entry.meta }, entry.message);
  };
  const bindAddress = `127.0.0.1:${await freePort()}`;
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', forward),
      shutdownSignals: [],
      telemetryOptions: { metrics: { prometheus: { bindAddress, countersTotalSuffix: true } } },
    });
    sdkMetricsUrl = `http://${bindAddress}/metrics`;
  } catch {
    // already installed in this process (e.g. by another test file sharing the Jest worker)
  }
}

/** The Temporal SDK's worker metrics in Prometheus text, or '' when this process does not export them. */
export async function temporalSdkMetrics(): Promise<string> {
  if (!sdkMetricsUrl) return '';
  const res = await fetch(sdkMetricsUrl, { signal: AbortSignal.timeout(2_000) });
  return res.ok ? await res.text() : '';
}

/** A TCP port free on the loopback right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  await installTemporalRuntime(options.logger);
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    workflowBundle: options.workflowBundle ?? (existsSync(PREBUILT_WORKFLOW_BUNDLE) ? { codePath: PREBUILT_WORKFLOW_BUNDLE } : await bundleWorkflowsInThread()),
    maxConcurrentWorkflowTaskExecutions: 100,
    maxConcurrentLocalActivityExecutions: 100,
    maxCachedWorkflows: options.maxCachedWorkflows ?? 250,
    // On shutdown the worker stops polling and lets activities in flight finish (a carrier booking, a webhook
    // POST) before it asks them to cancel; it still waits for them after that.
    shutdownGraceTime: '20s',
    // A carrier booking's or tracking round's heartbeat timeout must never pass while it runs: beats are passed on
    // to the server at a short, fixed pace, well inside those timeouts, not at a fraction of each timeout.
    maxHeartbeatThrottleInterval: '3s',
  });
  const done = worker.run().finally(() => connection.close().catch(() => undefined));
  done.catch((error: unknown) => options.logger?.error({ err: error }, 'worker stopped with an error'));
  return {
    worker,
    done: done.catch(() => undefined),
    isRunning: () => worker.getState() === 'RUNNING',
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
    },
  };
}
