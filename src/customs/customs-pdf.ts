import type { Locale } from '../i18n/messages';
import type { LabelFonts } from '../labels/fonts';
import { cityLine } from '../labels/label-text';
import { renderPdf } from '../labels/pdf-document';
import { currencyCode, lineValue, totalNetWeightKg, valueByCurrency } from './customs-amounts';
import { CUSTOMS_CATEGORIES, consignmentCategories } from './customs-forms';
import { CUSTOMS_TEXT, countryName, formatDocumentDate, formatKg, formatMoney, pageCaption, type CustomsText, type CustomsTextKey } from './customs-text';
import type { CustomsData, CustomsDocumentKind, CustomsItem, CustomsParty } from './customs.types';

/** pdfkit works in points: 1 mm = 72 / 25.4 pt. */
const MM = 72 / 25.4;

/** The CN22 is attached to the parcel beside the label, so it has the label's 100 × 150 mm. */
export const CN22_PAGE = { width: 100 * MM, height: 150 * MM } as const;
/** The CN23 and the proforma invoice go in a document pouch as A4 sheets (pdfkit's A4, 595.28 × 841.89 pt). */
export const A4_PAGE = { width: 595.28, height: 841.89 } as const;

export interface CustomsPdfOptions {
  lang: Locale;
  /** Deflate the content and font streams (default true). Tests turn it off to read the PDF source. */
  compress?: boolean;
  /** Font sources; default the process-wide parsed DejaVu Sans, which has the Turkish letters. */
  fonts?: LabelFonts;
}

type Doc = PDFKit.PDFDocument;
type Face = 'regular' | 'bold';
type Align = 'left' | 'center' | 'right';

/** Font sizes and spacing in points: the CN22 is a third of an A4 in width and is set smaller. */
interface Style {
  margin: number;
  title: number;
  body: number;
  small: number;
  table: number;
  /** Inside a table cell or box. */
  pad: number;
  /** Between sections. */
  gap: number;
}

const CN22_STYLE: Style = { margin: 3 * MM, title: 10, body: 6.5, small: 5.5, table: 6, pad: 1.5, gap: 4 };
const A4_STYLE: Style = { margin: 14 * MM, title: 15, body: 8.5, small: 7, table: 8, pad: 3, gap: 9 };

const TITLE_KEY: Record<CustomsDocumentKind, CustomsTextKey> = { cn22: 'cn22Title', cn23: 'cn23Title', proforma: 'proformaTitle' };

/**
 * A customs document for an international consignment, in Turkish or English: the CN22 (100 × 150 mm) or
 * the CN23 or a proforma invoice (A4). The item table flows onto further pages of the same size, its header
 * repeated, and every page carries the document's title, its barcode/reference and "page n / m".
 */
export function renderCustomsDocument(kind: CustomsDocumentKind, data: CustomsData, options: CustomsPdfOptions): Promise<Buffer> {
  const size = kind === 'cn22' ? CN22_PAGE : A4_PAGE;
  const text = CUSTOMS_TEXT[options.lang];
  const info = { Title: [text[TITLE_KEY[kind]], data.barcode ?? data.referenceNo].filter(Boolean).join(' '), Creator: 'consignflow', CreationDate: data.date };
  // bufferPages: kept in memory until the end so each page can say how many pages there are.
  return renderPdf({ size: [size.width, size.height], margin: 0, compress: options.compress ?? true, bufferPages: true, info, fonts: options.fonts }, (doc) => {
    doc.lineWidth(0.5).strokeColor('black').fillColor('black');
    const sheet = new Sheet(doc, size, kind === 'cn22' ? CN22_STYLE : A4_STYLE, text, options.lang);
    if (kind === 'cn22') drawCn22(sheet, data);
    else if (kind === 'cn23') drawCn23(sheet, data);
    else drawProforma(sheet, data);
    sheet.numberPages();
  });
}

/**
 * The page being written, top to bottom: a cursor `y` and the space left below it. Content that does not
 * fit goes onto a new page of the same size, which first gets the document's continuation header.
 */
class Sheet {
  y: number;
  private continuation: () => void = () => undefined;

  constructor(
    readonly doc: Doc,
    readonly size: { width: number; height: number },
    readonly style: Style,
    readonly text: CustomsText,
    readonly lang: Locale,
  ) {
    this.y = style.margin;
  }

  get left(): number {
    return this.style.margin;
  }

  get width(): number {
    return this.size.width - 2 * this.style.margin;
  }

