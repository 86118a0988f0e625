import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_OUTPUTS } from '../../../scripts/build';

/**
 * The Dockerfile checked against what it calls (no image can be built here: base images cannot be pulled):
 * its scripts exist, the build stage copies everything the build compiles, the runtime stage runs the
 * compiled scripts as a non-root user with a health check. test/integration/compiled.test.ts runs those
 * same scripts as processes.
 */
const ROOT = join(__dirname, '..', '..', '..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const buildConfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { extends: string; include: string[] };

/** The instructions of each stage, continuation lines joined. */
function stages(text: string): Map<string, string[]> {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const result = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of lines) {
    const from = /^FROM \S+ AS (\S+)$/i.exec(line);
    if (from) result.set(from[1], (current = []));
    else current.push(line);
  }
  return result;
}

describe('Dockerfile', () => {
  const { build, runtime } = Object.fromEntries(stages(dockerfile)) as Record<string, string[]>;

  it('builds with every dependency and the build script, copying everything the build compiles', () => {
    expect(build).toContain('RUN npm ci --no-audit --no-fund');
    const runs = build.filter((l) => l.startsWith('RUN npm run ')).map((l) => l.slice('RUN npm run '.length));
    expect(runs).toEqual(['build']);
    for (const script of runs) expect(pkg.scripts[script]).toBeDefined();
    const copied = build.filter((l) => l.startsWith('COPY ')).flatMap((l) => l.split(/\s+/).slice(1, -1));
    for (const needed of [...buildConfig.include, buildConfig.extends.replace('./', ''), 'tsconfig.build.json', 'scripts', 'package.json', 'package-lock.json'])
      expect(copied).toContain(needed);
    // The build script itself lives in what is copied.
    expect(pkg.scripts.build).toMatch(/scripts\/build\.ts/);
  });

  it('runs the compiled API (or worker) as a non-root user with production dependencies and a health check', () => {
    expect(runtime).toContain('RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force');
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toContain('USER node');
    expect(runtime.find((l) => l.startsWith('HEALTHCHECK'))).toMatch(/\/healthz/);
    const cmd = runtime.find((l) => l.startsWith('CMD '))!;
    expect(JSON.parse(cmd.slice(4))).toEqual(['npm', 'run', 'api']);
    // api and worker run compiled files the build produces.
    for (const script of ['api', 'worker']) {
      const file = /dist\/(\S+\.js)/.exec(pkg.scripts[script])?.[1];
      expect(BUILD_OUTPUTS).toContain(file);
    }
  });

  it('keeps the build context free of installed and built files', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '.tools']) expect(ignored).toContain(entry);
  });
});
