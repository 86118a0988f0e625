// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const { builtinModules } = require('node:module');

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

module.exports = tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', '.tools/', 'coverage/', 'bin/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Workflows are replayed: they may import only the workflow SDK, other workflow files and pure domain code.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
          patterns: [
            {
              group: ['**/src/db/**', '**/src/api/**', '**/src/carriers/**', '**/src/labels/**', '**/src/address/**', '**/src/feeds/**', '**/src/temporal/**', '**/src/config*', '**/activities/**', '@temporalio/client', '@temporalio/worker', '@temporalio/activity', 'pg', '@electric-sql/*', 'undici', 'fastify', 'ioredis', 'pino'],
              allowTypeImports: true,
              message: 'Workflow code must be deterministic: import activities and I/O modules as types only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
  },
);
