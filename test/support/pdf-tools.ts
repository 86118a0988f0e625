import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PDF read back by poppler (Debian's poppler-utils, installed by .ci/run): an independent reader, so a
 * test checks what a PDF viewer would show — page count, page sizes and each page's text — rather than
 * what our own writer meant to write.
 */
export interface PdfReading {
  pages: number;
  /** Page sizes in points, [width, height]. */
  sizes: [number, number][];
  /** Each page's text, in page order. */
  text: string[];
}

export function readPdf(pdf: Buffer): PdfReading {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-read-'));
  try {
    const file = join(dir, 'file.pdf');
    writeFileSync(file, pdf);
    // pdfinfo exits non-zero on a file it cannot parse: the test fails there.
    const info = execFileSync('pdfinfo', ['-f', '1', '-l', '100000', file], { encoding: 'utf8' });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
    const sizes = [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m): [number, number] => [Number(m[1]), Number(m[2])]);
    // Pages are separated by form feeds in pdftotext's output.
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
      .split('\f')
      .slice(0, pages);
    return { pages, sizes, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
