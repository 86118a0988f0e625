/**
 * A tiny reader for the uncompressed PDFs pdfkit writes (`compress: false`): objects, streams,
 * the page's rectangles and its text decoded through the fonts' ToUnicode maps. Enough to check
 * a label without a PDF library or external tools.
 */

export interface PdfObject {
  id: number;
  dict: string;
  stream?: string;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export class PdfSource {
  readonly text: string;
  readonly objects = new Map<number, PdfObject>();

  constructor(pdf: Buffer) {
    // latin1 keeps every byte as one char, so binary stream data keeps its offsets.
    this.text = pdf.toString('latin1');
    const header = /(\d+) 0 obj\n/g;
    let m: RegExpExecArray | null;
    while ((m = header.exec(this.text))) {
      const id = Number(m[1]);
      const start = m.index + m[0].length;
      const dictEnd = this.matchDict(start);
      const dict = this.text.slice(start, dictEnd);
      const obj: PdfObject = { id, dict };
      const after = this.text.slice(dictEnd, dictEnd + 8);
      if (after.startsWith('\nstream\n')) {
        const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
        const dataStart = dictEnd + '\nstream\n'.length;
        obj.stream = this.text.slice(dataStart, dataStart + length);
        header.lastIndex = dataStart + length;
      } else {
        header.lastIndex = dictEnd;
      }
      this.objects.set(id, obj);
    }
  }

  /** End index of the `<< ... >>` (or other value) that starts at `start`. */
  private matchDict(start: number): number {
    if (!this.text.startsWith('<<', start)) return this.text.indexOf('\nendobj', start);
    let depth = 0;
    for (let i = start; i < this.text.length - 1; i++) {
      if (this.text.startsWith('<<', i)) {
        depth++;
        i++;
      } else if (this.text.startsWith('>>', i)) {
        depth--;
        i++;
        if (depth === 0) return i + 1;
      }
    }
    throw new Error('unterminated dictionary');
  }

  ref(dict: string, key: string): PdfObject {
    const id = new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1];
    const obj = id === undefined ? undefined : this.objects.get(Number(id));
    if (!obj) throw new Error(`no /${key} reference`);
    return obj;
  }

  pages(): PdfObject[] {
    return [...this.objects.values()].filter((o) => /\/Type \/Page\n/.test(o.dict));
  }

  mediaBox(page: PdfObject): number[] {
    const box = /\/MediaBox \[([^\]]+)\]/.exec(page.dict)?.[1];
    if (!box) throw new Error('no MediaBox');
    return box.trim().split(/\s+/).map(Number);
  }

  content(page: PdfObject): string {
    const stream = this.ref(page.dict, 'Contents').stream;
    if (stream === undefined) throw new Error('page has no content stream');
    return stream;
  }

  /** `x y w h re` operations of the page, in pdfkit's (top-left) coordinates as written. */
  rects(page: PdfObject): Rect[] {
    const out: Rect[] = [];
    for (const m of this.content(page).matchAll(/^(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re$/gm)) {
      out.push({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) });
    }
    return out;
  }

  /** Resource name (F1, F2…) → font dictionary object, for the page. */
  fonts(page: PdfObject): Map<string, PdfObject> {
    const resources = this.ref(page.dict, 'Resources');
    const fontDict = /\/Font <<([\s\S]*?)>>/.exec(resources.dict)?.[1] ?? '';
    const out = new Map<string, PdfObject>();
    for (const m of fontDict.matchAll(/\/(\w+) (\d+) 0 R/g)) {
      const obj = this.objects.get(Number(m[2]));
      if (obj) out.set(m[1], obj);
    }
    return out;
  }

  /** Glyph id → Unicode text from a font's ToUnicode CMap (bfchar and bfrange forms). */
  toUnicode(font: PdfObject): Map<number, string> {
    const cmap = this.ref(font.dict, 'ToUnicode').stream ?? '';
    const map = new Map<number, string>();
    const hexText = (hex: string): string => String.fromCharCode(...(hex.match(/[0-9a-fA-F]{4}/g) ?? []).map((h) => parseInt(h, 16)));
    for (const block of cmap.matchAll(/beginbfrange\n([\s\S]*?)endbfrange/g)) {
      for (const m of block[1].matchAll(/<([0-9a-fA-F]+)> <([0-9a-fA-F]+)> (\[[^\]]*\]|<[0-9a-fA-F ]+>)/g)) {
        const lo = parseInt(m[1], 16);
        const hi = parseInt(m[2], 16);
        if (m[3].startsWith('[')) {
          const items = [...m[3].matchAll(/<([0-9a-fA-F ]+)>/g)].map((x) => hexText(x[1].replace(/ /g, '')));
          for (let g = lo; g <= hi; g++) map.set(g, items[g - lo]);
        } else {
          const base = parseInt(m[3].slice(1, -1), 16);
          for (let g = lo; g <= hi; g++) map.set(g, String.fromCharCode(base + g - lo));
        }
      }
    }
    for (const block of cmap.matchAll(/beginbfchar\n([\s\S]*?)endbfchar/g)) {
      for (const m of block[1].matchAll(/<([0-9a-fA-F]+)> <([0-9a-fA-F ]+)>/g)) map.set(parseInt(m[1], 16), hexText(m[2].replace(/ /g, '')));
    }
    return map;
  }

  /** The text of each BT…ET block of the page, decoded glyph by glyph through ToUnicode. */
  textRuns(page: PdfObject): string[] {
    const fonts = this.fonts(page);
    const maps = new Map([...fonts].map(([name, font]) => [name, this.toUnicode(font)]));
    const runs: string[] = [];
    for (const block of this.content(page).matchAll(/\nBT\n([\s\S]*?)\nET\n/g)) {
      let map: Map<number, string> | undefined;
      let text = '';
      for (const line of block[1].split('\n')) {
        const tf = /^\/(\w+) [\d.]+ Tf$/.exec(line);
        if (tf) map = maps.get(tf[1]);
        const tj = /^\[(.*)\] TJ$/.exec(line);
        if (tj && map) {
          for (const hex of tj[1].matchAll(/<([0-9a-fA-F]+)>/g)) {
            for (const gid of hex[1].match(/[0-9a-fA-F]{4}/g) ?? []) text += map.get(parseInt(gid, 16)) ?? '\uFFFD';
          }
        }
      }
      runs.push(text);
    }
    return runs;
  }
}
