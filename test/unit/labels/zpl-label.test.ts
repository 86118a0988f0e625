import { renderZplLabel, zplEscape } from '../../../src/labels/zpl-label';
import { TURKISH_LETTERS, turkishLabel } from './fixtures';

/** Undo `^FH` hex escapes (indicator `_`); with ^CI28 an escape is one byte of UTF-8. */
function unhex(s: string): string {
  const bytes: number[] = [];
  for (const part of s.split(/(_[0-9A-Fa-f]{2})/)) {
    if (/^_[0-9A-Fa-f]{2}$/.test(part)) bytes.push(parseInt(part.slice(1), 16));
    else bytes.push(...Buffer.from(part, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Field data of every ^FD…^FS, with the commands that precede it in the same field. */
function fields(zpl: string): Array<{ commands: string; data: string }> {
  return [...zpl.matchAll(/\^FO[^\n]*?\^FD(.*?)\^FS/g)].map((m) => ({ commands: m[0].slice(0, m[0].indexOf('^FD')), data: m[1] }));
}

/** The commands a label may contain; any other `^`/`~` sequence would mean field data leaked out. */
const KNOWN = new Set(['XA', 'XZ', 'CI', 'PW', 'LL', 'LH', 'FO', 'A0', 'FB', 'FH', 'FD', 'FS', 'GB', 'BY', 'BC', 'BQ']);

describe('renderZplLabel', () => {
  it('is one ^XA … ^XZ format in UTF-8 for 100 × 150 mm at 203 dpi', () => {
    const zpl = renderZplLabel(turkishLabel());
    expect(zpl.startsWith('^XA\n')).toBe(true);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).toContain('^CI28');
    expect(zpl).toContain('^PW800');
    expect(zpl).toContain('^LL1200');
  });

  it('encodes the barcode as Code128 and the tracking URL as QR', () => {
    const data = turkishLabel();
    const zpl = renderZplLabel(data);
    expect(zpl).toMatch(/\^BY[234]\n\^FO\d+,\d+\^BCN,\d+,N,N,N,A\^FH\^FDCF00000012344\^FS/);
    expect(zpl).toContain(`^BQN,2,6^FH^FDMA,${data.trackingUrl}^FS`);
  });

  it("encodes a carrier's single piece barcode instead of ours, and prints the carrier's routing above the reference", () => {
    const zpl = renderZplLabel(turkishLabel({ pieces: ['HJ0127784175'], routing: 'KUSTEPE · KADIKOY01' }));
    expect(zpl).toMatch(/\^BCN,\d+,N,N,N,A\^FH\^FDHJ0127784175\^FS/);
    expect(zpl).not.toContain('^FDCF00000012344^FS');
    const texts = fields(zpl).map((f) => unhex(f.data));
    expect(texts.indexOf('KUSTEPE · KADIKOY01')).toBe(texts.indexOf('Rota / Route') + 1);
    expect(texts.indexOf('Rota / Route')).toBeLessThan(texts.indexOf('Referans / Ref'));
  });

  it('keeps Turkish text as UTF-8 and prints every party field', () => {
    const data = turkishLabel();
    const zpl = renderZplLabel(data);
    for (const letter of TURKISH_LETTERS) expect(zpl).toContain(letter);
    for (const text of ['Şükrü Öztürk (DOĞAN ÜNLÜ)', '06690 Çankaya / Ankara', 'Işıklar Çiçekçilik Ltd. Şti.', 'SİP-2025/ğüşıöç-001', '2.5 kg', '3.75']) {
      expect(fields(zpl).map((f) => unhex(f.data))).toContain(text);
    }
  });

  it('escapes ^, ~ and _ in field data with ^FH hex codes', () => {
    const name = 'ACME ^XZ~JA Ltd_ ^FS';
    const zpl = renderZplLabel(turkishLabel({ consignee: { ...turkishLabel().consignee, name }, referenceNo: '~DG^ref_1' }));
    expect(zpl).toContain('ACME _5EXZ_7EJA Ltd_5F _5EFS');
    expect(zpl).not.toContain('~');
    // every command prefix in the output starts a known command: nothing leaked from the data
    for (const m of zpl.matchAll(/\^(..)/g)) expect(KNOWN).toContain(m[1]);
    for (const f of fields(zpl)) expect(f.commands).toContain('^FH');
    const decoded = fields(zpl).map((f) => unhex(f.data));
    expect(decoded).toContain(name);
    expect(decoded).toContain('~DG^ref_1');
  });

  it('turns control characters into spaces and doubles backslashes in ^FB blocks', () => {
    const zpl = renderZplLabel(turkishLabel({ consignee: { ...turkishLabel().consignee, address: 'Line 1\nLine 2\\&3\r\tend' } }));
    expect(zpl).toContain('^FDLine 1 Line 2\\\\&3  end^FS');
    expect(zplEscape('a\u0000b\u007fc')).toBe('a b c');
  });

  it('cuts overlong text instead of letting ^FB overprint its last line', () => {
    const name = 'Çok Uzun İsimli Bir Şirket '.repeat(6).trim();
    const zpl = renderZplLabel(turkishLabel({ consignee: { ...turkishLabel().consignee, name } }));
    const field = fields(zpl).find((f) => f.data.startsWith('Çok Uzun'));
    // the start of the name, cut on its one ^FB line and marked with '...'
    expect(field?.data).toMatch(/^Çok Uzun .+\.\.\.$/);
    expect(name.startsWith(field!.data.slice(0, -'...'.length))).toBe(true);
    expect(field!.data.length).toBeLessThan(name.length);
  });

  it('prints a dash for a missing reference and omits a missing service name', () => {
    const zpl = renderZplLabel(turkishLabel({ referenceNo: null, serviceName: undefined }));
    expect(zpl).not.toContain('null');
    expect(zpl).not.toContain('undefined');
    expect(zpl).not.toContain('Ekspres Yurt İçi');
  });
});
