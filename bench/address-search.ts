/**
 * Address search benchmark (issue 5): misspelled Turkish place and district names, recall@10 and latency
 * through HTTP (GET /api/v1/address/search on a real listening Fastify), beside MiniSearch in process.
 *
 *   npx tsx bench/address-search.ts                      # PGlite in memory
 *   DATABASE_URL=postgresql://… npx tsx bench/address-search.ts
 *
 * Options (environment): BENCH_SEED (default 20240605), BENCH_PLACES (250), BENCH_DISTRICTS (100),
 * BENCH_COUNTRIES (countries to load, default all: the other countries share the indexes).
 * The database at DATABASE_URL is migrated and loaded (idempotent), not dropped.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import MiniSearch from 'minisearch';
import { ensureAddressData } from '../src/address/address-data';
import { turkeyDataset } from '../src/address/datasets/turkey';
import { foldName, foldText, mainNameKey } from '../src/address/fold';
import { buildAddressHttpApp } from '../test/support/address-http';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';

const SEED = Number(process.env.BENCH_SEED ?? 20240605);
const PLACE_QUERIES = Number(process.env.BENCH_PLACES ?? 250);
const DISTRICT_QUERIES = Number(process.env.BENCH_DISTRICTS ?? 100);
/** Names shorter than this are not misspelled: one typo in a 4-letter name mostly makes another real name. */
const MIN_NAME_LENGTH = 5;
const WARMUP = 30;
const TOP = 10;

type Kind = 'place' | 'district';
type Typo = 'deletion' | 'transposition' | 'substitution';
interface BenchQuery {
  kind: Kind;
  typo: Typo;
  target: string;
  keyword: string;
}

/** mulberry32: small, seedable, the same sequence on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One typo on a letter of an ASCII-folded name; never returns the name itself. */
function misspell(name: string, rnd: () => number): { keyword: string; typo: Typo } {
  const letters = [...name].map((c, i) => (/[a-z]/.test(c) ? i : -1)).filter((i) => i >= 0);
  for (;;) {
    const typo = (['deletion', 'transposition', 'substitution'] as const)[Math.floor(rnd() * 3)];
    const i = letters[Math.floor(rnd() * letters.length)];
    let keyword: string;
    if (typo === 'deletion') keyword = name.slice(0, i) + name.slice(i + 1);
    else if (typo === 'transposition') {
      if (!/[a-z]/.test(name[i + 1] ?? '') || name[i] === name[i + 1]) continue;
      keyword = name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
    } else {
      const letter = LETTERS[Math.floor(rnd() * LETTERS.length)];
      if (letter === name[i]) continue;
      keyword = name.slice(0, i) + letter + name.slice(i + 1);
    }
    if (keyword.trim() && keyword !== name) return { keyword, typo };
  }
}

function buildQueries(): BenchQuery[] {
  const records = turkeyDataset.read();
  const places = [...new Set(records.map((r) => mainNameKey(r.place)))].filter((n) => n.length >= MIN_NAME_LENGTH).sort();
  const districts = [...new Set(records.map((r) => foldName(r.city)))].filter((n) => n.length >= MIN_NAME_LENGTH).sort();
  const rnd = random(SEED);
  const queries: BenchQuery[] = [];
  const draw = (kind: Kind, names: string[], count: number) => {
    for (let n = 0; n < count; n += 1) {
      const target = names[Math.floor(rnd() * names.length)];
      queries.push({ kind, target, ...misspell(target, rnd) });
    }
  };
  draw('place', places, PLACE_QUERIES);
  draw('district', districts, DISTRICT_QUERIES);
  return queries;
}

