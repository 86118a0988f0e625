/**
 * What counts as text here: no NUL (PostgreSQL refuses 0x00 in text and jsonb) and no UTF-16 surrogate
 * without its pair (what `\ud800` in JSON gives; it cannot be stored as UTF-8). Refused as INVALID_TEXT.
 */

// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const NOT_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCleanText(value: string): boolean {
  return !NOT_TEXT.test(value);
}

/** The first place in a parsed JSON value holding something that is not text: its field path, or '' at the top. */
export function findDirtyText(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return isCleanText(value) ? undefined : path.join('.');
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findDirtyText(value[i], [...path, String(i)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (!isCleanText(key)) return path.join('.');
    const found = findDirtyText(inner, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `value` made storable for display (an order number, a file name): each NUL or lone surrogate becomes U+FFFD. */
export function storableText(value: string): string {
  return isCleanText(value) ? value : value.replace(new RegExp(NOT_TEXT.source, 'g'), '\uFFFD');
}
