/**
 * Text folding for address search. The same functions fold the stored key columns at load time
 * and the keyword at query time, so "KADIKÖY", "kadıköy", "Kadikoy" and "kadıkoy" all become
 * "kadikoy".
 */

/** Letters that Unicode decomposition does not reduce to ASCII. */
const SPECIAL_LETTERS: Record<string, string> = {
  ı: 'i', // Turkish dotless i (İ and I lower-case to i and i below, so all four meet at i)
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ŀ: 'l',
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');

/**
 * Words that only say what kind of settlement a place is (Turkish Post writes "Caferağa Mah",
 * people write "Caferağa Mahallesi", "Caferağa Mh." or just "Caferağa"): dropped from keys.
 */
export const PLACE_SUFFIX_WORDS: ReadonlySet<string> = new Set(['mah', 'mahallesi', 'mh', 'koyu', 'beldesi']);

/**
 * Case, diacritic and punctuation folding, Turkish-aware: İ/I/ı/i → i, ş→s, ğ→g, ç→c, ö→o,
 * ü→u, â→a, é→e…; anything that is not a letter or digit separates words; runs of spaces collapse.
 */
export function foldText(input: string): string {
  return input
    .toLowerCase() // İ → i + U+0307 (the dot is a combining mark, removed next); I → i
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(SPECIAL_RE, (ch) => SPECIAL_LETTERS[ch])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The search key of a name: {@link foldText} without settlement-type words ("mah", "mahallesi",
 * "mh", "koyu", "beldesi"). A name made only of such words keeps them (a keyword "mah" stays "mah").
 */
export function foldName(input: string): string {
  const folded = foldText(input);
  if (!folded) return folded;
  const words = folded.split(' ');
  const kept = words.filter((w) => !PLACE_SUFFIX_WORDS.has(w));
  return kept.length > 0 ? kept.join(' ') : folded;
}

/** Postal code key: folded, without spaces ("T6E 1A1" → "t6e1a1", "34 710" → "34710"). */
export function foldPostalCode(input: string): string {
  return foldText(input).replace(/ /g, '');
}

/** Escapes `\`, `%` and `_` so the text matches itself in a LIKE pattern (default escape `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Upper-cases the first letter, Turkish-aware by default ("çakırhüyük" → "Çakırhüyük", "ılıca" → "Ilıca"). */
export function upperFirst(text: string, locale = 'tr-TR'): string {
  return text ? text.charAt(0).toLocaleUpperCase(locale) + text.slice(1) : text;
}

/** Keys shorter than this have no deletion variants (a 3-letter key minus a letter matches too much). */
export const MIN_TYPO_LENGTH = 4;
/** Keys longer than this have no deletion variants: one typo leaves most of their trigrams, which find them. */
export const MAX_TYPO_LENGTH = 16;

/**
 * Symmetric-deletion variants of a key: the key itself and, for keys of 4 to 16 characters, each string
 * with one character removed. Two keys one edit apart (deletion, insertion, substitution, adjacent
 * transposition) share a variant. Used for the stored names and for the keyword alike.
 */
export function deletionVariants(key: string): string[] {
  const chars = [...key];
  if (chars.length < MIN_TYPO_LENGTH - 1) return [];
  const variants = new Set([key]);
  if (chars.length >= MIN_TYPO_LENGTH && chars.length <= MAX_TYPO_LENGTH) {
    for (let i = 0; i < chars.length; i += 1) variants.add(chars.slice(0, i).join('') + chars.slice(i + 1).join(''));
  }
  return [...variants];
}

/** The name without a parenthesised parent settlement, folded: "Çakmak Mah (Akdurak Köyü)" → "cakmak". */
export function mainNameKey(name: string): string {
  const main = foldName(name.replace(/\s*\(.*\)\s*$/u, ''));
  return main || foldName(name);
}
