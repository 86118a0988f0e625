import { classify, errorEnvelope } from '../api/errors';
import type { Locale } from '../i18n/messages';
import { parsePageRequest } from '../domain/pagination';
import type { Notice } from './layout';

/** A refusal's message as the API words it, with the field it names. */
export interface Message {
  message: string;
  field?: string;
}

/** The messages of a refusal (a DomainError, or a framework error the API maps), or undefined for an unexpected failure. */
export function refusalMessages(error: unknown, locale: Locale): Message[] | undefined {
  const known = classify(error);
  return known ? errorEnvelope(known.issues, locale).errors : undefined;
}

/** Messages as error notices at the top of a page: `field: message`. */
export function asNotices(messages: Message[]): Notice[] {
  return messages.map((m) => ({ kind: 'error', text: m.field ? `${m.field}: ${m.message}` : m.message }));
}

/**
 * A moment as people in Türkiye read it (the console shows every time in Europe/Istanbul): an ISO instant, a Date,
 * or the API's `YYYY-MM-DD HH:MM:SS` in UTC. Nothing (or something unreadable) shows as a dash, or as it was given.
 */
export function formatWhen(value: string | Date | null | undefined, locale: Locale, options: { seconds?: boolean } = {}): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = value instanceof Date ? value : new Date(/^\d{4}-\d{2}-\d{2} \d/.test(value) ? `${value.replace(' ', 'T')}Z` : value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(locale === 'tr' ? 'tr-TR' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: options.seconds ? 'medium' : 'short',
    timeZone: 'Europe/Istanbul',
  });
}

/** A form or query value as text ('' when absent or repeated). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The page a query asks for, as the API reads `page`; anything unreadable is the first page (a list shows no refusal for it). */
export function pageNumber(value: unknown, limit: number): number {
  try {
    return parsePageRequest({ page: typeof value === 'string' ? value : undefined, limit: String(limit) }).page;
  } catch {
    return 1;
  }
}
