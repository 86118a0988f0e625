import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The label fonts: DejaVu Sans (regular and bold) because it covers Turkish (İ ı Ş ş Ğ ğ Ç ç Ö ö
 * Ü ü) and is free to embed.
 *
 * Why this module exists: handed TTF bytes, pdfkit has fontkit parse the whole file for every document,
 * and decoding its cmap, GSUB/GPOS tables and glyph outlines is most of a label's render time. pdfkit also
 * accepts an already parsed fontkit font, so we parse each file once per process and share it; fontkit then
 * keeps its decoded tables and glyph objects across documents. Each document still embeds its own subset
 * (only the glyphs that label uses), so the PDFs are identical byte for byte to the plain path (a unit test
 * pins it). bench/labels.ts measures the gain (docs/operations.md, "Why it is built this way").
 *
 * Two further per-document costs are memoized on the shared font objects:
 * - text shaping (`layout`, fontkit's public API): pdfkit shapes word by word and caches only per
 *   document; captions, city names and digits repeat across labels. The cache is bounded.
 * - glyph outline decoding in the subsetter, which decodes every glyph of every document only to
 *   tell simple from composite glyphs. This wraps a private fontkit method (`_decode`), so it is
 *   applied only when that method exists; fontkit is the copy pdfkit itself resolves.
 * A glyph's code points (for the ToUnicode map) are the ones it was first met with in the process
 * rather than in the document; they differ only for glyphs shared by several characters.
 */

/** The part of a fontkit font that this module touches. */
interface FontkitFont {
  layout(text: string, features?: unknown, ...rest: unknown[]): GlyphRunLike;
  getGlyph(id: number, codePoints?: number[]): FontkitGlyph | null;
}
interface FontkitGlyph {
  codePoints: number[];
  _decode?: () => unknown;
}
interface PositionLike {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface GlyphRunLike {
  glyphs: FontkitGlyph[];
  positions: PositionLike[];
  readonly advanceWidth: number;
}

/** A font source as pdfkit's `registerFont` takes it: a path, TTF bytes, or a parsed fontkit font. */
export type LabelFontSource = PDFKit.Mixins.PDFFontSource;

export interface LabelFonts {
  regular: LabelFontSource;
  bold: LabelFontSource;
}

export const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

/** The TTF bytes, read once at module load. */
export const FONT_BYTES = {
  regular: readFileSync(FONT_FILES.regular),
  bold: readFileSync(FONT_FILES.bold),
} as const;

/** Distinct words kept per font; shaping results are small, and the cache restarts when full. */
const LAYOUT_CACHE_LIMIT = 20_000;

let shared: LabelFonts | undefined;

/** The process-wide parsed fonts (parsed on first use). */
export function sharedLabelFonts(): LabelFonts {
  if (!shared) {
    const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as { create(data: Uint8Array): FontkitFont };
    shared = {
      regular: asSource(memoize(fontkit.create(FONT_BYTES.regular))),
      bold: asSource(memoize(fontkit.create(FONT_BYTES.bold))),
    };
  }
  return shared;
}

// pdfkit's typings list only paths and bytes, though pdfkit also opens parsed fontkit fonts (anything with `layout`).
function asSource(font: FontkitFont): LabelFontSource {
  return font as unknown as LabelFontSource;
}

function memoize(font: FontkitFont): FontkitFont {
  const layout = font.layout.bind(font);
  const runs = new Map<string, GlyphRunLike>();
  font.layout = (text: string, features?: unknown, ...rest: unknown[]): GlyphRunLike => {
    if (features !== undefined || rest.length > 0) return layout(text, features, ...rest);
    let run = runs.get(text);
    if (!run) {
      if (runs.size >= LAYOUT_CACHE_LIMIT) runs.clear();
      run = layout(text);
      runs.set(text, run);
    }
    return copyRun(run);
  };

  const getGlyph = font.getGlyph.bind(font);
  const decoded = new WeakSet<FontkitGlyph>();
  font.getGlyph = (id: number, codePoints?: number[]): FontkitGlyph | null => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && !decoded.has(glyph)) {
      decoded.add(glyph);
      const decode = glyph._decode;
      if (typeof decode === 'function') {
        let done = false;
        let result: unknown;
        glyph._decode = () => {
          if (!done) {
            result = decode.call(glyph);
            done = true;
          }
          return result;
        };
      }
    }
    // A glyph first met as a component of another (e.g. the dot of İ) has no code points; give it
    // the ones it is now asked for, as a fresh font would, so the ToUnicode map stays complete.
    if (glyph && glyph.codePoints.length === 0 && codePoints && codePoints.length > 0) glyph.codePoints = codePoints;
    return glyph;
  };
  return font;
}

/** pdfkit scales the positions of a run in place, so every caller gets its own copy. */
function copyRun(run: GlyphRunLike): GlyphRunLike {
  const positions = run.positions.map((p) => ({ xAdvance: p.xAdvance, yAdvance: p.yAdvance, xOffset: p.xOffset, yOffset: p.yOffset }));
  return {
    glyphs: run.glyphs.slice(),
    positions,
    get advanceWidth() {
      let width = 0;
      for (const p of positions) width += p.xAdvance;
      return width;
    },
  };
}
