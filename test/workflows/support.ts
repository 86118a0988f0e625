import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from '@jest/globals';
import { resolve } from 'node:path';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type WorkflowHandle, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { ConsignmentRecord } from '../../src/domain/consignment';
import { STATUS } from '../../src/domain/statuses';
import { consignmentWorkflowId, createConsignmentStarter, workflowStartOf } from '../../src/temporal/consignment.starter';
import { DYNAMIC_CONFIG } from '../../src/temporal/dev-server';
import type { BookedShipment, ProcessingPlan } from '../../src/domain/shipment';
import type { LifecycleActivities, StatusChange } from '../../workflows/activities';
import {
  consignmentStateQuery,
  createDraftUpdate,
  processDraftUpdate,
  type CarrierEvent,
  type ConsignmentState,
  type ConsignmentWorkflowInput,
  type CreateDraftRequest,
} from '../../workflows/consignment.messages';
import type { consignmentWorkflow } from '../../workflows/consignment.workflow';
import { SA, SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { waitFor } from '../support/wait';

/**
 * The workflow test tier: each workflow runs on a real Temporal dev server (one per test file, in memory, on a
 * free port) with its activities replaced by typed in-memory fakes. No time skipping: tests use the workflows'
 * own knobs for short timers.
 */

const REPO = resolve(__dirname, '../..');
export const TEMPORAL_CLI = resolve(REPO, '.tools/temporal/bin/temporal');

/**
 * The workflows under test: the repository's, unless WORKFLOWS_UNDER_TEST names another copy of the
 * workflows folder (used to prove a test fails on an older version of a workflow).
 */
export const WORKFLOWS_PATH = process.env.WORKFLOWS_UNDER_TEST
  ? require.resolve(resolve(process.env.WORKFLOWS_UNDER_TEST))
  : require.resolve(resolve(REPO, 'workflows'));

/** The SDK's own warnings (e.g. TMPRL1102 "finished while an update handler was still running"), kept for assertions. */
export const sdkWarnings: string[] = [];

function installRuntime(): void {
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', (entry) => {
        sdkWarnings.push(`${entry.message} ${JSON.stringify(entry.meta ?? {})}`);
        if (process.env.WORKFLOW_TEST_LOGS) console.warn(`[${entry.level}] ${entry.message}`);
      }),
      shutdownSignals: [],
    });
  } catch {
    // already installed in this Jest worker process by an earlier test file
  }
}

export interface WorkflowTestContext {
  env: TestWorkflowEnvironment;
  bundle: WorkflowBundleWithSourceMap;
}

/** Starts the dev server (the project's CLI, in memory, random free port, the project's search attributes) and bundles the workflows. */
export async function setUpWorkflowTests(): Promise<WorkflowTestContext> {
  installRuntime();
  const [env, bundle] = await Promise.all([
    TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: TEMPORAL_CLI },
        // port omitted: the SDK picks a free one; dbFilename omitted: in memory
        searchAttributes: SEARCH_ATTRIBUTE_KEYS,
        extraArgs: DYNAMIC_CONFIG.flatMap((value) => ['--dynamic-config-value', value]),
        log: { format: 'json', level: 'error' },
      },
    }),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') }),
  ]);
  return { env, bundle };
}

/**
 * One dev server and bundle per test file: registers the file's beforeAll/afterAll and returns the context,
 * filled in once beforeAll has run.
 */
export function useWorkflowTestEnvironment(): WorkflowTestContext {
  const ctx = {} as WorkflowTestContext;
  beforeAll(async () => {
    Object.assign(ctx, await setUpWorkflowTests());
  }, 120_000);
  afterAll(async () => {
    await ctx.env?.teardown();
  });
  return ctx;
}

export const uniqueId = (prefix: string): string => `${prefix}-${randomUUID()}`;

/**
 * How a test writes a draft into the lifecycle fakes' store, as the API's creating transaction writes the row:
 * kept on the fakes under a symbol (the worker registers only string-keyed functions as activities) and found
 * by the task queue the fakes serve, so createConsignment needs no more than the task queue.
 */
