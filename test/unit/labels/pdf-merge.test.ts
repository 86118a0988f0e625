import { describe, expect, it } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { renderPdfLabel } from '../../../src/labels/pdf-label';
import { placeInSlot, StreamingPdfWriter } from '../../../src/labels/pdf-merge';
import { readPdf } from '../../support/pdf-tools';
import { turkishLabel } from './fixtures';

const MM = 72 / 25.4;

async function pagesOf(pdf: Uint8Array) {
  return (await PDFDocument.load(pdf)).getPages();
}

/** Writes sheets of `perSheet` pages with a writer of `layout`, collecting the chunks it emits. */
async function merge(layout: 'label' | 'a4', pages: Awaited<ReturnType<typeof pagesOf>>, perSheet: number) {
  const chunks: Uint8Array[] = [];
  const writer = new StreamingPdfWriter(layout, (c) => chunks.push(c));
  const written: number[] = [];
  for (let i = 0; i < pages.length; i += perSheet) {
    await writer.addSheet(pages.slice(i, i + perSheet));
    written.push(chunks.length);
  }
  writer.finish({ title: 'Etiketler İş', creationDate: new Date('2026-11-24T10:00:00Z') });
  return { pdf: Buffer.concat(chunks), written };
}

describe('StreamingPdfWriter', () => {
  it('writes each sheet as it is added and ends with a cross-reference table whose every offset starts its object', async () => {
    const pages = [
      ...(await pagesOf(await renderPdfLabel(turkishLabel({ barcode: 'CF00000000011' })))),
      // Two pieces: two pages, each with its own barcode.
      ...(await pagesOf(await renderPdfLabel(turkishLabel({ barcode: 'CF00000000022', pieces: ['CF00000000022', 'CF00000000022-2'] })))),
      ...(await pagesOf(await renderPdfLabel(turkishLabel({ barcode: 'CF00000000033' })))),
    ];
    const { pdf, written } = await merge('label', pages, 1);
    // Output after every sheet, not only at the end.
    expect(written.every((n, i) => i === 0 || n > written[i - 1])).toBe(true);

    const text = pdf.toString('latin1');
    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.startsWith('xref\n', xrefAt)).toBe(true);
    const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(xrefAt))!;
    expect(first).toBe('0');
    const entries = text
      .slice(xrefAt)
      .split('\n')
      .slice(2, 2 + Number(count));
    let inUse = 0;
    entries.forEach((entry, n) => {
      const [offset, , kind] = entry.split(' ');
      if (kind !== 'n') return;
      inUse++;
      expect(text.startsWith(`${n} 0 obj\n`, Number(offset))).toBe(true);
    });
    expect(inUse).toBeGreaterThan(10);

    const read = readPdf(pdf);
    expect(read.pages).toBe(4);
    expect(read.text.map((page) => /CF\d{11}(-2)?/.exec(page)?.[0])).toEqual(['CF00000000011', 'CF00000000022', 'CF00000000022-2', 'CF00000000033']);
    expect(read.text[0]).toContain('Işıklar Çiçekçilik');
    for (const [w, h] of read.sizes) {
      expect(w).toBeCloseTo(100 * MM, 1);
      expect(h).toBeCloseTo(150 * MM, 1);
    }
  });

  it('puts four labels on an A4 sheet and adds a page of its own size after them', async () => {
    const label = await renderPdfLabel(turkishLabel());
    const pages = [...(await pagesOf(label)), ...(await pagesOf(label)), ...(await pagesOf(label)), ...(await pagesOf(label)), ...(await pagesOf(label))];
    const chunks: Uint8Array[] = [];
    const writer = new StreamingPdfWriter('a4', (c) => chunks.push(c));
    await writer.addSheet(pages.slice(0, 4));
    await writer.addSheet(pages.slice(4));
    await expect(writer.addSheet(pages)).rejects.toThrow('A sheet holds 1 to 4 label pages');
    const notes = await PDFDocument.create();
    const page = notes.addPage([300, 200]);
    page.drawText('NOTES PAGE', { x: 20, y: 100, font: await notes.embedFont(StandardFonts.Helvetica), size: 20 });
    await writer.addPage((await pagesOf(await notes.save()))[0]);
    writer.finish({ title: 't', creationDate: new Date() });
    expect(writer.pageCount).toBe(3);

    const read = readPdf(Buffer.concat(chunks));
    expect(read.pages).toBe(3);
    expect(read.sizes[0][0]).toBeCloseTo(595.28, 1);
    expect(read.sizes[1][1]).toBeCloseTo(841.89, 1);
    expect(read.sizes[2]).toEqual([300, 200]);
    expect(read.text[0].match(/CF00000012344/g)).toHaveLength(4);
    expect(read.text[1].match(/CF00000012344/g)).toHaveLength(1);
    expect(read.text[2]).toContain('NOTES PAGE');
  });
});

describe('placeInSlot', () => {
  const cell = { x: 10, y: 20, width: 100, height: 150 };

  it('scales a page to fit, keeping its proportions, centred in the slot', () => {
    // Same proportions, twice the size: half scale, filling the slot.
    expect(placeInSlot(cell, 200, 300)).toEqual({ x: 10, y: 20, scale: 0.5, turned: false });
    // A4 portrait (210 × 297) into 100 × 150: limited by the width, centred vertically.
    const a4 = placeInSlot(cell, 210, 297);
    expect(a4.turned).toBe(false);
    expect(a4.scale).toBeCloseTo(100 / 210, 6);
    expect(a4.y).toBeCloseTo(20 + (150 - 297 * (100 / 210)) / 2, 6);
  });

  it('turns a landscape page a quarter in a portrait slot, its origin at the right edge', () => {
    // 150 × 100 landscape into 100 × 150: turned, it fills the slot at scale 1.
    expect(placeInSlot(cell, 150, 100)).toEqual({ x: 110, y: 20, scale: 1, turned: true });
    // A square page gains nothing from turning.
    expect(placeInSlot(cell, 100, 100).turned).toBe(false);
  });
});
