/**
 * The dependency-direction rules in eslint.config.js bite, and the import-cycle check (`npm run deps`,
 * .dependency-cruiser.cjs) counts type-only imports.
 *
 * ESLint runs on virtual files (lintText with a filePath that need not exist): each case is one file of the layout
 * with one import per line, every line marked as forbidden (must be reported by no-restricted-imports, with a message
 * that says why) or allowed (must not be reported). The cycle check runs the project's dependency-cruiser CLI with the
 * project's config on test/unit/lint/fixtures/cycle, two files that import each other with `import type` only.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ESLint as ESLintType } from 'eslint';

const { ESLint } = require('eslint') as typeof import('eslint');

const ROOT = join(__dirname, '../../..');

type Line = { code: string; forbidden: false } | { code: string; forbidden: true; why: string };
const ok = (code: string): Line => ({ code, forbidden: false });
const bad = (code: string, why: string): Line => ({ code, forbidden: true, why });

const DETERMINISM = 'Workflow code must be deterministic';
const STARTERS_ONLY = 'Only src/temporal/*.starter.ts';

const CASES: Array<{ name: string; filePath: string; lines: Line[] }> = [
  {
    name: 'workflows/ imports only workflows/, src/domain/ and the workflow SDK, not even types from elsewhere',
    filePath: 'workflows/bad.workflow.ts',
    lines: [
      ok(`import { STATUS } from '../src/domain/statuses';`),
      ok(`import type { ConsignmentRecord } from '../src/domain/consignment';`),
      ok(`import type { LifecycleActivities } from './activities';`),
      ok(`import { Lock } from './lock';`),
      ok(`import { proxyActivities } from '@temporalio/workflow';`),
      ok(`import { defineSearchAttributeKey } from '@temporalio/common';`),
      bad(`import type { createActivities } from '../activities';`, DETERMINISM),
      bad(`import type { createConsignmentActivities } from '../activities/consignments.activities';`, DETERMINISM),
      bad(`import type { ImportState } from '../src/db/imports.repository';`, DETERMINISM),
      bad(`import type { ConsignmentStarter } from '../src/temporal/consignment.starter';`, DETERMINISM),
      bad(`import type { CarrierRegistry } from '../src/carriers/registry';`, DETERMINISM),
      bad(`import { Client } from '@temporalio/client';`, DETERMINISM),
      bad(`import { z } from 'zod';`, DETERMINISM),
      bad(`import { createHash } from 'node:crypto';`, `${DETERMINISM}: no Node built-ins`),
      bad(`import { readFileSync } from 'fs';`, `${DETERMINISM}: no Node built-ins`),
      bad(`import { readFile } from 'fs/promises';`, `${DETERMINISM}: no Node built-ins`),
      bad(`export type { ActivityDeps } from '../activities';`, DETERMINISM),
    ],
  },
  {
    name: 'workflows/index.ts re-exports the workflow functions',
    filePath: 'workflows/index.ts',
    lines: [ok(`export { consignmentWorkflow } from './consignment.workflow';`), ok(`export { importWorkflow } from './import.workflow';`)],
  },
  {
    name: 'src/domain/ imports nothing of ours outside src/domain/',
    filePath: 'src/domain/bad.ts',
    lines: [
      ok(`import { DomainError } from './errors';`),
      ok(`import { z } from 'zod';`),
      ok(`import countries from 'i18n-iso-countries';`),
      ok(`import { createHash } from 'node:crypto';`),
      bad(`import type { Database } from '../db/database';`, 'src/domain is pure types and rules'),
      bad(`import type { CarrierRegistry } from '../carriers/registry';`, 'src/domain is pure types and rules'),
      bad(`import { SA } from '../../workflows/search-attributes';`, 'src/domain is pure types and rules'),
      bad(`import type { ConsignmentActivities } from '../../workflows/activities';`, 'src/domain is pure types and rules'),
    ],
  },
  {
    name: 'activities/ never imports the HTTP layer, services nor workflow code; workflows/ contracts and messages as types only',
    filePath: 'activities/bad.activities.ts',
    lines: [
      ok(`import type { CreateDraftRequest } from '../workflows/consignment.messages';`),
      ok(`import type { ConsignmentActivities } from '../workflows/activities';`),
      ok(`import { type DeliveryPolicy } from '../workflows/webhook-delivery.messages';`),
      ok(`import { findConsignment } from '../src/db/consignments.repository';`),
      ok(`import type { ConsignmentStarter } from '../src/temporal/consignment.starter';`),
      ok(`import type { Providers } from '../src/carriers/providers';`),
      bad(`import type { ConsignmentService } from '../src/services/consignments.service';`, 'activities/ never imports src/services'),
      bad(`import { describeChoice } from '../src/services/providers.service';`, 'activities/ never imports src/services'),
      ok(`import { DomainError } from '../src/domain/errors';`),
      ok(`import { asActivity } from './failures';`),
      bad(`import { consignmentWorkflow } from '../workflows/consignment.workflow';`, 'activities/ never imports workflow code'),
      bad(`import type { importWorkflow } from '../workflows/import.workflow';`, 'activities/ never imports workflow code'),
      bad(`import type { webhookDeliveryWorkflow } from '../workflows';`, 'activities/ never imports workflow code'),
      bad(`import type { consignmentWorkflow as w } from '../workflows/index';`, 'activities/ never imports workflow code'),
      bad(`import { deliverEventSignal } from '../workflows/webhook-delivery.messages';`, 'activities/ imports workflows/ only as types'),
      bad(`import { buildApp } from '../src/api/app';`, 'activities/ never imports the HTTP layer'),
      bad(`import type { AppDeps } from '../src/api/app';`, 'activities/ never imports the HTTP layer'),
    ],
  },
  {
    name: 'src/api/ never imports workflows/, activities/ or src/temporal/',
    filePath: 'src/api/routes/bad.routes.ts',
    lines: [
      ok(`import type { ConsignmentService } from '../../services/consignments.service';`),
      ok(`import { DomainError } from '../../domain/errors';`),
      ok(`import fp from 'fastify-plugin';`),
      ok(`import { requireCaller } from '../plugins/auth';`),
      bad(`import { toDomainError } from '../../temporal/failures';`, 'src/api is HTTP only'),
      bad(`import type { ConsignmentStarter } from '../../temporal/consignment.starter';`, 'src/api is HTTP only'),
      bad(`import type { consignmentWorkflow } from '../../../workflows/consignment.workflow';`, 'src/api is HTTP only'),
      bad(`import type { ImportTuning } from '../../../workflows/import.messages';`, 'src/api is HTTP only'),
      bad(`import { createActivities } from '../../../activities';`, 'src/api is HTTP only'),
    ],
  },
  {
    name: 'src/api/errors.ts (one level up) cannot reach src/temporal either',
    filePath: 'src/api/errors.ts',
    lines: [ok(`import { DomainError } from '../domain/errors';`), bad(`import { toDomainError } from '../temporal/failures';`, 'src/api is HTTP only')],
  },
  {
    name: 'src/services/ never imports src/api/ nor activities/, nor workflow code',
    filePath: 'src/services/bad.service.ts',
    lines: [
      ok(`import type { ConsignmentStarter } from '../temporal/consignment.starter';`),
      ok(`import { findConsignment } from '../db/consignments.repository';`),
      ok(`import type { ImportTuning } from '../../workflows/import.messages';`),
      ok(`import type { ConsignmentActivities } from '../../workflows/activities';`),
      bad(`import { buildApp } from '../api/app';`, 'src/services is used by the API and by activities'),
      bad(`import type { ActivityDeps } from '../../activities';`, 'src/services is used by activities'),
      bad(`import type { ImportActivityDeps } from '../../activities/imports.activities';`, 'src/services is used by activities'),
      bad(`import { consignmentWorkflow } from '../../workflows/consignment.workflow';`, STARTERS_ONLY),
      bad(`import type { importWorkflow } from '../../workflows/import.workflow';`, STARTERS_ONLY),
    ],
  },
  {
    name: 'the rest of src/ reaches workflow code only through the starters',
    filePath: 'src/webhooks/dispatch.ts',
    lines: [
      ok(`import { SA } from '../../workflows/search-attributes';`),
      ok(`import type { DeliveryPolicy } from '../../workflows/webhook-delivery.messages';`),
      bad(`import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.workflow';`, STARTERS_ONLY),
      bad(`import type { webhookDeliveryWorkflow as w } from '../../workflows/webhook-delivery.workflow';`, STARTERS_ONLY),
      bad(`import * as workflows from '../../workflows';`, STARTERS_ONLY),
    ],
  },
  {
    name: 'src/temporal/ files other than the starters and the worker do not import workflow code',
    filePath: 'src/temporal/client.ts',
    lines: [
      ok(`import { SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';`),
      bad(`import type { consignmentWorkflow } from '../../workflows/consignment.workflow';`, STARTERS_ONLY),
    ],
  },
  {
    name: 'a starter imports workflow code as types only',
    filePath: 'src/temporal/bad.starter.ts',
    lines: [
      ok(`import type { consignmentWorkflow } from '../../workflows/consignment.workflow';`),
      ok(`import { SA } from '../../workflows/search-attributes';`),
      ok(`import { cancelImportUpdate } from '../../workflows/import.messages';`),
      bad(`import { importWorkflow } from '../../workflows/import.workflow';`, 'Starters import workflow code as types only'),
    ],
  },
  {
    name: 'the worker may import workflows and activities, not the API nor services',
    filePath: 'src/temporal/worker.ts',
    lines: [
      ok(`import { createActivities } from '../../activities';`),
      ok(`import * as workflows from '../../workflows';`),
      bad(`import { buildApp } from '../api/app';`, 'src/temporal never imports src/api'),
      bad(`import type { ConsignmentService } from '../services/consignments.service';`, 'src/temporal never imports src/services'),
    ],
  },
  {
    name: "src/temporal/ never imports the API (the worker's HTTP port included), services or activities",
    filePath: 'src/temporal/worker-http.ts',
    lines: [
      ok(`import type { HealthReport } from '../health';`),
      ok(`import { metricsText } from '../metrics';`),
      ok(`import { claimDraftStarts } from '../db/outbox.repository';`),
      bad(`import type { HealthReport } from '../api/routes/health.routes';`, 'src/temporal never imports src/api'),
      bad(`import { createConsignmentService } from '../services/consignments.service';`, 'src/temporal never imports src/services'),
      bad(`import { createActivities } from '../../activities';`, 'Only src/temporal/worker.ts imports activities/'),
    ],
  },
  {
    name: 'a starter is held to the src/temporal rules as well',
    filePath: 'src/temporal/import.starter.ts',
    lines: [
      ok(`import type { importWorkflow } from '../../workflows/import.workflow';`),
      bad(`import type { ImportService } from '../services/imports.service';`, 'src/temporal never imports src/services'),
    ],
  },
  {
    name: 'routes reach repositories only through services (record types may be named)',
    filePath: 'src/api/routes/bad.routes.ts',
    lines: [
      ok(`import type { Caller } from '../../db/customers.repository';`),
      ok(`import type { Queryable } from '../../db/database';`),
      ok(`import type { AddressService } from '../../services/addresses.service';`),
      bad(`import { searchAddresses } from '../../db/addresses.repository';`, 'Routes reach repositories only through src/services'),
      bad(`import { findConsignment, type ConsignmentKey } from '../../db/consignments.repository';`, 'Routes reach repositories only through src/services'),
      bad(`import { toDomainError } from '../../temporal/failures';`, 'src/api is HTTP only'),
    ],
  },
  {
    name: 'src/db/ imports no other layer',
    filePath: 'src/db/bad.repository.ts',
    lines: [
      ok(`import type { Queryable } from './database';`),
      ok(`import { STATUS } from '../domain/statuses';`),
      ok(`import { fold } from '../address/fold';`),
      bad(`import type { ConsignmentService } from '../services/consignments.service';`, 'src/db holds the repositories every layer uses'),
      bad(`import type { ConsignmentStarter } from '../temporal/consignment.starter';`, 'src/db holds the repositories every layer uses'),
      bad(`import type { Carrier } from '../carriers/carrier';`, 'src/db holds the repositories every layer uses'),
      bad(`import { renderPdfLabel } from '../labels/pdf-label';`, 'src/db holds the repositories every layer uses'),
      bad(`import type { AppDeps } from '../api/app';`, 'src/db holds the repositories every layer uses'),
      bad(`import type { ActivityDeps } from '../../activities';`, 'src/db never imports activities/'),
      bad(`import { SA } from '../../workflows/search-attributes';`, 'src/db never imports workflows/'),
    ],
  },
  {
    name: 'src/carriers/ reaches the database only through ports',
    filePath: 'src/carriers/bad-carrier.ts',
    lines: [
      ok(`import type { OutboundHttp } from '../http/outbound';`),
      ok(`import type { DraftInput } from '../domain/draft';`),
      ok(`import { CarrierRefusedError } from './carrier';`),
      ok(`import type { CarrierAccountRecord } from '../db/carrier-accounts.repository';`),
      bad(`import { takeCarrierCall } from '../db/carrier-call-windows.repository';`, 'src/carriers never imports src/db'),
      bad(`import type { ProviderService } from '../services/providers.service';`, 'src/carriers never imports src/services'),
      bad(`import type { ConsignmentStarter } from '../temporal/consignment.starter';`, 'src/carriers never imports src/temporal'),
      bad(`import { renderPdfLabel } from '../labels/pdf-label';`, 'src/carriers never imports src/labels'),
      bad(`import type { CarrierActivityDeps } from '../../activities/carriers.activities';`, 'src/carriers never imports activities/'),
      bad(`import type { BookingOrder } from '../../workflows/activities';`, 'src/carriers never imports workflows/'),
    ],
  },
  {
    name: 'src/labels/ renders for activities and services, importing neither',
    filePath: 'src/labels/bad-label.ts',
    lines: [
      ok(`import type { DraftInput } from '../domain/draft';`),
      ok(`import { translate } from '../i18n/messages';`),
      bad(`import type { ConsignmentService } from '../services/consignments.service';`, 'src/labels renders documents'),
      bad(`import type { Carrier } from '../carriers/carrier';`, 'src/labels renders documents'),
      bad(`import type { ConsignmentStarter } from '../temporal/consignment.starter';`, 'src/labels renders documents'),
      bad(`import type { AppDeps } from '../api/app';`, 'src/labels renders documents'),
      bad(`import type { ActivityDeps } from '../../activities';`, 'src/labels never imports activities/'),
    ],
  },
  {
    name: 'test/ is exempt',
    filePath: 'test/unit/lint/virtual.test.ts',
    lines: [
      ok(`import { consignmentWorkflow } from '../../../workflows/consignment.workflow';`),
      ok(`import { createActivities } from '../../../activities';`),
    ],
  },
];

let eslint: ESLintType;
beforeAll(() => {
  // ESLint loads eslint.config.js with a dynamic import(), which Jest refuses without --experimental-vm-modules;
  // require() it here and hand it over as is (the same config `npx eslint .` finds; `files` stay relative to cwd).
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: require(join(ROOT, 'eslint.config.js')) });
});

describe('eslint.config.js keeps the dependency direction', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { filePath, lines }) => {
    const code = lines.map((l) => l.code).join('\n') + '\n';
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
    expect(result.messages.filter((m) => m.fatal)).toEqual([]);

    const reported = new Map<number, string[]>();
    for (const m of result.messages.filter((m) => m.ruleId === 'no-restricted-imports')) {
      expect(m.severity).toBe(2);
      reported.set(m.line, [...(reported.get(m.line) ?? []), m.message]);
    }
    // Compare line by line so that a failure names the import that slipped through (or was wrongly refused).
    const actual = lines.map((l, i) => ({ import: l.code, reports: reported.get(i + 1) ?? [] }));
    const expected = lines.map((l) => ({ import: l.code, reports: l.forbidden ? [expect.stringContaining(l.why)] : [] }));
    expect(actual).toEqual(expected);
  });

  it('the rule is an error (it fails `npm run lint`) on every folder of the layout', async () => {
    for (const file of [
      'workflows/consignment.workflow.ts',
      'src/domain/statuses.ts',
      'activities/index.ts',
      'src/api/app.ts',
      'src/services/consignments.service.ts',
      'src/temporal/consignment.starter.ts',
      'src/temporal/worker.ts',
      'src/temporal/worker-http.ts',
      'src/db/database.ts',
      'src/carriers/registry.ts',
      'src/labels/pdf-label.ts',
      'src/api/routes/drafts.routes.ts',
    ]) {
      const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as { rules: Record<string, unknown[]> };
      expect([file, config.rules['no-restricted-imports'][0]]).toEqual([file, 2]);
    }
  });
});

describe('npm run deps: import cycles, type-only imports included', () => {
  const config = '.dependency-cruiser.cjs';
  const depcruise = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), ...args, '--config', config], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });

  it('reports the type-only cycle in fixtures/cycle and exits non-zero', () => {
    const run = depcruise('test/unit/lint/fixtures/cycle', '--output-type', 'err');
    expect(run.error).toBeUndefined();
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(
      /error no-circular: test\/unit\/lint\/fixtures\/cycle\/a\.ts →\s+test\/unit\/lint\/fixtures\/cycle\/b\.ts →\s+test\/unit\/lint\/fixtures\/cycle\/a\.ts/,
    );
  });

  it('sees that cycle through `import type` edges', () => {
    const run = depcruise('test/unit/lint/fixtures/cycle', '--output-type', 'json');
    expect(run.error).toBeUndefined();
    const report = JSON.parse(run.stdout) as {
      summary: { violations: Array<{ rule: { name: string }; cycle: Array<{ name: string; dependencyTypes: string[] }> }> };
    };
    expect(report.summary.violations.map((v) => v.rule.name)).toEqual(['no-circular']);
    const [{ cycle }] = report.summary.violations;
    expect(cycle.map((c) => c.name).sort()).toEqual(['test/unit/lint/fixtures/cycle/a.ts', 'test/unit/lint/fixtures/cycle/b.ts']);
    for (const edge of cycle) expect(edge.dependencyTypes).toContain('type-only');
  });

  it('npm run deps cruises src, workflows and activities only (the fixture is not part of it)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.deps).toBe(`depcruise src workflows activities --config ${config} --output-type err`);
  });
});
