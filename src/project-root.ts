import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project's root directory (where its package.json is), found by walking up from this file: the same
 * answer whether the code runs from `src/` through tsx or compiled under `dist/`.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'consignflow') return dir;
    if (dirname(dir) === dir) throw new Error(`no consignflow package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(__dirname);

export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
