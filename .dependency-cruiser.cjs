// Import-cycle check for `npm run deps` (dependency-cruiser). Run on the roots `src workflows activities`:
// test/ and bench/ are not cruised (nothing in those roots imports them), so their helpers may form cycles freely.
// `tsPreCompilationDeps: true` reads the TypeScript source before compilation, so `import type` and
// `import { type X }` count: a cycle made only of type imports still fails (it still couples the modules,
// and a value import added later would turn it into a load-order bug).
// The direction rules (which folder may import which) live in eslint.config.js.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules must not depend on each other in a cycle, not even through type-only imports: split the shared part into a module both import.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
  },
};
