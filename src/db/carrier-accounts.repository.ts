import type { Queryable } from './database';
import { selectPage, type Counted, type PageWindow } from './paging';

/** A carrier account as stored, without its sealed credentials (those are read only by `findSealedCredentials`). */
export interface CarrierAccountRecord {
  providerId: number;
  customerId: number;
  carrier: string;
  description: string;
  credentialsHint: string;
  settings: Record<string, unknown>;
  status: number;
  createdAt: string;
  updatedAt: string;
  /** the status webhook registered at the carrier: whether it is, and why registering failed */
  statusWebhook: { registered: boolean; error: string | null };
}

type Row = {
  provider_id: number;
  customer_id: number;
  carrier: string;
  description: string;
  credentials_hint: string;
  settings: Record<string, unknown> | string;
  status: number;
  created_at: Date | string;
  updated_at: Date | string;
  status_webhook_registered: boolean;
  status_webhook_error: string | null;
};

const COLUMNS =
  'provider_id, customer_id, carrier, description, credentials_hint, settings, status, created_at, updated_at, status_webhook_id IS NOT NULL AS status_webhook_registered, status_webhook_error';

function toRecord(r: Row): CarrierAccountRecord {
  return {
    providerId: Number(r.provider_id),
    customerId: Number(r.customer_id),
    carrier: r.carrier,
    description: r.description,
    credentialsHint: r.credentials_hint,
    settings: typeof r.settings === 'string' ? (JSON.parse(r.settings) as Record<string, unknown>) : r.settings,
    status: Number(r.status),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    statusWebhook: { registered: r.status_webhook_registered === true, error: r.status_webhook_error ?? null },
  };
}

/** The provider id the next account gets (taken before sealing, so the credentials are bound to it). */
export async function nextProviderId(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ id: number }>(`SELECT nextval('carrier_account_provider_ids')::int AS id`);
  return Number(rows[0].id);
}

export async function insertCarrierAccount(
  q: Queryable,
  a: {
    providerId: number;
    customerId: number;
    carrier: string;
    description: string;
    credentials: Buffer;
    credentialsHint: string;
    settings: Record<string, unknown>;
    status: number;
  },
): Promise<CarrierAccountRecord> {
  const { rows } = await q.query<Row>(
    `INSERT INTO carrier_accounts (provider_id, customer_id, carrier, description, credentials, credentials_hint, settings, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [a.providerId, a.customerId, a.carrier, a.description, a.credentials, a.credentialsHint, JSON.stringify(a.settings), a.status],
  );
  return toRecord(rows[0]);
}

/** The customer's account (another customer's, or a deleted one, is not found). */
export async function findCarrierAccount(q: Queryable, customerId: number, providerId: number): Promise<CarrierAccountRecord | undefined> {
  const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM carrier_accounts WHERE provider_id = $1 AND customer_id = $2 AND deleted_at IS NULL`, [
    providerId,
    customerId,
  ]);
  return rows[0] && toRecord(rows[0]);
}

export async function listCarrierAccounts(q: Queryable, customerId: number, page: PageWindow): Promise<Counted<CarrierAccountRecord>> {
  return selectPage(
    q,
    { columns: COLUMNS, from: 'carrier_accounts WHERE customer_id = $1 AND deleted_at IS NULL', order: 'provider_id', params: [customerId] },
    page,
    toRecord,
  );
}

/** Replaces the account's fields; `credentials` absent keeps the stored ones. */
export async function updateCarrierAccount(
  q: Queryable,
  customerId: number,
  providerId: number,
  a: { description: string; settings: Record<string, unknown>; status: number; credentials?: { sealed: Buffer; hint: string } },
): Promise<CarrierAccountRecord | undefined> {
  const { rows } = await q.query<Row>(
    `UPDATE carrier_accounts SET description = $3, settings = $4, status = $5,
       credentials = COALESCE($6, credentials), credentials_hint = COALESCE($7, credentials_hint), updated_at = now()
     WHERE provider_id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    [providerId, customerId, a.description, JSON.stringify(a.settings), a.status, a.credentials?.sealed ?? null, a.credentials?.hint ?? null],
  );
  return rows[0] && toRecord(rows[0]);
}

/**
 * Deletes the account for its customer: it takes no new bookings, but the row stays (marked deleted) so
 * consignments already booked with it can still be tracked and cancelled.
 */
export async function deleteCarrierAccount(q: Queryable, customerId: number, providerId: number): Promise<boolean> {
  const { rows } = await q.query(
    'UPDATE carrier_accounts SET deleted_at = now(), updated_at = now() WHERE provider_id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING provider_id',
    [providerId, customerId],
  );
  return rows.length > 0;
}

/** The sealed credentials of an account, deleted ones included (activities of consignments booked with it). */
export async function findSealedCredentials(q: Queryable, providerId: number): Promise<{ customerId: number; carrier: string; sealed: Buffer } | undefined> {
  const { rows } = await q.query<{ customer_id: number; carrier: string; credentials: Buffer | Uint8Array }>(
    'SELECT customer_id, carrier, credentials FROM carrier_accounts WHERE provider_id = $1',
    [providerId],
  );
  return rows[0] && { customerId: Number(rows[0].customer_id), carrier: rows[0].carrier, sealed: Buffer.from(rows[0].credentials) };
}

/** An account by provider id whoever owns it, deleted ones included, with its sealed credentials (for the carrier that books with it). */
export async function findCarrierAccountForCarrier(
  q: Queryable,
  providerId: number,
): Promise<(CarrierAccountRecord & { sealed: Buffer; deleted: boolean; statusWebhookSecretHash: string | null }) | undefined> {
  const { rows } = await q.query<Row & { credentials: Buffer | Uint8Array; deleted: boolean; status_webhook_secret_hash: string | null }>(
    `SELECT ${COLUMNS}, credentials, deleted_at IS NOT NULL AS deleted, status_webhook_secret_hash FROM carrier_accounts WHERE provider_id = $1`,
    [providerId],
  );
  const row = rows[0];
  return row && { ...toRecord(row), sealed: Buffer.from(row.credentials), deleted: row.deleted, statusWebhookSecretHash: row.status_webhook_secret_hash };
}

/** The customer's accounts that are not deleted, every one (for the providers list). */
export async function listAllCarrierAccounts(q: Queryable, customerId: number): Promise<CarrierAccountRecord[]> {
  const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM carrier_accounts WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY provider_id`, [
    customerId,
  ]);
  return rows.map(toRecord);
}

/** The account's status webhook at the remote: its id and the hash of the secret it sends, or why registering failed. */
export async function saveStatusWebhook(q: Queryable, providerId: number, webhook: { id: string; secretHash: string } | { error: string }): Promise<void> {
  await q.query('UPDATE carrier_accounts SET status_webhook_id = $2, status_webhook_secret_hash = $3, status_webhook_error = $4 WHERE provider_id = $1', [
    providerId,
    'id' in webhook ? webhook.id : null,
    'id' in webhook ? webhook.secretHash : null,
    'error' in webhook ? webhook.error.slice(0, 1000) : null,
  ]);
}

export async function findStatusWebhook(q: Queryable, providerId: number): Promise<{ id: string | null; error: string | null } | undefined> {
  const { rows } = await q.query<{ status_webhook_id: string | null; status_webhook_error: string | null }>(
    'SELECT status_webhook_id, status_webhook_error FROM carrier_accounts WHERE provider_id = $1',
    [providerId],
  );
  return rows[0] && { id: rows[0].status_webhook_id, error: rows[0].status_webhook_error };
}
