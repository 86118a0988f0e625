import { createHmac } from 'node:crypto';
import { generateSecret, secretBytes, sign, signatureHeaders, verify } from '../../../src/webhooks/signature';

describe('Standard Webhooks signature', () => {
  it('matches the Standard Webhooks reference test vector', () => {
    // From the standard-webhooks reference libraries' tests.
    expect(sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('is HMAC-SHA256 over id.timestamp.body with the decoded secret', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretBytes(secret)).toHaveLength(32);
    const body = '{"id":"e1","data":{"status":4}}';
    const headers = signatureHeaders(secret, 'e1', body, new Date('2025-05-01T10:00:00Z'));
    expect(headers['webhook-id']).toBe('e1');
    expect(headers['webhook-timestamp']).toBe('1746093600');
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`e1.1746093600.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('verifies, and rejects a changed body, another secret, an old timestamp and other versions', () => {
    const secret = generateSecret();
    const now = new Date();
    const body = '{"a":1}';
    const h = signatureHeaders(secret, 'evt', body, now);
    const given = { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] };
    expect(verify(secret, given, body, { now })).toBe(true);
    expect(verify(secret, { ...given, signature: `v1,bm9wZQ== ${given.signature}` }, body, { now })).toBe(true);
    expect(verify(secret, given, '{"a":2}', { now })).toBe(false);
    expect(verify(generateSecret(), given, body, { now })).toBe(false);
    expect(verify(secret, given, body, { now: new Date(now.getTime() + 10 * 60_000) })).toBe(false);
    expect(verify(secret, { ...given, signature: given.signature.replace('v1,', 'v2,') }, body, { now })).toBe(false);
  });
});
