/** The states of an order import; the last three are final. */
export const IMPORT_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];
export const FINISHED_STATES: readonly ImportState[] = ['completed', 'failed', 'cancelled'];

/** Where parsing continues: the byte offset and spreadsheet row of the next order's first record, and its seq. */
export interface ParseCursor {
  offset: number;
  row: number;
  seq: number;
}
