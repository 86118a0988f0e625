import { Client, Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';

export interface TemporalClientOptions {
  address: string;
  namespace: string;
}

export async function connectClient(options: TemporalClientOptions): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({ address: options.address });
  return { connection, client: new Client({ connection, namespace: options.namespace }) };
}

const INDEXED_VALUE_TYPE: Record<string, number> = { TEXT: 1, KEYWORD: 2, INT: 3, DOUBLE: 4, BOOL: 5, DATETIME: 6, KEYWORD_LIST: 7 };

/** Registers the project's search attributes on a cluster (TEMPORAL_ADDRESS); the dev server gets them as flags. */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = SEARCH_ATTRIBUTE_KEYS.filter((key) => !known.has(key.name));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_VALUE_TYPE[key.type]])),
  });
}

/** True when the frontend answers a cheap call (health checks). */
export async function isTemporalReachable(connection: Connection): Promise<boolean> {
  try {
    await connection.healthService.check({});
    return true;
  } catch {
    return false;
  }
}
