import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createCredentialsVault } from '../../src/carriers/credentials-vault';
import { CarrierRegistry } from '../../src/carriers/registry';
import { createSandboxCarriers } from '../../src/carriers/sandbox-carriers';
import { takeCarrierCall } from '../../src/db/carrier-call-windows.repository';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { createOutboundHttp } from '../../src/http/outbound';
import { createCarrierAccountService } from '../../src/services/carrier-accounts.service';
import { createProviderService } from '../../src/services/providers.service';
import { openTestDatabase } from '../support/test-service';

/**
 * Providers of a customer and the shared lookup budget of carrier accounts, on the real database (PGlite, and
 * PostgreSQL in CI's second run): built-in carriers plus the customer's own accounts, others' accounts
 * unknown, disabled or deleted ones refused for new bookings but still usable for the consignments they carry.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;
const vault = createCredentialsVault(randomBytes(32));
const http = createOutboundHttp({ allowPrivate: false });

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await migrate(db);
});
afterAll(async () => {
  await http.close();
  await database?.drop();
});

const providersOf = (lookupsPerMinute = 240) =>
  createProviderService({
    db,
    registry: new CarrierRegistry(createSandboxCarriers({ publicBaseUrl: 'http://consignflow.test' })),
    publicBaseUrl: 'http://consignflow.test',
    vault,
    http,
    lookupsPerMinute,
  });

describe('the providers of a customer', () => {
  it('are the built-in carriers and its own accounts; another customer’s, disabled and deleted ones are refused', async () => {
    const accounts = createCarrierAccountService({ db, vault });
    const { caller: owner } = await createCustomer(db, { name: 'Owner' });
    const { caller: other } = await createCustomer(db, { name: 'Other' });
    const input = {
      carrier: 'consignment_api' as const,
      description: 'Remote',
      credentials: { base_url: 'https://remote.example', api_key: 'remote-key-0001' },
      settings: {},
      status: 1,
    };
    const active = await accounts.create(owner, input);
    const disabled = await accounts.create(owner, { ...input, description: 'Off', status: 0 });
    const deleted = await accounts.create(owner, { ...input, description: 'Gone' });
    await accounts.remove(owner, deleted.providerId);
    const providers = providersOf();

    expect(await providers.issue(owner.customerId, 1)).toBeUndefined();
    expect(await providers.issue(owner.customerId, null)).toBeUndefined();
    expect(await providers.issue(owner.customerId, active.providerId)).toBeUndefined();
    expect(await providers.issue(other.customerId, active.providerId)).toEqual({
      code: 'PROVIDER_NOT_FOUND',
      field: 'provider_id',
      params: { provider_id: active.providerId },
    });
    expect(await providers.issue(owner.customerId, disabled.providerId)).toEqual({
      code: 'PROVIDER_DISABLED',
      field: 'provider_id',
      params: { provider_id: disabled.providerId },
    });
    expect(await providers.issue(owner.customerId, deleted.providerId)).toMatchObject({ code: 'PROVIDER_NOT_FOUND' });
    expect(await providers.issue(owner.customerId, 3_000_000_000)).toMatchObject({ code: 'PROVIDER_NOT_FOUND' });

    expect((await providers.list(owner.customerId)).map((p) => [p.id, p.carrier, p.status])).toEqual([
      [1, 'sandbox', 1],
      [2, 'sandbox', 1],
      [active.providerId, 'consignment_api', 1],
      [disabled.providerId, 'consignment_api', 0],
    ]);
    expect((await providers.list(other.customerId)).map((p) => p.id)).toEqual([1, 2]);

    // Consignments booked with a deleted account are still followed: its carrier still opens.
    const carrier = await providers.carrierFor(deleted.providerId);
    expect(carrier).toMatchObject({ id: deleted.providerId, name: 'Gone', supportsQuotes: false });
    expect(await providers.describe(deleted.providerId)).toMatchObject({
      id: deleted.providerId,
      name: 'Gone',
      logo: `http://consignflow.test/api/v1/providers/${deleted.providerId}/logo.svg`,
    });
    expect(await providers.carrierFor(999_999)).toBeUndefined();
  });
});

describe('the lookup budget of a carrier account', () => {
  it('allows the window’s share of the per-minute budget, then says how long to wait; other accounts are separate', async () => {
    const call = (providerId: number) => takeCarrierCall(db, { providerId, kind: 'lookup', windowSeconds: 10, limit: 3 });
    // Start right after a window boundary so the four calls share one window.
    const msIntoWindow = Date.now() % 10_000;
    if (msIntoWindow > 7_000) await new Promise((resolve) => setTimeout(resolve, 10_050 - msIntoWindow));
    const results = [await call(7001), await call(7001), await call(7001), await call(7001)];
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfterMs).toBeGreaterThan(0);
    expect(results[3].retryAfterMs).toBeLessThanOrEqual(10_000);
    expect((await call(7002)).allowed).toBe(true);
  });

  it('counts concurrent callers exactly (one row per window, incremented atomically)', async () => {
    const msIntoWindow = Date.now() % 10_000;
    if (msIntoWindow > 7_000) await new Promise((resolve) => setTimeout(resolve, 10_050 - msIntoWindow));
    const results = await Promise.all(Array.from({ length: 20 }, () => takeCarrierCall(db, { providerId: 7003, kind: 'lookup', windowSeconds: 10, limit: 5 })));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it('refuses a lookup through the account’s carrier when the budget is spent, before any request', async () => {
    const { caller } = await createCustomer(db, { name: 'Budget' });
    const accounts = createCarrierAccountService({ db, vault });
    // 6 per minute: one lookup per 10-second window. The remote (a closed port) is never reached by the refused lookup.
    const account = await accounts.create(caller, {
      carrier: 'consignment_api',
      description: 'Tight',
      credentials: { base_url: 'http://127.0.0.1:9', api_key: 'remote-key-0002' },
      settings: {},
      status: 1,
    });
    const carrier = (await providersOf(6).carrierFor(account.providerId))!;
    const msIntoWindow = Date.now() % 10_000;
    if (msIntoWindow > 7_000) await new Promise((resolve) => setTimeout(resolve, 10_050 - msIntoWindow));
    await takeCarrierCall(db, { providerId: account.providerId, kind: 'lookup', windowSeconds: 10, limit: 1 });
    await expect(carrier.track({ bookingKey: 'k', trackingCode: 'CF00000000010', carrierReference: '1' })).rejects.toMatchObject({ name: 'CarrierBusyError' });
  });
});
