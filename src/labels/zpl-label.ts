import { labelPages, packageCountText, type LabelData, type LabelPage, type LabelParty } from './label.types';
import { cityLine, countryLine, formatLabelDate, labelDetails } from './label-text';
import { encodeCode128 } from './symbols';

/**
 * ZPL II for a 100 × 150 mm thermal label at 203 dpi (8 dots/mm: 800 × 1200 dots, which also fits
 * a 4 × 6 in roll). Same content as the PDF label.
 *
 * Text: `^CI28` makes field data UTF-8, so Turkish letters pass as they are. Every field carries
 * `^FH` and its data escapes the characters that would end or corrupt the field: `^` and `~` (the
 * ZPL command prefixes) and `_` (the `^FH` indicator itself) become `_5E`, `_7E`, `_5F`; control
 * characters become spaces. In `^FB` blocks the backslash is doubled (`\&` would be a line break).
 */

const DOTS_PER_MM = 8;
export const ZPL_WIDTH = 100 * DOTS_PER_MM;
export const ZPL_HEIGHT = 150 * DOTS_PER_MM;
export const ZPL_MARGIN = 24;
const INNER = ZPL_WIDTH - 2 * ZPL_MARGIN;

/** Escape text for a `^FH` field: afterwards it contains no `^` or `~` and decodes back to `text`. */
export function zplEscape(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '^' || ch === '~' || ch === '_') out += '_' + code.toString(16).toUpperCase().padStart(2, '0');
    else if (code < 0x20 || code === 0x7f) out += ' ';
    else out += ch;
  }
  return out;
}

/**
 * `^FB` overprints the last line with whatever does not fit, so text is cut beforehand. Font 0 is
 * proportional; 0.55 × height is a safe average advance for mixed-case Latin text.
 */
function fit(value: string, width: number, size: number, lines: number): string {
  const max = Math.max(4, Math.floor(width / (size * 0.55))) * lines;
  const chars = [...value];
  return chars.length <= max
    ? value
    : chars
        .slice(0, max - 3)
        .join('')
        .trimEnd() + '...';
}

/** A text field (the merged batches' notes page uses it too): origin, scalable font 0 at `size` dots, optional `^FB` block (width, lines, alignment). */
export function zplText(x: number, y: number, size: number, value: string, block?: { width: number; lines?: number; align?: 'L' | 'C' | 'R' }): string {
  const font = `^A0N,${size},${size}`;
  if (!block) return `^FO${x},${y}${font}^FH^FD${zplEscape(value)}^FS`;
  const escaped = zplEscape(fit(value, block.width, size, block.lines ?? 1)).replace(/\\/g, '\\\\');
  return `^FO${x},${y}${font}^FB${block.width},${block.lines ?? 1},0,${block.align ?? 'L'},0^FH^FD${escaped}^FS`;
}

/** The commands that open a label format: UTF-8 text (`^CI28`), the 100 × 150 mm label, the origin at its corner. */
export const ZPL_FORMAT_START = ['^XA', '^CI28', `^PW${ZPL_WIDTH}`, `^LL${ZPL_HEIGHT}`, '^LH0,0'];

function rule(y: number): string {
  return `^FO${ZPL_MARGIN},${y}^GB${INNER},3,3^FS`;
}

function party(title: string, p: LabelParty, top: number, prominent: boolean): string[] {
  const nameSize = prominent ? 44 : 30;
  const bodySize = prominent ? 32 : 24;
  const addressLines = prominent ? 3 : 2;
  const addressTop = top + 30 + nameSize;
  const cityTop = addressTop + addressLines * (bodySize + 2) + 4;
  return [
    zplText(ZPL_MARGIN, top, 20, title),
    zplText(ZPL_MARGIN, top + 24, nameSize, p.name, { width: INNER }),
    zplText(ZPL_MARGIN, addressTop, bodySize, p.address, { width: INNER, lines: addressLines }),
    zplText(ZPL_MARGIN, cityTop, prominent ? 36 : bodySize, cityLine(p), { width: INNER }),
    zplText(ZPL_MARGIN, cityTop + (prominent ? 42 : 30), bodySize, countryLine(p), { width: INNER }),
  ];
}

/** The label as ZPL II, one command per line, from `^XA` to `^XZ` (one such format per piece when it has pieces). */
export function renderZplLabel(data: LabelData): string {
  return labelPages(data).map(renderZplPage).join('');
}

function renderZplPage(data: LabelPage): string {
  // Module width (^BY) so the barcode and its 10-module quiet zones fill the width, 2–4 dots.
  const modules = encodeCode128(data.barcode).modules;
  const moduleDots = Math.max(2, Math.min(4, Math.floor(INNER / (modules + 20))));
  const barcodeX = Math.max(ZPL_MARGIN, Math.round((ZPL_WIDTH - modules * moduleDots) / 2));

  const lines = [
    ...ZPL_FORMAT_START,
    zplText(ZPL_MARGIN, ZPL_MARGIN, 44, data.carrierName, { width: INNER - 260 }),
    zplText(ZPL_WIDTH - ZPL_MARGIN - 260, ZPL_MARGIN + 4, 22, formatLabelDate(data.createdAt), { width: 260, align: 'R' }),
    zplText(ZPL_WIDTH - ZPL_MARGIN - 260, ZPL_MARGIN + 40, 22, packageCountText(data), { width: 260, align: 'R' }),
  ];
  if (data.serviceName) lines.push(zplText(ZPL_MARGIN, ZPL_MARGIN + 52, 24, data.serviceName, { width: INNER - 260 }));
  lines.push(rule(108), ...party('GÖNDERİCİ / FROM', data.consignor, 120, false), rule(316), ...party('ALICI / TO', data.consignee, 328, true), rule(640));

  const details = labelDetails(data, '-');
  // Six rows (a routing line) take the space of five.
  const rowDots = details.length > 5 ? 37 : 44;
  details.forEach(([label, value], i) => {
    const y = 660 + i * rowDots;
    lines.push(zplText(ZPL_MARGIN, y + 6, 20, label), zplText(ZPL_MARGIN + 190, y, 30, value, { width: 330 }));
  });
  // QR: model 2, 6 dots per module; "MA," = error correction M, automatic data mode.
  lines.push(`^FO${ZPL_WIDTH - ZPL_MARGIN - 230},650^BQN,2,6^FH^FDMA,${zplEscape(data.trackingUrl)}^FS`);
  lines.push(rule(890));

  // Code128 in automatic mode (the printer picks subsets), interpretation line printed by us below.
  lines.push(`^BY${moduleDots}`, `^FO${barcodeX},910^BCN,190,N,N,N,A^FH^FD${zplEscape(data.barcode)}^FS`);
  lines.push(zplText(ZPL_MARGIN, 1110, 40, data.barcode, { width: INNER, align: 'C' }));
  lines.push(zplText(ZPL_MARGIN, 1160, 20, data.trackingUrl, { width: INNER, align: 'C' }));
  lines.push('^XZ');
  return lines.join('\n') + '\n';
}
