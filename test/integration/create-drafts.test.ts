import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createConsignmentActivities } from '../../activities/consignments.activities';
import { createDrafts, type NewDraft } from '../../src/db/consignments.repository';
import { createCustomer } from '../../src/db/customers.repository';
import type { Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { newDraft, parseDraftInput } from '../../src/domain/draft';
import { DomainError } from '../../src/domain/errors';
import { draftBody } from '../support/consignments';
import { openTestDatabase } from '../support/test-service';

/**
 * createDrafts, the one way drafts are written, option by option: what a taken uuid or reference_no does
 * (`onTaken`), whether the outbox entry that starts the workflow is written (`workflowStart`), and that a
 * draft and its outbox entry are written or rolled back together. No relay runs here: outbox entries stay.
 */
let db: Database;
let drop: () => Promise<void>;
let customerId: number;

beforeAll(async () => {
  ({ db, drop } = await openTestDatabase());
  await migrate(db);
  customerId = (await createCustomer(db, { name: 'Drafts' })).caller.customerId;
}, 60_000);
afterAll(async () => drop?.());

const draftOf = (reference: string, uuid: string = randomUUID()): NewDraft =>
  newDraft({
    uuid,
    customerId,
    userId: null,
    draft: parseDraftInput(
      draftBody({ reference_no: reference, packages: [{ weight: 1, items: [{ description: `${reference} item`, quantity: 1 }] }] }),
      'create',
    ),
  });
const countOf = async (sql: string, params: unknown[]) => Number((await db.query<{ n: string | number }>(sql, params)).rows[0].n);
const storedWithUuid = (uuids: string[]) => countOf('SELECT count(*) AS n FROM consignments WHERE uuid = ANY($1::uuid[])', [uuids]);
const outboxOf = (uuids: string[]) =>
  countOf('SELECT count(*) AS n FROM consignment_outbox o JOIN consignments c ON c.id = o.consignment_id WHERE c.uuid = ANY($1::uuid[])', [uuids]);
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("createDrafts, onTaken 'return-stored' (the default)", () => {
  it('writes each draft with its packages, items, history and outbox entry, and answers them in order', async () => {
    const drafts = [draftOf('CD-1'), draftOf('CD-2')];
    const answers = await createDrafts(db, drafts);
    expect(answers.map((a) => [a.created, a.record.uuid, a.record.reference_no])).toEqual(drafts.map((d) => [true, d.uuid, d.draft.reference_no]));
    expect(answers.map((a) => a.record.packages[0].items[0].description)).toEqual(['CD-1 item', 'CD-2 item']);
    expect(await countOf('SELECT count(*) AS n FROM consignment_history WHERE consignment_id = ANY($1::bigint[])', [answers.map((a) => a.record.id)])).toBe(2);
    expect(await outboxOf(drafts.map((d) => d.uuid))).toBe(2);
  });

  it('answers a uuid stored already with the stored draft, created false, writing nothing for it', async () => {
    const first = draftOf('CD-AGAIN');
    const [stored] = await createDrafts(db, [first]);
    const fresh = draftOf('CD-FRESH');
    const answers = await createDrafts(db, [{ ...first, draft: { ...first.draft, reference_no: 'CD-AGAIN-CHANGED' } }, fresh]);
    expect(answers.map((a) => a.created)).toEqual([false, true]);
    expect(answers[0].record).toEqual(stored.record);
    expect(await outboxOf([first.uuid])).toBe(1);
    expect(await countOf('SELECT count(*) AS n FROM consignment_packages WHERE consignment_id = $1', [stored.record.id])).toBe(1);
  });

  it('fails the whole call with REFERENCE_USED when one reference_no is taken: no draft and no outbox entry written', async () => {
    await createDrafts(db, [draftOf('CD-TAKEN')]);
    const drafts = [draftOf('CD-BESIDE'), draftOf('CD-TAKEN')];
    const error = await errorOf(createDrafts(db, drafts));
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('REFERENCE_USED');
    expect(await storedWithUuid(drafts.map((d) => d.uuid))).toBe(0);
    expect(await outboxOf(drafts.map((d) => d.uuid))).toBe(0);
  });
});

describe("createDrafts, onTaken 'skip'", () => {
  it('leaves out a draft whose reference_no or uuid is taken, writes the others, and answers only their ids', async () => {
    const [stored] = await createDrafts(db, [draftOf('CD-SKIP-TAKEN')]);
    const takenReference = draftOf('CD-SKIP-TAKEN');
    const takenUuid = draftOf('CD-SKIP-OTHER', stored.record.uuid);
    const fresh = draftOf('CD-SKIP-FRESH');
    const ids = await createDrafts(db, [takenReference, takenUuid, fresh], { onTaken: 'skip' });
    expect([...ids.keys()]).toEqual([fresh.uuid]);
    expect(await storedWithUuid([takenReference.uuid])).toBe(0);
    expect(await countOf('SELECT count(*) AS n FROM consignments WHERE reference_no = $1', ['CD-SKIP-OTHER'])).toBe(0);
    expect(await countOf('SELECT count(*) AS n FROM consignment_outbox WHERE consignment_id = $1', [ids.get(fresh.uuid)])).toBe(1);
    expect(await outboxOf([takenReference.uuid, stored.record.uuid])).toBe(1); // the stored draft's own entry only
  });
});

describe('createDrafts, workflowStart', () => {
  it("'none' writes the draft without an outbox entry (its workflow runs already)", async () => {
    const draft = draftOf('CD-NO-OUTBOX');
    const [answer] = await createDrafts(db, [draft], { workflowStart: 'none' });
    expect(answer.created).toBe(true);
    expect(await outboxOf([draft.uuid])).toBe(0);
  });
});

describe('the replay-only insertDraft activity (the createDraft handler of recorded histories)', () => {
  it('creates the draft through createDrafts without an outbox entry, and answers a retry with the stored draft', async () => {
    const activities = createConsignmentActivities({ db, carriers: {} as never, providers: {} as never });
    const { uuid, draft } = draftOf('CD-REPLAY');
    const request = { uuid, customerId, userId: null, importId: null, draft };
    const record = await activities.insertDraft(request);
    expect(record).toMatchObject({ uuid, reference_no: 'CD-REPLAY', status: 24 });
    expect(await activities.insertDraft(request)).toEqual(record);
    expect(await storedWithUuid([uuid])).toBe(1);
    expect(await outboxOf([uuid])).toBe(0);
  });
});

describe('createDrafts in a transaction', () => {
  it('is rolled back with it: neither the drafts nor their outbox entries remain', async () => {
    const drafts = [draftOf('CD-TX-1'), draftOf('CD-TX-2')];
    const failure = new Error('the rest of the transaction failed');
    const error = await errorOf(
      db.transaction(async (tx) => {
        const ids = await createDrafts(tx, drafts, { onTaken: 'skip' });
        expect(ids.size).toBe(2);
        expect(
          Number(
            (
              await tx.query<{ n: string | number }>('SELECT count(*) AS n FROM consignment_outbox WHERE consignment_id = ANY($1::bigint[])', [
                [...ids.values()],
              ])
            ).rows[0].n,
          ),
        ).toBe(2);
        throw failure;
      }),
    );
    expect(error).toBe(failure);
    expect(await storedWithUuid(drafts.map((d) => d.uuid))).toBe(0);
    expect(await outboxOf(drafts.map((d) => d.uuid))).toBe(0);
  });

  it('refuses a uuid twice in one call (packages are joined to their draft by uuid)', async () => {
    const draft = draftOf('CD-TWICE');
    await expect(createDrafts(db, [draft, { ...draft, draft: { ...draft.draft, reference_no: 'CD-TWICE-2' } }])).rejects.toThrow('a uuid twice');
    expect(await storedWithUuid([draft.uuid])).toBe(0);
  });
});
