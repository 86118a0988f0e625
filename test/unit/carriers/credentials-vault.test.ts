import { mkdtemp, readFile, rm, stat, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createCredentialsVault, loadCredentialsKey } from '../../../src/carriers/credentials-vault';

describe('credentials vault (AES-256-GCM)', () => {
  const vault = createCredentialsVault(randomBytes(32));
  const secret = { base_url: 'http://remote.test:8080', api_key: 'live-key-0123456789' };

  it('opens what it sealed, under the same context', () => {
    const sealed = vault.seal(secret, 'carrier-account:1001:7:consignment_api');
    expect(vault.open(sealed, 'carrier-account:1001:7:consignment_api')).toEqual(secret);
  });

  it('never stores the plain text and never seals the same way twice', () => {
    const a = vault.seal(secret, 'ctx');
    const b = vault.seal(secret, 'ctx');
    expect(a.includes(Buffer.from('live-key-0123456789'))).toBe(false);
    expect(a.equals(b)).toBe(false);
    expect(a.length).toBe(12 + 16 + Buffer.byteLength(JSON.stringify(secret)));
  });

  it('refuses another context (a ciphertext moved to another account), another key, and any altered byte', () => {
    const sealed = vault.seal(secret, 'carrier-account:1001:7:consignment_api');
    expect(() => vault.open(sealed, 'carrier-account:1002:7:consignment_api')).toThrow();
    expect(() => createCredentialsVault(randomBytes(32)).open(sealed, 'carrier-account:1001:7:consignment_api')).toThrow();
    for (const index of [0, 12, 28, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[index] ^= 0x01;
      expect(() => vault.open(altered, 'carrier-account:1001:7:consignment_api')).toThrow();
    }
    expect(() => vault.open(sealed.subarray(0, 20), 'carrier-account:1001:7:consignment_api')).toThrow('truncated');
  });

  it('takes only 32-byte keys', () => {
    expect(() => createCredentialsVault(randomBytes(16))).toThrow('32 bytes');
  });
});

describe('loadCredentialsKey', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cf-key-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('generates a key once into the data directory (mode 0600) and reads the same key afterwards', async () => {
    const file = join(dir, 'nested', 'credentials.key');
    const first = await loadCredentialsKey(undefined, file);
    expect(first.source).toBe('generated');
    expect(first.key.length).toBe(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await loadCredentialsKey(undefined, file);
    expect(second).toEqual({ key: first.key, source: 'file' });
  });

  it('agrees on one key when two processes start together', async () => {
    const file = join(dir, 'credentials.key');
    const [a, b] = await Promise.all([loadCredentialsKey(undefined, file), loadCredentialsKey(undefined, file)]);
    expect(a.key.equals(b.key)).toBe(true);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64').equals(a.key)).toBe(true);
  });

  it('never shows a starting process a key file another one is still writing', async () => {
    // Another process reads the file while this one creates it: whatever it finds must be the whole key.
    const seen = new Set<string>();
    for (let round = 0; round < 40; round++) {
      const file = join(dir, `race-${round}.key`);
      let done = false;
      const read = async () => {
        while (!done) seen.add(await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => e.code!));
      };
      const readers = [read(), read(), read()];
      const { key } = await loadCredentialsKey(undefined, file);
      done = true;
      await Promise.all(readers);
      seen.delete('ENOENT');
      seen.delete(`${key.toString('base64')}\n`);
    }
    expect([...seen]).toEqual([]);
    // Nothing of the writing is left behind.
    expect((await readdir(dir)).filter((name) => !/^race-\d+\.key$/.test(name))).toEqual([]);
  });

  it('prefers CREDENTIALS_KEY and refuses a malformed key with a clear error', async () => {
    const key = randomBytes(32);
    expect(await loadCredentialsKey(key.toString('base64'), join(dir, 'unused.key'))).toEqual({ key, source: 'environment' });
    await expect(loadCredentialsKey('c2hvcnQ=', join(dir, 'x.key'))).rejects.toThrow('CREDENTIALS_KEY: the credentials key must be 32 bytes in base64');
    await writeFile(join(dir, 'bad.key'), 'not a key\n');
    await expect(loadCredentialsKey(undefined, join(dir, 'bad.key'))).rejects.toThrow('bad.key: the credentials key must be 32 bytes');
  });
});
