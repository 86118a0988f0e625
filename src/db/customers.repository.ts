import { hash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from './database';

export interface Caller {
  customerId: number;
  customerCode: string;
  customerName: string;
  authorizedName: string | null;
  userId: number;
  firstname: string;
  lastname: string;
}

/** API keys look like `cf_` + 32 base62 characters (~190 bits); only their SHA-256 is stored. */
export function generateApiKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(64);
  let key = '';
  for (const b of bytes) {
    if (b >= 248) continue; // keep the alphabet uniform: 248 = 4 × 62
    key += alphabet[b % 62];
    if (key.length === 32) break;
  }
  return `cf_${key.padEnd(32, '0')}`;
}

export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export async function findCaller(q: Queryable, apiKey: string): Promise<Caller | undefined> {
  const { rows } = await q.query<Caller>(
    `SELECT c.id AS "customerId", c.customer_code AS "customerCode", c.name AS "customerName", c.authorized_name AS "authorizedName",
            u.id AS "userId", u.firstname, u.lastname
       FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN users u ON u.id = k.user_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hashApiKey(apiKey)],
  );
  return rows[0];
}

export interface NewCustomer {
  name: string;
  authorizedName?: string | null;
  firstname?: string;
  lastname?: string;
}

/** Creates a customer, its first user and an API key (the given one, or a new one). Returns the key in clear, once. */
export async function createCustomer(db: Database, input: NewCustomer, apiKey: string = generateApiKey()): Promise<{ caller: Caller; apiKey: string }> {
  const caller = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number; customer_code: string }>(
      `WITH n AS (SELECT nextval(pg_get_serial_sequence('customers', 'id')) AS id)
       INSERT INTO customers (id, customer_code, name, authorized_name)
       SELECT id, 'C' || lpad(id::text, 6, '0'), $1, $2 FROM n RETURNING id, customer_code`,
      [input.name, input.authorizedName ?? null],
    );
    const customer = rows[0];
    const user = await tx.query<{ id: number }>('INSERT INTO users (customer_id, firstname, lastname) VALUES ($1, $2, $3) RETURNING id', [
      customer.id,
      input.firstname ?? 'API',
      input.lastname ?? 'User',
    ]);
    await tx.query('INSERT INTO api_keys (customer_id, user_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4)', [
      customer.id,
      user.rows[0].id,
      hashApiKey(apiKey),
      apiKey.slice(0, 7),
    ]);
    return {
      customerId: customer.id,
      customerCode: customer.customer_code,
      customerName: input.name,
      authorizedName: input.authorizedName ?? null,
      userId: user.rows[0].id,
      firstname: input.firstname ?? 'API',
      lastname: input.lastname ?? 'User',
    };
  });
  return { caller, apiKey };
}

const BOOTSTRAP_LOCK = 727_002;

/** BOOTSTRAP_API_KEYS: each key gets its own customer once; a key already known is left alone. */
export async function bootstrapApiKeys(db: Database, keys: string[]): Promise<number> {
  return db.withLock(BOOTSTRAP_LOCK, async () => {
    let created = 0;
    for (const key of keys) {
      if (await findCaller(db, key)) continue;
      await createCustomer(db, { name: `Bootstrap customer ${key.slice(0, 6)}…` }, key);
      created++;
    }
    return created;
  });
}
