import { DomainError } from '../../../src/domain/errors';
import { parseEndpointUrl, parseWebhookInput, WEBHOOK_EVENTS } from '../../../src/domain/webhook';

const valid = {
  description: 'Status changes',
  endpoint: 'https://hooks.example.com/consignflow',
  subscribedEvent: 'consignment.status.updated',
  securityType: 'header',
  dataType: 'JSON',
  data: '',
  securityData: [{ headerKey: 'X-Api-Key', headerValue: 'secret-1' }],
  status: 1,
};

const issuesOf = (body: unknown, mode: 'create' | 'replace' | 'patch' = 'create') => {
  try {
    parseWebhookInput(body, mode);
  } catch (error) {
    return (error as DomainError).issues;
  }
  throw new Error('expected a refusal');
};

describe('parseWebhookInput', () => {
  it('accepts the the API contract sample and normalises the type names', () => {
    expect(parseWebhookInput({ ...valid, securityType: 'HEADER', dataType: 'json', description: '  Status changes ' }, 'create')).toEqual(valid);
    expect(parseWebhookInput({ ...valid, data: undefined }, 'create').data).toBe('');
    expect(WEBHOOK_EVENTS).toEqual(['consignment.status.updated', 'consignment.deleted']);
  });

  it('requires every field the API (docs/api.md) marks required', () => {
    expect(issuesOf({}).map((i) => [i.field, i.code])).toEqual([
      ['description', 'NOT_BLANK'],
      ['endpoint', 'NOT_BLANK'],
      ['subscribedEvent', 'NOT_BLANK'],
      ['securityType', 'NOT_BLANK'],
      ['dataType', 'NOT_BLANK'],
      ['status', 'NOT_BLANK'],
      ['securityData', 'NOT_BLANK'],
    ]);
    expect(issuesOf({}, 'replace')).toHaveLength(7);
    expect(parseWebhookInput({}, 'patch')).toEqual({});
  });

  it('checks bounds, types and choices', () => {
    const issues = issuesOf({
      ...valid,
      description: 'd'.repeat(256),
      endpoint: 'ftp://files.example.com/x',
      subscribedEvent: 'consignment.created',
      securityType: 'oauth',
      dataType: 'XML',
      data: 7,
      status: 2,
      securityData: [
        { headerKey: 'Bad Header', headerValue: 'v' },
        { headerKey: 'Host', headerValue: 'x' },
        { headerKey: 'X-A', headerValue: 'line\r\nbreak' },
        { headerKey: 'x-a', headerValue: 'dup' },
        'no',
        { headerValue: 'v'.repeat(256) },
      ],
    });
    expect(issues.map((i) => [i.field, i.code])).toEqual([
      ['description', 'TOO_LONG'],
      ['endpoint', 'INVALID_ENDPOINT_URL'],
      ['subscribedEvent', 'UNKNOWN_WEBHOOK_EVENT'],
      ['securityType', 'INVALID_CHOICE'],
      ['dataType', 'INVALID_CHOICE'],
      ['data', 'INVALID_TYPE'],
      ['status', 'INVALID_CHOICE'],
      ['securityData.0.headerKey', 'INVALID_HEADER_KEY'],
      ['securityData.1.headerKey', 'INVALID_HEADER_KEY'],
      ['securityData.2.headerValue', 'INVALID_HEADER_VALUE'],
      ['securityData.3.headerKey', 'INVALID_HEADER_KEY'],
      ['securityData.4', 'INVALID_TYPE'],
      ['securityData.5.headerKey', 'NOT_BLANK'],
      ['securityData.5.headerValue', 'TOO_LONG'],
    ]);
    expect(issuesOf({ ...valid, status: '1' })).toEqual([{ code: 'INVALID_TYPE', field: 'status', params: { type: 'integer' } }]);
    expect(issuesOf({ ...valid, status: 1.5 })[0].code).toBe('INVALID_TYPE');
    expect(issuesOf({ ...valid, securityData: {} })).toEqual([{ code: 'INVALID_TYPE', field: 'securityData', params: { type: 'array' } }]);
    expect(issuesOf({ ...valid, securityData: Array.from({ length: 21 }, (_, i) => ({ headerKey: `X-${i}`, headerValue: 'v' })) })[0].code).toBe(
      'TOO_MANY_ENTRIES',
    );
    expect(issuesOf({ ...valid, endpoint: `https://example.com/${'a'.repeat(240)}` })[0]).toEqual({
      code: 'TOO_LONG',
      field: 'endpoint',
      params: { max: 255 },
    });
    expect(issuesOf([valid])).toEqual([{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
  });

  it('validates only the fields a patch sends', () => {
    expect(parseWebhookInput({ status: 0 }, 'patch')).toEqual({ status: 0 });
    expect(issuesOf({ endpoint: 'not a url' }, 'patch')).toEqual([{ code: 'INVALID_ENDPOINT_URL', field: 'endpoint' }]);
  });
});

describe('parseEndpointUrl', () => {
  it.each(['https://hooks.example.com/x', 'http://127.0.0.1:8080/hook?a=1', 'http://[::1]/x', 'https://hooks.example.com'])('accepts %s', (url) => {
    expect(parseEndpointUrl(url)).toBeInstanceOf(URL);
  });
  it.each([
    'ftp://example.com/x',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'example.com/hook',
    'https://user:pass@example.com/',
    'https://exa mple.com/',
    'http://',
    'https://example.com/a\nb',
    '',
  ])('refuses %j', (url) => {
    expect(parseEndpointUrl(url)).toBeUndefined();
  });
});
