import type { Queryable } from './database';

// The files of order imports, stored as they were received in chunks (the worker that parses may be another process).

/** Size of the stored file's chunks (all but the last): a byte offset maps to a chunk without an index. */
export const FILE_CHUNK_BYTES = 1024 * 1024;
// ---------------------------------------------------------------------------------------------------------
// The uploaded file

function toBuffer(data: Uint8Array | Buffer): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Stores a file as it streams in, FILE_CHUNK_BYTES at a time: memory holds at most one chunk. */
export function createFileWriter(q: Queryable, fileId: string) {
  let pending: Buffer[] = [];
  let size = 0;
  let chunk = 0;
  let bytes = 0;
  const flush = async (final: boolean) => {
    while (size >= FILE_CHUNK_BYTES || (final && size > 0)) {
      const all = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      const piece = all.subarray(0, FILE_CHUNK_BYTES);
      await q.query('INSERT INTO import_files (file_id, chunk, data) VALUES ($1, $2, $3)', [fileId, chunk++, piece]);
      const rest = all.subarray(piece.length);
      pending = rest.length ? [rest] : [];
      size = rest.length;
    }
  };
  return {
    async write(data: Buffer): Promise<void> {
      pending.push(data);
      size += data.length;
      bytes += data.length;
      if (size >= FILE_CHUNK_BYTES) await flush(false);
    },
    async end(): Promise<{ bytes: number }> {
      await flush(true);
      return { bytes };
    },
  };
}

export async function deleteFile(q: Queryable, fileId: string): Promise<void> {
  await q.query('DELETE FROM import_files WHERE file_id = $1', [fileId]);
}

/** The stored file from a byte offset on, one chunk per read. */
export async function* readFile(q: Queryable, fileId: string, offset = 0): AsyncGenerator<Buffer> {
  let chunk = Math.floor(offset / FILE_CHUNK_BYTES);
  let skip = offset % FILE_CHUNK_BYTES;
  for (;;) {
    const { rows } = await q.query<{ data: Uint8Array }>('SELECT data FROM import_files WHERE file_id = $1 AND chunk = $2', [fileId, chunk++]);
    if (!rows[0]) return;
    const data = toBuffer(rows[0].data);
    yield skip ? data.subarray(skip) : data;
    skip = 0;
  }
}
