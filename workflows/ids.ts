/** Workflow ids, one helper per workflow type (DESIGN.md principle 2): deterministic, so retries and duplicates collapse. */
export const consignmentWorkflowId = (uuid: string): string => `consignment:${uuid}`;
/** One delivery queue per webhook and consignment: the consignment's events reach that webhook in order. */
export const webhookDeliveryWorkflowId = (webhookId: string, consignmentId: number): string => `webhook-delivery:${webhookId}:${consignmentId}`;
/** One workflow per order import (the import's uuid). */
export const importWorkflowId = (importId: string): string => `import:${importId}`;
