import type { Queryable } from './database';

/** A created draft whose lifecycle workflow is to be started, with what its start needs. */
export interface DraftStart {
  id: number;
  uuid: string;
  referenceNo: string | null;
  providerId: number | null;
  importId: string | null;
  customerCode: string;
}

/**
 * Claims up to `limit` queued starts, oldest first, for `leaseSeconds`: entries no relay claimed, or whose
 * claim ran out (its relay died), queued at least `minAgeSeconds` ago. One statement, so concurrent relays
 * never claim the same entry at once.
 */
export async function claimDraftStarts(q: Queryable, limit: number, leaseSeconds: number, minAgeSeconds = 0): Promise<DraftStart[]> {
  const { rows } = await q.query<{
    id: string | number;
    uuid: string;
    reference_no: string | null;
    provider_id: number | null;
    import_id: string | null;
    customer_code: string;
  }>(
    `WITH claimed AS (
       UPDATE consignment_outbox SET claimed_until = now() + make_interval(secs => $2)
        WHERE consignment_id IN (
          SELECT consignment_id FROM consignment_outbox
           WHERE (claimed_until IS NULL OR claimed_until < now()) AND enqueued_at <= now() - make_interval(secs => $3)
           ORDER BY consignment_id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING consignment_id)
     SELECT c.id, c.uuid, c.reference_no, c.provider_id, c.import_id, cu.customer_code
       FROM claimed JOIN consignments c ON c.id = claimed.consignment_id JOIN customers cu ON cu.id = c.customer_id
      ORDER BY c.id`,
    [limit, leaseSeconds, minAgeSeconds],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    uuid: r.uuid,
    referenceNo: r.reference_no,
    providerId: r.provider_id === null ? null : Number(r.provider_id),
    importId: r.import_id,
    customerCode: r.customer_code,
  }));
}

/** Removes the entries of drafts whose workflows were started. */
export async function completeDraftStarts(q: Queryable, consignmentIds: number[]): Promise<void> {
  if (consignmentIds.length === 0) return;
  await q.query('DELETE FROM consignment_outbox WHERE consignment_id = ANY($1::bigint[])', [consignmentIds]);
}

/** How many starts are queued (claimed or not): the relay's backlog. */
export async function countDraftStarts(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: string | number }>('SELECT count(*) AS n FROM consignment_outbox');
  return Number(rows[0].n);
}

/** Gives claimed entries back (their starts failed): claimable again at once. */
export async function releaseDraftStarts(q: Queryable, consignmentIds: number[]): Promise<void> {
  if (consignmentIds.length === 0) return;
  await q.query('UPDATE consignment_outbox SET claimed_until = NULL WHERE consignment_id = ANY($1::bigint[])', [consignmentIds]);
}
