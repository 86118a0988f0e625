import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../src/db/database';

/**
 * A fresh database of its own on the PostgreSQL server of `serverUrl` (a test's, so parallel test files never
 * meet): its URL, and `drop()`, which removes it with whatever is still connected to it.
 */
export async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cf_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const onServer = async (sql: string) => {
    const admin = await openDatabase({ url: serverUrl, poolSize: 1 });
    try {
      await admin.query(sql);
    } finally {
      await admin.close();
    }
  };
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
