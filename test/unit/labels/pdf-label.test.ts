import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import { FONT_BYTES } from '../../../src/labels/fonts';
import { BARCODE_BOX, QR_BOX, renderPdfLabel } from '../../../src/labels/pdf-label';
import { TURKISH_LETTERS, turkishLabel } from './fixtures';
import { PdfSource, type Rect } from './pdf-source';

const MM = 72 / 25.4;

async function source(data = turkishLabel()): Promise<{ pdf: PdfSource; page: ReturnType<PdfSource['pages']>[number] }> {
  const pdf = new PdfSource(await renderPdfLabel(data, { compress: false }));
  const pages = pdf.pages();
  expect(pages).toHaveLength(1);
  return { pdf, page: pages[0] };
}

const inside = (r: Rect, box: { x: number; y: number; width: number; height: number }): boolean =>
  r.x >= box.x - 1e-6 && r.y >= box.y - 1e-6 && r.x + r.w <= box.x + box.width + 1e-6 && r.y + r.h <= box.y + box.height + 1e-6;

describe('renderPdfLabel', () => {
  it('produces a PDF, compressed by default', async () => {
    const compressed = await renderPdfLabel(turkishLabel());
    const plain = await renderPdfLabel(turkishLabel(), { compress: false });
    for (const pdf of [compressed, plain]) {
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    }
    expect(compressed.toString('latin1')).toContain('/Filter /FlateDecode');
    expect(compressed.length).toBeLessThan(plain.length);
  });

  it('has one page of 100 × 150 mm', async () => {
    const { pdf, page } = await source();
    const [x0, y0, x1, y1] = pdf.mediaBox(page);
    expect([x0, y0]).toEqual([0, 0]);
    expect(x1 / MM).toBeCloseTo(100, 2);
    expect(y1 / MM).toBeCloseTo(150, 2);
  });

  it('embeds DejaVu Sans (regular and bold) as TrueType subsets', async () => {
    const { pdf } = await source();
    const descriptors = [...pdf.objects.values()].filter((o) => o.dict.includes('/Type /FontDescriptor'));
    const names = descriptors.map((d) => /\/FontName \/(\S+)/.exec(d.dict)?.[1] ?? '');
    expect(names.map((n) => n.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
    for (const descriptor of descriptors) {
      const file = pdf.ref(descriptor.dict, 'FontFile2');
      expect(file.stream?.length).toBeGreaterThan(1000);
      // a subset, not the whole 700 KB font file
      expect(file.stream?.length).toBeLessThan(60_000);
    }
  });

  it('writes Turkish text that extracts back exactly', async () => {
    const { pdf, page } = await source();
    const text = pdf.textRuns(page).join('\n');
    for (const expected of [
      'Işıklar Çiçekçilik Ltd. Şti.',
      '34730 Kadıköy / İstanbul',
      'Şükrü Öztürk (DOĞAN ÜNLÜ)',
      'Atatürk Mahallesi, Gül Sokak No: 7 Daire: 12',
      '06690 Çankaya / Ankara',
      'SİP-2025/ğüşıöç-001',
      'GÖNDERİCİ / FROM',
      'Ağırlık / Weight',
      'CF00000012344',
      'SBX7Q2K9M4TR',
      '2025-03-14 09:26 UTC',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('\uFFFD');
    // and every Turkish letter has its glyph mapped in a font's ToUnicode map
    const mapped = new Set([...pdf.fonts(page).values()].flatMap((font) => [...pdf.toUnicode(font).values()]));
    for (const letter of TURKISH_LETTERS) expect(mapped).toContain(letter);
  });

  it("prints a carrier's single piece barcode instead of ours, and the carrier's routing line", async () => {
    const { pdf, page } = await source(turkishLabel({ pieces: ['C@6B@H21FMLRPNAAA6J'], routing: 'KUSTEPE · TSTCMPNY-ÇANKAYA01-STD' }));
    const text = pdf.textRuns(page).join('\n');
    expect(text).toContain('C@6B@H21FMLRPNAAA6J');
    expect(text).toContain('1/1 koli / pcs');
    expect(text).toContain('Rota / Route');
    expect(text).toContain('KUSTEPE · TSTCMPNY-ÇANKAYA01-STD');
  });

  it('draws the Code128 bars exactly as bwip-js encodes the barcode', async () => {
    const data = turkishLabel();
    const { pdf, page } = await source(data);
    const bars = pdf
      .rects(page)
      .filter((r) => inside(r, BARCODE_BOX))
      .sort((a, b) => a.x - b.x);
    expect(bars.length).toBeGreaterThan(10);
    for (const bar of bars) {
      expect(bar.y).toBeCloseTo(BARCODE_BOX.y, 4);
      expect(bar.h).toBeCloseTo(BARCODE_BOX.height, 4);
    }
    // bar, space, bar, … widths; the narrowest element of a Code128 symbol is one module
    const elements: number[] = [];
    bars.forEach((bar, i) => {
      if (i > 0) elements.push(bar.x - (bars[i - 1].x + bars[i - 1].w));
      elements.push(bar.w);
    });
    const module = Math.min(...elements);
    const modules = elements.map((e) => e / module);
    for (const m of modules) expect(Math.abs(m - Math.round(m))).toBeLessThan(1e-3);

    const [expected] = bwipjs.raw({ bcid: 'code128', text: data.barcode });
    expect('sbs' in expected && expected.sbs).toEqual(modules.map(Math.round));
    // 10-module quiet zones fit inside the box
    const symbolWidth = modules.reduce((a, b) => a + b, 0) * module;
    expect(bars[0].x - BARCODE_BOX.x).toBeGreaterThanOrEqual(10 * module - 1e-3);
    expect(BARCODE_BOX.x + BARCODE_BOX.width - (bars[0].x + symbolWidth)).toBeGreaterThanOrEqual(10 * module - 1e-3);
  });

  it('draws the QR modules exactly as qrcode encodes the tracking URL', async () => {
    const data = turkishLabel({ trackingUrl: 'https://track.consignflow.example/t/SBX7Q2K9M4TR?lang=tr' });
    const { pdf, page } = await source(data);
    const rects = pdf.rects(page).filter((r) => inside(r, { x: QR_BOX.x, y: QR_BOX.y, width: QR_BOX.size, height: QR_BOX.size }));
    const module = Math.min(...rects.map((r) => r.h));
    for (const r of rects) expect(r.h).toBeCloseTo(module, 4);
    // the top-left finder pattern starts at module (0, 0)
    const x0 = Math.min(...rects.map((r) => r.x));
    const y0 = Math.min(...rects.map((r) => r.y));

    const expected = QRCode.create(data.trackingUrl, { errorCorrectionLevel: 'M' }).modules;
    const drawn = new Uint8Array(expected.size * expected.size);
    for (const r of rects) {
      const row = Math.round((r.y - y0) / module);
      const col = Math.round((r.x - x0) / module);
      const length = Math.round(r.w / module);
      expect(row).toBeLessThan(expected.size);
      for (let c = col; c < col + length; c++) drawn[row * expected.size + c] = 1;
    }
    expect(Buffer.from(drawn).equals(Buffer.from(expected.data))).toBe(true);
    // 4-module quiet zone inside the box
    expect(x0 - QR_BOX.x).toBeGreaterThanOrEqual(4 * module - 1e-3);
    expect(y0 - QR_BOX.y).toBeGreaterThanOrEqual(4 * module - 1e-3);
  });

  it('renders byte for byte as pdfkit does from the TTF bytes (the shared parsed fonts change nothing)', async () => {
    const fromBytes = { regular: FONT_BYTES.regular, bold: FONT_BYTES.bold };
    const labels = [
      turkishLabel(),
      turkishLabel({
        consignee: { ...turkishLabel().consignee, name: 'ĞÜŞİÖÇ ğüşıöç office ﬁle', address: 'Zoë Ørsted, Rue de l’Église 3' },
        referenceNo: null,
        serviceName: undefined,
      }),
      turkishLabel({ barcode: 'CF00000000018', carrierName: 'Sandbox Economy' }),
    ];
    for (const data of labels) {
      const shared = await renderPdfLabel(data, { compress: false });
      const plain = await renderPdfLabel(data, { compress: false, fonts: fromBytes });
      expect(shared.equals(plain)).toBe(true);
    }
  });

  it('is deterministic and renders labels without optional fields', async () => {
    const data = turkishLabel({ referenceNo: null, serviceName: undefined, consignor: { name: 'A', address: 'B', city: 'C', countryIso2: 'de' } });
    const a = await renderPdfLabel(data);
    const b = await renderPdfLabel(data);
    expect(a.equals(b)).toBe(true);
    const pdf = new PdfSource(await renderPdfLabel(data, { compress: false }));
    const text = pdf.textRuns(pdf.pages()[0]).join('\n');
    expect(text).toContain('DE');
    expect(text).not.toContain('undefined');
    expect(text).not.toContain('null');
  });

  it('keeps an overlong name on its line', async () => {
    const name = 'Çok Uzun İsimli Bir Şirket '.repeat(8).trim();
    const { pdf, page } = await source(turkishLabel({ consignee: { ...turkishLabel().consignee, name } }));
    const run = pdf.textRuns(page).find((t) => t.startsWith('Çok Uzun'));
    // the start of the name, cut to the line's width and marked with an ellipsis
    expect(run).toMatch(/^Çok Uzun .+…$/);
    expect(name.startsWith(run!.slice(0, -1))).toBe(true);
    expect(run!.length).toBeLessThan(name.length);
  });
});
