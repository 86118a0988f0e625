/**
 * CSV presets of order imports. Every preset maps the columns of one export format onto the same logical
 * columns, which are the columns of our generic template (GET /api/v1/imports/template.csv). Headers are
 * matched case- and punctuation-insensitively ("Shipping Address 1" = "shipping_address_1"); where a preset
 * lists several spellings, the first present, non-blank one gives the value (e.g. Shopify's "Shipping Phone",
 * then "Phone", then "Billing Phone").
 */

export const PRESET_NAMES = ['generic', 'shopify', 'woocommerce'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

const PARTY_COLUMNS = [
  'name',
  'first_name',
  'last_name',
  'attention_name',
  'email',
  'phone',
  'address',
  'address2',
  'city',
  'state',
  'state_code',
  'postal_code',
  'country',
  'tax_number',
  'party_type',
] as const;
type PartyColumn = (typeof PARTY_COLUMNS)[number];
const PACKAGE_COLUMNS = ['package_type', 'package_weight', 'package_length', 'package_width', 'package_height'] as const;

export const COLUMN_KEYS = [
  'reference_no',
  'invoice_number',
  'preference',
  'provider_id',
  'currency',
  ...PARTY_COLUMNS.map((c) => `consignee_${c}` as const),
  ...PARTY_COLUMNS.map((c) => `consignor_${c}` as const),
  ...PACKAGE_COLUMNS,
  'item_description',
  'item_sku',
  'item_quantity',
  'item_unit_price',
  'item_line_total',
  'item_currency',
  'item_gtip',
  'item_origin',
  'item_category',
  'item_requires_shipping',
] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];
export type PartyKey<P extends 'consignee' | 'consignor'> = `${P}_${PartyColumn}`;

export function isColumnKey(value: string): value is ColumnKey {
  return (COLUMN_KEYS as readonly string[]).includes(value);
}

/** What each logical column means (the generic template's documentation; docs/imports.md shows the same). */
export const COLUMN_DOCS: Record<ColumnKey, string> = {
  reference_no: 'Order number, stored as reference_no. Required. Rows of one order follow each other and repeat it.',
  invoice_number: 'Invoice number',
  preference: 'Carrier preference: 0 specific, 1 cheapest, 2 fastest (default: the import option)',
  provider_id: 'Carrier id (default: the import option)',
  currency: 'Order currency, for items without item_currency (ISO 4217, e.g. TRY)',
  ...(Object.fromEntries(
    (['consignee', 'consignor'] as const).flatMap((side) => [
      [`${side}_name`, `${side === 'consignee' ? 'Recipient' : 'Sender'} name${side === 'consignee' ? ' (required)' : ' (overrides the consignor option)'}`],
      [`${side}_first_name`, `First name, used with ${side}_last_name when ${side}_name is blank`],
      [`${side}_last_name`, 'Last name'],
      [`${side}_attention_name`, 'Attention name (e.g. the company, or the person at a company)'],
      [`${side}_email`, 'E-mail'],
      [`${side}_phone`, 'Phone number (max 20 characters)'],
      [`${side}_address`, 'Street address'],
      [`${side}_address2`, `Second address line, appended to ${side}_address`],
      [`${side}_city`, 'City'],
      [`${side}_state`, 'State or province name'],
      [`${side}_state_code`, 'State code (required to process for US, CA and IE)'],
      [`${side}_postal_code`, 'Postal code'],
      [`${side}_country`, 'Country, ISO 3166 alpha-2 or alpha-3 (TR, TUR)'],
      [`${side}_tax_number`, 'Tax number'],
      [`${side}_party_type`, 'individual or business'],
    ]),
  ) as Record<PartyKey<'consignee'> | PartyKey<'consignor'>, string>),
  package_type: 'Package type: 1 box (default), 2 envelope',
  package_weight: 'Package weight in kg (default: the package option)',
  package_length: 'Length in cm',
  package_width: 'Width in cm',
  package_height: 'Height in cm',
  item_description: 'Item description',
  item_sku: 'SKU, appended to the description as "[SKU]"',
  item_quantity: 'Quantity (a positive integer)',
  item_unit_price: 'Unit price',
  item_line_total: 'Line total, used as unit price × quantity when item_unit_price is blank',
  item_currency: 'Currency of the item (ISO 4217)',
  item_gtip: 'HS code (GTIP), needed to process international shipments',
  item_origin: 'Country of origin (ISO 3166)',
  item_category: 'Category',
  item_requires_shipping: '"false" (or "no", "0") for a line item that is not shipped (a gift card, a download): left out of the package',
};

