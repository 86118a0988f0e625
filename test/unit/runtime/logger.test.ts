import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/runtime';

describe('the process logger', () => {
  it('redacts API keys and carrier-account webhook secrets in logged headers', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    const headers = { apikey: 'cf_secretKey', authorization: 'APIKEY cf_secretKey', 'x-consignflow-account-secret': 'hook-secret', 'user-agent': 'curl' };
    logger.info({ req: { headers } }, 'request');
    logger.info({ headers }, 'outbound');
    const text = lines.join('');
    expect(text).not.toContain('cf_secretKey');
    expect(text).not.toContain('hook-secret');
    expect(text).toContain('curl');
    expect(text.match(/\[redacted\]/g)).toHaveLength(6);
  });
});
