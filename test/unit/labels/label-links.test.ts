import { createLabelLinks } from '../../../src/labels/label-links';
import { documentFileName, sniffDocumentType } from '../../../src/domain/documents';

const links = createLabelLinks('a-secret-of-enough-length', 'https://ship.example');
const hashOf = (url: string) => new URL(url).searchParams.get('hash');

describe('signed links', () => {
  it('verify their own id and file name only', () => {
    const hash = hashOf(links.url(7, 'CF0000000070.pdf'));
    expect(links.verify(7, 'CF0000000070.pdf', hash)).toBe(true);
    expect(links.verify(8, 'CF0000000070.pdf', hash)).toBe(false);
    expect(links.verify(7, 'CF0000000071.pdf', hash)).toBe(false);
    expect(links.verify(7, 'CF0000000070.pdf', 'ü'.repeat(16) + 'x'.repeat(16))).toBe(false);
  });

  it('keep labels and documents apart: a label link does not open the document of the same id and name, nor the reverse', () => {
    const label = hashOf(links.url(7, 'invoice.pdf'));
    const document = hashOf(links.documentUrl(7, 'invoice.pdf'));
    expect(links.verifyDocument(7, 'invoice.pdf', document)).toBe(true);
    expect(links.verifyDocument(7, 'invoice.pdf', label)).toBe(false);
    expect(links.verify(7, 'invoice.pdf', document)).toBe(false);
    expect(links.documentUrl(7, 'fatura ş.pdf')).toMatch(/^https:\/\/ship\.example\/api\/v1\/documents\/7\/fatura%20%C5%9F\.pdf\?hash=/);
  });
});

describe('documents', () => {
  it('are recognised by their first bytes', () => {
    expect(sniffDocumentType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffDocumentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffDocumentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffDocumentType(Buffer.from('%PD'))).toBeUndefined();
    expect(sniffDocumentType(Buffer.from('GIF89a'))).toBeUndefined();
  });

  it('keep a file name without its path, control characters or quotes, or get one from their type', () => {
    expect(documentFileName('C:\\Users\\ayse\\fatura "son".pdf', 'application/pdf')).toBe('fatura son.pdf');
    expect(documentFileName('../../etc/passwd\u0000', 'image/png')).toBe('passwd');
    expect(documentFileName(null, 'image/jpeg')).toBe('document.jpg');
    expect(documentFileName('x'.repeat(300), 'application/pdf')).toHaveLength(255);
  });
});
