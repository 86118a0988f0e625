import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Carrier credentials at rest: AES-256-GCM with a random 96-bit nonce per sealing, stored as
 * nonce ‖ tag ‖ ciphertext. The additional data binds a sealed value to its account (customer and carrier
 * kind), so ciphertexts cannot be swapped between rows. The key never enters the database.
 */
export interface CredentialsVault {
  seal(value: Record<string, unknown>, context: string): Buffer;
  /** Throws when the value was sealed under another key or context, or was altered. */
  open(sealed: Buffer | Uint8Array, context: string): Record<string, unknown>;
}

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const CREDENTIALS_KEY_BYTES = 32;

/**
 * What a carrier account's sealed credentials are bound to: the account and its carrier kind. Kolay Gelsin
 * accounts were made under the kind name `sendeo` (before that name passed to Sendeo's current API) and keep it
 * here, so their stored credentials open after the rename; provider ids are unique, so no two accounts share a context.
 */
export const sealingContext = (providerId: number, customerId: number, carrier: string): string =>
  `carrier-account:${providerId}:${customerId}:${carrier === 'kolay_gelsin' ? 'sendeo' : carrier}`;

export function createCredentialsVault(key: Buffer): CredentialsVault {
  if (key.length !== CREDENTIALS_KEY_BYTES) throw new Error(`the credentials key must be ${CREDENTIALS_KEY_BYTES} bytes`);
  return {
    seal(value, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const encrypted = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return Buffer.concat([nonce, cipher.getAuthTag(), encrypted]);
    },
    open(sealed, context) {
      const bytes = Buffer.from(sealed);
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed credentials are truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
    },
  };
}

/**
 * CREDENTIALS_KEY (base64 of 32 bytes) when set; otherwise a key generated once into `keyFile` (mode 0600)
 * and read from there on later starts. Processes on other machines need the same key: set CREDENTIALS_KEY.
 */
export async function loadCredentialsKey(
  configured: string | undefined,
  keyFile: string,
): Promise<{ key: Buffer; source: 'environment' | 'file' | 'generated' }> {
  if (configured) return { key: decodeKey(configured, 'CREDENTIALS_KEY'), source: 'environment' };
  try {
    return { key: decodeKey((await readFile(keyFile, 'utf8')).trim(), keyFile), source: 'file' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(keyFile), { recursive: true });
  const key = randomBytes(CREDENTIALS_KEY_BYTES);
  // Written whole to a file of this process's own, then linked into place: a process starting at the same moment
  // finds no file or the whole key, never one still being written (writing into the key file itself, another
  // process read it empty: CI). link() fails if the key file exists: the first wins, the others read its key.
  const draft = `${keyFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await chmod(draft, 0o600);
    await link(draft, keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: decodeKey((await readFile(keyFile, 'utf8')).trim(), keyFile), source: 'file' };
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  return { key, source: 'generated' };
}

function decodeKey(text: string, where: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== CREDENTIALS_KEY_BYTES || key.toString('base64').replace(/=+$/, '') !== text.replace(/=+$/, '')) {
    throw new Error(`${where}: the credentials key must be ${CREDENTIALS_KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`)`);
  }
  return key;
}
