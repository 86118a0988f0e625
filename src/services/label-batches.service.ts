import { Readable } from 'node:stream';
import { PDFDocument, type PDFPage } from 'pdf-lib';
import type { Queryable } from '../db/database';
import { findBatchLabels, findImportLabels, loadLabelFiles, type BatchLabelRow } from '../db/labels.repository';
import { DomainError } from '../domain/errors';
import type { Locale } from '../i18n/messages';
import type { BatchKey, BatchPrint, MissingLabel } from '../labels/label-batch';
import { missingLabelsZpl, renderMissingLabelsPdf } from '../labels/missing-labels';
import { labelsPerSheet, StreamingPdfWriter } from '../labels/pdf-merge';
import { LABEL_CONTENT_TYPES } from './consignments.service';

/** Labels read from the database at a time: the memory a batch holds is about this many label files. */
const LOAD_CHUNK = 25;

/** A merged batch ready to stream: what it holds and what it lacks are known before the first byte. */
export interface LabelBatch {
  /** Consignments whose labels the file holds (pieces may add pages). */
  labels: number;
  /** Known before printing; a label found unreadable while printing is added to the notes page only. */
  missing: MissingLabel[];
  contentType: string;
  fileName: string;
  body: Readable;
}

interface Printable {
  entry: string;
  row: BatchLabelRow & { labelId: number };
}

/** Which of the rows print in `format` and which are missing, and why, in the order asked. */
function sortOut(asked: { entry: string; row?: BatchLabelRow }[], format: BatchPrint['format']): { printable: Printable[]; missing: MissingLabel[] } {
  const printable: Printable[] = [];
  const missing: MissingLabel[] = [];
  for (const { entry, row } of asked) {
    const referenceNo = row?.referenceNo ?? null;
    if (!row) missing.push({ entry, referenceNo, reason: 'not_found' });
    else if (row.labelId === null) missing.push({ entry, referenceNo, reason: 'no_label' });
    else if (row.voided) missing.push({ entry, referenceNo, reason: 'voided' });
    else if (format === 'zpl' && !row.hasZpl) missing.push({ entry, referenceNo, reason: 'no_zpl' });
    else if (format === 'pdf' && !row.hasPdf) missing.push({ entry, referenceNo, reason: 'no_pdf' });
    else printable.push({ entry, row: { ...row, labelId: row.labelId } });
  }
  return { printable, missing };
}

