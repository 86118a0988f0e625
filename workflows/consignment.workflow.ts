import { allHandlersFinished, condition, continueAsNew, setHandler } from '@temporalio/workflow';
import { ConsignmentLifecycle } from './consignment.lifecycle';
import {
  cancelUpdate,
  deleteDraftUpdate,
  carrierChangedSignal,
  carrierEventSignal,
  consignmentStateQuery,
  createDraftUpdate,
  processDraftUpdate,
  updateDraftUpdate,
  type ConsignmentState,
  type ConsignmentWorkflowInput,
} from './consignment.messages';
import { followShipment } from './consignment.tracking';

/** A workflow started without its draft (see the pending creation below) that never gets it ends after this. */
const DEFAULT_CREATION_TIMEOUT_MS = 2 * 60 * 1000;

/**
 * The lifecycle of one consignment and the single writer of its record (docs/architecture.md, principle 1):
 * draft → processed (label, carrier) → carrier statuses → delivered | returned, or cancelled.
 * Every change arrives as an Update (the HTTP caller waits for the result) or a Signal (carrier events);
 * activities persist it to the read model, and search attributes follow for the Temporal UI.
 *
 * The body reads as its stages: the state and its handlers (ConsignmentLifecycle), the tracking loop
 * (followShipment) until the consignment ends or its history is long enough, then the handlers and the event
 * publishing are let finish before the workflow ends or continues as new. The order of these steps is the order
 * of the commands its histories recorded.
 */
export async function consignmentWorkflow(input: ConsignmentWorkflowInput): Promise<ConsignmentState> {
  const lifecycle = new ConsignmentLifecycle(input);
  const { state, publishing } = lifecycle;
  publishing.publish(); // events a previous run left unpublished

  setHandler(consignmentStateQuery, () => state);
  // Replay only: nothing sends createDraft now (drafts start with their state, creation 'created'); the histories
  // in test/workflows/histories/ use it. It can go once none there, and no running workflow, does.
  setHandler(createDraftUpdate, (request) => lifecycle.createDraft(request));
  setHandler(updateDraftUpdate, (patch) => lifecycle.updateDraft(patch), { validator: (..._args: unknown[]) => lifecycle.requireDraft() });
  setHandler(processDraftUpdate, (request) => lifecycle.processDraft(request), { validator: (request) => lifecycle.requireProcessable(request) });
  setHandler(cancelUpdate, () => lifecycle.cancel(), { validator: () => void lifecycle.requireCancellable() });
  setHandler(deleteDraftUpdate, () => lifecycle.deleteDraft(), { validator: () => lifecycle.requireDraft() });
  setHandler(carrierEventSignal, (event) => lifecycle.queueCarrierEvent(event));
  setHandler(carrierChangedSignal, () => lifecycle.carrierChanged());

  // Replay only, with createDraft: a workflow started without its state waits for that update to create the draft.
  if (state.creation === 'pending') {
    await condition(() => state.creation !== 'pending', input.creationTimeoutMs ?? DEFAULT_CREATION_TIMEOUT_MS);
    if ((state.creation as ConsignmentState['creation']) !== 'created') {
      await condition(allHandlersFinished);
      return state;
    }
  }

  await followShipment(lifecycle, input);

  // Finish or continue as new only with no handler running. Waiting for the event being published lets new
  // updates in (an activity is awaited), so check again after it: an update accepted meanwhile runs to its
  // end here instead of being abandoned by continue-as-new. Before a final status every event goes out;
  // before continue-as-new the rest of the queue carries over.
  for (;;) {
    await condition(allHandlersFinished);
    const final = lifecycle.ended();
    publishing.hold(!final);
    if (final) publishing.publish();
    while (publishing.running) await publishing.running;
    if (allHandlersFinished() && lifecycle.ended() === final) break;
  }
  if (!lifecycle.ended()) {
    return continueAsNew<typeof consignmentWorkflow>({ ...input, state });
  }
  return state;
}
