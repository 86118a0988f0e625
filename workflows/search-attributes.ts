import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The custom search attributes operators filter on in the Temporal UI, e.g.
 * `ReferenceNo = "ORDER-1001"` or `ConsignmentStatus = "NEW_DRAFT" AND CustomerCode = "C000001"`.
 * One list: the dev server registers them from here, and so does `ensureSearchAttributes` for a cluster.
 */
export const SA = {
  ConsignmentId: defineSearchAttributeKey('ConsignmentId', SearchAttributeType.INT),
  ReferenceNo: defineSearchAttributeKey('ReferenceNo', SearchAttributeType.KEYWORD),
  Barcode: defineSearchAttributeKey('Barcode', SearchAttributeType.KEYWORD),
  ConsignmentStatus: defineSearchAttributeKey('ConsignmentStatus', SearchAttributeType.KEYWORD),
  CustomerCode: defineSearchAttributeKey('CustomerCode', SearchAttributeType.KEYWORD),
  ProviderId: defineSearchAttributeKey('ProviderId', SearchAttributeType.INT),
  ImportId: defineSearchAttributeKey('ImportId', SearchAttributeType.KEYWORD),
  OrderSourceId: defineSearchAttributeKey('OrderSourceId', SearchAttributeType.KEYWORD),
} as const;

export const SEARCH_ATTRIBUTE_KEYS = Object.values(SA);
