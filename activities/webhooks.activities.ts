import type { Database } from '../src/db/database';
import { asActivity } from './failures';

export interface WebhookActivityDeps {
  db: Database;
}

/** Webhook side of status events: the consignment workflow publishes each outbox event here, in order. */
export function createWebhookActivities({ db }: WebhookActivityDeps) {
  return {
    /** Marks the outbox event as handed over. Idempotent: publishing the same event twice changes nothing. */
    publishStatusEvent({ eventId }: { eventId: string }): Promise<void> {
      return asActivity(async () => {
        await db.query('UPDATE consignment_events SET dispatched_at = now() WHERE id = $1 AND dispatched_at IS NULL', [eventId]);
      });
    },
  };
}