  /** The lowest point content may reach; the page number sits below it. */
  get bottom(): number {
    return this.size.height - this.style.margin - this.style.small * 2;
  }

  /** What to draw at the top of every page after the first. */
  onNewPage(draw: () => void): void {
    this.continuation = draw;
  }

  fits(height: number): boolean {
    return this.y + height <= this.bottom;
  }

  /** Starts a new page unless `height` fits below the cursor. */
  ensure(height: number): void {
    if (!this.fits(height)) this.newPage();
  }

  newPage(): void {
    this.doc.addPage({ size: [this.size.width, this.size.height], margin: 0 });
    this.doc.lineWidth(0.5).strokeColor('black').fillColor('black');
    this.y = this.style.margin;
    this.continuation();
  }

  measure(face: Face, size: number, text: string, width: number): number {
    if (!text) return 0;
    return this.doc.font(face).fontSize(size).heightOfString(text, { width, lineGap: 0 });
  }

  /**
   * Wrapped text at a fixed position; returns its height. The height bound is only there because without
   * one pdfkit would start a page of its own when text reaches the bottom; the layout has made room.
   */
  write(face: Face, size: number, text: string, x: number, y: number, width: number, align: Align = 'left'): number {
    const height = this.measure(face, size, text, width);
    if (height > 0)
      this.doc
        .font(face)
        .fontSize(size)
        .text(text, x, y, { width, height: height + size, align, lineGap: 0 });
    return height;
  }

  rule(): void {
    this.doc
      .moveTo(this.left, this.y)
      .lineTo(this.left + this.width, this.y)
      .stroke();
  }

  space(points: number = this.style.gap): void {
    this.y += points;
  }

