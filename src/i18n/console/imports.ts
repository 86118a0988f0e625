import type { Text } from '../messages';

/** The imports page: CSV upload, live progress, per-row errors, labels of an import. */
export const IMPORT_TEXTS = {} satisfies Record<string, Text>;
