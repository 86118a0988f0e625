/**
 * `npm run build`: the production form of the service in dist/, what `npm run api` and `npm run worker` run.
 * 1. TypeScript compiled to JavaScript (tsconfig.build.json: src, workflows, activities; no tests);
 * 2. the SQL migrations beside the compiled migrator, which reads them at start, and the console's stylesheet and
 *    script beside the compiled console, which serves them;
 * 3. the workflow bundle (dist/workflow-bundle.js), so a worker starts without webpack.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');

/** What the build leaves in dist/ that the start scripts and the Dockerfile rely on (a unit test checks them). */
export const BUILD_OUTPUTS = [
  'src/api/server.js',
  'src/temporal/worker.main.js',
  'src/main.js',
  // PGlite's thread runs this file (src/db/pglite-thread.ts starts it from beside itself).
  'src/db/pglite-worker.js',
  // The workflows are bundled in a thread running this file (src/temporal/bundling.ts starts it from beside itself).
  'src/temporal/bundling-thread.js',
  'src/cli.js',
  'src/db/migrations',
  'src/console/assets/console.css',
  'src/console/assets/console.js',
  'workflow-bundle.js',
] as const;

async function build(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });

  const migrations = join(ROOT, 'src', 'db', 'migrations');
  mkdirSync(join(DIST, 'src', 'db', 'migrations'), { recursive: true });
  for (const file of readdirSync(migrations).filter((f) => f.endsWith('.sql'))) cpSync(join(migrations, file), join(DIST, 'src', 'db', 'migrations', file));

  cpSync(join(ROOT, 'src', 'console', 'assets'), join(DIST, 'src', 'console', 'assets'), { recursive: true });

  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve(join(DIST, 'workflows')), logger: undefined });
  writeFileSync(join(DIST, 'workflow-bundle.js'), code);
  console.log(`built ${DIST}: ${BUILD_OUTPUTS.join(', ')}`);
}

if (require.main === module) {
  build().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
