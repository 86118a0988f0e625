export { consignmentWorkflow } from './consignment.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';
export { importWorkflow } from './import.workflow';
export { orderEventWorkflow } from './order-event.workflow';
export { trackingPollerWorkflow } from './tracking-poller.workflow';
export { orderSourcePullWorkflow } from './order-source-pull.workflow';
