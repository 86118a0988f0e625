import { degrees, PDFDocument, PDFName, PDFRef, type PDFEmbeddedPage, type PDFObject, type PDFPage } from 'pdf-lib';

/** pdf-lib works in points: 1 mm = 72 / 25.4 pt. */
const MM = 72 / 25.4;

/** A label page: 100 × 150 mm, the size thermal label printers take. */
const LABEL_PAGE = { width: 100 * MM, height: 150 * MM };
/** A4 portrait, cut in four cells of 105 × 148.5 mm (the usual 4-up label sheets). */
const A4_PAGE = { width: 210 * MM, height: 297 * MM };
/** White kept inside each A4 cell, so no label touches a cut line. */
const CELL_MARGIN = 2 * MM;

export type SheetLayout = 'label' | 'a4';

/** Where one label page goes on a sheet, in PDF coordinates (origin bottom left). */
export interface Slot {
  x: number;
  y: number;
  width: number;
  height: number;
}

const LAYOUTS: Record<SheetLayout, { page: { width: number; height: number }; slots: Slot[] }> = {
  label: { page: LABEL_PAGE, slots: [{ x: 0, y: 0, ...LABEL_PAGE }] },
  a4: {
    page: A4_PAGE,
    // Reading order: top left, top right, bottom left, bottom right.
    slots: [
      [0, 1],
      [1, 1],
      [0, 0],
      [1, 0],
    ].map(([col, row]) => ({
      x: col * (A4_PAGE.width / 2) + CELL_MARGIN,
      y: row * (A4_PAGE.height / 2) + CELL_MARGIN,
      width: A4_PAGE.width / 2 - 2 * CELL_MARGIN,
      height: A4_PAGE.height / 2 - 2 * CELL_MARGIN,
    })),
  },
};

/** How many label pages one sheet of the layout holds. */
export const labelsPerSheet = (layout: SheetLayout) => LAYOUTS[layout].slots.length;

/**
 * Writes one PDF out of many label PDFs as it goes, with memory bounded by one sheet.
 *
 * pdf-lib builds a whole document in memory before it serialises it, which for thousands of labels means
 * hundreds of MB. This writer uses pdf-lib for what it does well (parse a label, copy its page into a form
 * XObject, draw it scaled) one sheet at a time, in a throw-away document whose object numbers continue
 * where the previous sheet's ended, and writes that sheet's objects out at once. What it keeps across
 * sheets is a byte offset per object and a reference per page: the cross-reference table and the page
 * tree, written at the end.
 *
 * The pages handed in must come from complete documents (loaded from a file): pdf-lib writes a document's
 * fonts and images only when that document is saved, so a page drawn on in memory would lack them.
 *
 * Object 1 is the catalog and object 2 the page tree, reserved up front because every page names its
 * parent; a sheet document's own catalog, page tree and info are never written.
 */
export class StreamingPdfWriter {
  private readonly offsets: number[] = [];
  private readonly pageRefs: PDFRef[] = [];
  private position = 0;
  private lastObjectNumber = 2;
  private static readonly CATALOG = PDFRef.of(1);
  private static readonly PAGES = PDFRef.of(2);

  constructor(
    private readonly layout: SheetLayout,
    private readonly write: (chunk: Uint8Array) => void,
  ) {
    // The binary comment tells transfer programs the file is binary (PDF 32000-1, 7.5.2).
    this.emit('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n\n');
  }

  get pageCount(): number {
    return this.pageRefs.length;
  }

  /** Adds one sheet holding these label pages (at most `labelsPerSheet`), in slot order. */
  async addSheet(labelPages: PDFPage[]): Promise<void> {
    const { page: size, slots } = LAYOUTS[this.layout];
    if (labelPages.length === 0 || labelPages.length > slots.length) throw new Error(`A sheet holds 1 to ${slots.length} label pages`);
    await this.writeSheet(
      size,
      labelPages.map((page, i) => ({ page, slot: slots[i] })),
    );
  }

  /** Adds a page as it is, at its own size (a page of notes after the labels). */
  async addPage(page: PDFPage): Promise<void> {
    const { width, height } = page.getSize();
    await this.writeSheet({ width, height }, [{ page, slot: { x: 0, y: 0, width, height } }]);
  }

