import type { CustomsData, CustomsItem } from '../../../src/customs/customs.types';
import { turkishLabel } from '../labels/fixtures';

/** A Turkish shop sending to Germany: Turkish letters in names, places and descriptions, two currencies. */
export function customsData(overrides: Partial<CustomsData> = {}): CustomsData {
  return {
    barcode: 'CF00000012344',
    referenceNo: 'SİP-2025/ğüşıöç-001',
    invoiceNumber: 'FTR-2025-000117',
    date: new Date('2025-03-14T22:30:00Z'),
    // the label fixture's consignor, with what customs papers add to a label party
    sender: {
      ...turkishLabel().consignor,
      email: 'ihracat@isiklar.example',
      taxNumber: '4810012345',
    },
    receiver: {
      name: 'Jürgen Weiß',
      address: 'Hauptstraße 5',
      city: 'Köln',
      postalCode: '50667',
      countryIso2: 'DE',
      phone: '+49 221 000 000',
      eoriNumber: 'DE123456789012345',
    },
    items: [
      item({ description: 'Seramik kupa (el yapımı, İznik desenli)', gtip: '691200', quantity: 2, unitPrice: 9.5, currency: 'EUR', netWeightKg: 0.8 }),
      item({ description: 'İpek eşarp', gtip: '621410', originIso2: 'TR', quantity: 1, unitPrice: 45, currency: 'USD', netWeightKg: 0.15 }),
    ],
    grossWeightKg: 1.2,
    packageCount: 1,
    incoterms: 'DAP',
    carrierName: 'Sandbox Express',
    ...overrides,
  };
}

export function item(overrides: Partial<CustomsItem> = {}): CustomsItem {
  return {
    description: 'Ceramic mug',
    gtip: '691200',
    originIso2: 'TR',
    quantity: 1,
    unitPrice: 10,
    currency: 'EUR',
    netWeightKg: 0.4,
    category: null,
    ...overrides,
  };
}

/** `count` numbered items, each description long enough to wrap in the narrow CN22 column. */
export function manyItems(count: number): CustomsItem[] {
  return Array.from({ length: count }, (_, i) =>
    item({
      description: `Ürün ${i + 1}: ağaç oyma süs eşyası, elde boyanmış`,
      gtip: `4420${String(i).padStart(2, '0')}`,
      quantity: 1,
      unitPrice: 1,
      netWeightKg: 0.01,
    }),
  );
}
