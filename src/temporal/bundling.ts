import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { join } from 'node:path';
import { Worker as Thread } from 'node:worker_threads';
import { threadScript } from '../thread-script';

/*
 * The workflows' bundle, apart from the worker (its activities, carriers and PDF modules), so that the
 * benchmarks' client can bundle its bare workflow without loading them.
 */

export const WORKFLOWS_PATH = require.resolve('../../workflows');
/**
 * The workflow bundle `npm run build` writes beside the compiled code (dist/workflow-bundle.js): a compiled
 * worker loads it instead of bundling the workflows with webpack at every start. From source it is absent.
 */
export const PREBUILT_WORKFLOW_BUNDLE = join(__dirname, '..', '..', 'workflow-bundle.js');

export function buildWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: undefined });
}

/**
 * Bundles the workflows with webpack in a thread of its own, which ends with it, so that webpack's modules never
 * stay in the calling thread's heap, where every full garbage collection of the API's thread would mark them again.
 */
export function bundleWorkflowsInThread(workflowsPath = WORKFLOWS_PATH): Promise<WorkflowBundleWithSourceMap> {
  return new Promise((resolve, reject) => {
    const { file, execArgv } = threadScript(__dirname, 'bundling-thread', __filename);
    const thread = new Thread(file, { execArgv, workerData: { workflowsPath } });
    thread.once('message', (bundle: WorkflowBundleWithSourceMap) => {
      resolve(bundle);
      void thread.terminate();
    });
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`bundling the workflows ended with exit code ${code}`)));
  });
}