const SEED_DRAFT = Symbol('seedDraft');
type SeedDraft = (uuid: string, request: CreateDraftRequest) => ConsignmentRecord;
const seeders = new Map<string, SeedDraft>();

/** Runs `fn` with a fresh worker on a task queue of its own, serving the given fake activities; stops the worker after. */
export async function withWorker<T>(
  ctx: WorkflowTestContext,
  activities: object,
  fn: (taskQueue: string) => Promise<T>,
  options: { onStop?: () => void } = {},
): Promise<T> {
  const taskQueue = uniqueId('tq');
  const seed = (activities as { [SEED_DRAFT]?: SeedDraft })[SEED_DRAFT];
  if (seed) seeders.set(taskQueue, seed);
  const worker = await Worker.create({
    connection: ctx.env.nativeConnection,
    namespace: 'default',
    taskQueue,
    workflowBundle: ctx.bundle,
    activities,
    shutdownGraceTime: '1 second',
  });
  return worker
    .runUntil(async () => {
      try {
        return await fn(taskQueue);
      } finally {
        // Blocked fakes must let go, or the worker waits for them at shutdown.
        options.onStop?.();
      }
    })
    .finally(() => seeders.delete(taskQueue));
}

/** A promise the test opens: fakes await it to block until the test lets them go on. */
export class Gate {
  private opened = false;
  private release!: () => void;
  readonly promise: Promise<void> = new Promise<void>((r) => (this.release = r));
  /** how many callers are waiting now */
  waiting = 0;

  async wait(): Promise<void> {
    if (this.opened) return;
    this.waiting++;
    try {
      await this.promise;
    } finally {
      this.waiting--;
    }
  }

  open(): void {
    this.opened = true;
    this.release();
  }
}

export { waitFor };

/** The ApplicationFailure type a failed update carries (the workflow refuses with the type as its code). */
export async function updateFailure(promise: Promise<unknown>): Promise<{ type: string | undefined; message: string; details: unknown[] | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
      return { type: error.cause.type ?? undefined, message: error.cause.message, details: error.cause.details as unknown[] | undefined };
    }
    throw new Error(`the update failed with something other than an ApplicationFailure: ${String(error)}`, { cause: error });
  }
  throw new Error('the update was expected to fail, but it succeeded');
}

/**
 * The event types of a workflow run's history, in order, named after their attributes (e.g. 'timerCanceled',
 * 'activityTaskCompleted', 'workflowExecutionContinuedAsNew').
 */
export async function historyEventTypes(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) => {
    const attributes = Object.entries(event).find(([key, value]) => key.endsWith('EventAttributes') && value != null);
    return attributes ? attributes[0].replace(/EventAttributes$/, '') : 'unknown';
  });
}

// ---------------------------------------------------------------------------------------------------------
// Consignment lifecycle fakes
// ---------------------------------------------------------------------------------------------------------

export const CUSTOMER = { customerId: 7, userId: null, customerCode: 'C000007' } as const;
export const PROVIDER_ID = 3;

export function createRequest(referenceNo = 'REF-1'): CreateDraftRequest {
  return { customerId: CUSTOMER.customerId, userId: CUSTOMER.userId, draft: { reference_no: referenceNo, preference: 1 }, importId: null };
}

function newRecord(id: number, uuid: string, request: CreateDraftRequest): ConsignmentRecord {
  const now = new Date(0).toISOString();
  return {
    id,
    uuid,
    customer_id: request.customerId,
    user_id: request.userId,
    status: STATUS.NEW_DRAFT,
    preference: request.draft.preference ?? null,
    provider_id: request.draft.provider_id ?? null,
    address_resolver_type: 1,
    reference_no: request.draft.reference_no ?? null,
    invoice_number: null,
    incoterms_type: 1,
    specific_shipping_method: null,
    generate_provider_barcode: false,
    specific_provider_barcode: null,
    barcode: null,
    consignor: {},
    consignee: {},
    packages: [],
    documents: [],
    special_services: [],
    weight: 2,
    desi: 3,
    consignment_type: 1,
    import_id: request.importId ?? null,
    tracking_code: null,
    tracking_url: null,
    service_name: null,
    provider_base_cost: 0,
    additional_cost: 0,
    rule_cost: 0,
    service_fee: 0,
    special_service_fee: 0,
    total_cost: 0,
    currency_code: 'TRY',
    currency_rate: 1,
    processed_at: null,
    created_at: now,
    updated_at: now,
  };
}

