/**
 * The read cache of PGlite's thread, on the API's side (src/db/pglite-thread.ts feeds it). PGlite has one
 * process: every change to the data passes through the thread's statements, and the thread reports which tables
 * each committed one may have touched (src/db/pglite-worker.ts finds them in the statement's plan). A read is
 * good while none of the tables it read has changed since it was sent.
 */

/**
 * The changes the thread reported as committed, counted per table ('*': every table). `count` is the number of
 * the last change: rows read while it stays the same are the data as of that change.
 */
export class TableChanges {
  count = 0;
  private readonly byTable = new Map<string, number>();

  record(tables: readonly string[]): void {
    this.count++;
    for (const table of tables) this.byTable.set(table, this.count);
  }

  /** Whether any of `tables` ('*' among them: any table) changed after change number `since`. */
  changedSince(tables: readonly string[], since: number): boolean {
    if (since === this.count) return false;
    if ((this.byTable.get('*') ?? 0) > since) return true;
    return tables.some((table) => table === '*' || (this.byTable.get(table) ?? 0) > since);
  }
}

/** Rows the cache answers with, and the change number they are the data as of (see TableChanges). */
export interface CachedRows<T = unknown> {
  rows: readonly T[];
  /**
   * The data as of this change: a read of the same text and parameters with the same version has the same
   * rows. Another version may have other rows.
   */
  version: number;
}

/** SQL texts numbered at most, after which numbering starts anew (texts made from varying input). */
const MAX_TEXTS = 1000;

/**
 * Rows of reads by SQL text and parameters (`keyOf`), each good while the tables it read stay unchanged; the
 * least recently used go first once `size` are kept. Rows are shared by every read answered with them: callers
 * must not change them.
 */
export class ReadCache {
  hits = 0;
  misses = 0;
  /** reads that went to the database together with others (counted by the caller) */
  batched = 0;
  private readonly entries = new Map<string, { rows: readonly unknown[]; reads: readonly string[]; asOf: number }>();
  private readonly texts = new Map<string, number>();
  private textsNumbered = 0;

  constructor(
    private readonly changes: TableChanges,
    private readonly size: number,
  ) {}

  /**
   * The key of a read: its text's number and its parameters. Reads with the same key are the same read (the
   * cache answers one with the other's rows, and a batch sends it once). A text is numbered, never reused, so
   * that a text of kilobytes is not copied and hashed in every key.
   */
  keyOf(sql: string, params: readonly unknown[]): string {
    let no = this.texts.get(sql);
    if (no === undefined) {
      if (this.texts.size >= MAX_TEXTS) this.texts.clear();
      this.texts.set(sql, (no = ++this.textsNumbered));
    }
    return `${no} ${JSON.stringify(params)}`;
  }

  /** The rows kept for `key`, unless something they read changed since they were read. */
  get(key: string): CachedRows | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (!entry || this.changes.changedSince(entry.reads, entry.asOf)) {
      this.misses++;
      return undefined;
    }
    this.entries.set(key, entry);
    this.hits++;
    return { rows: entry.rows, version: entry.asOf };
  }

  /**
   * Whether rows read by a statement sent at change number `sentAt` are the data as of that change: nothing
   * they read has changed since (the thread reports changes before the answers of statements after them).
   */
  current(reads: readonly string[], sentAt: number): boolean {
    return !this.changes.changedSince(reads, sentAt);
  }

  /** Keeps rows read at change number `sentAt` when they are current (see `current`); whether it kept them. */
  set(key: string, rows: readonly unknown[], reads: readonly string[], sentAt: number): boolean {
    if (this.size === 0 || !this.current(reads, sentAt)) return false;
    this.entries.delete(key);
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { rows, reads, asOf: sentAt });
    return true;
  }
}
