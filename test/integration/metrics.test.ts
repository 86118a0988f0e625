import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { consignmentApi, draftBody } from '../support/consignments';
import { startTestService, type TestService } from '../support/test-service';

/**
 * GET /metrics: Prometheus text with the series operators watch, counting what the walk below did, and the
 * Temporal SDK's worker metrics where the process runs a worker.
 */
let svc: TestService;

/** The value of one series (`name{labels}`), or undefined when the exposition lacks it. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(async () => svc?.stop());

describe('GET /metrics', () => {
  it('counts requests by route, consignments, status changes and carrier calls, and carries the SDK worker metrics', async () => {
    const { apiKey } = await svc.customer('Metrics');
    const api = consignmentApi(svc, apiKey);
    const done = await api.processed(draftBody({ preference: 1 }));
    expect((await svc.request({ method: 'POST', url: `/api/v1/consignments/${done.id}/cancel`, apiKey })).statusCode).toBe(200);
    const other = await api.draft(draftBody());
    expect((await svc.request({ method: 'DELETE', url: `/api/v1/consignments/draft/${other.id}`, apiKey })).statusCode).toBe(200);
    await svc.request({ method: 'GET', url: '/api/v1/consignments/999999/details', apiKey });

    const res = await svc.request({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = res.payload;
    // By route pattern, never by URL (ids would make a series each).
    expect(valueOf(text, 'consignflow_http_requests_total{method="POST",route="/api/v1/consignments/draft",status="201"}')).toBe(2);
    expect(valueOf(text, 'consignflow_http_requests_total{method="GET",route="/api/v1/consignments/:id/details",status="404"}')).toBe(1);
    expect(text).not.toMatch(/route="\/api\/v1\/consignments\/\d+/);
    expect(valueOf(text, 'consignflow_http_request_duration_seconds_count{method="POST",route="/api/v1/consignments/draft/:id/start-process"}')).toBe(1);
    expect(valueOf(text, 'consignflow_consignments_total{event="created"}')).toBe(2);
    expect(valueOf(text, 'consignflow_consignments_total{event="processed"}')).toBe(1);
    expect(valueOf(text, 'consignflow_consignments_total{event="cancelled"}')).toBe(1);
    expect(valueOf(text, 'consignflow_consignments_total{event="deleted"}')).toBe(1);
    expect(valueOf(text, 'consignflow_status_transitions_total{from="NEW_DRAFT",to="LABEL_CREATED"}')).toBe(1);
    expect(valueOf(text, 'consignflow_status_transitions_total{from="LABEL_CREATED",to="CANCELLED"}')).toBe(1);
    expect(valueOf(text, 'consignflow_carrier_calls_total{carrier="sandbox",operation="book",outcome="ok"}')).toBe(1);
    expect(valueOf(text, 'consignflow_carrier_calls_total{carrier="sandbox",operation="cancel",outcome="ok"}')).toBe(1);
    expect(valueOf(text, 'consignflow_outbox_backlog')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'consignflow_process_resident_memory_bytes')).toBeGreaterThan(0);
    // The Temporal SDK's own worker metrics, from its exporter on the loopback.
    expect(text).toMatch(/^temporal_\w+/m);
  });

  it("answers a repeated lookup from PGlite's read cache and the lookup after a change from the database, counting both", async () => {
    const { apiKey } = await svc.customer('Cached');
    const draft = await consignmentApi(svc, apiKey).draft(draftBody({ reference_no: 'CACHED-1' }));
    const counts = async () => {
      const text = (await svc.request({ method: 'GET', url: '/metrics' })).payload;
      return { hit: valueOf(text, 'consignflow_db_read_cache_total{result="hit"}'), miss: valueOf(text, 'consignflow_db_read_cache_total{result="miss"}') };
    };
    const reference = async () =>
      JSON.parse((await svc.request({ method: 'GET', url: `/api/v1/consignments/${draft.id}/details`, apiKey })).payload).data.reference_no as string;
    const before = await counts();
    expect(await reference()).toBe('CACHED-1');
    expect(await reference()).toBe('CACHED-1');
    const update = await svc.request({ method: 'PUT', url: `/api/v1/consignments/draft/${draft.id}`, apiKey, payload: { reference_no: 'CACHED-2' } });
    expect(update.statusCode).toBe(200);
    expect(await reference()).toBe('CACHED-2');
    const after = await counts();
    if (svc.db.kind === 'postgres') {
      expect(after).toEqual({ hit: undefined, miss: undefined }); // other processes write too: no cache
    } else {
      expect((after.hit ?? 0) - (before.hit ?? 0)).toBe(1);
      expect((after.miss ?? 0) - (before.miss ?? 0)).toBe(2);
    }
  });

  it("answers lookups sent together each with its own consignment, and another customer's as not found", async () => {
    const a = await svc.customer('Together A');
    const b = await svc.customer('Together B');
    const mine = await Promise.all([1, 2, 3, 4, 5].map((i) => consignmentApi(svc, a.apiKey).draft(draftBody({ reference_no: `TOGETHER-${i}` }))));
    const theirs = await consignmentApi(svc, b.apiKey).draft(draftBody({ reference_no: 'THEIRS' }));
    const asks = [
      ...mine.flatMap((d) => [
        { id: d.id, apiKey: a.apiKey, found: `TOGETHER-${mine.indexOf(d) + 1}` },
        { id: d.id, apiKey: b.apiKey },
      ]),
      { id: theirs.id, apiKey: a.apiKey },
      { id: theirs.id, apiKey: b.apiKey, found: 'THEIRS' },
    ];
    const answers = await Promise.all(
      [...asks, ...asks].map((ask) => svc.request({ method: 'GET', url: `/api/v1/consignments/${ask.id}/details`, apiKey: ask.apiKey })),
    );
    answers.forEach((res, i) => {
      const ask = [...asks, ...asks][i];
      expect([res.statusCode, ask.found ? JSON.parse(res.payload).data.reference_no : undefined]).toEqual([ask.found ? 200 : 404, ask.found]);
    });
  });

  it('counts event-loop stalls between scrapes and exports the GC pauses', async () => {
    const stalls = async () => {
      const text = (await svc.request({ method: 'GET', url: '/metrics' })).payload;
      return (
        (valueOf(text, 'consignflow_event_loop_delay_seconds_bucket{le="+Inf"}') ?? 0) -
        (valueOf(text, 'consignflow_event_loop_delay_seconds_bucket{le="0.25"}') ?? 0)
      );
    };
    const before = await stalls();
    // The service runs in this process: 400 ms of synchronous work here is a stall of its event loop.
    const until = Date.now() + 400;
    while (Date.now() < until);
    let after = before;
    for (let i = 0; i < 50 && after === before; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await stalls();
    }
    expect(after).toBe(before + 1);
    const text = (await svc.request({ method: 'GET', url: '/metrics' })).payload;
    const pauses = ['minor', 'major', 'incremental', 'weakcb'].reduce(
      (n, kind) => n + (valueOf(text, `consignflow_nodejs_gc_duration_seconds_count{kind="${kind}"}`) ?? 0),
      0,
    );
    expect(pauses).toBeGreaterThan(0);
  });

  it('answers every request with its Server-Timing: time in the database, in the engine and in all', async () => {
    const { apiKey } = await svc.customer('Server timing');
    const api = consignmentApi(svc, apiKey);
    const draft = await api.draft(draftBody({ preference: 1 }));
    const lookup = await svc.request({ method: 'GET', url: `/api/v1/consignments/${draft.id}/details`, apiKey });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.headers['server-timing']).toMatch(/^db;dur=\d+\.\d, total;dur=\d+\.\d$/);
    const processed = await svc.request({ method: 'POST', url: `/api/v1/consignments/draft/${draft.id}/start-process`, apiKey });
    expect(processed.statusCode).toBe(200);
    const stages = Object.fromEntries(
      String(processed.headers['server-timing'])
        .split(', ')
        .map((e) => [e.split(';')[0], Number(e.split('dur=')[1])]),
    );
    expect(Object.keys(stages).sort()).toEqual(['db', 'engine', 'total']);
    // The processing waited for its workflow (booking, label): most of the request's time.
    expect(stages.engine).toBeGreaterThan(stages.db);
    expect(stages.total).toBeGreaterThanOrEqual(stages.engine);
    // Refusals carry it too (the error handler's answer).
    const missing = await svc.request({ method: 'GET', url: '/api/v1/consignments/999999/details', apiKey });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['server-timing']).toMatch(/total;dur=/);
  });
});
