/**
 * The service's own barcode (the API fields `barcode` and `svcBarcode`): "CF", the consignment id
 * zero-padded to 10 digits, then one check digit — 13 characters, e.g. CF00000004264 for id 426.
 *
 * The check digit is ISO 7064 MOD 11,10 over the 10 id digits (the standard's hybrid system with
 * one decimal check digit). It catches every single-digit error and about 98% of adjacent
 * transpositions — as Luhn does — and stays one decimal digit, so the barcode is all digits after
 * the prefix and encodes compactly in Code128 subset C.
 */

export const SERVICE_BARCODE_PREFIX = 'CF';
const ID_DIGITS = 10;
const MAX_ID = 10 ** ID_DIGITS - 1;
const PATTERN = /^CF(\d{10})(\d)$/;

/** ISO 7064 MOD 11,10 running value over `digits`; a string with its check digit appended gives 1. */
function mod11_10(digits: string): number {
  let check = 5;
  for (const d of digits) check = ((((check || 10) * 2) % 11) + Number(d)) % 10;
  return check;
}

/** The ISO 7064 MOD 11,10 check digit for a string of decimal digits. */
export function checkDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new Error(`check digit needs decimal digits, got ${JSON.stringify(digits)}`);
  return (((1 - (((mod11_10(digits) || 10) * 2) % 11)) % 10) + 10) % 10;
}

export function serviceBarcode(consignmentId: number): string {
  if (!Number.isSafeInteger(consignmentId) || consignmentId < 1 || consignmentId > MAX_ID) {
    throw new RangeError(`consignment id must be an integer from 1 to ${MAX_ID}, got ${consignmentId}`);
  }
  const digits = String(consignmentId).padStart(ID_DIGITS, '0');
  return `${SERVICE_BARCODE_PREFIX}${digits}${checkDigit(digits)}`;
}

/** Prefix, 11 digits and a matching check digit (upper-case prefix only, as printed). */
export function isServiceBarcode(s: string): boolean {
  const m = PATTERN.exec(s);
  return m !== null && checkDigit(m[1]) === Number(m[2]);
}

/** The consignment id a valid service barcode carries, else null (for lookups by barcode, the API (docs/api.md)). */
export function consignmentIdFromBarcode(s: string): number | null {
  if (!isServiceBarcode(s)) return null;
  const id = Number(s.slice(SERVICE_BARCODE_PREFIX.length, SERVICE_BARCODE_PREFIX.length + ID_DIGITS));
  return id >= 1 ? id : null;
}
