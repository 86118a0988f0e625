import PDFDocument from 'pdfkit';
import { sharedLabelFonts, type LabelFonts } from './fonts';

/**
 * A pdfkit document as bytes: made with `options`, the label fonts registered as `regular` and `bold`
 * (DejaVu Sans: pdfkit's built-in fonts cannot draw Turkish letters), drawn by `draw`. Labels, customs
 * documents and the notes page of label batches are all made this way.
 */
export function renderPdf(options: PDFKit.PDFDocumentOptions & { fonts?: LabelFonts }, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { fonts, ...documentOptions } = options;
  return new Promise((resolve, reject) => {
    // No default font: pdfkit would parse the Helvetica AFM metrics for every document.
    const doc = new PDFDocument({ font: '', ...documentOptions });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      const { regular, bold } = fonts ?? sharedLabelFonts();
      doc.registerFont('regular', regular);
      doc.registerFont('bold', bold);
      draw(doc);
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
