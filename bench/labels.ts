/**
 * Label rendering throughput, per core (one single-threaded loop):
 *   (a) our PDF label (vector barcode and QR, fonts parsed once),
 *   (b) our ZPL label,
 *   (c) the naive PDF: pdfkit + bwip-js PNG barcode + qrcode PNG, font files re-read per label.
 * The three run in interleaved rounds in one process so that load from other processes on the
 * machine hits them alike. Prints labels/s by wall clock and by process CPU time, and ours/naive.
 *
 *   npx tsx bench/labels.ts            # 300 labels per variant
 *   LABELS_N=100 npx tsx bench/labels.ts
 */
import { readFileSync } from 'node:fs';
import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { FONT_FILES } from '../src/labels/fonts';
import type { LabelData, LabelParty } from '../src/labels/label.types';
import { cityLine, countryLine, formatLabelDate, formatQuantity } from '../src/labels/label-text';
import { PAGE_HEIGHT, PAGE_WIDTH, renderPdfLabel } from '../src/labels/pdf-label';
import { renderZplLabel } from '../src/labels/zpl-label';
import { TR_FIRST_NAMES, TR_LAST_NAMES, TR_PLACES, TR_STREETS } from './people';

const N = Number(process.env.LABELS_N ?? 300);
if (!Number.isInteger(N) || N < 1) throw new Error(`LABELS_N must be a positive integer, got ${process.env.LABELS_N}`);
const ROUND = Math.min(50, N);
const WARMUP = Math.min(20, N);

// Varied but deterministic data, so per-process caches see realistic (not identical) labels.
const FIRST = [...TR_FIRST_NAMES, 'Hans', 'Marie'];
const LAST = [...TR_LAST_NAMES, 'Müller', 'Dupont'];
const STREETS = [...TR_STREETS, 'Hauptstraße', 'Rue de la Paix'];
const PLACES: Array<[string, string, string, string]> = [
  ...TR_PLACES.map(([district, city, zip]): [string, string, string, string] => [district, city, zip, 'TR']),
  ['Berlin', 'Berlin', '10115', 'DE'],
  ['Paris', 'Île-de-France', '75002', 'FR'],
];

function party(i: number, salt: number): LabelParty {
  const [city, state, postalCode, countryIso2] = PLACES[(i * 3 + salt) % PLACES.length];
  return {
    name: `${FIRST[(i + salt) % FIRST.length]} ${LAST[(i * 7 + salt) % LAST.length]}`,
    address: `${STREETS[(i * 5 + salt) % STREETS.length]} No: ${(i % 180) + 1} Daire: ${(i % 23) + 1}, ${FIRST[i % FIRST.length]} Apt. Kat ${i % 9}`,
    city,
    state,
    postalCode,
    countryIso2,
    phone: `+90 5${30 + (i % 70)} ${String(100 + ((i * 37) % 900))} ${String(10 + (i % 90))} ${String(10 + ((i * 3) % 90))}`,
  };
}

function labelData(i: number): LabelData {
  const tracking = `SBX${String(7_000_000 + i * 7919).padStart(10, '0')}`;
  return {
    barcode: `CF${String(1000 + i).padStart(10, '0')}${i % 10}`,
    trackingCode: tracking,
    trackingUrl: `https://track.consignflow.example/t/${tracking}`,
    referenceNo: i % 5 === 0 ? null : `SİP-${2025_000 + i}`,
    carrierName: i % 2 ? 'Sandbox Express' : 'Sandbox Economy',
    serviceName: i % 2 ? 'Ekspres' : 'Ekonomi',
    consignor: party(i, 1),
    consignee: party(i, 4),
    weightKg: 0.5 + (i % 40) * 0.75,
    desi: 1 + (i % 17) * 1.25,
    packageCount: 1 + (i % 4),
    createdAt: new Date(Date.UTC(2025, 2, 1 + (i % 28), 8 + (i % 10), i % 60)),
  };
}

