/** The baseline of bench/import.ts: a workflow that does nothing, so starting it measures the Temporal server alone. */
export async function emptyWorkflow(): Promise<void> {
  // nothing
}