  /** "Page n / m" at the foot of every page, once all pages exist. */
  numberPages(): void {
    const range = this.doc.bufferedPageRange();
    for (let i = 0; i < range.count; i++) {
      this.doc.switchToPage(range.start + i);
      const y = this.size.height - this.style.margin - this.style.small * 1.3;
      this.write('regular', this.style.small, pageCaption(this.text, i + 1, range.count), this.left, y, this.width, 'right');
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The three documents
// ---------------------------------------------------------------------------------------------------------

function drawCn22(sheet: Sheet, data: CustomsData): void {
  const { text, lang } = sheet;
  drawHeading(sheet, data, text.cn22Title, text.mayBeOpened, text.carrier);
  drawParties(sheet, [text.from, data.sender], [text.to, data.receiver], false);
  drawCategories(sheet, data.items);
  const values = valueByCurrency(data.items);
  drawTable(
    sheet,
    [
      { header: text.descriptionAndQuantity, share: 0.31 },
      { header: text.weight, share: 0.12, align: 'right' },
      { header: text.value, share: 0.18, align: 'right' },
      // Wide enough for a 12-digit GTIP on one line.
      { header: text.hsCode, share: 0.23 },
      { header: text.origin, share: 0.16 },
    ],
    [
      ...data.items.map((item) => ({
        cells: [
          `${item.quantity} × ${item.description}`,
          formatKg(item.netWeightKg),
          money(lineValue(item), item.currency),
          hsCode(item),
          countryName(item.originIso2, lang),
        ],
      })),
      { cells: [text.totalGrossWeight, formatKg(data.grossWeightKg), '', '', ''], bold: true },
      { cells: [text.totalValue, '', values.map((v) => money(v.amount, v.currency)).join('\n'), '', ''], bold: true },
    ],
  );
  sheet.space();
  drawDeclaration(sheet, { face: 'regular', size: sheet.style.small, text: text.cn22Declaration }, text.dateAndSignature, data.date);
}

function drawCn23(sheet: Sheet, data: CustomsData): void {
  const { text, lang } = sheet;
  drawHeading(sheet, data, text.cn23Title, text.mayBeOpened, text.carrier);
  drawParties(sheet, [text.from, data.sender], [text.to, data.receiver], true);
  const values = valueByCurrency(data.items);
  drawTable(
    sheet,
    [
      { header: text.lineNo, share: 0.05, align: 'right' },
      { header: text.description, share: 0.26 },
      { header: text.quantity, share: 0.09, align: 'right' },
      { header: text.netWeight, share: 0.12, align: 'right' },
      { header: text.value, share: 0.15, align: 'right' },
      { header: text.hsCode, share: 0.15 },
      { header: text.origin, share: 0.18 },
    ],
    [
      ...data.items.map((item, i) => ({
        cells: [
          String(i + 1),
          item.description,
          String(item.quantity),
          formatKg(item.netWeightKg),
          money(lineValue(item), item.currency),
          hsCode(item),
          countryName(item.originIso2, lang),
        ],
      })),
      { cells: ['', text.total, '', formatKg(totalNetWeightKg(data.items)), values.map((v) => money(v.amount, v.currency)).join('\n'), '', ''], bold: true },
    ],
  );
  sheet.space();
  drawFacts(sheet, [
    [text.totalGrossWeight, formatKg(data.grossWeightKg)],
    [text.totalValue, values.map((v) => money(v.amount, v.currency)).join('\n')],
    [text.packageCount, String(data.packageCount)],
    [text.incoterms, data.incoterms ?? '—'],
    [text.invoiceNumber, data.invoiceNumber ?? '—'],
    // Left blank for the carrier or the post office to fill in.
    [text.postalCharges, ''],
  ]);
  drawCategories(sheet, data.items);
  drawDeclaration(sheet, { face: 'regular', size: sheet.style.small, text: text.cn23Declaration }, text.dateAndSignature, data.date);
}

function drawProforma(sheet: Sheet, data: CustomsData): void {
  const { text, lang } = sheet;
  drawHeading(sheet, data, text.proformaTitle, '', text.carrierShort);
  drawFacts(sheet, [
    // Consignments without an invoice of their own are identified by their reference (or barcode).
    [text.proformaNumber, data.invoiceNumber ?? data.referenceNo ?? data.barcode ?? '—'],
    [text.date, formatDocumentDate(data.date)],
    [text.incoterms, data.incoterms ?? '—'],
  ]);
  drawParties(sheet, [text.exporter, data.sender], [text.consignee, data.receiver], true);
  const values = valueByCurrency(data.items);
  drawTable(
    sheet,
    [
      { header: text.lineNo, share: 0.05, align: 'right' },
      { header: text.goodsDescription, share: 0.23 },
      { header: text.hsCode, share: 0.16 },
      { header: text.origin, share: 0.12 },
      { header: text.quantity, share: 0.08, align: 'right' },
      { header: text.unitPrice, share: 0.12, align: 'right' },
      { header: text.amount, share: 0.14, align: 'right' },
      { header: text.currency, share: 0.1 },
    ],
    [
      ...data.items.map((item, i) => ({
        cells: [
          String(i + 1),
          item.description,
          hsCode(item),
          countryName(item.originIso2, lang),
          String(item.quantity),
          formatMoney(item.unitPrice),
          formatMoney(lineValue(item)),
          currencyCode(item.currency),
        ],
      })),
      ...values.map((v) => ({ cells: ['', text.total, '', '', '', '', formatMoney(v.amount), v.currency], bold: true })),
    ],
  );
  sheet.space();
  drawFacts(sheet, [
    [text.totalGrossWeight, formatKg(data.grossWeightKg)],
    [text.packageCount, String(data.packageCount)],
  ]);
  drawDeclaration(sheet, { face: 'bold', size: sheet.style.body, text: text.invoiceDeclaration }, text.signature, data.date);
}

// ---------------------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------------------

/**
 * Title (and a note at the right), then carrier, barcode and reference; on every further page the title
 * marked "(continued)" and the identifiers again, so a loose page can be matched to its consignment.
 */
function drawHeading(sheet: Sheet, data: CustomsData, title: string, note: string, carrierCaption: string): void {
  const { style, text } = sheet;
  const ids = [data.barcode && `${text.barcode}: ${data.barcode}`, data.referenceNo && `${text.reference}: ${data.referenceNo}`].filter(Boolean).join('   ');
  const head = (titleText: string, withCarrier: boolean): void => {
    const noteWidth = sheet.width * 0.3;
    const titleHeight = sheet.write('bold', style.title, titleText, sheet.left, sheet.y, sheet.width - noteWidth - style.pad);
    sheet.write('regular', style.small, note, sheet.left + sheet.width - noteWidth, sheet.y, noteWidth, 'right');
    sheet.y += titleHeight + style.pad;
    if (withCarrier && data.carrierName)
      sheet.y += sheet.write('regular', style.body, `${carrierCaption}: ${data.carrierName}`, sheet.left, sheet.y, sheet.width);
    if (ids) sheet.y += sheet.write('bold', style.body, ids, sheet.left, sheet.y, sheet.width);
    sheet.y += style.pad;
    sheet.rule();
    sheet.y += style.gap / 2;
  };
  head(title, true);
  sheet.onNewPage(() => head(`${title} ${text.continued}`, false));
}

/** Sender and receiver side by side, each in a box; `full` adds address, contact and tax ids (the CN22 has room for less). */
function drawParties(sheet: Sheet, [fromTitle, from]: [string, CustomsParty], [toTitle, to]: [string, CustomsParty], full: boolean): void {
  const { style } = sheet;
  const gutter = style.pad * 2;
  const boxWidth = (sheet.width - gutter) / 2;
  const blocks = [partyLines(sheet, fromTitle, from, full), partyLines(sheet, toTitle, to, full)];
  const heights = blocks.map((lines) => linesHeight(sheet, lines, boxWidth - 2 * style.pad));
  const height = Math.max(...heights) + 2 * style.pad;
  sheet.ensure(height);
  blocks.forEach((lines, i) => {
    const x = sheet.left + i * (boxWidth + gutter);
    sheet.doc.rect(x, sheet.y, boxWidth, height).stroke();
    let y = sheet.y + style.pad;
    for (const line of lines) y += sheet.write(line.face, line.size, line.text, x + style.pad, y, boxWidth - 2 * style.pad);
  });
  sheet.y += height + style.gap;
}

interface TextLine {
  face: Face;
  size: number;
  text: string;
}

function partyLines(sheet: Sheet, title: string, p: CustomsParty, full: boolean): TextLine[] {
  const { style, text, lang } = sheet;
  const body = (s: string | undefined): TextLine | undefined => (s && s.trim() ? { face: 'regular', size: style.body, text: s } : undefined);
  const lines: (TextLine | undefined)[] = [
    { face: 'regular', size: style.small, text: title },
    { face: 'bold', size: style.body, text: p.name },
    full ? body(p.address) : undefined,
    body(cityLine(p)),
    body(countryName(p.countryIso2, lang)),
    full ? body(p.phone && `${text.phone}: ${p.phone}`) : undefined,
    full ? body(p.email && `${text.email}: ${p.email}`) : undefined,
    body(p.taxNumber && `${text.taxNumber}: ${p.taxNumber}`),
    body(p.eoriNumber && `${text.eori}: ${p.eoriNumber}`),
  ];
  return lines.filter((line): line is TextLine => line !== undefined);
}

function linesHeight(sheet: Sheet, lines: TextLine[], width: number): number {
  return lines.reduce((sum, line) => sum + sheet.measure(line.face, line.size, line.text, width), 0);
}

/** The form's content categories as check boxes, ticked for the items' categories. */
function drawCategories(sheet: Sheet, items: readonly CustomsItem[]): void {
  const { style, text } = sheet;
  const ticked = consignmentCategories(items);
  const size = style.body;
  const lineHeight = sheet.measure('regular', size, 'Xg', sheet.width);
  const options = CUSTOMS_CATEGORIES.map((category) => `${ticked.has(category) ? '☒' : '☐'} ${text[category]}`);
  // Lay the boxes out left to right, wrapping whole options, to know the height before drawing.
  const spacing = size * 1.5;
  const placed: { text: string; x: number; row: number }[] = [];
  let x = 0;
  let row = 0;
  for (const option of options) {
    const width = sheet.doc.font('regular').fontSize(size).widthOfString(option);
    if (x > 0 && x + width > sheet.width) {
      x = 0;
      row++;
    }
    placed.push({ text: option, x, row });
    x += width + spacing;
  }
  const captionHeight = sheet.measure('regular', style.small, text.category, sheet.width);
  sheet.ensure(captionHeight + (row + 1) * lineHeight + style.gap);
  sheet.y += sheet.write('regular', style.small, text.category, sheet.left, sheet.y, sheet.width);
  for (const option of placed) {
    sheet.doc
      .font('regular')
      .fontSize(size)
      .text(option.text, sheet.left + option.x, sheet.y + option.row * lineHeight, { lineBreak: false });
  }
  sheet.y += (row + 1) * lineHeight + style.gap;
}

/** Caption-over-value cells, three to a row (two on the CN22), each row kept on one page. */
function drawFacts(sheet: Sheet, facts: [string, string][]): void {
  const { style } = sheet;
  const perRow = sheet.width < 400 ? 2 : 3;
  const cellWidth = sheet.width / perRow;
  for (let start = 0; start < facts.length; start += perRow) {
    const row = facts.slice(start, start + perRow);
    const heights = row.map(
      ([caption, value]) =>
        sheet.measure('regular', style.small, caption, cellWidth - style.pad) +
        Math.max(sheet.measure('bold', style.body, value || ' ', cellWidth - style.pad), style.body * 1.2),
    );
    const height = Math.max(...heights);
    sheet.ensure(height);
    row.forEach(([caption, value], i) => {
      const x = sheet.left + i * cellWidth;
      const captionHeight = sheet.write('regular', style.small, caption, x, sheet.y, cellWidth - style.pad);
      sheet.write('bold', style.body, value, x, sheet.y + captionHeight, cellWidth - style.pad);
    });
    sheet.y += height + style.pad;
  }
  sheet.y += style.gap - style.pad;
}

/**
 * The declaration, then "Date and sender's signature" with the date and a line to sign on, kept on one
 * page: a signature must not stand on a page apart from what it certifies.
 */
function drawDeclaration(sheet: Sheet, declaration: TextLine, caption: string, date: Date): void {
  const { style } = sheet;
  const declarationHeight = sheet.measure(declaration.face, declaration.size, declaration.text, sheet.width);
  const lineY = style.body * 4;
  sheet.ensure(declarationHeight + style.gap / 2 + lineY + style.small);
  sheet.y += sheet.write(declaration.face, declaration.size, declaration.text, sheet.left, sheet.y, sheet.width);
  sheet.space(style.gap / 2);
  sheet.write('regular', style.small, caption, sheet.left, sheet.y, sheet.width);
  const dateText = formatDocumentDate(date);
  sheet.write('bold', style.body, dateText, sheet.left, sheet.y + lineY - style.body * 1.3, sheet.width * 0.3);
  const signX = sheet.left + sheet.width * 0.35;
  sheet.doc
    .moveTo(signX, sheet.y + lineY)
    .lineTo(sheet.left + sheet.width, sheet.y + lineY)
    .stroke();
  sheet.y += lineY + style.small;
}

// ---------------------------------------------------------------------------------------------------------
// The item table
// ---------------------------------------------------------------------------------------------------------

interface Column {
  header: string;
  /** Fraction of the page's inner width; a table's shares add up to 1. */
  share: number;
  align?: Align;
}

interface Row {
  cells: string[];
  bold?: boolean;
}

/**
 * A ruled table whose cells wrap. A row is never split; a row that does not fit below the cursor starts a
 * new page, where the header row is drawn again so every page can be read on its own.
 */
function drawTable(sheet: Sheet, columns: Column[], rows: Row[]): void {
  const widths = columns.map((c) => c.share * sheet.width);
  const header: Row = { cells: columns.map((c) => c.header), bold: true };
  const height = (row: Row): number => rowHeight(sheet, row, widths);
  const headerHeight = height(header);
  // The header never stands alone at the foot of a page.
  sheet.ensure(headerHeight + (rows.length > 0 ? height(rows[0]) : 0));
  drawRow(sheet, header, columns, widths, headerHeight, true);
  for (const row of rows) {
    const h = height(row);
    if (!sheet.fits(h)) {
      sheet.newPage();
      drawRow(sheet, header, columns, widths, headerHeight, true);
    }
    drawRow(sheet, row, columns, widths, h, false);
  }
}

function rowHeight(sheet: Sheet, row: Row, widths: number[]): number {
  const { style } = sheet;
  const face: Face = row.bold ? 'bold' : 'regular';
  const cells = row.cells.map((cell, i) => sheet.measure(face, style.table, cell, widths[i] - 2 * style.pad));
  return Math.max(style.table * 1.2, ...cells) + 2 * style.pad;
}

function drawRow(sheet: Sheet, row: Row, columns: Column[], widths: number[], height: number, shaded: boolean): void {
  const { doc, style } = sheet;
  const face: Face = row.bold ? 'bold' : 'regular';
  let x = sheet.left;
  row.cells.forEach((cell, i) => {
    if (shaded) doc.rect(x, sheet.y, widths[i], height).fillAndStroke('#e6e6e6', 'black').fillColor('black');
    else doc.rect(x, sheet.y, widths[i], height).stroke();
    sheet.write(face, style.table, cell, x + style.pad, sheet.y + style.pad, widths[i] - 2 * style.pad, columns[i].align);
    x += widths[i];
  });
  sheet.y += height;
}

// ---------------------------------------------------------------------------------------------------------

function money(amount: number, currency: string): string {
  return `${formatMoney(amount)} ${currencyCode(currency)}`;
}

function hsCode(item: CustomsItem): string {
  return item.gtip && item.gtip.trim() ? item.gtip.trim() : '—';
}
