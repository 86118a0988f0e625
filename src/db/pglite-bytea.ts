const BYTEA = 17;

/**
 * bytea in PostgreSQL's hex format, by Buffer's native hex codec, for PGlite's `serializers` and `parsers`
 * (PGlite's own goes byte by byte in JavaScript, which makes most of the time of a label PDF's insert and read):
 * PGlite in its own thread (pglite-worker.ts) and in the caller's thread (database.ts) alike.
 */
export const BYTEA_HEX = {
  serializers: {
    [BYTEA]: (bytes: unknown) => {
      if (!(bytes instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
    },
  },
  parsers: { [BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
};
