// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const { builtinModules } = require('node:module');

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// ---------------------------------------------------------------------------------------------------------------
// Dependency direction (the layout in docs/architecture.md). `no-restricted-imports` sees only the import specifier
// as written, never the resolved file, so the patterns below are regular expressions over *relative* specifiers:
// `^(?:\.\./)+workflows(/|$)` means "climbs out of the importing folder and enters the top-level workflows/".
// Regular expressions rather than gitignore globs because gitignore negation cannot re-include a path under an
// excluded parent ('**' then '!./*' still excludes './lock'), which an allow-list for workflows needs.
//
// ESLint does not merge the options of one rule across config blocks: the LAST block that matches a file wins.
// So every folder block below carries the complete list of restrictions for its files (built from these pieces),
// and the specific blocks come after the general `src/**` one. test/ and bench/ are exempt (no block matches them).
// Type-only imports (`import type`, `import { type X }`, `export type ... from`) pass only where a pattern says
// `allowTypeImports: true`.
// ---------------------------------------------------------------------------------------------------------------

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const EXT = '(?:\\.[cm]?[jt]s)?';
/** A relative specifier that climbs out (`../`, `../../`, ...) and then enters the top-level folder `dir`. */
const intoRoot = (dir) => `^(?:\\.\\./)+${dir}(?:/|$)`;
/** Same for a folder of src/: reached as `../api` from inside src/ or as `../src/api` from a top-level folder. */
const intoSrc = (dir) => `^(?:\\.\\./)+(?:src/)?${dir}(?:/|$)`;
/** The workflow code itself: `workflows`, `workflows/index` or `workflows/<name>.workflow` (not messages, contracts, ids...). */
const WORKFLOW_FILE = `^(?:\\.\\./)+workflows(?:/?|/index${EXT}|/[^/]+\\.workflow${EXT})$`;
/** Any other file of workflows/ (messages, activity contracts, ids, search attributes, lock). */
const WORKFLOW_SUPPORT_FILE = `^(?:\\.\\./)+workflows/(?!index${EXT}$)(?![^/]+\\.workflow${EXT}$)[^/]+$`;

const workflowFilesOnlyForStartersAndWorker = {
  regex: WORKFLOW_FILE,
  message:
    'Only src/temporal/*.starter.ts (as `import type`) and src/temporal/worker.ts may import workflow code (workflows/*.workflow.ts, workflows/index.ts): everything else starts, signals and updates workflows through a starter, by workflow type name.',
};

/** The HTTP layer reaches Temporal and activities only through src/services. */
const apiRestrictions = [
  { regex: intoRoot('workflows'), message: 'src/api is HTTP only: it never imports workflows/ (it reaches Temporal only through src/services).' },
  { regex: intoRoot('activities'), message: 'src/api is HTTP only: it never imports activities/ (shared operations live in src/services).' },
  { regex: intoSrc('temporal'), message: 'src/api is HTTP only: it never imports src/temporal (it reaches Temporal only through src/services).' },
];

/** src/temporal is called by services and the API's wiring; only the worker (src/temporal/worker.ts) loads activities. */
const activitiesOnlyInWorker = { regex: intoRoot('activities'), message: 'Only src/temporal/worker.ts imports activities/ (it registers them).' };
const temporalRestrictions = [
  {
    regex: intoSrc('api'),
    message: "src/temporal never imports src/api (the worker's own HTTP port included): shared types such as the health report live outside both.",
  },
  { regex: intoSrc('services'), message: 'src/temporal never imports src/services: services call the starters, not the other way round.' },
  activitiesOnlyInWorker,
];

/** Rule entry for files outside workflows/ that have no folder rule of their own. */
const restrict = (...patterns) => ['error', { patterns }];