  private async writeSheet(size: { width: number; height: number }, placements: { page: PDFPage; slot: Slot }[]): Promise<void> {
    const sheet = await PDFDocument.create({ updateMetadata: false });
    // Objects created from here on take numbers after the ones already written.
    // (pdf-lib numbers its new document's page tree 1 and catalog 2, the numbers reserved here too: skipped below.)
    const ownObjects = new Set(sheet.context.enumerateIndirectObjects().map(([ref]) => ref));
    sheet.context.largestObjectNumber = Math.max(this.lastObjectNumber, sheet.context.largestObjectNumber);
    const page = sheet.addPage([size.width, size.height]);
    // One at a time: pdf-lib embeds several pages in one call only when they come from the same document.
    for (const { page: labelPage, slot } of placements) drawFitted(page, await sheet.embedPage(labelPage), slot);
    await sheet.flush();
    page.node.set(PDFName.of('Parent'), StreamingPdfWriter.PAGES);

    for (const [ref, object] of sheet.context.enumerateIndirectObjects()) {
      if (ownObjects.has(ref)) continue;
      this.writeObject(ref.objectNumber, object);
    }
    this.lastObjectNumber = sheet.context.largestObjectNumber;
    this.pageRefs.push(page.ref);
  }

  /** The page tree, the catalog, the cross-reference table and the trailer. */
  finish(info: { title: string; creationDate: Date }): void {
    const kids = this.pageRefs.map((ref) => ref.toString()).join(' ');
    this.writeRaw(2, `<< /Type /Pages /Kids [ ${kids} ] /Count ${this.pageRefs.length} >>`);
    this.writeRaw(1, `<< /Type /Catalog /Pages ${StreamingPdfWriter.PAGES} >>`);
    const infoNumber = ++this.lastObjectNumber;
    this.writeRaw(
      infoNumber,
      `<< /Title ${pdfString(info.title)} /Creator (consignflow) /Producer (consignflow) /CreationDate ${pdfString(pdfDate(info.creationDate))} >>`,
    );

    const xrefAt = this.position;
    const size = this.lastObjectNumber + 1;
    // Entry 0 heads the free list; numbers a sheet reserved but never filled are free entries too.
    this.emit(`xref\n0 ${size}\n0000000000 65535 f \n`);
    let part: string[] = [];
    for (let n = 1; n < size; n++) {
      const at = this.offsets[n];
      part.push(at === undefined ? '0000000000 00001 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`);
      if (part.length === 4096) {
        this.emit(part.join(''));
        part = [];
      }
    }
    this.emit(part.join(''));
    this.emit(`trailer\n<< /Size ${size} /Root ${StreamingPdfWriter.CATALOG} /Info ${infoNumber} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  }

  private writeObject(objectNumber: number, object: PDFObject): void {
    const body = new Uint8Array(object.sizeInBytes());
    object.copyBytesInto(body, 0);
    this.offsets[objectNumber] = this.position;
    this.emit(`${objectNumber} 0 obj\n`);
    this.emitBytes(body);
    this.emit('\nendobj\n\n');
  }

  private writeRaw(objectNumber: number, body: string): void {
    this.offsets[objectNumber] = this.position;
    this.emit(`${objectNumber} 0 obj\n${body}\nendobj\n\n`);
  }

  /** PDF syntax outside strings is ASCII; latin1 keeps the binary comment's bytes as they are. */
  private emit(text: string): void {
    this.emitBytes(Buffer.from(text, 'latin1'));
  }

  private emitBytes(bytes: Uint8Array): void {
    this.position += bytes.length;
    this.write(bytes);
  }
}

/** Where a label page of `width` × `height` goes in a slot: its origin, its scale, and whether it is turned. */
export interface Placement {
  x: number;
  y: number;
  scale: number;
  turned: boolean;
}

/**
 * Scaled to fit without distortion and centred; turned a quarter counter-clockwise when that makes it
 * larger (a landscape carrier label in a portrait slot).
 */
export function placeInSlot(slot: Slot, width: number, height: number): Placement {
  const upright = Math.min(slot.width / width, slot.height / height);
  const turnedScale = Math.min(slot.width / height, slot.height / width);
  const turned = turnedScale > upright * 1.01;
  const scale = turned ? turnedScale : upright;
  const w = (turned ? height : width) * scale;
  const h = (turned ? width : height) * scale;
  // Turned about its origin, the page extends to the left of x: the origin moves to its right edge.
  return { x: slot.x + (slot.width - w) / 2 + (turned ? w : 0), y: slot.y + (slot.height - h) / 2, scale, turned };
}

function drawFitted(page: PDFPage, label: PDFEmbeddedPage, slot: Slot): void {
  const { x, y, scale, turned } = placeInSlot(slot, label.width, label.height);
  page.drawPage(label, { x, y, xScale: scale, yScale: scale, ...(turned && { rotate: degrees(90) }) });
}

/** A PDF text string: UTF-16BE with its byte order mark, hex-encoded, so any title is safe. */
function pdfString(text: string): string {
  const utf16 = Buffer.from(text, 'utf16le').swap16();
  return `<FEFF${utf16.toString('hex').toUpperCase()}>`;
}

function pdfDate(date: Date): string {
  return `D:${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}
