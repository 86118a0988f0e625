import { describe, expect, it } from '@jest/globals';
import { classify } from '../../../src/api/errors';

/**
 * A dependency that is away answers 503 (retry later), never 500. The errors below are what pg, the Temporal
 * client and sockets throw while PostgreSQL or Temporal stops, restarts or recovers
 * (test/integration/scale-out.test.ts provokes them under load).
 */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { name: 'error', severity: 'FATAL', code });

describe('classify: an unavailable dependency is 503', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is not yet accepting connections'],
    ['57P03', 'the database system is shutting down'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['08001', 'could not establish connection'],
  ])('PostgreSQL %s (%s)', (code, message) => {
    expect(classify(pgError(code, message))?.code).toBe('SERVICE_UNAVAILABLE');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'])('a socket error %s', (code) => {
    expect(classify(Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code }))?.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('pg’s "Connection terminated unexpectedly" and a gRPC UNAVAILABLE', () => {
    expect(classify(new Error('Connection terminated unexpectedly'))?.code).toBe('SERVICE_UNAVAILABLE');
    expect(classify(Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }))?.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('leaves a programming error or a constraint violation unexpected (500)', () => {
    expect(classify(new TypeError('x is undefined'))).toBeUndefined();
    expect(classify(pgError('23503', 'insert or update violates foreign key constraint'))).toBeUndefined();
    expect(classify(pgError('42P01', 'relation "x" does not exist'))).toBeUndefined();
  });
});
