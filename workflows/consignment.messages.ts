import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ConsignmentRecord } from '../src/domain/consignment';
import type { DraftInput } from '../src/domain/draft';

export interface ConsignmentWorkflowInput {
  uuid: string;
  customerCode: string;
  /** carried over by continue-as-new */
  state?: ConsignmentState;
}

export interface ConsignmentState {
  uuid: string;
  creation: 'pending' | 'created' | 'refused';
  consignmentId: number | null;
  status: number | null;
  referenceNo: string | null;
  providerId: number | null;
  /** the refusal a duplicate creation request gets again */
  refusal?: { message: string; type: string; details: unknown[] };
}

export interface CreateDraftRequest {
  customerId: number;
  userId: number | null;
  draft: DraftInput;
  importId?: string | null;
}

/** Creates the draft (update-with-start). A duplicate request (same uuid) gets the stored draft back. */
export const createDraftUpdate = defineUpdate<ConsignmentRecord, [CreateDraftRequest]>('createDraft');
/** Partial update of a draft in status 24 (SPEC §4.4). */
export const updateDraftUpdate = defineUpdate<ConsignmentRecord, [DraftInput]>('updateDraft');
export const consignmentStateQuery = defineQuery<ConsignmentState>('state');
