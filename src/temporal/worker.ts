import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, type LogLevel, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities, type ActivityDeps } from '../../activities';

export const WORKFLOWS_PATH = require.resolve('../../workflows');

export function buildWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: undefined });
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** a prebuilt bundle (tests build it once); otherwise the workflows are bundled now */
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

/**
 * Routes the SDK's logs into our pino logger (WARN and above) and leaves SIGINT/SIGTERM to our own
 * shutdown, which stops the API first and the dev server last. Once per process.
 */
export function installTemporalRuntime(logger?: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const forward = (entry: { level: LogLevel; message: string; meta?: unknown }) => {
    const level = entry.level === 'ERROR' ? 'error' : 'warn';
    logger?.[level]({ temporal: entry.meta }, entry.message);
  };
  try {
    Runtime.install({ logger: new DefaultLogger('WARN', forward), shutdownSignals: [] });
  } catch {
    // already installed in this process (e.g. by another test file sharing the Jest worker)
  }
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  installTemporalRuntime(options.logger);
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    maxConcurrentWorkflowTaskExecutions: 100,
    maxConcurrentLocalActivityExecutions: 100,
    maxCachedWorkflows: options.maxCachedWorkflows ?? 250,
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
