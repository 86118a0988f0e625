import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { PGLITE_CHECKED_VERSION } from '../../../src/db/pglite-thread';

/** The version of an installed package, from the package.json above its main file (its exports do not list package.json). */
function installedVersion(name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (pkg.name === name) return pkg.version;
  }
  throw new Error(`no package.json of ${name} found`);
}

describe("PGlite's thread", () => {
  it('runs on the PGlite version its use of PGlite was checked against', () => {
    const installed = installedVersion('@electric-sql/pglite');
    if (installed !== PGLITE_CHECKED_VERSION) {
      throw new Error(
        `@electric-sql/pglite ${installed} is installed; src/db/pglite-worker.ts was checked against ${PGLITE_CHECKED_VERSION}. ` +
          "Check again, in the new version's source, that runExclusive() is the lock query() takes, that execProtocolStream() " +
          'takes no lock, that transaction() runs BEGIN and COMMIT/ROLLBACK around its callback, and that parse.parseResults, ' +
          'parse.parseDescribeStatementResults, serializers and parsers still give rows and errors as query() does; run ' +
          'test/integration/pglite-thread.test.ts; then set PGLITE_CHECKED_VERSION (src/db/pglite-thread.ts) to the new version.',
      );
    }
    expect(installed).toBe(PGLITE_CHECKED_VERSION);
  });
});
