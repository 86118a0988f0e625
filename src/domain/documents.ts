/** The kinds of file a customer may upload as a document, recognised by their first bytes, not their names. */
export const DOCUMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Largest upload by default (DOCUMENT_MAX_BYTES). */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

// Each format's signature (ISO 32000 `%PDF-`, the PNG signature, JPEG's SOI marker followed by a marker).
const SIGNATURES: { type: DocumentType; bytes: number[] }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** The document type the content starts like, or undefined for anything else. */
export function sniffDocumentType(content: Uint8Array): DocumentType | undefined {
  return SIGNATURES.find(({ bytes }) => content.length >= bytes.length && bytes.every((b, i) => content[i] === b))?.type;
}

/** The file name as stored and shown: the last path segment, control characters and quotes out, at most 255 characters. */
export function documentFileName(given: string | null | undefined, type: DocumentType): string {
  const extension = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' }[type];
  const base = (given ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim();
  return [...(base || `document.${extension}`)].slice(0, 255).join('');
}
