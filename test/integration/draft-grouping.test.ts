import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { findConsignment, groupedDraftCreator } from '../../src/db/consignments.repository';
import { DomainError } from '../../src/domain/errors';
import { newDraft, parseDraftInput } from '../../src/domain/draft';
import { draftBody } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Drafts created together on PGlite (one statement at a time) go to the database as one INSERT, each with its
 * own answer: the same records and errors as one by one. On PostgreSQL each draft is its own
 * statement; the answers asked of both are the same.
 */
let svc: TestService;
let apiKey: string;
let customerId: number;
/** INSERTs of drafts the service sent since the test began */
let draftInserts = 0;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey, customerId } = await svc.customer('Toplu Gönderici'));
  const query = svc.db.query.bind(svc.db);
  svc.db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('INSERT INTO consignments (uuid')) draftInserts++;
    return query(sql, params);
  }) as typeof svc.db.query;
});
afterAll(async () => svc?.stop());

const create = (body: Record<string, unknown>, key = apiKey) => svc.request({ method: 'POST', url: '/api/v1/consignments/draft', apiKey: key, payload: body });
/** Packages 1…n, each with i+1 items, so that a package or item joined to the wrong draft shows. */
const withPackages = (n: number, reference: string) =>
  draftBody({
    reference_no: reference,
    packages: Array.from({ length: n }, (_, p) => ({
      package_type: 1,
      weight: 1 + p,
      length: 30,
      width: 20,
      height: 10 + p,
      items: Array.from({ length: p + 1 }, (_, k) => ({ description: `${reference} kalem ${p}.${k}`, quantity: 1, unit_price: 10, currency_code: 'TRY' })),
    })),
  });
const rowsOf = async <T>(sql: string, params: unknown[]) => (await svc.db.query<T>(sql, params)).rows;

describe('drafts created together', () => {
  it('are each stored with their own packages, items and history, and answered as created', async () => {
    draftInserts = 0;
    const references = Array.from({ length: 24 }, (_, i) => `GRP-${i}`);
    const answers = await Promise.all(references.map((reference, i) => create(withPackages(1 + (i % 3), reference))));
    expect(answers.map((a) => a.statusCode)).toEqual(references.map(() => 201));
    const drafts = answers.map((a) => a.json().data as { id: number; reference_no: string; packages: { items: { description: string }[] }[] });
    expect(drafts.map((d) => d.reference_no)).toEqual(references);
    expect(new Set(drafts.map((d) => d.id)).size).toBe(references.length);
    for (const [i, draft] of drafts.entries()) {
      expect(draft.packages).toHaveLength(1 + (i % 3));
      expect(draft.packages.flatMap((p) => p.items.map((item) => item.description))).toEqual(
        draft.packages.flatMap((_, p) => Array.from({ length: p + 1 }, (__, k) => `${references[i]} kalem ${p}.${k}`)),
      );
    }
    const ids = drafts.map((d) => d.id);
    const stored = await rowsOf<{ id: string; packages: number; items: number; history: number }>(
      `SELECT c.id, (SELECT count(*)::int FROM consignment_packages p WHERE p.consignment_id = c.id) AS packages,
         (SELECT count(*)::int FROM package_items i JOIN consignment_packages p ON p.id = i.package_id WHERE p.consignment_id = c.id) AS items,
         (SELECT count(*)::int FROM consignment_history h WHERE h.consignment_id = c.id) AS history
       FROM consignments c WHERE c.id = ANY($1::bigint[])`,
      [ids],
    );
    // In the drafts' order (on a PostgreSQL pool, ids are handed out in the order the statements ran).
    const storedById = new Map(stored.map((r) => [Number(r.id), r]));
    expect(ids.map((id) => storedById.get(id)).map((r) => [r?.packages, r?.items, r?.history])).toEqual(
      drafts.map((_, i) => {
        const packages = 1 + (i % 3);
        return [packages, (packages * (packages + 1)) / 2, 1];
      }),
    );
    // Fewer statements than drafts where the database runs one at a time; one each on a PostgreSQL pool.
    if (svc.db.kind === 'pglite') expect(draftInserts).toBeLessThan(references.length);
    else expect(draftInserts).toBe(references.length);
  });

  it('gives a draft whose reference is taken its own 409; the others of its group are created', async () => {
    expect((await create(draftBody({ reference_no: 'GRP-TAKEN' }))).statusCode).toBe(201);
    const other = await svc.customer('Başka Mağaza');
    const burst = [
      ...Array.from({ length: 6 }, (_, i) => create(draftBody({ reference_no: `GRP-FREE-${i}` }))),
      create(draftBody({ reference_no: 'GRP-TAKEN' })),
      create(draftBody({ reference_no: 'GRP-TAKEN' }), other.apiKey),
    ];
    const answers = await Promise.all(burst);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 201, 409, 201]);
    expect(answers[6].json().errors).toEqual([expect.objectContaining({ field: 'reference_no' })]);
    const taken = await rowsOf<{ customer_id: number }>(`SELECT customer_id FROM consignments WHERE reference_no = 'GRP-TAKEN' ORDER BY id`, []);
    expect(taken.map((r) => r.customer_id)).toEqual([customerId, other.customerId]);
  });

  it('answers the same uuid twice in one burst with one draft, its packages stored once', async () => {
    const insert = groupedDraftCreator(svc.db);
    const uuid = randomUUID();
    const draft = parseDraftInput(withPackages(2, 'GRP-SAME-UUID'), 'create');
    const input = newDraft({ uuid, customerId, userId: null, draft });
    const others = Array.from({ length: 3 }, (_, i) =>
      newDraft({ uuid: randomUUID(), customerId, userId: null, draft: parseDraftInput(withPackages(1, `GRP-BESIDE-${i}`), 'create') }),
    );
    // As the service does: on PostgreSQL the second of two concurrent inserts may trip over the first's reference_no
    // before its uuid; it then finds the draft by uuid.
    const insertOrFind = (d: typeof input) =>
      insert(d).catch(async (error: unknown) => {
        const stored = error instanceof DomainError && error.code === 'REFERENCE_USED' ? await findConsignment(svc.db, { uuid: d.uuid }) : undefined;
        if (!stored) throw error;
        return { record: stored, created: false };
      });
    const [first, second, ...rest] = await Promise.all([insertOrFind(input), insertOrFind(input), ...others.map((o) => insert(o))]);
    // One of the two creates it (on PostgreSQL two connections race: either may be first), the other gets it back.
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(second.record.id).toBe(first.record.id);
    expect(rest.map((r) => r.created)).toEqual([true, true, true]);
    const [counts] = await rowsOf<{ packages: number; items: number }>(
      `SELECT (SELECT count(*)::int FROM consignment_packages p WHERE p.consignment_id = c.id) AS packages,
         (SELECT count(*)::int FROM package_items i JOIN consignment_packages p ON p.id = i.package_id WHERE p.consignment_id = c.id) AS items
       FROM consignments c WHERE c.uuid = $1`,
      [uuid],
    );
    expect(counts).toEqual({ packages: 2, items: 3 });
  });
});
