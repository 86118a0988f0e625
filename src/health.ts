/**
 * What a process reports on `/healthz` and `/readyz`: the API's routes answer it, and the worker's own HTTP
 * port (src/temporal/worker-http.ts) too, so it lives beside both rather than in either.
 */
export interface HealthReport {
  database: boolean;
  temporal: boolean;
  worker: boolean;
}
export type HealthCheck = () => Promise<HealthReport>;