/** The obvious implementation: raster symbols through PNG, fonts read from disk for every label. */
async function renderNaivePdfLabel(d: LabelData): Promise<Buffer> {
  const barcodePng = await bwipjs.toBuffer({ bcid: 'code128', text: d.barcode, scale: 3, height: 25, includetext: true, textxalign: 'center' });
  const qrPng = await QRCode.toBuffer(d.trackingUrl, { errorCorrectionLevel: 'M', margin: 4, scale: 4 });
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [PAGE_WIDTH, PAGE_HEIGHT], margin: 0 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.registerFont('regular', readFileSync(FONT_FILES.regular));
    doc.registerFont('bold', readFileSync(FONT_FILES.bold));
    const m = 8.5;
    const w = PAGE_WIDTH - 2 * m;
    doc.font('bold').fontSize(13).text(d.carrierName, m, m, { lineBreak: false });
    doc
      .font('regular')
      .fontSize(7.5)
      .text(formatLabelDate(d.createdAt), m, m + 2, { width: w, align: 'right', lineBreak: false });
    let y = 42;
    for (const [title, p, big] of [
      ['GÖNDERİCİ / FROM', d.consignor, false],
      ['ALICI / TO', d.consignee, true],
    ] as const) {
      doc.font('regular').fontSize(6.5).text(title, m, y, { lineBreak: false });
      doc
        .font('bold')
        .fontSize(big ? 12 : 9)
        .text(p.name, m, y + 9, { width: w, lineBreak: false, ellipsis: true });
      doc
        .font('regular')
        .fontSize(big ? 9.5 : 7.5)
        .text(p.address, m, y + 22, { width: w, height: big ? 36 : 20, ellipsis: true });
      doc.text(cityLine(p), m, doc.y + 1, { width: w, lineBreak: false }).text(countryLine(p), m, doc.y + 1, { width: w, lineBreak: false });
      y = big ? 212 : 110;
    }
    for (const [label, value] of [
      ['Ref', d.referenceNo ?? '—'],
      ['Tracking', d.trackingCode],
      ['Weight', `${formatQuantity(d.weightKg)} kg`],
      ['Desi', formatQuantity(d.desi)],
      ['Packages', String(d.packageCount)],
    ]) {
      doc.font('regular').fontSize(6.5).text(label, m, y, { lineBreak: false });
      doc
        .font('bold')
        .fontSize(8.5)
        .text(value, m + 58, y - 1.5, { lineBreak: false });
      y += 13.5;
    }
    doc.image(qrPng, PAGE_WIDTH - m - 88, 207, { width: 88, height: 88 });
    doc.image(barcodePng, m + 10, 300, { width: w - 20, height: 100 });
    doc.end();
  });
}

interface Variant {
  name: string;
  run(d: LabelData): Promise<unknown> | unknown;
  wallNs: bigint;
  cpuUs: number;
  bytes: number;
}

async function main(): Promise<void> {
  const data = Array.from({ length: N }, (_, i) => labelData(i));
  const variants: Variant[] = [
    { name: 'ours PDF (vector symbols)', run: (d) => renderPdfLabel(d), wallNs: 0n, cpuUs: 0, bytes: 0 },
    { name: 'ours ZPL', run: (d) => renderZplLabel(d), wallNs: 0n, cpuUs: 0, bytes: 0 },
    { name: 'naive PDF (PNG symbols)', run: (d) => renderNaivePdfLabel(d), wallNs: 0n, cpuUs: 0, bytes: 0 },
  ];

  for (const v of variants) for (let i = 0; i < WARMUP; i++) await v.run(data[i]);

  for (let start = 0; start < N; start += ROUND) {
    const slice = data.slice(start, start + ROUND);
    for (const v of variants) {
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (const d of slice) {
        const out = (await v.run(d)) as Buffer | string;
        v.bytes += out.length;
      }
      v.wallNs += process.hrtime.bigint() - t0;
      const cpu = process.cpuUsage(cpu0);
      v.cpuUs += cpu.user + cpu.system;
    }
  }

  const rate = (v: Variant) => ({ wall: N / (Number(v.wallNs) / 1e9), cpu: N / (v.cpuUs / 1e6) });
  console.log(`labels: ${N} per variant, rounds of ${ROUND}, warm-up ${WARMUP}, node ${process.version}`);
  console.log('variant                      labels/s (wall)  labels/s (cpu)  avg size');
  for (const v of variants) {
    const r = rate(v);
    console.log(`${v.name.padEnd(28)} ${r.wall.toFixed(1).padStart(15)} ${r.cpu.toFixed(1).padStart(15)}  ${(v.bytes / N / 1024).toFixed(1).padStart(6)} KiB`);
  }
  const [ours, , naive] = variants.map(rate);
  console.log(`ours/naive PDF: ${(ours.wall / naive.wall).toFixed(1)}x (wall), ${(ours.cpu / naive.cpu).toFixed(1)}x (cpu)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
