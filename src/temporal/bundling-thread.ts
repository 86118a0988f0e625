import { parentPort, workerData } from 'node:worker_threads';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

/** The thread that bundles the workflows (bundling.ts starts it): webpack runs here, and its modules end with the thread. */
const { workflowsPath } = workerData as { workflowsPath: string };
void bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }).then((bundle) => parentPort!.postMessage(bundle));
