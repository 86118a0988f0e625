import type { LabelData } from '../../../src/labels/label.types';

/** A label with every Turkish special letter in names, places and the reference. */
export function turkishLabel(overrides: Partial<LabelData> = {}): LabelData {
  return {
    barcode: 'CF00000012344',
    trackingCode: 'SBX7Q2K9M4TR',
    trackingUrl: 'https://track.consignflow.example/t/SBX7Q2K9M4TR',
    referenceNo: 'SİP-2025/ğüşıöç-001',
    carrierName: 'Sandbox Express',
    serviceName: 'Ekspres Yurt İçi',
    consignor: {
      name: 'Işıklar Çiçekçilik Ltd. Şti.',
      address: 'Bağdat Caddesi No: 42/3 Göztepe',
      city: 'Kadıköy',
      state: 'İstanbul',
      postalCode: '34730',
      countryIso2: 'TR',
      phone: '+90 216 555 00 11',
    },
    consignee: {
      name: 'Şükrü Öztürk (DOĞAN ÜNLÜ)',
      address: 'Atatürk Mahallesi, Gül Sokak No: 7 Daire: 12',
      city: 'Çankaya',
      state: 'Ankara',
      postalCode: '06690',
      countryIso2: 'TR',
      phone: '+90 312 444 22 33',
    },
    weightKg: 2.5,
    desi: 3.75,
    packageCount: 2,
    createdAt: new Date('2025-03-14T09:26:53Z'),
    ...overrides,
  };
}

export const TURKISH_LETTERS = ['İ', 'ı', 'Ş', 'ş', 'Ğ', 'ğ', 'Ç', 'ç', 'Ö', 'ö', 'Ü', 'ü'];
