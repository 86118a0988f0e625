import bwipjs from 'bwip-js';
import QRCode from 'qrcode';

/**
 * Barcode geometry in module units, shared by the PDF renderer (which draws it as vector
 * rectangles, no PNG step) and the tests (which compare what was drawn with these encoders).
 */

/** A dark bar of a linear symbol: starts `x` modules from the left edge, `width` modules wide. */
export interface Bar {
  x: number;
  width: number;
}

/** A dark horizontal run of a 2D symbol, in modules from the top-left corner. */
export interface Run {
  row: number;
  col: number;
  length: number;
}

export interface Code128 {
  /** Alternating bar/space widths starting with a bar, as bwip-js encodes them (start, data, check and stop). */
  widths: number[];
  bars: Bar[];
  /** Total width in modules, without quiet zones. */
  modules: number;
}

/** Code128 of `text`, encoded by bwip-js (it picks the shortest code set mix). */
export function encodeCode128(text: string): Code128 {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text });
  if (!symbol || !('sbs' in symbol)) throw new Error('bwip-js returned no linear symbol for code128');
  const widths = symbol.sbs;
  const bars: Bar[] = [];
  let x = 0;
  for (let i = 0; i < widths.length; i++) {
    if (i % 2 === 0) bars.push({ x, width: widths[i] });
    x += widths[i];
  }
  return { widths, bars, modules: x };
}

export interface QrMatrix {
  size: number;
  /** Row-major, 1 = dark, as `qrcode.create(text).modules.data`. */
  data: Uint8Array;
  runs: Run[];
}

/** QR code of `text` (error correction M: a label may get scuffed, and URLs stay short). */
export function encodeQr(text: string): QrMatrix {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const data = Uint8Array.from(modules.data);
  // Merge dark modules of a row into runs: far fewer rectangles to draw than one per module.
  const runs: Run[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      runs.push({ row, col: start, length: col - start });
    }
  }
  return { size, data, runs };
}
