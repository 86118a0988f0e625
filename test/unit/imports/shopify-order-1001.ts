/**
 * Order #1001 of the Shopify fixtures (shopify-orders.csv and the webhook shopify-orders-create.json) as its draft's
 * consignee and items: what the export and the webhook both give.
 */
export const SHOPIFY_ORDER_1001 = {
  consignee: {
    name: 'Ayşe Yılmaz',
    email: 'ayse.yilmaz@example.com',
    address: 'Bağdat Cd. No:5, D:3',
    city: 'İstanbul',
    state: 'İstanbul',
    state_code: 'TR-34',
    postal_code: '34710', // the export's apostrophe before the zip is dropped
    country: 'TR',
  },
  items: [
    { description: 'Pamuklu tişört - Beyaz / M [TS-001-M]', quantity: 2, unit_price: 149.9, currency_code: 'TRY' },
    { description: 'Türk kahvesi, 250 g [TK-250]', quantity: 1, unit_price: 120, currency_code: 'TRY' },
  ],
};
