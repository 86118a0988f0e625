import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowsInThread } from '../../src/temporal/worker';

/**
 * From source (`npm start`) there is no prebuilt bundle: the worker bundles the workflows in a thread of its own,
 * so webpack's modules never stay in the heap of the process that serves the API.
 */
const ROOT = resolve(__dirname, '..', '..');

describe('workflow bundle made in a thread', () => {
  it('replays a recorded consignment history', async () => {
    const bundle = await bundleWorkflowsInThread();
    const history = temporal.api.history.v1.History.fromObject(
      JSON.parse(readFileSync(resolve(__dirname, 'histories', 'consignment-before-local-activities.json'), 'utf8')),
    );
    await Worker.runReplayHistory({ workflowBundle: bundle, replayName: 'bundled in a thread' }, history, 'consignment:recorded');
  }, 120_000);

  it('leaves webpack out of the asking process', async () => {
    // Loading the SDK loads webpack's entry; bundling in this process would load hundreds of its modules more.
    const script = `
      const webpackModules = () => Object.keys(require.cache).filter((path) => /[\\\\/]webpack[\\\\/]lib[\\\\/]/.test(path)).length;
      const { bundleWorkflowsInThread } = require('./src/temporal/worker');
      const before = webpackModules();
      bundleWorkflowsInThread().then((bundle) => {
        console.log(JSON.stringify({ loadedWhileBundling: webpackModules() - before, names: bundle.code.includes('consignmentWorkflow') }));
        process.exit(0);
      });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const answer = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(answer).toEqual({ loadedWhileBundling: 0, names: true });
  }, 120_000);
});