const notDraft = () => ApplicationFailure.create({ message: 'NOT_DRAFT', type: 'NOT_DRAFT', nonRetryable: true });

/** One activity call as the fakes saw it. */
export interface Call {
  name: keyof LifecycleActivities;
  args: unknown;
}

/** Ways a test bends the fakes: hooks run before the default behaviour (throw to fail, await a Gate to block). */
export interface LifecycleHooks {
  insertDraft?: (request: CreateDraftRequest & { uuid: string }) => Promise<void> | void;
  planProcessing?: () => Promise<void> | void;
  /** the plan names a built-in carrier, booked as a local activity (default false) */
  carrierInProcess?: boolean;
  bookShipment?: () => Promise<void> | void;
  completeProcessing?: () => Promise<void> | void;
  recordStatus?: (change: StatusChange) => Promise<void> | void;
  publishStatusEvent?: (eventId: string) => Promise<void> | void;
  /** the writes answer the event of this key handed over already (nobody subscribed to it; default: none is) */
  dispatched?: (eventKey: string) => boolean;
  /** the carrier's answer to a cancel (default: accepted) */
  cancelBooking?: (request: {
    uuid: string;
    providerId: number;
    trackingCode: string;
    inTransit: boolean;
  }) => Promise<{ accepted: boolean; reason?: string }> | { accepted: boolean; reason?: string };
  /** the carrier's tracking events (polling; default none) */
  trackShipment?: () => Promise<CarrierEvent[]>;
  /** what settling a booking in doubt finds (default: the carrier holds nothing) */
  settleBooking?: (mode: 'adopt' | 'release') => Promise<{ booking?: BookedShipment; notes: string[] }> | { booking?: BookedShipment; notes: string[] };
}

/**
 * The lifecycle activities as typed fakes over an in-memory consignment store. They behave like the real
 * ones where the workflow relies on it: insertDraft returns the stored draft for a known uuid,
 * recordStatus is guarded by `from` and keyed by `eventKey` (a retried write changes nothing), status
 * event ids are derived from the consignment and the key.
 */
