import type { Locale } from '../i18n/messages';
import type { MissingLabel, MissingReason } from './label-batch';
import { renderPdf } from './pdf-document';
import type { SheetLayout } from './pdf-merge';
import { ZPL_FORMAT_START, ZPL_MARGIN, ZPL_WIDTH, zplText } from './zpl-label';

/**
 * The notes page that ends a merged label batch when some consignments asked for have no label in it:
 * each one with its reference and the reason, so a missing label is never a silent gap in a print run.
 */

const TEXT: Record<Locale, { title: (n: number) => string; intro: string; entry: string; reference: string; reasons: Record<MissingReason, string> }> = {
  en: {
    title: (n) => `Consignments without a label (${n})`,
    intro: 'These consignments were asked for, but their labels are not in this file:',
    entry: 'Consignment',
    reference: 'Reference',
    reasons: {
      not_found: 'not found',
      no_label: 'no label yet (not processed)',
      voided: 'label voided (cancelled)',
      no_zpl: "the carrier's label exists only as PDF",
      no_pdf: "the carrier's label exists only as ZPL",
      unreadable: 'the label file could not be read',
    },
  },
  tr: {
    title: (n) => `Etiketi olmayan gönderiler (${n})`,
    intro: 'Bu gönderiler istendi, ancak etiketleri bu dosyada yok:',
    entry: 'Gönderi',
    reference: 'Referans',
    reasons: {
      not_found: 'bulunamadı',
      no_label: 'henüz etiketi yok (işlenmedi)',
      voided: 'etiketi geçersiz (iptal edildi)',
      no_zpl: 'kargo firmasının etiketi yalnızca PDF olarak var',
      no_pdf: 'kargo firmasının etiketi yalnızca ZPL olarak var',
      unreadable: 'etiket dosyası okunamadı',
    },
  },
};

const MM = 72 / 25.4;
const PAGE_SIZES: Record<SheetLayout, [number, number]> = { label: [100 * MM, 150 * MM], a4: [210 * MM, 297 * MM] };

/** The notes page(s) as a PDF, at the batch's sheet size; pdfkit flows long lists onto further pages. */
export function renderMissingLabelsPdf(missing: MissingLabel[], layout: SheetLayout, locale: Locale): Promise<Buffer> {
  const text = TEXT[locale];
  const [width, height] = PAGE_SIZES[layout];
  const margin = (layout === 'a4' ? 15 : 5) * MM;
  const size = layout === 'a4' ? 10 : 7;
  return renderPdf({ size: [width, height], margin, info: { Title: text.title(missing.length), Creator: 'consignflow' } }, (doc) => {
    doc
      .font('bold')
      .fontSize(size + 4)
      .text(text.title(missing.length));
    doc.moveDown(0.5).font('regular').fontSize(size).text(text.intro).moveDown(0.5);
    for (const m of missing) {
      doc.font('bold').text(`${text.entry} ${m.entry}`, { continued: true }).font('regular');
      doc.text(`${m.referenceNo ? ` · ${text.reference} ${m.referenceNo}` : ''} — ${text.reasons[m.reason]}`);
    }
  });
}

/** Entries per ZPL notes label, below its title (each up to two lines). */
const ZPL_ENTRIES_PER_LABEL = 20;

/** The notes as ZPL labels (a thermal printer has no other page): as many as the list needs. */
export function missingLabelsZpl(missing: MissingLabel[], locale: Locale): string {
  const text = TEXT[locale];
  const inner = ZPL_WIDTH - 2 * ZPL_MARGIN;
  const labels: string[] = [];
  for (let start = 0; start < missing.length; start += ZPL_ENTRIES_PER_LABEL) {
    const lines = [...ZPL_FORMAT_START, zplText(ZPL_MARGIN, ZPL_MARGIN, 36, text.title(missing.length), { width: inner })];
    lines.push(zplText(ZPL_MARGIN, ZPL_MARGIN + 50, 22, text.intro, { width: inner, lines: 2 }));
    missing.slice(start, start + ZPL_ENTRIES_PER_LABEL).forEach((m, i) => {
      const line = `${m.entry}${m.referenceNo ? ` · ${m.referenceNo}` : ''} — ${text.reasons[m.reason]}`;
      lines.push(zplText(ZPL_MARGIN, ZPL_MARGIN + 120 + i * 52, 22, line, { width: inner, lines: 2 }));
    });
    lines.push('^XZ');
    labels.push(lines.join('\n') + '\n');
  }
  return labels.join('');
}
