import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { consignmentWorkflowId } from '../../src/temporal/consignment.starter';
import { consignmentApi, draftBody, party, waitForStatus, type ConsignmentApi } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

/** A consignment in transit for weeks gets many carrier events: its workflow history must stay bounded. */
let svc: TestService;
let consignments: ConsignmentApi;
const HISTORY_LIMIT = 100; // the smallest CONSIGNMENT_HISTORY_LIMIT allowed
/**
 * Carrier events sent: each writes at least a signal and a local activity's marker, so 81 go past the limit
 * even when they all arrive in one workflow task (status events nobody subscribes to add no activity tasks).
 */
const IN_TRANSIT_EVENTS = 80;

beforeAll(async () => {
  svc = await startTestService({ CONSIGNMENT_HISTORY_LIMIT: String(HISTORY_LIMIT) });
  consignments = consignmentApi(svc, (await svc.customer('Long lives')).apiKey);
});
afterAll(async () => svc?.stop());

describe('continue-as-new', () => {
  it('keeps each run under the history limit and carries state and seen events across runs', async () => {
    const { id, uuid } = await consignments.processed(
      draftBody({ consignor: party('İzmir', { name: 'Ali Veli' }), consignee: party('Van', { name: 'Ali Veli' }), packages: [{ weight: 1 }] }),
    );
    const event = (event: string, eventId: string) => consignments.sandboxEvent(id, { event, event_id: eventId, location: `Hub ${eventId}` });
    await event('PICKED_UP', 'p');
    for (let i = 0; i < IN_TRANSIT_EVENTS; i++) expect((await event('IN_TRANSIT', `t${i}`)).statusCode).toBe(202);

    const workflowId = consignmentWorkflowId(uuid);
    let runs: { runId: string; status: string; historyLength: number }[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      const details = await consignments.details(id);
      runs = [];
      for await (const wf of svc.runtime.client.workflow.list({ query: `WorkflowId = "${workflowId}"` }))
        runs.push({ runId: wf.runId, status: wf.status.name, historyLength: wf.historyLength });
      if (details.details.length === 2 + 1 + IN_TRANSIT_EVENTS && runs.length >= 2) break;
      await sleep(200);
    }
    expect(runs.filter((r) => r.status === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(1);
    // a closed run never grows far past the limit: only by the signals that arrive while it ends (the burst's
    // rest at most; without continue-as-new one run would hold all 81 events' signals, markers and tasks)
    for (const run of runs.filter((r) => r.status === 'CONTINUED_AS_NEW')) expect(run.historyLength).toBeLessThan(HISTORY_LIMIT + IN_TRANSIT_EVENTS);

    // a carrier redelivering an event from before the continue-as-new is still recognised
    await event('IN_TRANSIT', 't0');
    await event('DELIVERED', 'd');
    const final = await waitForStatus(consignments, id, 7);
    expect(final.details).toHaveLength(2 + 1 + IN_TRANSIT_EVENTS + 1);
    const result = await svc.runtime.client.workflow.getHandle(workflowId).result();
    expect(result).toMatchObject({ status: 7, consignmentId: id });
  });
});
