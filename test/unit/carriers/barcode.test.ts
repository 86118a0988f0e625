import { checkDigit, consignmentIdFromBarcode, isServiceBarcode, serviceBarcode } from '../../../src/carriers/barcode';

describe('service barcode', () => {
  it('is CF, the id in 10 digits and an ISO 7064 MOD 11,10 check digit', () => {
    expect(serviceBarcode(426)).toMatch(/^CF0000000426\d$/);
    expect(serviceBarcode(1)).toHaveLength(13);
    expect(serviceBarcode(9_999_999_999)).toMatch(/^CF9999999999\d$/);
    // reference value of the algorithm (python-stdnum's iso7064.mod_11_10 example)
    expect(checkDigit('79462')).toBe(3);
  });

  it('round-trips', () => {
    for (const id of [1, 7, 42, 426, 99_999, 1_234_567, 2_147_483_647, 9_999_999_999]) {
      const barcode = serviceBarcode(id);
      expect(isServiceBarcode(barcode)).toBe(true);
      expect(consignmentIdFromBarcode(barcode)).toBe(id);
    }
  });

  it('rejects any single corrupted digit and a wrong prefix or length', () => {
    const barcode = serviceBarcode(1_234_567);
    const digits = barcode.slice(2);
    let checked = 0;
    for (let i = 0; i < digits.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === digits[i]) continue;
        const corrupted = `CF${digits.slice(0, i)}${d}${digits.slice(i + 1)}`;
        expect(isServiceBarcode(corrupted)).toBe(false);
        checked++;
      }
    }
    expect(checked).toBe(11 * 9);
    expect(isServiceBarcode(`XX${digits}`)).toBe(false);
    expect(isServiceBarcode(`cf${digits}`)).toBe(false);
    expect(isServiceBarcode(barcode.slice(0, -1))).toBe(false);
    expect(isServiceBarcode(`${barcode}0`)).toBe(false);
    expect(consignmentIdFromBarcode(`${barcode.slice(0, -1)}${(Number(barcode.at(-1)) + 1) % 10}`)).toBeNull();
  });

  it('refuses ids it cannot encode', () => {
    for (const id of [0, -1, 1.5, 10_000_000_000, Number.NaN]) expect(() => serviceBarcode(id)).toThrow(RangeError);
    expect(consignmentIdFromBarcode('CF00000000000')).toBeNull();
  });
});
