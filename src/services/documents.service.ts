import { createHash } from 'node:crypto';
import type { Caller } from '../db/customers.repository';
import type { Database } from '../db/database';
import { findDocumentFile, findOwnedDocumentIds, insertDocument, type DocumentRecord } from '../db/documents.repository';
import { DOCUMENT_MAX_BYTES, documentFileName, sniffDocumentType } from '../domain/documents';
import type { DocumentInput } from '../domain/draft';
import { DomainError, type Issue } from '../domain/errors';

export interface DocumentServiceDeps {
  db: Database;
  /** DOCUMENT_MAX_BYTES */
  maxBytes?: number;
}

/**
 * Uploaded documents (POST /api/v1/documents): PDF, PNG or JPEG, recognised by content; drafts reference
 * them by id (`documents[].id`), only the caller's own; downloads go by signed link.
 */
export function createDocumentService(deps: DocumentServiceDeps) {
  const maxBytes = deps.maxBytes ?? DOCUMENT_MAX_BYTES;
  return {
    maxBytes,

    /** Reads the upload (at most maxBytes), recognises its type and stores it. */
    async upload(caller: Caller, source: AsyncIterable<Buffer>, fileName: string | null): Promise<DocumentRecord> {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of source) {
        size += chunk.length;
        if (size > maxBytes) throw new DomainError('DOCUMENT_TOO_LARGE', { field: 'file', params: { max: Math.round((maxBytes / 1024 / 1024) * 10) / 10 } });
        chunks.push(chunk);
      }
      const content = Buffer.concat(chunks);
      if (content.length === 0) throw new DomainError('VALIDATION_FAILED', [{ code: 'NOT_BLANK', field: 'file' }]);
      const type = sniffDocumentType(content);
      if (!type) throw new DomainError('DOCUMENT_TYPE_UNSUPPORTED', { field: 'file' });
      return insertDocument(deps.db, {
        customerId: caller.customerId,
        fileName: documentFileName(fileName, type),
        contentType: type,
        sha256: createHash('sha256').update(content).digest('hex'),
        content,
      });
    },

    /** The draft's document references that are not the caller's documents, as field issues. */
    async unknownReferences(caller: Caller, documents: DocumentInput[] | undefined): Promise<Issue[]> {
      if (!documents?.length) return [];
      const owned = await findOwnedDocumentIds(
        deps.db,
        caller.customerId,
        documents.map((d) => d.id),
      );
      return documents.flatMap((d, i): Issue[] => (owned.has(d.id) ? [] : [{ code: 'DOCUMENT_UNKNOWN', field: `documents.${i}.id` }]));
    },

    file: (id: number) => findDocumentFile(deps.db, id),
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
