import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer } from '../../src/temporal/dev-server';
import { buildWorkflowBundle } from '../../src/temporal/worker';
import { freePort } from './ports';

/**
 * One real Temporal dev server (in memory, headless) for the whole integration run, and the workflow
 * bundle built once; test files each use their own task queue and database.
 */
export default async function globalSetup(): Promise<void> {
  const [server, bundle] = await Promise.all([freePort().then((port) => startDevServer({ port, namespace: 'default' })), buildWorkflowBundle()]);
  const dir = mkdtempSync(join(tmpdir(), 'consignflow-test-'));
  const bundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);
  process.env.TEST_TEMPORAL_ADDRESS = server.address;
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
  // names this run: test files that need `npm run build` build once per run (test/support/compiled-process.ts)
  process.env.TEST_RUN_ID = randomUUID();
  (globalThis as { __temporalDevServer?: typeof server }).__temporalDevServer = server;
}
