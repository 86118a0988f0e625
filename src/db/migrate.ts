import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database';

const MIGRATIONS_DIR = join(__dirname, 'migrations');
const MIGRATION_LOCK = 727_001;

/**
 * Applies `src/db/migrations/NNN_name.sql` in name order, each once, each in its own transaction.
 * The API and the worker may start together: an advisory lock makes one of them migrate.
 */
export async function migrate(db: Database): Promise<string[]> {
  return db.withLock(MIGRATION_LOCK, async () => {
    await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    const pending = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql') && !applied.has(f))
      .sort();
    for (const name of pending) {
      const sql = readFileSync(join(MIGRATIONS_DIR, name), 'utf8');
      await db.transaction(async (tx) => {
        for (const statement of splitStatements(sql)) await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      });
    }
    return pending;
  });
}

/** Splits on semicolons at line ends; migrations keep function bodies in $$ quotes on one statement. */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (line.trim().startsWith('--') && !inDollar) continue;
    current += line + '\n';
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inDollar = !inDollar;
    if (!inDollar && line.trimEnd().endsWith(';')) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
