import { ERROR_CODES } from '../../../src/domain/errors';
import { ERROR_MESSAGES, SUCCESS_MESSAGES, negotiateLocale, translate } from '../../../src/i18n/messages';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalog', () => {
  it.each([...ERROR_CODES])('%s has non-empty en and tr texts with the same parameters', (code) => {
    const text = ERROR_MESSAGES[code];
    expect(text.en.trim()).not.toBe('');
    expect(text.tr.trim()).not.toBe('');
    expect(placeholders(text.tr)).toEqual(placeholders(text.en));
  });

  it('has no text for a code that does not exist', () => {
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(Object.entries(SUCCESS_MESSAGES))('success %s has non-empty en and tr texts', (_code, text) => {
    expect(text.en.trim()).not.toBe('');
    expect(text.tr.trim()).not.toBe('');
  });

  it('fills parameters into the chosen language', () => {
    expect(translate(ERROR_MESSAGES.TOO_MANY_ENTRIES, 'en', { max: 50 })).toBe('This collection should contain 50 elements or less.');
    expect(translate(ERROR_MESSAGES.TOO_LONG, 'tr', { max: 255 })).toBe('Bu değer çok uzun. En fazla 255 karakter olmalıdır.');
  });
});

describe('negotiateLocale', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['tr', 'tr'],
    ['tr-TR', 'tr'],
    ['TR-tr', 'tr'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['en;q=0.5, tr;q=0.9', 'tr'],
    ['tr;q=0.2, en', 'en'],
    ['de, tr;q=0.1', 'tr'],
    ['de-DE, fr;q=0.8', 'en'],
    ['tr;q=0', 'en'],
    ['*', 'en'],
  ])('%j → %s', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });
});
