import type { Client } from '@temporalio/client';
import { cancelImportUpdate, type ImportTuning } from '../../workflows/import.messages';
import type { importWorkflow } from '../../workflows/import.workflow';
import { SA } from '../../workflows/search-attributes';
import type { ImportState } from '../domain/imports';
import { toDomainError } from './failures';

const WORKFLOW_TYPE = 'importWorkflow';

/** One workflow per order import (the import's uuid). */
export const importWorkflowId = (importId: string): string => `import:${importId}`;

export interface ImportStarterDeps {
  client: Client;
  taskQueue: string;
  /** tests: small pages and batches */
  tuning?: Partial<ImportTuning>;
}

/** How order-import workflows are started and cancelled: the only code that does. */
export function createImportStarter(deps: ImportStarterDeps) {
  return {
    async start(request: { importId: string; customerCode: string; summary: string }): Promise<void> {
      await deps.client.workflow.start<typeof importWorkflow>(WORKFLOW_TYPE, {
        workflowId: importWorkflowId(request.importId),
        taskQueue: deps.taskQueue,
        args: [{ importId: request.importId, ...(deps.tuning && { tuning: deps.tuning }) }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: request.summary,
        typedSearchAttributes: [
          { key: SA.ImportId, value: request.importId },
          { key: SA.CustomerCode, value: request.customerCode },
        ],
      });
    },

    /** Stops the import; answers once it has stopped. A finished import refuses with IMPORT_FINISHED. */
    async cancel(importId: string): Promise<{ state: ImportState }> {
      try {
        return await deps.client.workflow.getHandle<typeof importWorkflow>(importWorkflowId(importId)).executeUpdate(cancelImportUpdate, { args: [] });
      } catch (error) {
        throw toDomainError(error, 'IMPORT_FINISHED');
      }
    },
  };
}

export type ImportStarter = ReturnType<typeof createImportStarter>;
