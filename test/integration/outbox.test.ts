import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { claimDraftStarts, countDraftStarts } from '../../src/db/outbox.repository';
import { startConsignmentRelay } from '../../src/temporal/consignment-relay';
import { consignmentWorkflowId, createConsignmentStarter, type ConsignmentStarter } from '../../src/temporal/consignment.starter';
import { consignmentApi, draftBody, type ConsignmentApi } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Creation through the outbox (docs/architecture.md, principle 1): the draft row and its outbox entry in
 * one transaction, the relay starting workflows from it, changes that come first starting the workflow
 * themselves (update-with-start), and no workflow started twice, whatever crashes in between.
 */
let svc: TestService;
let api: ConsignmentApi;
let apiKey: string;
let starter: ConsignmentStarter;

beforeAll(async () => {
  svc = await startTestService();
  // This file drives the relay itself: the runtime's own one is stopped.
  await svc.runtime.relay!.stop();
  ({ apiKey } = await svc.customer('Outbox'));
  api = consignmentApi(svc, apiKey);
  starter = createConsignmentStarter({ client: svc.runtime.client, taskQueue: svc.runtime.config.temporal.taskQueue });
});
afterAll(async () => svc?.stop());

const exists = async (uuid: string) =>
  svc.runtime.client.workflow
    .getHandle(consignmentWorkflowId(uuid))
    .describe()
    .then((d) => d.status.name)
    .catch(() => undefined);

