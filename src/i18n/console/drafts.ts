import type { Text } from '../messages';

/** The new-draft and edit-draft form, with address search filling the parties. */
export const DRAFT_TEXTS = {} satisfies Record<string, Text>;