export interface Preset {
  name: PresetName;
  title: string;
  /** accepted header spellings per logical column, in order of preference */
  columns: Partial<Record<ColumnKey, readonly string[]>>;
  /** columns the header must have (in one of their spellings), so a file of another format is refused at once */
  required: readonly ColumnKey[];
}

const generic: Preset = {
  name: 'generic',
  title: 'consignflow template',
  columns: Object.fromEntries(COLUMN_KEYS.map((key) => [key, [key]])),
  required: ['reference_no'],
};

/** Shopify admin → Orders → Export (CSV for Excel, Numbers, or other spreadsheet programs): one row per line item. */
const shopify: Preset = {
  name: 'shopify',
  title: 'Shopify order export',
  columns: {
    reference_no: ['Name'],
    currency: ['Currency'],
    consignee_name: ['Shipping Name'],
    consignee_attention_name: ['Shipping Company'],
    consignee_email: ['Email'],
    consignee_phone: ['Shipping Phone', 'Phone', 'Billing Phone'],
    // Shipping Street is Address1 and Address2 joined: used only when Address1 is blank.
    consignee_address: ['Shipping Address1', 'Shipping Street'],
    consignee_address2: ['Shipping Address2'],
    consignee_city: ['Shipping City'],
    consignee_state: ['Shipping Province Name'],
    consignee_state_code: ['Shipping Province'],
    consignee_postal_code: ['Shipping Zip'],
    consignee_country: ['Shipping Country'],
    item_description: ['Lineitem name'],
    item_sku: ['Lineitem sku'],
    item_quantity: ['Lineitem quantity'],
    item_unit_price: ['Lineitem price'],
    item_requires_shipping: ['Lineitem requires shipping'],
  },
  required: ['reference_no', 'consignee_name', 'consignee_address', 'consignee_city', 'consignee_country', 'item_description', 'item_quantity'],
};

/**
 * WooCommerce order exports, one row per line item: the column labels of the common export plugins
 * ("Order Number", "Shipping First Name", …, "Item Name", "Quantity", "Item Cost") and their snake_case
 * keys ("order_number", "shipping_first_name", …, "item_name", "item_quantity", "item_total").
 */
const woocommerce: Preset = {
  name: 'woocommerce',
  title: 'WooCommerce order export',
  columns: {
    reference_no: ['Order Number', 'Order ID'],
    invoice_number: ['Invoice Number'],
    currency: ['Order Currency', 'Currency'],
    consignee_first_name: ['Shipping First Name'],
    consignee_last_name: ['Shipping Last Name'],
    consignee_attention_name: ['Shipping Company'],
    consignee_email: ['Billing Email', 'Customer Email'],
    consignee_phone: ['Shipping Phone', 'Billing Phone'],
    consignee_address: ['Shipping Address 1'],
    consignee_address2: ['Shipping Address 2'],
    consignee_city: ['Shipping City'],
    consignee_state_code: ['Shipping State'],
    consignee_postal_code: ['Shipping Postcode', 'Shipping Post Code', 'Shipping Zip'],
    consignee_country: ['Shipping Country'],
    item_description: ['Item Name', 'Product Name'],
    item_sku: ['Item SKU', 'SKU'],
    item_quantity: ['Quantity', 'Item Quantity', 'Qty'],
    item_unit_price: ['Item Cost', 'Item Price'],
    item_line_total: ['Item Total', 'Line Total'],
  },
  required: ['reference_no', 'consignee_first_name', 'consignee_address', 'consignee_city', 'consignee_country', 'item_description', 'item_quantity'],
};

export const PRESETS: Record<PresetName, Preset> = { generic, shopify, woocommerce };

export function isPresetName(value: unknown): value is PresetName {
  return typeof value === 'string' && (PRESET_NAMES as readonly string[]).includes(value);
}

/** "Shipping Address 1", "shipping_address_1" and "SHIPPING-ADDRESS-1" are the same column. */
export function normalizeHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** Where each logical column is found in one file: its indices (in order of preference) and header names. */
export interface Layout {
  header: string[];
  indices: Partial<Record<ColumnKey, number[]>>;
}

export interface LayoutResult {
  layout: Layout;
  /** header names the file should have but has not (a required column, or a column the mapping names) */
  missing: string[];
}

