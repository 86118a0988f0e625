import { A4_PAGE, renderCustomsDocument } from '../../../src/customs/customs-pdf';
import type { CustomsData, CustomsDocumentKind } from '../../../src/customs/customs.types';
import { PdfSource, type PdfObject } from '../labels/pdf-source';
import { customsData, item, manyItems } from './fixtures';

const MM = 72 / 25.4;
const KINDS: CustomsDocumentKind[] = ['cn22', 'cn23', 'proforma'];

interface Rendered {
  pdf: PdfSource;
  pages: PdfObject[];
  /** Each page's text, runs joined by spaces: a cell's wrapped lines read as one string again. */
  pageTexts: string[];
  text: string;
}

async function render(kind: CustomsDocumentKind, lang: 'en' | 'tr', data: CustomsData = customsData()): Promise<Rendered> {
  const pdf = new PdfSource(await renderCustomsDocument(kind, data, { lang, compress: false }));
  const pages = pdf.pages();
  const pageTexts = pages.map((page) => pdf.textRuns(page).join(' ').replace(/\s+/g, ' '));
  return { pdf, pages, pageTexts, text: pageTexts.join(' ') };
}

const TITLES = {
  cn22: { en: 'CUSTOMS DECLARATION CN 22', tr: 'GÜMRÜK BEYANNAMESİ CN 22' },
  cn23: { en: 'CUSTOMS DECLARATION CN 23', tr: 'GÜMRÜK BEYANNAMESİ CN 23' },
  proforma: { en: 'PROFORMA INVOICE', tr: 'PROFORMA FATURA' },
} as const;

