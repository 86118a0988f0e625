import type { LabelFonts } from './fonts';
import { renderPdf } from './pdf-document';
import { labelPages, packageCountText, type LabelData, type LabelPage, type LabelParty } from './label.types';
import { cityLine, countryLine, formatLabelDate, labelDetails } from './label-text';
import { encodeCode128, encodeQr } from './symbols';

/** pdfkit works in points: 1 mm = 72 / 25.4 pt. */
const MM = 72 / 25.4;
export const PAGE_WIDTH = 100 * MM; // 283.46 pt
export const PAGE_HEIGHT = 150 * MM; // 425.20 pt
const MARGIN = 3 * MM;
const INNER = PAGE_WIDTH - 2 * MARGIN;

/**
 * Where the two symbols are drawn, in pdfkit's top-left coordinates. Exported so tests can
 * read the drawn rectangles back out of the content stream.
 */
export const BARCODE_BOX = { x: MARGIN, y: 300, width: INNER, height: 80 };
export const QR_BOX = { x: PAGE_WIDTH - MARGIN - 88, y: 207, size: 88 };
/** Code128 needs 10 modules of white space on each side, QR 4. Both are kept inside their boxes. */
const CODE128_QUIET_ZONE = 10;
const QR_QUIET_ZONE = 4;

export interface PdfLabelOptions {
  /** Deflate the content and font streams (default true). Tests turn it off to read the PDF source. */
  compress?: boolean;
  /** Font sources; default the process-wide parsed DejaVu Sans (see fonts.ts). */
  fonts?: LabelFonts;
}

type Doc = PDFKit.PDFDocument;

/** A 100 × 150 mm shipping label: carrier, both parties, reference, weights, QR of the tracking URL, Code128 of the barcode. */
export function renderPdfLabel(data: LabelData, options: PdfLabelOptions = {}): Promise<Buffer> {
  const info = { Title: `Label ${data.barcode}`, Creator: 'consignflow', CreationDate: data.createdAt };
  return renderPdf({ size: [PAGE_WIDTH, PAGE_HEIGHT], margin: 0, compress: options.compress ?? true, info, fonts: options.fonts }, (doc) =>
    labelPages(data).forEach((page, i) => {
      if (i > 0) doc.addPage({ size: [PAGE_WIDTH, PAGE_HEIGHT], margin: 0 });
      drawLabel(doc, page);
    }),
  );
}

function drawLabel(doc: Doc, d: LabelPage): void {
  doc.lineWidth(0.8).strokeColor('black').fillColor('black');

  // Header: carrier and service, date and package count.
  line(doc, 'bold', 13, d.carrierName, MARGIN, MARGIN, INNER - 90);
  if (d.serviceName) line(doc, 'regular', 7.5, d.serviceName, MARGIN, MARGIN + 17, INNER - 90);
  line(doc, 'regular', 7.5, formatLabelDate(d.createdAt), MARGIN, MARGIN + 2, INNER, 'right');
  line(doc, 'regular', 7.5, packageCountText(d), MARGIN, MARGIN + 17, INNER, 'right');
  rule(doc, 38);

  drawParty(doc, 'GÖNDERİCİ / FROM', d.consignor, 42, false);
  rule(doc, 106);
  drawParty(doc, 'ALICI / TO', d.consignee, 110, true);
  rule(doc, 206);

  // Details on the left, QR of the tracking URL on the right.
  const valueX = MARGIN + 58;
  const valueWidth = QR_BOX.x - valueX;
  let y = 212;
  for (const [label, value] of labelDetails(d, '—')) {
    caption(doc, label, MARGIN, y);
    // A long value (a carrier's routing code) is printed smaller rather than cut: a branch code must be read whole.
    const size = Math.max(5, Math.min(8.5, (8.5 * valueWidth) / doc.font('bold').fontSize(8.5).widthOfString(value)));
    line(doc, 'bold', size, value, valueX, y - 1.5, valueWidth);
    y += 13.5;
  }
  drawQr(doc, d.trackingUrl);
  rule(doc, 296);

  drawCode128(doc, d.barcode);
  line(doc, 'bold', 12, d.barcode, MARGIN, BARCODE_BOX.y + BARCODE_BOX.height + 4, INNER, 'center');
  line(doc, 'regular', 6.5, d.trackingUrl, MARGIN, PAGE_HEIGHT - MARGIN - 8, INNER, 'center');
}

/** A small fixed caption; no width, so pdfkit skips its line wrapper. */
function caption(doc: Doc, text: string, x: number, y: number): void {
  doc.font('regular').fontSize(6.5).text(text, x, y, { lineBreak: false });
}

/** One line cut to `width` with an ellipsis (pdfkit only cuts when a height bounds the box; without one it wraps). */
function line(
  doc: Doc,
  face: 'regular' | 'bold',
  size: number,
  text: string,
  x: number,
  y: number,
  width: number,
  align: 'left' | 'center' | 'right' = 'left',
): void {
  doc
    .font(face)
    .fontSize(size)
    .text(text, x, y, { width, height: size * 1.3, lineBreak: false, ellipsis: true, align });
}

function rule(doc: Doc, y: number): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(PAGE_WIDTH - MARGIN, y)
    .stroke();
}

function drawParty(doc: Doc, title: string, p: LabelParty, top: number, prominent: boolean): void {
  const nameSize = prominent ? 12 : 9;
  const bodySize = prominent ? 9.5 : 7.5;
  const lineHeight = bodySize * 1.2;
  const addressLines = prominent ? 3 : 2;
  caption(doc, title, MARGIN, top);
  line(doc, 'bold', nameSize, p.name, MARGIN, top + 9, INNER);
  const addressTop = top + 11 + nameSize;
  doc
    .font('regular')
    .fontSize(bodySize)
    .text(p.address, MARGIN, addressTop, { width: INNER, height: lineHeight * addressLines, ellipsis: true, lineGap: 0 });
  // Follow the address directly when it is short; doc.y is where pdfkit stopped writing.
  const cityTop = Math.min(doc.y, addressTop + lineHeight * addressLines) + 1;
  line(doc, prominent ? 'bold' : 'regular', bodySize, cityLine(p), MARGIN, cityTop, INNER);
  line(doc, 'regular', bodySize, countryLine(p), MARGIN, cityTop + lineHeight + 1, INNER);
}

/** Bars as filled rectangles in one path: sharp at any print resolution, and no PNG encode/decode. */
function drawCode128(doc: Doc, text: string): void {
  const symbol = encodeCode128(text);
  const module = BARCODE_BOX.width / (symbol.modules + 2 * CODE128_QUIET_ZONE);
  const x0 = BARCODE_BOX.x + (BARCODE_BOX.width - symbol.modules * module) / 2;
  for (const bar of symbol.bars) doc.rect(x0 + bar.x * module, BARCODE_BOX.y, bar.width * module, BARCODE_BOX.height);
  doc.fill('black');
}

function drawQr(doc: Doc, text: string): void {
  const qr = encodeQr(text);
  const module = QR_BOX.size / (qr.size + 2 * QR_QUIET_ZONE);
  const x0 = QR_BOX.x + QR_QUIET_ZONE * module;
  const y0 = QR_BOX.y + QR_QUIET_ZONE * module;
  for (const run of qr.runs) doc.rect(x0 + run.col * module, y0 + run.row * module, run.length * module, module);
  doc.fill('black');
}