export function lifecycleFakes(hooks: LifecycleHooks = {}) {
  const records = new Map<string, ConsignmentRecord>();
  const calls: Call[] = [];
  const statusKeys = new Map<string, string>(); // `${uuid}/${eventKey}` → eventId
  let nextId = 1000;
  /** status event ids whose publishing completed, in order */
  const published: string[] = [];
  /** status event ids the writes answered as handed over already (never to be published) */
  const dispatched = new Set<string>();
  /** A written event as the write answers it: handed over already when the hook says so. */
  const written = (eventId: string, eventKey: string) => {
    if (!hooks.dispatched?.(eventKey)) return { eventId };
    dispatched.add(eventId);
    return { eventId, dispatched: true };
  };
  const log = (name: keyof LifecycleActivities, args: unknown) => calls.push({ name, args: structuredClone(args) });
  const get = (uuid: string) => {
    const record = records.get(uuid);
    if (!record) throw ApplicationFailure.create({ message: 'CONSIGNMENT_NOT_FOUND', type: 'CONSIGNMENT_NOT_FOUND', nonRetryable: true });
    return record;
  };
  const snapshot = (record: ConsignmentRecord) => structuredClone(record);

  /** Writes a draft into the store without an activity call (the API's creating transaction, in production). */
  const seedDraft: SeedDraft = (uuid, request) => {
    const existing = records.get(uuid);
    if (existing) return snapshot(existing);
    const record = newRecord(nextId++, uuid, request);
    records.set(uuid, record);
    return snapshot(record);
  };

  const fakes: LifecycleActivities = {
    /** Histories only: the workflow's createDraft handler (no production code sends it) calls it. */
    async insertDraft(request) {
      log('insertDraft', request);
      await hooks.insertDraft?.(request);
      return seedDraft(request.uuid, request);
    },
    async updateDraft({ uuid, patch }) {
      log('updateDraft', { uuid, patch });
      const record = get(uuid);
      if (record.status !== STATUS.NEW_DRAFT) throw notDraft();
      if (patch.reference_no !== undefined) record.reference_no = patch.reference_no;
      if (patch.provider_id !== undefined) record.provider_id = patch.provider_id;
      return snapshot(record);
    },
    async planProcessing({ uuid, patch }) {
      log('planProcessing', { uuid, patch });
      await hooks.planProcessing?.();
      const record = get(uuid);
      if (record.status !== STATUS.NEW_DRAFT) throw notDraft();
      const plan: ProcessingPlan = {
        draft: patch ?? {},
        replacePackages: false,
        providerId: PROVIDER_ID,
        shipment: { fromCountry: 'TR', toCountry: 'TR', weightKg: 2, desi: 3, packageCount: 1 },
        serviceBarcode: `SB-${record.id}`,
        carrierPushes: true,
        ...(hooks.carrierInProcess ? { carrierInProcess: true } : {}),
      };
      return plan;
    },
    async bookShipment(request) {
      log('bookShipment', request);
      await hooks.bookShipment?.();
      const booking: BookedShipment = {
        providerId: request.providerId,
        trackingCode: `TRK-${request.uuid}`,
        trackingUrl: `https://carrier.example/track/TRK-${request.uuid}`,
        pickupBooked: false,
        baseCost: 42,
        currency: 'TRY',
        serviceName: 'Standard',
      };
      return booking;
    },
    async settleBooking(request) {
      log('settleBooking', request);
      return (await hooks.settleBooking?.(request.mode)) ?? { notes: ['nothing held'] };
    },
    async recordNotes(request) {
      log('recordNotes', request);
    },
    async completeProcessing({ uuid, plan, booking }) {
      log('completeProcessing', { uuid, plan, booking });
      await hooks.completeProcessing?.();
      const record = get(uuid);
      if (record.status !== STATUS.NEW_DRAFT) throw notDraft();
      Object.assign(record, {
        status: booking.pickupBooked ? STATUS.AWAITING_PICKUP : STATUS.LABEL_CREATED,
        provider_id: plan.providerId,
        barcode: plan.serviceBarcode,
        tracking_code: booking.trackingCode,
        tracking_url: booking.trackingUrl,
        service_name: booking.serviceName,
        processed_at: new Date(0).toISOString(),
      });
      const eventId = `${uuid}/processed`;
      statusKeys.set(`${uuid}/processed`, eventId);
      return { record: snapshot(record), labelId: record.id + 1, ...written(eventId, 'processed') };
    },
    async recordStatus(change) {
      log('recordStatus', change);
      await hooks.recordStatus?.(change);
      const record = get(change.uuid);
      const key = `${change.uuid}/${change.eventKey}`;
      const known = statusKeys.get(key);
      if (known) return { record: snapshot(record), eventId: known }; // a retried write: already done
      if (record.status !== change.from) {
        throw ApplicationFailure.create({ message: `status is ${record.status}, not ${change.from}`, type: 'STATUS_CHANGED', nonRetryable: true });
      }
      record.status = change.to;
      const eventId = `${change.uuid}/${change.eventKey}`;
      statusKeys.set(key, eventId);
      return { record: snapshot(record), ...written(eventId, change.eventKey) };
    },
    async deleteDraft({ uuid }) {
      log('deleteDraft', { uuid });
      const record = get(uuid);
      if (record.status !== 24) throw ApplicationFailure.create({ message: 'NOT_DRAFT', type: 'NOT_DRAFT', nonRetryable: true });
      records.delete(uuid);
      return written(`${uuid}/deleted`, 'deleted');
    },
    async trackShipment(request) {
      log('trackShipment', request);
      return (await hooks.trackShipment?.()) ?? [];
    },
    async recordTrackingFailure(failure) {
      log('recordTrackingFailure', failure);
    },
    async cancelBooking(request) {
      log('cancelBooking', request);
      return (await hooks.cancelBooking?.(request)) ?? { accepted: true };
    },
    async publishStatusEvent({ eventId }) {
      log('publishStatusEvent', { eventId });
      await hooks.publishStatusEvent?.(eventId);
      published.push(eventId);
    },
  };
  /** which activities were called, by name, in order */
  const names = () => calls.map((c) => c.name);
  const callsOf = <N extends keyof LifecycleActivities>(name: N) =>
    calls.filter((c) => c.name === name).map((c) => c.args as Parameters<LifecycleActivities[N]>[0]);
  /** every status event written so far and not handed over by its write has been published (nothing left in flight) */
  const allPublished = () => published.length === [...statusKeys.values()].filter((id) => !dispatched.has(id)).length;
  Object.defineProperty(fakes, SEED_DRAFT, { value: seedDraft, enumerable: false });
  return { records, calls, names, callsOf, published, allPublished, fakes, seedDraft };
}

