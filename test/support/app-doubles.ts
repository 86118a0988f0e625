import pino from 'pino';
import type { AppDeps } from '../../src/api/app';
import type { Database } from '../../src/db/database';
import { createLabelLinks } from '../../src/labels/label-links';
import { createMetrics } from '../../src/metrics';
import { DEFAULT_SDR_RATES } from '../../src/customs/sdr';

/**
 * A service a harness does not exercise: every call fails with a message naming it, so a test that reaches one
 * by mistake says so instead of passing on an empty answer.
 */
export function unusedService<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      if (property === 'then') return undefined; // not a promise
      return () => {
        throw new Error(`${name}.${String(property)} is not part of this harness`);
      };
    },
  });
}

/** No rate limit: harnesses that are not about limits. */
const noLimit = async () => {};

/**
 * The app's dependencies for harnesses that serve part of the API without Temporal: doubles for every service,
 * the given ones (the database at least) in their place.
 */
export function appDoubles(given: Partial<AppDeps> & { db: Database }): AppDeps {
  return {
    consignments: unusedService('consignments'),
    describeProvider: async () => undefined,
    health: async () => ({ database: true, temporal: true, worker: true }),
    labelLinks: createLabelLinks('app-doubles-secret-0123456789', 'http://app.test'),
    sandboxProviders: new Set<number>(),
    carrierPushTokens: new Map(),
    webhooks: unusedService('webhooks'),
    carrierAccounts: unusedService('carrierAccounts'),
    providerService: unusedService('providerService'),
    imports: unusedService('imports'),
    orderSources: unusedService('orderSources'),
    documents: unusedService('documents'),
    console: { sessions: unusedService('consoleSessions'), secureCookies: false, temporalUiUrl: undefined, temporalNamespace: 'default' },
    sdrRates: DEFAULT_SDR_RATES,
    lookupLimit: noLimit,
    listLimit: noLimit,
    isDraining: () => false,
    metrics: createMetrics(),
    sdkMetrics: null,
    logger: pino({ level: 'silent' }),
    bodyLimitBytes: 1_048_576,
    ...given,
  };
}