interface Outcome {
  query: BenchQuery;
  ms: number;
  hit: boolean;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function summarize(name: string, outcomes: Outcome[]) {
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return {
    engine: name,
    queries: outcomes.length,
    'recall@10': (outcomes.filter((o) => o.hit).length / outcomes.length).toFixed(3),
    'place recall': ratio(outcomes.filter((o) => o.query.kind === 'place')),
    'district recall': ratio(outcomes.filter((o) => o.query.kind === 'district')),
    'p50 ms': percentile(ms, 50).toFixed(2),
    'p95 ms': percentile(ms, 95).toFixed(2),
    'max ms': ms[ms.length - 1].toFixed(1),
  };
}

function ratio(outcomes: Outcome[]): string {
  return outcomes.length ? (outcomes.filter((o) => o.hit).length / outcomes.length).toFixed(3) : '-';
}

interface ApiResult {
  city: string;
  place: string;
}

function get(agent: http.Agent, port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function runHttp(queries: BenchQuery[]): Promise<{ outcomes: Outcome[]; label: string; loadMs: number }> {
  const url = process.env.DATABASE_URL || undefined;
  const db = await openDatabase({ url });
  const label = url ? 'PostgreSQL' : 'PGlite (memory)';
  try {
    await migrate(db);
    const started = Date.now();
    const countries = process.env.BENCH_COUNTRIES?.split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const { loaded } = await ensureAddressData(db, { countries, log: (line) => console.error(`  ${line}`) });
    const loadMs = loaded.length > 0 ? Date.now() - started : 0;

    const { app, headers } = await buildAddressHttpApp(db);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ask = async (q: BenchQuery) => {
        const field = q.kind === 'place' ? 'place' : 'city';
        const path = `/api/v1/address/search?countryIso2=TR&keyword=${encodeURIComponent(q.keyword)}&searchFields%5B%5D=${field}&limit=${TOP}`;
        const t0 = process.hrtime.bigint();
        const res = await get(agent, port, path, headers);
        const body = JSON.parse(res.body) as { status: boolean; data: { results: ApiResult[] } };
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (res.status !== 200 || !body.status) throw new Error(`HTTP ${res.status}: ${res.body}`);
        const hit = body.data.results.some((r) => (q.kind === 'place' ? mainNameKey(r.place) : foldName(r.city)) === q.target);
        return { query: q, ms, hit };
      };
      for (const q of queries.slice(0, WARMUP)) await ask(q);
      const outcomes: Outcome[] = [];
      for (const q of queries) outcomes.push(await ask(q));
      return { outcomes, label, loadMs };
    } finally {
      agent.destroy();
      await app.close();
    }
  } finally {
    await db.close();
  }
}

function runMiniSearch(queries: BenchQuery[]): { outcomes: Outcome[]; indexMs: number } {
  const started = Date.now();
  const records = turkeyDataset.read();
  // What a user might write instead: one in-memory index of every record, the same folding as ours.
  const index = new MiniSearch<{ id: number; place: string; city: string; state: string; postalCode: string }>({
    fields: ['place', 'city', 'state', 'postalCode'],
    storeFields: ['place', 'city', 'state'],
    processTerm: (term: string) => foldText(term) || null,
  });
  index.addAll(records.map((r, id) => ({ id, place: r.place, city: r.city, state: r.state, postalCode: r.postalCode })));
  const indexMs = Date.now() - started;

  const options = { fuzzy: 0.2, prefix: true };
  const ask = (q: BenchQuery): Outcome => {
    const t0 = process.hrtime.bigint();
    let results = index.search(q.keyword, { ...options, fields: [q.kind === 'place' ? 'place' : 'city'] });
    if (q.kind === 'district') {
      // Distinct (state, city) pairs, as the API answers a city search.
      const seen = new Set<string>();
      results = results.filter((r) => {
        const key = `${String(r.state)}|${String(r.city)}`;
        return seen.has(key) ? false : (seen.add(key), true);
      });
    }
    results = results.slice(0, TOP);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const hit = results.some((r) => (q.kind === 'place' ? mainNameKey(String(r.place)) : foldName(String(r.city))) === q.target);
    return { query: q, ms, hit };
  };
  for (const q of queries.slice(0, WARMUP)) ask(q);
  return { outcomes: queries.map(ask), indexMs };
}

async function main(): Promise<void> {
  const queries = buildQueries();
  const byTypo = (t: Typo) => queries.filter((q) => q.typo === t).length;
  console.log(
    `address search bench: ${queries.length} misspelled queries (seed ${SEED}; ${PLACE_QUERIES} place, ${DISTRICT_QUERIES} district names ≥ ${MIN_NAME_LENGTH} letters; ` +
      `${byTypo('deletion')} deletions, ${byTypo('transposition')} transpositions, ${byTypo('substitution')} substitutions), top ${TOP}`,
  );
  const httpRun = await runHttp(queries);
  const mini = runMiniSearch(queries);
  const rows = [summarize(`HTTP ${httpRun.label} pg_trgm`, httpRun.outcomes), summarize('MiniSearch in process', mini.outcomes)];
  console.table(rows);
  console.log(
    `HTTP stack: src/api/app.ts buildApp (API-key auth, i18n, envelope); ` +
      `sequential requests over one keep-alive connection, timed from request to parsed JSON; ${WARMUP} warm-up queries not counted.`,
  );
  if (httpRun.loadMs) console.log(`data load (all selected countries): ${httpRun.loadMs} ms`);
  console.log(
    `MiniSearch: one index of every Turkish record (place, city, state, postalCode), fuzzy 0.2, prefix, the same folding, searched in the place or city field; index build ${mini.indexMs} ms.`,
  );
  const misses = httpRun.outcomes.filter((o) => !o.hit);
  if (misses.length > 0) {
    console.log(`HTTP misses (${misses.length}): ${misses.map((o) => `${o.query.keyword}→${o.query.target}`).join(', ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
