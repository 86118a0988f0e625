import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import type { orderSourcePullWorkflow } from '../../workflows/order-source-pull.workflow';
import type { Database } from '../db/database';
import { findImportCaller } from '../db/imports.repository';
import { listMarketplaceSources } from '../db/order-sources.repository';
import { DEFAULT_POLL_INTERVAL_SECONDS, MARKETPLACES, ORDER_SOURCE_ACTIVE } from '../domain/order-source';
import { SA } from '../../workflows/search-attributes';

const WORKFLOW_TYPE = 'orderSourcePullWorkflow';

/** One Temporal Schedule per marketplace source: `order-source-pull:<source uuid>` in the UI's Schedules. */
export const orderSourceScheduleId = (sourceId: string): string => `order-source-pull:${sourceId}`;

export interface OrderSourcePullsDeps {
  client: Client;
  taskQueue: string;
}

/** What a source's schedule is made from. */
export interface PullSchedule {
  sourceId: string;
  customerCode: string;
  /** the source's name, shown as the schedule's note */
  name: string;
  intervalSeconds: number;
  /** a disabled source's schedule is paused, not deleted: enabling it resumes the same schedule */
  paused: boolean;
}

/**
 * The pulls of marketplace sources (docs/order-feeds.md, "Marketplaces"): a Temporal Schedule per source starts a
 * pull workflow every poll interval; a webhook's ping triggers it at once; disabling a source pauses it (operators see
 * and can pause it in the Temporal UI too). Overlaps are buffered one deep, so a ping during a pull makes exactly one
 * more pull after it. The only code that creates, changes or removes these schedules.
 */
export function createOrderSourcePulls(deps: OrderSourcePullsDeps) {
  const options = (s: PullSchedule): Omit<ScheduleOptions, 'scheduleId'> => ({
    spec: { intervals: [{ every: `${s.intervalSeconds} seconds` }] },
    action: {
      type: 'startWorkflow',
      workflowType: WORKFLOW_TYPE,
      workflowId: `order-source-pull:${s.sourceId}`,
      taskQueue: deps.taskQueue,
      args: [{ sourceId: s.sourceId }] as Parameters<typeof orderSourcePullWorkflow>,
      typedSearchAttributes: [
        { key: SA.OrderSourceId, value: s.sourceId },
        { key: SA.CustomerCode, value: s.customerCode },
      ],
      staticSummary: `pull of order source ${s.name}`,
    },
    policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: '1 minute' },
    typedSearchAttributes: [
      { key: SA.OrderSourceId, value: s.sourceId },
      { key: SA.CustomerCode, value: s.customerCode },
    ],
    state: { paused: s.paused, note: s.paused ? `source ${s.name} is disabled` : `source ${s.name}` },
  });

  return {
    /** Creates the source's schedule, or brings an existing one to `s` (interval, paused state): safe to repeat. */
    async ensure(s: PullSchedule): Promise<void> {
      const scheduleId = orderSourceScheduleId(s.sourceId);
      try {
        await deps.client.schedule.create({ scheduleId, ...options(s), state: { ...options(s).state, triggerImmediately: !s.paused } });
        return;
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      }
      const wanted = options(s);
      await deps.client.schedule.getHandle(scheduleId).update((current) => ({
        ...current,
        spec: wanted.spec,
        action: wanted.action as typeof current.action,
        policies: { ...current.policies, ...wanted.policies },
        state: { ...current.state, paused: s.paused, note: wanted.state!.note },
      }));
    },

    /** Pulls now (a webhook's ping, a processed package's write-back), after the pull in progress if one is. */
    async trigger(sourceId: string): Promise<void> {
      try {
        await deps.client.schedule.getHandle(orderSourceScheduleId(sourceId)).trigger(ScheduleOverlapPolicy.BUFFER_ONE);
      } catch (error) {
        // A source whose schedule is not made yet is pulled when it is.
        if (!(error instanceof ScheduleNotFoundError)) throw error;
      }
    },

    /** The source was deleted: no more pulls (its events and drafts stay). */
    async remove(sourceId: string): Promise<void> {
      try {
        await deps.client.schedule.getHandle(orderSourceScheduleId(sourceId)).delete();
      } catch (error) {
        if (!(error instanceof ScheduleNotFoundError)) throw error;
      }
    },
  };
}

export type OrderSourcePulls = ReturnType<typeof createOrderSourcePulls>;

/**
 * Where the worker starts: every marketplace source has its schedule as its record says (made again if it was lost
 * with a Temporal server's data, its interval and paused state brought up to date). A failure is logged; the source's
 * next change makes sure again.
 */
export async function keepOrderSourceSchedules(options: {
  db: Database;
  pulls: Pick<OrderSourcePulls, 'ensure'>;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}): Promise<void> {
  for (const source of await listMarketplaceSources(options.db, MARKETPLACES)) {
    try {
      const caller = await findImportCaller(options.db, source.customerId, null);
      if (!caller) continue;
      await options.pulls.ensure({
        sourceId: source.id,
        customerCode: caller.customerCode,
        name: source.name,
        intervalSeconds: source.settings.poll_interval ?? DEFAULT_POLL_INTERVAL_SECONDS,
        paused: source.status !== ORDER_SOURCE_ACTIVE,
      });
    } catch (error) {
      options.log?.warn({ err: error, orderSource: source.id }, 'order source: its pull schedule could not be made sure of');
    }
  }
}
