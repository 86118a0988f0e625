import { z } from 'zod';
import type { DocumentRecord } from '../../db/documents.repository';
import { DOCUMENT_TYPES } from '../../domain/documents';
import { answerSchema } from '../openapi/operation';
import { formatTimestamp } from './timestamps';

export const DocumentAnswer = answerSchema(
  'Document',
  z.object({
    id: z.int().meta({ description: 'what drafts put in `documents[].id`' }),
    file_name: z.string(),
    content_type: z.enum(DOCUMENT_TYPES).meta({ description: 'recognised from the content' }),
    size: z.int().min(1).meta({ description: 'bytes' }),
    file_url: z.string().meta({ description: 'signed download link (no API key needed)' }),
    created_at: z.string(),
  }),
  { description: 'An uploaded document.' },
);

/** A document as answers show it: its description and a signed link, never its bytes. */
export function toDocumentResponse(d: DocumentRecord, documentUrl: (id: number, fileName: string) => string): z.output<typeof DocumentAnswer> {
  return {
    id: d.id,
    file_name: d.fileName,
    content_type: d.contentType,
    size: d.size,
    file_url: documentUrl(d.id, d.fileName),
    created_at: formatTimestamp(d.createdAt),
  };
}
