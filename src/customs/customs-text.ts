import countries from 'i18n-iso-countries';
// The Node entry registers no locale by itself in every build (see src/domain/countries.ts); Turkish
// names are registered here because only the customs documents print them.
import trCountryNames from 'i18n-iso-countries/langs/tr.json';
import { resolveCountry } from '../domain/countries';
import type { Locale } from '../i18n/messages';

countries.registerLocale(trCountryNames);

/**
 * The captions of the customs documents. English is the key set; the Turkish table is typed against it, so
 * a caption missing from either language (or only in one) does not compile. The wording follows the UPU
 * CN22/CN23 forms; `{page}` and `{pages}` are parameters.
 */
const EN = {
  cn22Title: 'CUSTOMS DECLARATION CN 22',
  cn23Title: 'CUSTOMS DECLARATION CN 23',
  proformaTitle: 'PROFORMA INVOICE',
  mayBeOpened: 'May be opened officially',
  continued: '(continued)',
  carrier: 'Designated operator / carrier',
  carrierShort: 'Carrier',
  from: 'From (sender)',
  to: 'To (addressee)',
  exporter: 'Exporter (sender)',
  consignee: 'Consignee (receiver)',
  taxNumber: 'Tax no.',
  eori: 'EORI no.',
  phone: 'Tel',
  email: 'E-mail',
  category: 'Category of item',
  gift: 'Gift',
  documents: 'Documents',
  commercialSample: 'Commercial sample',
  returnedGoods: 'Returned goods',
  saleOfGoods: 'Sale of goods / Other',
  lineNo: 'No.',
  descriptionAndQuantity: 'Detailed description and quantity of contents',
  description: 'Detailed description of contents',
  goodsDescription: 'Description of goods',
  quantity: 'Quantity',
  weight: 'Weight (kg)',
  netWeight: 'Net weight (kg)',
  value: 'Value',
  hsCode: 'HS tariff no.',
  origin: 'Country of origin',
  unitPrice: 'Unit price',
  amount: 'Amount',
  currency: 'Currency',
  total: 'Total',
  totalGrossWeight: 'Total gross weight (kg)',
  totalValue: 'Total value',
  packageCount: 'Number of packages',
  incoterms: 'Incoterms',
  invoiceNumber: 'Invoice no.',
  proformaNumber: 'Proforma invoice no.',
  reference: 'Reference',
  barcode: 'Barcode',
  date: 'Date',
  postalCharges: 'Postal charges / fees',
  cn22Declaration:
    'I, the undersigned, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.',
  cn23Declaration:
    'I certify that the particulars given in this customs declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.',
  invoiceDeclaration: 'I declare that the information on this invoice is true and correct.',
  dateAndSignature: "Date and sender's signature",
  signature: 'Signature, name and stamp',
  page: 'Page {page} / {pages}',
};

export type CustomsTextKey = keyof typeof EN;
export type CustomsText = Readonly<Record<CustomsTextKey, string>>;

export const CUSTOMS_TEXT: Readonly<Record<Locale, CustomsText>> = {
  en: EN,
  tr: {
    cn22Title: 'GÜMRÜK BEYANNAMESİ CN 22',
    cn23Title: 'GÜMRÜK BEYANNAMESİ CN 23',
    proformaTitle: 'PROFORMA FATURA',
    mayBeOpened: 'Resmî olarak açılabilir',
    continued: '(devamı)',
    carrier: 'Posta idaresi / taşıyıcı',
    carrierShort: 'Taşıyıcı',
    from: 'Gönderici',
    to: 'Alıcı',
    exporter: 'İhracatçı (gönderici)',
    consignee: 'Alıcı',
    taxNumber: 'Vergi no.',
    eori: 'EORI no.',
    phone: 'Tel',
    email: 'E-posta',
    category: 'Gönderinin türü',
    gift: 'Hediye',
    documents: 'Doküman',
    commercialSample: 'Ticari numune',
    returnedGoods: 'İade edilen eşya',
    saleOfGoods: 'Satış / Diğer',
    lineNo: 'No',
    descriptionAndQuantity: 'İçeriğin ayrıntılı tanımı ve miktarı',
    description: 'İçeriğin ayrıntılı tanımı',
    goodsDescription: 'Eşyanın tanımı',
    quantity: 'Miktar',
    weight: 'Ağırlık (kg)',
    netWeight: 'Net ağırlık (kg)',
    value: 'Değer',
    hsCode: 'GTİP (HS kodu)',
    origin: 'Menşe ülkesi',
    unitPrice: 'Birim fiyat',
    amount: 'Tutar',
    currency: 'Para birimi',
    total: 'Toplam',
    totalGrossWeight: 'Toplam brüt ağırlık (kg)',
    totalValue: 'Toplam değer',
    packageCount: 'Koli sayısı',
    incoterms: 'Teslim şekli (Incoterms)',
    invoiceNumber: 'Fatura no.',
    proformaNumber: 'Proforma fatura no.',
    reference: 'Referans',
    barcode: 'Barkod',
    date: 'Tarih',
    postalCharges: 'Posta ücretleri / harçlar',
    cn22Declaration:
      'Aşağıda imzası bulunan ben, bu beyannamede verilen bilgilerin doğru olduğunu ve bu gönderinin mevzuatça ya da posta veya gümrük düzenlemelerince yasaklanmış tehlikeli bir madde içermediğini beyan ederim.',
    cn23Declaration:
      'Bu gümrük beyannamesinde verilen bilgilerin doğru olduğunu ve bu gönderinin mevzuatça ya da posta veya gümrük düzenlemelerince yasaklanmış tehlikeli bir madde içermediğini beyan ederim.',
    invoiceDeclaration: 'Bu faturadaki bilgilerin doğru ve eksiksiz olduğunu beyan ederim.',
    dateAndSignature: 'Tarih ve göndericinin imzası',
    signature: 'İmza, ad soyad ve kaşe',
    page: 'Sayfa {page} / {pages}',
  },
};

/** "Page 2 / 5". */
export function pageCaption(text: CustomsText, page: number, pages: number): string {
  return text.page.replace('{page}', String(page)).replace('{pages}', String(pages));
}

/** `YYYY-MM-DD` in UTC, like the label's timestamp: the document must not depend on the server's zone. */
export function formatDocumentDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * Money with exactly 2 decimals and a point in both languages (no grouping): customs officers abroad read
 * the Turkish document too, and "1.234,50" would be misread there as one thousand or as 1.234.
 */
export function formatMoney(amount: number): string {
  return amount.toFixed(2);
}

/** Kilograms with 3 decimals (to the gram). */
export function formatKg(kg: number): string {
  return kg.toFixed(3);
}

/** The country's name in the document's language, or the code itself when it is not an ISO 3166 country. */
export function countryName(iso2: string | null, lang: Locale): string {
  if (!iso2 || !iso2.trim()) return '—';
  const code = iso2.trim().toUpperCase();
  const country = /^[A-Z]{2}$/.test(code) ? resolveCountry(code) : undefined;
  if (!country) return code;
  return lang === 'tr' ? (countries.getName(code, 'tr') ?? country.name) : country.name;
}
