import { credentialsHint, parseCarrierAccountInput } from '../../../src/domain/carrier-account';
import { DomainError } from '../../../src/domain/errors';

const valid = {
  carrier: 'consignment_api',
  description: 'Main remote',
  credentials: { base_url: 'https://ship.example.com', api_key: 'abcdef123456' },
  settings: { preference: 1, language: 'tr' },
};

function issuesOf(body: unknown, mode: 'create' | 'replace' = 'create') {
  try {
    parseCarrierAccountInput(body, mode);
  } catch (error) {
    if (error instanceof DomainError) return error.issues;
    throw error;
  }
  throw new Error('accepted');
}

describe('parseCarrierAccountInput', () => {
  it('accepts a consignment_api account and fills the defaults', () => {
    expect(parseCarrierAccountInput(valid, 'create')).toEqual({ ...valid, status: 1 });
    expect(parseCarrierAccountInput({ carrier: 'consignment_api', credentials: valid.credentials }, 'create')).toEqual({
      carrier: 'consignment_api',
      description: '',
      credentials: valid.credentials,
      settings: {},
      status: 1,
    });
  });

  it('names every bad field with its path', () => {
    expect(issuesOf({ carrier: 'fedex', credentials: {} })).toEqual([{ code: 'INVALID_CHOICE', field: 'carrier' }]);
    expect(issuesOf({ ...valid, credentials: { base_url: 'ftp://x', api_key: '' } })).toEqual([
      { code: 'INVALID_CHOICE', field: 'credentials.base_url' },
      { code: 'NOT_BLANK', field: 'credentials.api_key' },
    ]);
    expect(issuesOf({ ...valid, settings: { preference: 3, provider_id: -1 } })).toEqual([
      { code: 'NOT_POSITIVE', field: 'settings.provider_id' },
      { code: 'INVALID_CHOICE', field: 'settings.preference' },
    ]);
    expect(issuesOf({ ...valid, credentials: { ...valid.credentials, password: 'x' } })).toEqual([{ code: 'UNKNOWN_FIELD', field: 'credentials.password' }]);
    expect(issuesOf({ ...valid, owner: 1 })).toEqual([{ code: 'UNKNOWN_FIELD', field: 'owner' }]);
    expect(issuesOf({ ...valid, credentials: undefined })).toEqual([{ code: 'NOT_BLANK', field: 'credentials' }]);
    expect(issuesOf([])).toEqual([{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
  });

  it('takes a status map, and refuses a specific preference without the remote carrier it names', () => {
    const settings = { provider_id: 3, preference: 0, status_map: { '77': 7, '78': 5 } };
    expect(parseCarrierAccountInput({ ...valid, settings }, 'create').settings).toEqual(settings);
    expect(issuesOf({ ...valid, settings: { preference: 0 } })).toEqual([{ code: 'PREFERENCE_RULE', field: 'settings.provider_id' }]);
    expect(issuesOf({ ...valid, settings: { status_map: { abc: 7 } } })).toEqual([{ code: 'INVALID_CHOICE', field: 'settings.status_map.abc' }]);
    expect(issuesOf({ ...valid, settings: { status_map: { '77': -1 } } })).toEqual([
      { code: 'TOO_SMALL', field: 'settings.status_map.77', params: { min: 0 } },
    ]);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [String(i), 5]));
    expect(issuesOf({ ...valid, settings: { status_map: many } })).toEqual([{ code: 'TOO_MANY_ENTRIES', field: 'settings.status_map', params: { max: 100 } }]);
  });

  it('lets a replace keep the stored credentials', () => {
    expect(parseCarrierAccountInput({ carrier: 'consignment_api', status: 0 }, 'replace')).toEqual({
      carrier: 'consignment_api',
      description: '',
      credentials: undefined,
      settings: {},
      status: 0,
    });
  });
});

describe('dhl_express accounts', () => {
  it('take the MyDHL API user, password and account number, and the endpoint and product codes as settings', () => {
    const dhl = {
      carrier: 'dhl_express',
      credentials: { username: 'apiuser', password: 'Sup3r$ecret!', account_number: '123456789' },
      settings: { base_url: 'https://express.api.dhl.com/mydhlapi', product_international: 'P' },
    };
    expect(parseCarrierAccountInput(dhl, 'create')).toEqual({ ...dhl, description: '', status: 1 });
    expect(issuesOf({ ...dhl, credentials: { ...dhl.credentials, account_number: '12 34' } })).toEqual([
      { code: 'INVALID_CHOICE', field: 'credentials.account_number' },
    ]);
    expect(issuesOf({ ...dhl, settings: { product_domestic: 'toolong1' } })).toEqual([{ code: 'INVALID_CHOICE', field: 'settings.product_domestic' }]);
    expect(issuesOf({ ...dhl, credentials: { api_key: 'x' } })).toEqual([
      { code: 'NOT_BLANK', field: 'credentials.username' },
      { code: 'NOT_BLANK', field: 'credentials.password' },
      { code: 'NOT_BLANK', field: 'credentials.account_number' },
      { code: 'UNKNOWN_FIELD', field: 'credentials.api_key' },
    ]);
    expect(credentialsHint('dhl_express', dhl.credentials)).toBe('****ret!');
  });
});

describe('credentialsHint', () => {
  it('shows the last four characters of a long enough secret, nothing of a short one', () => {
    expect(credentialsHint('consignment_api', { api_key: 'abcdef123456' })).toBe('****3456');
    expect(credentialsHint('consignment_api', { api_key: 'short' })).toBe('****');
  });
});
