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
});