/** A caption of each document's item table that fits one line, to count the header rows by. */
const HEADER_CAPTION = {
  cn22: { en: 'Weight (kg)', tr: 'Ağırlık (kg)' },
  cn23: { en: 'Detailed description of contents', tr: 'İçeriğin ayrıntılı tanımı' },
  proforma: { en: 'Description of goods', tr: 'Eşyanın tanımı' },
} as const;

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('renderCustomsDocument', () => {
  it('produces a PDF, compressed by default', async () => {
    const compressed = await renderCustomsDocument('cn23', customsData(), { lang: 'tr' });
    const plain = await renderCustomsDocument('cn23', customsData(), { lang: 'tr', compress: false });
    for (const pdf of [compressed, plain]) {
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    }
    expect(compressed.toString('latin1')).toContain('/Filter /FlateDecode');
    expect(compressed.length).toBeLessThan(plain.length);
  });

  it('sets the CN22 on a 100 × 150 mm page and the CN23 and proforma on A4', async () => {
    const cn22 = await render('cn22', 'en');
    const [, , width, height] = cn22.pdf.mediaBox(cn22.pages[0]);
    expect(width / MM).toBeCloseTo(100, 2);
    expect(height / MM).toBeCloseTo(150, 2);
    for (const kind of ['cn23', 'proforma'] as const) {
      const doc = await render(kind, 'en');
      expect(doc.pages).toHaveLength(1);
      expect(doc.pdf.mediaBox(doc.pages[0])).toEqual([0, 0, 595.28, 841.89]);
    }
    expect(A4_PAGE).toEqual({ width: 595.28, height: 841.89 });
  });

  it('embeds DejaVu Sans (regular and bold)', async () => {
    const { pdf } = await render('proforma', 'tr');
    const names = [...pdf.objects.values()].filter((o) => o.dict.includes('/Type /FontDescriptor')).map((d) => /\/FontName \/(\S+)/.exec(d.dict)?.[1] ?? '');
    expect(names.map((n) => n.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
  });

  describe.each(KINDS)('%s', (kind) => {
    it('in Turkish: Turkish title and captions, extracted back exactly', async () => {
      const { text } = await render(kind, 'tr');
      // 'Almanya': the receiver's country, named in Turkish.
      for (const expected of [TITLES[kind].tr, HEADER_CAPTION[kind].tr, 'Işıklar Çiçekçilik Ltd. Şti.', 'SİP-2025/ğüşıöç-001', 'Almanya', 'Sayfa 1 / 1']) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain(TITLES[kind].en);
      expect(text).not.toContain('\uFFFD');
    });

    it('in English: English title and captions', async () => {
      const { text } = await render(kind, 'en');
      for (const expected of [TITLES[kind].en, HEADER_CAPTION[kind].en, 'Germany', 'Page 1 / 1']) expect(text).toContain(expected);
      expect(text).not.toContain(TITLES[kind].tr);
    });

    it("shows every item's description, HS code and origin, and the totals per currency", async () => {
      const { text } = await render(kind, 'en');
      for (const expected of ['Seramik kupa (el yapımı, İznik desenli)', 'İpek eşarp', '691200', '621410', 'Türkiye', '2025-03-14', 'CF00000012344']) {
        expect(text).toContain(expected);
      }
      // 2 × 9.50 EUR and 1 × 45 USD: never added together
      if (kind === 'proforma') {
        expect(text).toContain('9.50 19.00 EUR');
        expect(text).toMatch(/Total 19\.00 EUR Total 45\.00 USD/);
      } else {
        expect(text).toContain('19.00 EUR');
        expect(text).toMatch(/Total value 19\.00 EUR 45\.00 USD/);
      }
      expect(text).toContain('1.200'); // gross weight, kg to 3 decimals
      expect(text).not.toContain('64.00');
    });

    it('flows 100 items onto further pages, the table header on each, every line once and in order', async () => {
      const data = customsData({ items: manyItems(100) });
      const { pdf, pages, pageTexts, text } = await render(kind, 'tr', data);
      expect(pages.length).toBeGreaterThan(kind === 'cn22' ? 4 : 2);
      const [, , width, height] = pdf.mediaBox(pages[0]);
      const withItems = pageTexts.filter((pageText) => pageText.includes('Ürün '));
      // the table runs over all pages but perhaps the last (which may hold only the closing sections)
      expect(withItems.length).toBeGreaterThanOrEqual(pages.length - 1);
      pages.forEach((page, i) => {
        expect(pdf.mediaBox(page)).toEqual([0, 0, width, height]);
        expect(count(pageTexts[i], HEADER_CAPTION[kind].tr)).toBe(pageTexts[i].includes('Ürün ') ? 1 : 0);
        expect(pageTexts[i]).toContain(`Sayfa ${i + 1} / ${pages.length}`);
        if (i > 0) expect(pageTexts[i]).toContain(`${TITLES[kind].tr} (devamı)`);
        // nothing drawn past the page
        for (const r of pdf.rects(page)) expect(r.y + r.h).toBeLessThanOrEqual(height);
      });
      let last = -1;
      for (const it of data.items) {
        expect(count(text, `${it.description} `)).toBe(1);
        const at = text.indexOf(`${it.description} `);
        expect(at).toBeGreaterThan(last);
        last = at;
        expect(text).toContain(it.gtip);
      }
      // the total (100 × 1.00 EUR) comes after the last line, not before
      expect(text.indexOf('100.00 EUR')).toBeGreaterThan(last);
      // the declaration and the signature line stay together
      expect(pageTexts.at(-1)).toMatch(/beyan ederim\. (Tarih ve göndericinin imzası|İmza, ad soyad ve kaşe) 2025-03-14/);
    });
  });

  it('CN22: description with quantity, line weight and value; categories ticked from the items', async () => {
    const data = customsData({
      items: [
        item({ description: 'Doğum günü hediyesi', category: 'HEDİYE', quantity: 3, unitPrice: 4.5, netWeightKg: 0.25 }),
        item({ description: 'Katalog', category: 'documents' }),
      ],
    });
    const { text } = await render('cn22', 'en', data);
    expect(text).toContain('3 × Doğum günü hediyesi 0.250 13.50 EUR 691200 Türkiye');
    expect(text).toContain('☒ Gift');
    expect(text).toContain('☒ Documents');
    expect(text).toContain('☐ Commercial sample');
    expect(text).toContain('☐ Sale of goods / Other');
    const tr = await render('cn22', 'tr', data);
    expect(tr.text).toContain('☒ Hediye');
    expect(tr.text).toContain('☐ Satış / Diğer');
  });

  it('CN23: parties with tax number and EORI, incoterms, invoice number, net weight total', async () => {
    const { text } = await render('cn23', 'en');
    expect(text).toContain('Tax no.: 4810012345');
    expect(text).toContain('EORI no.: DE123456789012345');
    expect(text).toContain('Hauptstraße 5');
    expect(text).toMatch(/Incoterms DAP/);
    expect(text).toMatch(/Invoice no\. FTR-2025-000117/);
    expect(text).toContain('Total 0.950'); // 0.8 + 0.15 kg net
    expect(text).toContain('Postal charges / fees');
    expect(text).toContain('☒ Sale of goods / Other');
  });

  it('proforma: invoice number or else the reference, the declaration in the document language', async () => {
    const en = await render('proforma', 'en');
    expect(en.text).toContain('Proforma invoice no. FTR-2025-000117');
    expect(en.text).toContain('I declare that the information on this invoice is true and correct.');
    expect(en.text).toContain('Exporter (sender)');
    const tr = await render('proforma', 'tr', customsData({ invoiceNumber: null }));
    expect(tr.text).toContain('Proforma fatura no. SİP-2025/ğüşıöç-001');
    expect(tr.text).toContain('Bu faturadaki bilgilerin doğru ve eksiksiz olduğunu beyan ederim.');
    expect(tr.text).toContain('İhracatçı (gönderici)');
    expect(tr.text).toContain('Koli sayısı 1');
  });

  it('wraps a long description instead of cutting it', async () => {
    const description = 'El dokuması yün kilim, doğal kök boyalarla boyanmış, Uşak yöresine özgü geometrik desenli, 120 × 180 cm, saçaklı';
    const { pdf, pages, text } = await render('cn22', 'tr', customsData({ items: [item({ description })] }));
    expect(text).toContain(`1 × ${description}`);
    // more than one text line for the cell
    expect(pdf.textRuns(pages[0]).filter((run) => description.includes(run.trim())).length).toBeGreaterThan(2);
  });
});
