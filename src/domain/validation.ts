import type { z } from 'zod';
import { DomainError, isErrorCode, type ErrorCode, type Issue } from './errors';

/** The message a schema gives `z.number().int()`-like checks, so the issue can say "integer". */
export const EXPECTED_INTEGER = 'expected integer';

const TYPE_NAMES: Record<string, string> = { int: 'integer', record: 'object' };

/**
 * The issues of a parse of options-like bodies: each unknown key is its own `UNKNOWN_FIELD` problem (a schema's
 * own refinement says so with the message `UNKNOWN_FIELD`), every other issue as zodIssue maps it.
 */
export function optionIssues(issues: readonly z.core.$ZodIssue[]): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    const field = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ code: 'UNKNOWN_FIELD', field: [field, key].filter(Boolean).join('.') }));
    if (issue.message === 'UNKNOWN_FIELD') return [{ code: 'UNKNOWN_FIELD', field }];
    return [zodIssue(issue)];
  });
}

/**
 * The one mapping of zod issues to our error issues (code, field path, text parameters), so every input is
 * refused with the same codes and the texts come from the en/tr catalog rather than from zod. A schema's
 * own refinement names its code as `params.code` (with `params.textParams` for the text).
 */
export function zodIssue(issue: z.core.$ZodIssue, fieldOf: (path: PropertyKey[]) => string | undefined = defaultField): Issue {
  const field = fieldOf(issue.path);
  const make = (code: ErrorCode, params?: Issue['params']): Issue => ({
    code,
    ...(field !== undefined && { field }),
    ...(params && { params }),
  });
  switch (issue.code) {
    case 'invalid_type':
      // A missing or null required value (blank strings were already turned into null).
      if (issue.input === undefined || issue.input === null) return make('NOT_BLANK');
      return make('INVALID_TYPE', { type: issue.message === EXPECTED_INTEGER ? 'integer' : (TYPE_NAMES[issue.expected] ?? issue.expected) });
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.exact) return make('LENGTH_EXACT', { length: max });
      if (issue.origin === 'string') return make('TOO_LONG', { max });
      if (issue.origin === 'array') return make('TOO_MANY_ENTRIES', { max });
      return make('TOO_LARGE', { max });
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.exact) return make('LENGTH_EXACT', { length: min });
      if (issue.origin === 'string') return min <= 1 ? make('NOT_BLANK') : make('TOO_SHORT', { min });
      if (min === 0 && !issue.inclusive) return make('NOT_POSITIVE');
      return make('TOO_SMALL', { min });
    }
    case 'invalid_value':
      return make('INVALID_CHOICE');
    case 'invalid_format':
      return make(
        issue.format === 'email' ? 'INVALID_EMAIL' : issue.format === 'datetime' ? 'INVALID_TYPE' : 'INVALID_CHOICE',
        issue.format === 'datetime' ? { type: 'date-time' } : undefined,
      );
    case 'invalid_key':
      // a record's key that its key schema refuses (e.g. a status map's non-numeric key)
      return make('INVALID_CHOICE');
    case 'unrecognized_keys':
      return { code: 'UNKNOWN_FIELD', field: fieldOf([...issue.path, issue.keys[0]]) ?? issue.keys[0] };
    case 'custom': {
      const params = issue.params as { code?: unknown; textParams?: Issue['params'] } | undefined;
      return make(isErrorCode(params?.code) ? params.code : 'VALIDATION_FAILED', params?.textParams);
    }
    default:
      return make('VALIDATION_FAILED');
  }
}

function defaultField(path: PropertyKey[]): string | undefined {
  return path.length > 0 ? path.map(String).join('.') : undefined;
}

/** The params of a schema's own refinement that make zodIssue refuse it with `code` (and its text's parameters). */
export const refuse = (code: ErrorCode, textParams?: Issue['params']) => ({ params: { code, ...(textParams && { textParams }) } });

/** Parses `input` with `schema`, or refuses it with every issue at once (VALIDATION_FAILED). */
export function parseOrRefuse<S extends z.ZodType>(schema: S, input: unknown, fieldOf?: (path: PropertyKey[]) => string | undefined): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new DomainError(
    'VALIDATION_FAILED',
    result.error.issues.map((issue) => zodIssue(issue, fieldOf)),
  );
}
