export { consignmentWorkflow } from './consignment.workflow';
