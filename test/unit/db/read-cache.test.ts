import { describe, expect, it } from '@jest/globals';
import { ReadCache, TableChanges } from '../../../src/db/read-cache';

/** A cache of `size` reads over a fresh record of changes. */
const cacheOf = (size = 10) => {
  const changes = new TableChanges();
  return { changes, cache: new ReadCache(changes, size) };
};

describe('the record of committed changes', () => {
  it('counts changes and tells which tables changed after a given change', () => {
    const changes = new TableChanges();
    expect(changes.changedSince(['orders'], 0)).toBe(false);
    changes.record(['orders']);
    changes.record(['line']);
    expect(changes.count).toBe(2);
    expect(changes.changedSince(['orders'], 0)).toBe(true);
    expect(changes.changedSince(['orders'], 1)).toBe(false);
    expect(changes.changedSince(['line', 'shop'], 1)).toBe(true);
    expect(changes.changedSince(['shop'], 0)).toBe(false);
  });

  it("takes a change to '*' as a change to every table, and a read of '*' as a read of every table", () => {
    const changes = new TableChanges();
    changes.record(['*']);
    expect(changes.changedSince(['orders'], 0)).toBe(true);
    changes.record(['line']);
    expect(changes.changedSince(['*'], 1)).toBe(true);
    expect(changes.changedSince(['orders'], 1)).toBe(false);
    // A change of no table (a transaction that wrote nothing) is counted and touches no table; a read of '*' takes any change as its own.
    changes.record([]);
    expect(changes.changedSince(['orders', 'line'], 2)).toBe(false);
    expect(changes.changedSince(['*'], 2)).toBe(true);
  });
});

describe('the read cache', () => {
  it('answers kept rows, with the change they were read at, until a table they read changes', () => {
    const { changes, cache } = cacheOf();
    const rows = [{ id: 1 }];
    expect(cache.set('a', rows, ['orders', 'line'], 0)).toBe(true);
    expect(cache.get('a')).toEqual({ rows, version: 0 });
    expect(cache.get('a')?.rows).toBe(rows);
    changes.record(['unrelated']);
    expect(cache.get('a')).toEqual({ rows, version: 0 });
    changes.record(['line']);
    expect(cache.get('a')).toBeUndefined();
    expect(cache).toMatchObject({ hits: 3, misses: 1 });
  });

  it("drops everything on a change to '*' (DDL, a table with triggers)", () => {
    const { changes, cache } = cacheOf();
    cache.set('a', [], ['orders'], 0);
    cache.set('b', [], ['line'], 0);
    changes.record(['*']);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it("keeps a read of '*' (tables unknown) only until the next change of any table", () => {
    const { changes, cache } = cacheOf();
    cache.set('a', [], ['*'], 0);
    expect(cache.get('a')).toBeDefined();
    changes.record(['anything']);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not keep rows when something they read changed after the read was sent, and says they are not current', () => {
    const { changes, cache } = cacheOf();
    const sentAt = changes.count;
    changes.record(['orders']);
    expect(cache.current(['orders'], sentAt)).toBe(false);
    expect(cache.set('a', [{ id: 1 }], ['orders'], sentAt)).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    // A change elsewhere meanwhile: kept, as of the change it was sent at.
    const later = changes.count;
    changes.record(['line']);
    expect(cache.current(['orders'], later)).toBe(true);
    expect(cache.set('b', [{ id: 2 }], ['orders'], later)).toBe(true);
    expect(cache.get('b')).toEqual({ rows: [{ id: 2 }], version: later });
  });

  it('evicts the least recently used read once full; a read answered from it is used again', () => {
    const { cache } = cacheOf(2);
    cache.set('a', [1], ['t'], 0);
    cache.set('b', [2], ['t'], 0);
    expect(cache.get('a')?.rows).toEqual([1]);
    cache.set('c', [3], ['t'], 0);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.rows).toEqual([1]);
    expect(cache.get('c')?.rows).toEqual([3]);
    // Setting a kept key again replaces it without evicting another.
    cache.set('c', [4], ['t'], 0);
    expect(cache.get('a')?.rows).toEqual([1]);
    expect(cache.get('c')?.rows).toEqual([4]);
  });

  it('keeps nothing when its size is 0', () => {
    const { cache } = cacheOf(0);
    expect(cache.set('a', [], ['t'], 0)).toBe(false);
    expect(cache.get('a')).toBeUndefined();
  });

  it('keys a read by its text and parameters: the same read the same key, another text or parameter another key', () => {
    const { cache } = cacheOf();
    const sql = 'SELECT * FROM orders WHERE id = $1';
    expect(cache.keyOf(sql, [1])).toBe(cache.keyOf(`${sql}`, [1]));
    expect(cache.keyOf(sql, [1])).not.toBe(cache.keyOf(sql, [2]));
    expect(cache.keyOf(sql, [1])).not.toBe(cache.keyOf(`${sql} `, [1]));
    expect(cache.keyOf(sql, ['1'])).not.toBe(cache.keyOf(sql, [1]));
    // The text goes into the key as a short number, not whole.
    expect(cache.keyOf('x'.repeat(5000), [])).toMatch(/^\d+ \[\]$/);
  });

  it('never gives a number of a forgotten text to another text, after numbering restarts', () => {
    const { cache } = cacheOf();
    const first = cache.keyOf('SELECT 0', []);
    for (let i = 1; i <= 1000; i++) cache.keyOf(`SELECT ${i}`, []);
    // Numbering restarted: SELECT 0 gets a new number, and no other text has its old one.
    const again = cache.keyOf('SELECT 0', []);
    expect(again).not.toBe(first);
    const all = new Set(Array.from({ length: 1001 }, (_, i) => cache.keyOf(`SELECT ${i}`, [])));
    expect(all.has(first)).toBe(false);
  });
});
