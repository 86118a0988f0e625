import type { DocumentType } from '../domain/documents';
import type { Queryable } from './database';

/** A stored document as responses describe it (never its bytes). */
export interface DocumentRecord {
  id: number;
  fileName: string;
  contentType: DocumentType;
  size: number;
  createdAt: string;
}

type Row = { id: number | string; file_name: string; content_type: DocumentType; size: number; created_at: Date | string };
const toRecord = (r: Row): DocumentRecord => ({
  id: Number(r.id),
  fileName: r.file_name,
  contentType: r.content_type,
  size: r.size,
  createdAt: new Date(r.created_at).toISOString(),
});

/** The JSON of a row's documents beside a consignment `c` (its `documents[].id` that are its customer's). */
export const DOCUMENT_FILES_JSON = `COALESCE((SELECT json_agg(json_build_object('id', d.id, 'file_name', d.file_name, 'content_type', d.content_type, 'size', d.size, 'created_at', d.created_at))
    FROM documents d WHERE d.customer_id = c.customer_id AND d.id IN (SELECT (r->>'id')::bigint FROM jsonb_array_elements(c.documents) r)), '[]'::json)`;

/** Rows of DOCUMENT_FILES_JSON as records. */
export const documentRecords = (rows: Row[]): DocumentRecord[] => rows.map(toRecord);

export async function insertDocument(
  q: Queryable,
  d: { customerId: number; fileName: string; contentType: DocumentType; sha256: string; content: Uint8Array },
): Promise<DocumentRecord> {
  const { rows } = await q.query<Row>(
    `INSERT INTO documents (customer_id, file_name, content_type, size, sha256, content) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, file_name, content_type, size, created_at`,
    [d.customerId, d.fileName, d.contentType, d.content.length, d.sha256, d.content],
  );
  return toRecord(rows[0]);
}

/** Which of `ids` are documents of the customer. */
export async function findOwnedDocumentIds(q: Queryable, customerId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const { rows } = await q.query<{ id: number | string }>('SELECT id FROM documents WHERE customer_id = $1 AND id = ANY($2::bigint[])', [customerId, ids]);
  return new Set(rows.map((r) => Number(r.id)));
}

/** A document's bytes and description, for its signed download. */
export async function findDocumentFile(q: Queryable, id: number): Promise<(DocumentRecord & { content: Uint8Array }) | undefined> {
  const { rows } = await q.query<Row & { content: Uint8Array }>('SELECT id, file_name, content_type, size, created_at, content FROM documents WHERE id = $1', [
    id,
  ]);
  return rows[0] && { ...toRecord(rows[0]), content: rows[0].content };
}
