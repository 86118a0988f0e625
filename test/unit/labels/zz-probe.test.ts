import { renderZplLabel } from '../../../src/labels/zpl-label';
import { renderPdfLabel } from '../../../src/labels/pdf-label';
import { PdfSource } from './pdf-source';
import { turkishLabel } from './fixtures';
it('probe', async () => {
  const name = 'Çok Uzun İsimli Bir Şirket '.repeat(6).trim();
  const zpl = renderZplLabel(turkishLabel({ consignee: { ...turkishLabel().consignee, name } }));
  console.log(JSON.stringify([...zpl.matchAll(/\^FO[^\n]*?\^FD(.*?)\^FS/g)].map((m) => m[0]).filter((x) => x.includes('Çok'))));
  const name2 = 'Çok Uzun İsimli Bir Şirket '.repeat(8).trim();
  const pdf = new PdfSource(await renderPdfLabel(turkishLabel({ consignee: { ...turkishLabel().consignee, name: name2 } }), { compress: false }));
  console.log(JSON.stringify(pdf.textRuns(pdf.pages()[0]).filter((t) => t.startsWith('Çok'))));
});
