/** Workflow ids, one helper per workflow type (DESIGN.md principle 2): deterministic, so retries and duplicates collapse. */
export const consignmentWorkflowId = (uuid: string): string => `consignment:${uuid}`;
