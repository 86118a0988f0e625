import type { Queryable } from './database';

/**
 * The value of a service-wide setting, created with `initial` the first time (concurrent first starts agree
 * on one value: the first insert wins).
 */
export async function settingOrCreate(q: Queryable, key: string, initial: () => string): Promise<string> {
  await q.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, initial()]);
  const { rows } = await q.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
  return rows[0].value;
}