// ---------------------------------------------------------------------------------------------------------
// Consignment workflow helpers
// ---------------------------------------------------------------------------------------------------------

export { consignmentWorkflowId };

export type ConsignmentHandle = WorkflowHandle<typeof consignmentWorkflow>;

/** Starts a consignment workflow without its createDraft update (as if the creating request died). */
export function startConsignment(
  ctx: WorkflowTestContext,
  taskQueue: string,
  input: Partial<ConsignmentWorkflowInput> = {},
  options: { workflowTaskTimeout?: string } = {},
): Promise<WorkflowHandleWithFirstExecutionRunId<typeof consignmentWorkflow>> {
  const uuid = input.uuid ?? randomUUID();
  return ctx.env.client.workflow.start<typeof consignmentWorkflow>('consignmentWorkflow', {
    ...options,
    workflowId: consignmentWorkflowId(uuid),
    taskQueue,
    args: [{ customerCode: CUSTOMER.customerCode, ...input, uuid }],
    typedSearchAttributes: [{ key: SA.CustomerCode, value: CUSTOMER.customerCode }],
  });
}

/**
 * Creates a draft as production does: its row first (the API's transaction; here the fakes' store of the worker
 * serving `taskQueue`), then the start the outbox relay sends, through the real starter
 * (src/temporal/consignment.starter.ts, startDraft): created, at the relay's priority. `workflowTaskTimeout`
 * (tests that need an update in while a local activity runs) sends the same start options with it.
 */
export async function createConsignment(
  ctx: WorkflowTestContext,
  taskQueue: string,
  input: Partial<Pick<ConsignmentWorkflowInput, 'uuid' | 'historyLimit' | 'pollIntervalMs' | 'bookingGraceMs'>> = {},
  request: CreateDraftRequest = createRequest(),
  options: { workflowTaskTimeout?: string } = {},
): Promise<{ handle: ConsignmentHandle; record: ConsignmentRecord; uuid: string }> {
  const uuid = input.uuid ?? randomUUID();
  const seed = seeders.get(taskQueue);
  if (!seed) throw new Error(`no lifecycle fakes serve task queue ${taskQueue}: run createConsignment inside withWorker(ctx, lifecycleFakes().fakes, ...)`);
  const record = seed(uuid, request);
  const starter = createConsignmentStarter({ ...input, client: ctx.env.client, taskQueue });
  const draft = workflowStartOf(record, CUSTOMER.customerCode);
  if (options.workflowTaskTimeout)
    await ctx.env.client.workflow.start<typeof consignmentWorkflow>('consignmentWorkflow', { ...starter.relayStartOptions(draft), ...options });
  else expect(await starter.startDraft(draft)).toBe(true);
  return { handle: ctx.env.client.workflow.getHandle<typeof consignmentWorkflow>(consignmentWorkflowId(uuid)), record, uuid };
}

/**
 * Histories only: creates a draft the way consignflow did before the outbox (update-with-start of `createDraft`,
 * USE_EXISTING). No production code sends createDraft any more; the workflow keeps its handler for workflows
 * that were started that way, and these tests keep the handler honest.
 */