export function createLabelBatchService(deps: { db: Queryable }) {
  /** Label files in chunks, in order; a file gone since the plan (its consignment deleted) is reported missing. */
  async function* files(
    printable: Printable[],
    format: BatchPrint['format'],
    missing: MissingLabel[],
  ): AsyncGenerator<{ item: Printable; content: Uint8Array | string }[]> {
    for (let i = 0; i < printable.length; i += LOAD_CHUNK) {
      const chunk = printable.slice(i, i + LOAD_CHUNK);
      const loaded = await loadLabelFiles(deps.db, [...new Set(chunk.map((p) => p.row.labelId))], format);
      const found: { item: Printable; content: Uint8Array | string }[] = [];
      for (const item of chunk) {
        const content = loaded.get(item.row.labelId);
        if (content === undefined) missing.push({ entry: item.entry, referenceNo: item.row.referenceNo, reason: 'no_label' });
        else found.push({ item, content });
      }
      yield found;
    }
  }

  /**
   * One PDF: each label's pages on sheets of the layout, then the notes page when something is missing.
   * Each chunk of labels is written out before the next is read (see StreamingPdfWriter).
   */
  async function* pdf(printable: Printable[], missing: MissingLabel[], print: BatchPrint, locale: Locale, title: string): AsyncGenerator<Buffer> {
    const out: Uint8Array[] = [];
    const drain = () => Buffer.concat(out.splice(0));
    const writer = new StreamingPdfWriter(print.layout, (bytes) => out.push(bytes));
    const perSheet = labelsPerSheet(print.layout);
    let pending: PDFPage[] = [];
    for await (const chunk of files(printable, 'pdf', missing)) {
      for (const { item, content } of chunk) {
        const pages = await pdfPages(content);
        if (!pages) missing.push({ entry: item.entry, referenceNo: item.row.referenceNo, reason: 'unreadable' });
        else pending.push(...pages);
        while (pending.length >= perSheet) await writer.addSheet(pending.splice(0, perSheet));
      }
      yield drain();
    }
    if (pending.length > 0) await writer.addSheet(pending);
    pending = [];
    if (missing.length > 0) {
      const notes = await PDFDocument.load(await renderMissingLabelsPdf(missing, print.layout, locale));
      for (const page of notes.getPages()) await writer.addPage(page);
    }
    writer.finish({ title, creationDate: new Date() });
    yield drain();
  }

  /** One ZPL stream: each label's formats one after another, then the notes labels when something is missing. */
  async function* zpl(printable: Printable[], missing: MissingLabel[], locale: Locale): AsyncGenerator<Buffer> {
    for await (const chunk of files(printable, 'zpl', missing)) {
      yield Buffer.from(chunk.map(({ content }) => (typeof content === 'string' ? content : Buffer.from(content).toString('utf8'))).join('\n'));
      yield Buffer.from('\n');
    }
    if (missing.length > 0) yield Buffer.from(missingLabelsZpl(missing, locale));
  }

  function batch(asked: { entry: string; row?: BatchLabelRow }[], print: BatchPrint, locale: Locale, name: string): LabelBatch {
    const { printable, missing } = sortOut(asked, print.format);
    if (printable.length === 0) throw new DomainError('LABEL_BATCH_EMPTY');
    const known = [...missing];
    const chunks = print.format === 'pdf' ? pdf(printable, missing, print, locale, name) : zpl(printable, missing, locale);
    return {
      labels: printable.length,
      missing: known,
      contentType: LABEL_CONTENT_TYPES[print.format],
      fileName: `${name}.${print.format}`,
      // Bytes, not objects: the stream then buffers at most its high-water mark ahead of a slow client.
      body: Readable.from(chunks, { objectMode: false, highWaterMark: 1024 * 1024 }),
    };
  }

  return {
    /** Labels of these consignments (ids or barcodes, the caller's only), in the order asked. */
    async forConsignments(customerId: number, keys: BatchKey[], entries: string[], print: BatchPrint, locale: Locale): Promise<LabelBatch> {
      const ids = keys.flatMap((k) => ('id' in k ? [k.id] : []));
      const barcodes = keys.flatMap((k) => ('barcode' in k ? [k.barcode] : []));
      const rows = await findBatchLabels(deps.db, customerId, ids, barcodes);
      const byId = new Map(rows.map((r) => [r.consignmentId, r]));
      const byBarcode = new Map(rows.filter((r) => r.barcode !== null).map((r) => [r.barcode!, r]));
      const asked = keys.map((key, i) => ({ entry: entries[i], row: 'id' in key ? byId.get(key.id) : byBarcode.get(key.barcode) }));
      return batch(asked, print, locale, 'labels');
    },

    /** Labels of an import's consignments in the order of its file (the import must be the caller's: checked by the caller). */
    async forImport(customerId: number, importId: string, print: BatchPrint, locale: Locale): Promise<LabelBatch> {
      const rows = await findImportLabels(deps.db, customerId, importId);
      return batch(
        rows.map((row) => ({ entry: String(row.consignmentId), row })),
        print,
        locale,
        `labels-${importId}`,
      );
    },
  };
}

export type LabelBatchService = ReturnType<typeof createLabelBatchService>;

/** A label file's pages, or undefined when it is not a PDF pdf-lib can read. */
async function pdfPages(content: Uint8Array | string): Promise<PDFPage[] | undefined> {
  try {
    const doc = await PDFDocument.load(typeof content === 'string' ? Buffer.from(content, 'latin1') : content, { updateMetadata: false });
    return doc.getPageCount() > 0 ? doc.getPages() : undefined;
  } catch {
    return undefined;
  }
}