/**
 * Matches a header against a preset. `mapping` (logical column → the file's own column name) overrides
 * the preset's spellings, for files that follow no known export.
 */
export function resolveLayout(presetName: PresetName, header: readonly string[], mapping: Partial<Record<ColumnKey, string>> = {}): LayoutResult {
  const preset = PRESETS[presetName];
  const positions = new Map<string, number>();
  header.forEach((name, index) => {
    const key = normalizeHeader(name);
    if (key && !positions.has(key)) positions.set(key, index);
  });
  const indices: Layout['indices'] = {};
  const missing: string[] = [];
  for (const key of COLUMN_KEYS) {
    const mapped = mapping[key];
    const spellings = mapped !== undefined ? [mapped] : (preset.columns[key] ?? []);
    const found = spellings.map((s) => positions.get(normalizeHeader(s))).filter((i): i is number => i !== undefined);
    if (found.length > 0) indices[key] = found;
    else if (mapped !== undefined) missing.push(mapped);
    else if (preset.required.includes(key)) missing.push(spellings[0]);
  }
  return { layout: { header: [...header], indices }, missing };
}

export function hasColumn(layout: Layout, key: ColumnKey): boolean {
  return (layout.indices[key]?.length ?? 0) > 0;
}

/** The first non-blank value of a logical column in one record, trimmed, with the header it came from. */
export function cell(layout: Layout, fields: readonly string[], key: ColumnKey): { value: string; column: string } | undefined {
  for (const index of layout.indices[key] ?? []) {
    const value = fields[index]?.trim();
    if (value) return { value, column: layout.header[index].replace(/^\uFEFF/, '').trim() };
  }
  return undefined;
}

/** The columns of the downloadable template; the other logical columns (consignor_*, first/last names, …) are accepted too. */
export const TEMPLATE_COLUMNS: readonly ColumnKey[] = [
  'reference_no',
  'invoice_number',
  'preference',
  'provider_id',
  'consignee_name',
  'consignee_attention_name',
  'consignee_email',
  'consignee_phone',
  'consignee_address',
  'consignee_city',
  'consignee_state',
  'consignee_state_code',
  'consignee_postal_code',
  'consignee_country',
  'consignee_party_type',
  ...PACKAGE_COLUMNS,
  'item_description',
  'item_sku',
  'item_quantity',
  'item_unit_price',
  'item_currency',
  'item_gtip',
  'item_origin',
  'item_category',
];

/** The generic template: its header and three example rows (two orders, the first with two items). */
export function templateCsv(): string {
  const example: Partial<Record<ColumnKey, string>>[] = [
    {
      reference_no: 'SIP-1001',
      invoice_number: 'FTR2025000101',
      consignee_name: 'Şükrü Öztürk',
      consignee_email: 'sukru@example.com',
      consignee_phone: '+905321234567',
      consignee_address: 'Atatürk Cd. No:12 D:4',
      consignee_city: 'Ankara',
      consignee_state: 'Çankaya',
      consignee_postal_code: '06690',
      consignee_country: 'TR',
      package_weight: '1.5',
      package_length: '30',
      package_width: '20',
      package_height: '10',
      item_description: 'Pamuklu tişört',
      item_sku: 'TS-001',
      item_quantity: '2',
      item_unit_price: '149.90',
      item_currency: 'TRY',
    },
    { reference_no: 'SIP-1001', item_description: 'Türk kahvesi, 250 g', item_sku: 'TK-250', item_quantity: '1', item_unit_price: '120', item_currency: 'TRY' },
    {
      reference_no: 'SIP-1002',
      consignee_name: 'Ilgın Çelik',
      consignee_phone: '+905551112233',
      consignee_address: 'Gül Sk. 3',
      consignee_city: 'İzmir',
      consignee_postal_code: '35250',
      consignee_country: 'TR',
      package_weight: '0.4',
      package_type: '2',
      item_description: 'Kitap "Saatleri Ayarlama Enstitüsü"',
      item_quantity: '1',
      item_unit_price: '95',
      item_currency: 'TRY',
    },
  ];
  return [TEMPLATE_COLUMNS.join(','), ...example.map((row) => TEMPLATE_COLUMNS.map((key) => csvField(row[key] ?? '')).join(','))].join('\r\n') + '\r\n';
}

/** RFC 4180 quoting. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