export async function createConsignmentByUpdate(
  ctx: WorkflowTestContext,
  taskQueue: string,
  input: Partial<ConsignmentWorkflowInput> = {},
  request: CreateDraftRequest = createRequest(),
  options: { workflowTaskTimeout?: string } = {},
): Promise<{ handle: ConsignmentHandle; record: ConsignmentRecord; uuid: string }> {
  const uuid = input.uuid ?? randomUUID();
  const start = new WithStartWorkflowOperation<typeof consignmentWorkflow>('consignmentWorkflow', {
    ...options,
    workflowId: consignmentWorkflowId(uuid),
    taskQueue,
    args: [{ customerCode: CUSTOMER.customerCode, ...input, uuid }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [{ key: SA.CustomerCode, value: CUSTOMER.customerCode }],
  });
  const record = await ctx.env.client.workflow.executeUpdateWithStart(createDraftUpdate, { args: [request], startWorkflowOperation: start });
  return { handle: await start.workflowHandle(), record, uuid };
}

/** A consignment created and processed (status 2, LABEL_CREATED: the fake carrier books a drop-off). */
export async function createProcessedConsignment(
  ctx: WorkflowTestContext,
  taskQueue: string,
  input: Partial<ConsignmentWorkflowInput> = {},
  options: { workflowTaskTimeout?: string } = {},
) {
  const created = await createConsignment(ctx, taskQueue, input, createRequest(), options);
  const processed = await created.handle.executeUpdate(processDraftUpdate, { args: [{ patch: null }] });
  return { ...created, processed };
}

let eventSeq = 0;
/** A carrier tracking event with a unique id (or the one given). */
export function carrierEvent(event: CarrierEvent['event'], eventId = `ev-${++eventSeq}-${randomUUID().slice(0, 8)}`): CarrierEvent {
  return { eventId, event, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, eventSeq)).toISOString(), location: 'Ankara', message: event };
}

/** The activity names called so far, in order, without publishStatusEvent (which runs beside the handlers). */
export const withoutPublishing = (names: string[]): string[] => names.filter((n) => n !== 'publishStatusEvent');

/** The status event id the fakes derive for a consignment's change keyed `eventKey` ('processed', 'cancelled' or a carrier event id). */
export const statusEventId = (uuid: string, eventKey: string): string => `${uuid}/${eventKey}`;

/**
 * Writes a processed consignment (status 2) straight into a fakes' store, through the fakes themselves, and
 * returns the workflow state a run would carry for it: for tests that start a workflow mid-life (`input.state`).
 */
export async function seedProcessed(
  fakes: LifecycleActivities,
  calls: Call[],
  uuid: string = randomUUID(),
): Promise<{ uuid: string; record: ConsignmentRecord; state: ConsignmentState }> {
  await fakes.insertDraft({ uuid, ...createRequest() }); // the store's row (the call is forgotten below)
  const plan = await fakes.planProcessing({ uuid, patch: null });
  const booking = await fakes.bookShipment({
    uuid,
    providerId: plan.providerId,
    shipment: plan.shipment,
    serviceBarcode: plan.serviceBarcode,
    draft: plan.draft,
    reference: plan.serviceBarcode,
    labelFormat: 'pdf',
  });
  const { record } = await fakes.completeProcessing({ uuid, plan, booking });
  calls.length = 0;
  const state: ConsignmentState = {
    uuid,
    creation: 'created',
    consignmentId: record.id,
    status: record.status,
    referenceNo: record.reference_no,
    providerId: record.provider_id,
    trackingCode: record.tracking_code,
    pollCarrier: false,
    seenEvents: [],
    unpublished: [],
    pendingEvents: [],
  };
  return { uuid, record, state };
}

/**
 * Ends a test's still-running consignment workflow once its status events are all published, so no
 * activity is left completing against a terminated workflow.
 */
export async function terminateWhenPublished(handle: ConsignmentHandle, allPublished: () => boolean): Promise<void> {
  await waitFor('the status events to be published', allPublished);
  await handle.terminate('test over');
}

/** The state of the workflow's latest run (a handle without run id follows continue-as-new). */
export const stateOf = (handle: ConsignmentHandle): Promise<ConsignmentState> => handle.query(consignmentStateQuery);
