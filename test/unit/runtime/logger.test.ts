import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { createLogger, logFormatOf } from '../../../src/runtime';

/** A stream that keeps what the logger writes to it, chunk by chunk. */
function lineSink(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, sink };
}

describe('the process logger', () => {
  it('redacts API keys and carrier-account webhook secrets in logged headers', () => {
    const { lines, sink } = lineSink();
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

  it('writes pretty lines for people when asked (a terminal, by default), with the same redaction', () => {
    const { lines, sink } = lineSink();
    createLogger('info', sink, 'pretty').info({ reqId: 'r-1', headers: { apikey: 'cf_secretKey' } }, 'request completed');
    // Without the colour codes.
    const text = stripVTControlCharacters(lines.join(''));
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/INFO.*request completed/);
    expect(text).toContain('reqId: "r-1"');
    expect(text).not.toContain('cf_secretKey');
    expect(text).toContain('[redacted]');
  });

  it('chooses pretty on a terminal and JSON otherwise, unless told', () => {
    expect(logFormatOf('auto', true)).toBe('pretty');
    expect(logFormatOf('auto', false)).toBe('json');
    expect(logFormatOf('json', true)).toBe('json');
    expect(logFormatOf('pretty', false)).toBe('pretty');
  });
});
