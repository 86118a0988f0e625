import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';
import { settingOrCreate } from '../db/settings.repository';

/**
 * Label and document downloads need no API key (printers and browsers fetch them); instead each URL carries
 * an HMAC-SHA256 of the id and file name (docs/api.md, "Labels"), so ids cannot be enumerated.
 */
export function createLabelLinks(secret: string, publicBaseUrl: string) {
  // Labels sign `{id}/{file}`; uploaded documents `document/{id}/{file}`, so neither link opens the other.
  const sign = (subject: string) => createHmac('sha256', secret).update(subject).digest('base64url').slice(0, 32);
  const matches = (subject: string, hash: unknown): boolean => {
    // Compared as bytes: a 32-character hash with non-ASCII characters is longer in bytes.
    const given = typeof hash === 'string' ? Buffer.from(hash) : undefined;
    if (!given || given.length !== 32) return false;
    return timingSafeEqual(Buffer.from(sign(subject)), given);
  };
  return {
    url: (labelId: number, fileName: string) =>
      `${publicBaseUrl}/api/v1/labels/${labelId}/${encodeURIComponent(fileName)}?hash=${sign(`${labelId}/${fileName}`)}`,
    verify: (labelId: number, fileName: string, hash: unknown): boolean => matches(`${labelId}/${fileName}`, hash),
    documentUrl: (documentId: number, fileName: string) =>
      `${publicBaseUrl}/api/v1/documents/${documentId}/${encodeURIComponent(fileName)}?hash=${sign(`document/${documentId}/${fileName}`)}`,
    verifyDocument: (documentId: number, fileName: string, hash: unknown): boolean => matches(`document/${documentId}/${fileName}`, hash),
  };
}
export type LabelLinks = ReturnType<typeof createLabelLinks>;

/** LABEL_SIGNING_SECRET, or one generated once and kept in the database so links survive restarts. */
export async function labelSigningSecret(db: Queryable, configured?: string): Promise<string> {
  if (configured) return configured;
  return settingOrCreate(db, 'label_signing_secret', () => randomBytes(32).toString('base64url'));
}