describe('the consignment outbox', () => {
  it('answers a draft from the read model with its outbox entry; the relay starts the workflow and removes the entry', async () => {
    const before = await countDraftStarts(svc.db);
    const draft = await api.draft(draftBody({ reference_no: 'OUT-1' }));
    expect(await countDraftStarts(svc.db)).toBe(before + 1);
    expect(await exists(draft.uuid)).toBeUndefined();

    const relay = startConsignmentRelay({ db: svc.db, consignmentStarter: starter });
    try {
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(await exists(draft.uuid)).toBe('RUNNING');
    expect(await countDraftStarts(svc.db)).toBe(0);
  });

  it('a change that comes before the relay starts the workflow itself (update-with-start); the relay then changes nothing', async () => {
    const draft = await api.draft(draftBody({ reference_no: 'OUT-2' }));
    expect(await exists(draft.uuid)).toBeUndefined();
    const processed = await api.process(draft.id);
    expect(processed.statusCode).toBe(200);
    expect((await api.details(draft.id)).status).toBe(2);

    const started: string[] = [];
    const relay = startConsignmentRelay({ db: svc.db, consignmentStarter: { startDraft: async (d) => (started.push(d.uuid), starter.startDraft(d)) } });
    try {
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(started).toEqual([draft.uuid]);
    // The running workflow was kept: still processed, one history.
    expect((await api.details(draft.id)).status).toBe(2);
    expect(await countDraftStarts(svc.db)).toBe(0);
  });

  it('a closed workflow is never started again: a cancelled draft stays cancelled when its entry is relayed late', async () => {
    const draft = await api.draft(draftBody({ reference_no: 'OUT-3' }));
    const cancelled = await svc.request({ method: 'POST', url: `/api/v1/consignments/${draft.id}/cancel`, apiKey: (await svc.customer()).apiKey });
    expect(cancelled.statusCode).toBe(404); // another customer's: not found
    expect((await svc.request({ method: 'POST', url: `/api/v1/consignments/${draft.id}/cancel`, apiKey })).statusCode).toBe(200);
    await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(draft.uuid)).result();
    // The entry comes round again (as after a relay crash): starting it finds the closed run and starts none.
    expect(await starter.startDraft({ id: draft.id, uuid: draft.uuid, referenceNo: 'OUT-3', providerId: null, importId: null, customerCode: 'x' })).toBe(false);
    expect(await exists(draft.uuid)).toBe('COMPLETED');
    expect((await api.details(draft.id)).status).toBe(10);
    // Changes to it answer as for any closed consignment.
    expect((await api.process(draft.id)).statusCode).toBe(409);
  });

  it('entries of a relay that died mid-batch are taken over when its lease runs out; two relays start each workflow once', async () => {
    const drafts = [];
    for (let i = 0; i < 30; i++) drafts.push(await api.draft(draftBody({ reference_no: `OUT-4-${i}` })));
    // A relay claims ten and dies before starting them: its lease (1 s here) holds them, then they are free.
    const orphaned = await claimDraftStarts(svc.db, 10, 1);
    expect(orphaned).toHaveLength(10);
    const started = new Map<string, number>();
    const counting = {
      startDraft: async (d: Parameters<ConsignmentStarter['startDraft']>[0]) => {
        const fresh = await starter.startDraft(d);
        if (fresh) started.set(d.uuid, (started.get(d.uuid) ?? 0) + 1);
        return fresh;
      },
    };
    const relays = [
      startConsignmentRelay({ db: svc.db, consignmentStarter: counting, batchSize: 7, concurrency: 4, idleMs: 100 }),
      startConsignmentRelay({ db: svc.db, consignmentStarter: counting, batchSize: 5, concurrency: 4, idleMs: 100 }),
    ];
    try {
      for (let i = 0; i < 100 && (await countDraftStarts(svc.db)) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    expect(await countDraftStarts(svc.db)).toBe(0);
    for (const d of drafts) expect(await exists(d.uuid)).toBe('RUNNING');
    expect([...started.values()].every((n) => n === 1)).toBe(true);
    expect(started.size).toBe(30);
  });

  it('the relay starts no workflow while the engine has 20 workflow tasks waiting, then only as many as keep it under 20', async () => {
    const drafts = [];
    for (let i = 0; i < 8; i++) drafts.push(await api.draft(draftBody({ reference_no: `OUT-5-${i}` })));
    // The engine's backlog as the relay sees it: the tasks already waiting plus one for each workflow it starts.
    let waiting = 25;
    let reads = 0;
    const started: string[] = [];
    const readsReach = async (n: number) => {
      for (let i = 0; i < 200 && reads < n; i++) await new Promise((r) => setTimeout(r, 20));
      expect(reads).toBeGreaterThanOrEqual(n);
    };
    const relay = startConsignmentRelay({
      db: svc.db,
      consignmentStarter: {
        startDraft: async (d) => (started.push(d.uuid), starter.startDraft(d)),
        workflowBacklog: async () => (reads++, Math.max(0, waiting + started.length)),
      },
      maxBacklog: 20,
      backlogReadMs: 0,
      idleMs: 50,
    });
    try {
      // The engine is busy: several looks at its backlog, no start.
      await readsReach(3);
      expect(started).toHaveLength(0);
      // Room for three: three start, then the relay waits again.
      waiting = 17;
      const seen = reads;
      await readsReach(seen + 3);
      expect(started).toHaveLength(3);
      // The engine caught up: the rest start.
      waiting = -100;
      await relay.drained();
    } finally {
      await relay.stop();
    }
    expect(started).toHaveLength(8);
    for (const d of drafts) expect(await exists(d.uuid)).toBe('RUNNING');
  });

  it("reads the engine's workflow-task backlog: workflows started on a task queue no worker polls wait there", async () => {
    const idle = createConsignmentStarter({ client: svc.runtime.client, taskQueue: `outbox-unpolled-${Date.now()}` });
    expect(await idle.workflowBacklog()).toBe(0);
    for (let i = 0; i < 3; i++) {
      const uuid = randomUUID();
      await idle.startDraft({ id: 900_000 + i, uuid, referenceNo: null, providerId: null, importId: null, customerCode: 'x' });
    }
    let backlog = 0;
    for (let i = 0; i < 100 && backlog < 3; i++) {
      backlog = await idle.workflowBacklog();
      if (backlog < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(backlog).toBe(3);
  });

  it('leaves a new draft to its client for the grace time: one processed at once is started by its processing at the default priority, the others by the relay at a lower one', async () => {
    const waiting = await api.draft(draftBody({ reference_no: 'OUT-6-A' }));
    const processedAtOnce = await api.draft(draftBody({ reference_no: 'OUT-6-B' }));
    const relay = startConsignmentRelay({ db: svc.db, consignmentStarter: starter, graceMs: 1500, idleMs: 50 });
    try {
      expect((await api.process(processedAtOnce.id)).statusCode).toBe(200);
      await relay.drained();
    } finally {
      await relay.stop();
    }
    const priorityOf = async (uuid: string) =>
      (await svc.runtime.client.workflow.getHandle(consignmentWorkflowId(uuid)).describe()).raw.workflowExecutionInfo?.priority?.priorityKey ?? 0;
    expect(await priorityOf(waiting.uuid)).toBe(4);
    expect(await priorityOf(processedAtOnce.uuid)).not.toBe(4);
    expect(await exists(waiting.uuid)).toBe('RUNNING');
    expect(await countDraftStarts(svc.db)).toBe(0);
  });
});
