import { extname, join } from 'node:path';

/**
 * How to start the worker thread whose code is the module `name` in `dir` (the caller's `__dirname`): in the build,
 * the compiled `.js` beside the caller; from source (tsx, Jest), the TypeScript file, which a fresh thread loads
 * through tsx's CommonJS hook (neither Jest's transform nor the `--import tsx` of `npm start` reach a new thread).
 */
export function threadScript(dir: string, name: string, callerFile: string): { file: string; execArgv?: string[] } {
  const extension = extname(callerFile);
  const file = join(dir, `${name}${extension}`);
  return extension === '.ts' ? { file, execArgv: ['--require', require.resolve('tsx/cjs')] } : { file };
}