// Workflows: allow-list. Siblings in workflows/, src/domain/, @temporalio/workflow and @temporalio/common only.
// Node built-ins are reported by `paths` (one message for them) and left out of the catch-all pattern so that a
// built-in is reported once.
const builtinAlternatives = [...new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]))].map(escapeRe).join('|');
const WORKFLOW_ALLOWED = [
  '\\./(?!\\.)', // another file of workflows/ (`./lock`, `./consignment.messages`)
  '\\.\\./src/domain/', // pure domain types and rules
  '@temporalio/(?:workflow|common)(?:/|$)', // the workflow SDK
  'node:', // reported by `paths` below
  `(?:${builtinAlternatives})(?:/|$)`, // reported by `paths` below
];

module.exports = tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', '.tools/', 'coverage/', 'bin/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      // Prettier (`npm run format`) lays code out at this width; what it cannot break (comments) is held to it
      // here. Strings, template literals and URLs stay whole: a message is easier to find unbroken.
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },

  // src/** in general (db, carriers, labels, imports, address, webhooks, config, runtime, cli, temporal/client ...):
  // workflow code is reachable only through the starters.
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(workflowFilesOnlyForStartersAndWorker) },
  },

  {
    // Workflows are replayed: they may import only the workflow SDK, other workflow files and pure domain code,
    // not even as types (a type import of activities/ or src/db drags their module graph into the workflow's).
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
          patterns: [
            {
              regex: `^(?!${WORKFLOW_ALLOWED.join('|')})`,
              message:
                'Workflow code must be deterministic and self-contained: workflows/ imports only workflows/, src/domain/, @temporalio/workflow and @temporalio/common (not even types from activities/, src/db or other I/O code; activity contracts live in workflows/activities.ts).',
            },
          ],
        },
      ],
    },
  },

  {
    // Pure types and rules: nothing of ours outside src/domain/ (npm packages are fine).
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict({
        regex: '^\\.\\./(?!domain(?:/|$))|^\\.\\./\\.\\./',
        message: 'src/domain is pure types and rules: it imports nothing of ours outside src/domain/ (workflows import it, so it must not pull in I/O).',
      }),
    },
  },

  {
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { regex: intoSrc('api'), message: 'activities/ never imports the HTTP layer (src/api).' },
        {
          regex: intoSrc('services'),
          message:
            'activities/ never imports src/services: activities get ports (repositories, the carrier factory in src/carriers, the starters in src/temporal), and the service layer calls into the workflows, not the other way round.',
        },
        {
          regex: WORKFLOW_FILE,
          message:
            'activities/ never imports workflow code (workflows/*.workflow.ts, workflows/index.ts), not even as a type: start or signal workflows through src/temporal/*.starter.ts.',
        },
        {
          regex: WORKFLOW_SUPPORT_FILE,
          allowTypeImports: true,
          message:
            'activities/ imports workflows/ only as types (the contracts in workflows/activities.ts and the *.messages.ts types): workflow-side values belong to the workflow and the starters.',
        },
      ),
    },
  },

  {
    files: ['src/services/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        { regex: intoSrc('api'), message: 'src/services is used by the API and by activities: it never imports the HTTP layer (src/api).' },
        { regex: intoRoot('activities'), message: 'src/services is used by activities: it never imports activities/ (that would be a cycle in the layering).' },
        workflowFilesOnlyForStartersAndWorker,
      ),
    },
  },

  {
    files: ['src/api/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(...apiRestrictions) },
  },

  {
    // Routes do HTTP: they reach repositories only through services. Record types (and the `Queryable` the
    // idempotency helper takes) may still be named, as types.
    files: ['src/api/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(...apiRestrictions, {
        regex: intoSrc('db'),
        allowTypeImports: true,
        message: 'Routes reach repositories only through src/services (a route may name a record type from src/db, as a type).',
      }),
    },
  },

  {
    // The console is HTTP too: pages call the services the API calls, never the database (record types aside).
    files: ['src/console/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(...apiRestrictions, {
        regex: intoSrc('db'),
        allowTypeImports: true,
        message: 'The console reaches the database only through src/services (a page may name a record type from src/db, as a type).',
      }),
    },
  },

  {
    // Repositories: SQL over the connection. They serve every other layer, so they import none of them.
    files: ['src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ...['api', 'services', 'temporal', 'carriers', 'labels', 'webhooks', 'http'].map((dir) => ({
          regex: intoSrc(dir),
          message: `src/db holds the repositories every layer uses: it never imports src/${dir} (the direction is ${dir} → db).`,
        })),
        { regex: intoRoot('activities'), message: 'src/db never imports activities/ (activities use the repositories).' },
        { regex: intoRoot('workflows'), message: 'src/db never imports workflows/ (shared types live in src/domain).' },
      ),
    },
  },

  {
    // Carriers talk to carriers over HTTP; what they need of the database (accounts, lookup budgets) comes in as ports.
    files: ['src/carriers/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ...['api', 'services', 'db', 'temporal', 'labels'].map((dir) => ({
          regex: intoSrc(dir),
          // A record type of src/db (an account as stored) may be named; its functions come in as ports.
          ...(dir === 'db' ? { allowTypeImports: true } : {}),
          message: `src/carriers never imports src/${dir}: carriers are used by activities and services, and what they need of the database comes in as ports (functions) from the wiring.`,
        })),
        { regex: intoRoot('activities'), message: 'src/carriers never imports activities/ (activities call carriers).' },
        { regex: intoRoot('workflows'), message: 'src/carriers never imports workflows/ (shared types live in src/domain).' },
      ),
    },
  },

  {
    // Marketplace clients talk to marketplaces over HTTP, like carriers; their budgets come in as ports.
    files: ['src/marketplaces/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ...['api', 'services', 'db', 'temporal', 'labels'].map((dir) => ({
          regex: intoSrc(dir),
          message: `src/marketplaces never imports src/${dir}: marketplace clients are used by activities, and what they need of the database comes in as ports.`,
        })),
        { regex: intoRoot('activities'), message: 'src/marketplaces never imports activities/ (activities call the clients).' },
        { regex: intoRoot('workflows'), message: 'src/marketplaces never imports workflows/ (shared types live in src/domain).' },
      ),
    },
  },

  {
    // Labels render documents; activities and services call them.
    files: ['src/labels/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ...['api', 'services', 'temporal', 'carriers'].map((dir) => ({
          regex: intoSrc(dir),
          message: `src/labels renders documents for activities and services: it never imports src/${dir}.`,
        })),
        { regex: intoRoot('activities'), message: 'src/labels never imports activities/ (activities render labels).' },
        { regex: intoRoot('workflows'), message: 'src/labels never imports workflows/ (shared types live in src/domain).' },
      ),
    },
  },

  {
    // The Temporal client side: starters, relays, the worker's process. Services and the API call into it.
    files: ['src/temporal/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(...temporalRestrictions, workflowFilesOnlyForStartersAndWorker) },
  },

  {
    // A starter owns how one workflow type is started/updated/signalled; it needs the workflow's signature only.
    files: ['src/temporal/*.starter.ts'],
    rules: {
      'no-restricted-imports': restrict(...temporalRestrictions, {
        regex: WORKFLOW_FILE,
        allowTypeImports: true,
        message:
          'Starters import workflow code as types only (`import type { fooWorkflow }`) and start workflows by type name: a value import would load workflow code outside the workflow sandbox.',
      }),
    },
  },

  {
    // The worker bundles workflows/ and registers the activities: it may import both, and still not the API or services.
    files: ['src/temporal/worker.ts'],
    rules: { 'no-restricted-imports': restrict(...temporalRestrictions.filter((r) => r !== activitiesOnlyInWorker)) },
  },

  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
  },

  {
    // The console's own script runs in the browser.
    files: ['src/console/assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { document: 'readonly', HTMLInputElement: 'readonly' } },
  },
);
