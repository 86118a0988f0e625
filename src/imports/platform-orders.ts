import type { ShopPlatform } from '../domain/order-source';
import type { CsvRecord } from './csv-stream';
import type { ImportOptions } from './import-options';
import { mapOrder, type MappedOrder } from './order-mapper';
import { resolveLayout, type ColumnKey } from './presets';

/**
 * Live orders (webhook JSON) mapped by the CSV presets: an order of the platform's API is written out as the
 * rows of the platform's own CSV export (one per line item, the export's column names), and those rows go
 * through the very preset and mapper an import of that export uses (mapOrder). One mapping per platform, so
 * the same order gives the same draft whether it arrives as a file or as a webhook.
 *
 * The webhook carries what the export lacks: weights. Shopify's `total_weight` (grams) becomes the package
 * weight through the logical column `package_weight`; WooCommerce sends none (the source's package default).
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A JSON value as a CSV cell would hold it. */
const text = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'boolean' ? String(v) : '';
const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** The column the webhook's weight is written to (the exports have none): mapped onto `package_weight`. */
const WEIGHT_COLUMN = 'Webhook Total Weight (kg)';

export interface OrderRows {
  header: string[];
  records: CsvRecord[];
  /** the mapping the rows need beyond the preset's own spellings */
  mapping: Partial<Record<ColumnKey, string>>;
  /** the order carries no weight: the package weight is the source's default */
  weightFromDefaults: boolean;
}

/** The rows as CSV records under `header`: the columns the rows are written with (a row lacking one has it empty). */
function toRows(header: string[], rows: Record<string, string>[], weightFromDefaults: boolean): OrderRows {
  const records = (rows.length > 0 ? rows : [{}]).map((row, i) => ({ fields: header.map((h) => row[h] ?? ''), row: i + 2, start: 0, end: 0 }));
  return { header, records, mapping: { package_weight: WEIGHT_COLUMN }, weightFromDefaults };
}

/** A Shopify line item as the export's line item columns. */
const shopifyItem = (item: Json) => ({
  'Lineitem quantity': text(item.quantity),
  'Lineitem name': text(item.name) || text(item.title),
  'Lineitem price': text(item.price),
  'Lineitem sku': text(item.sku),
  'Lineitem requires shipping': text(item.requires_shipping),
});

/**
 * A Shopify order (Admin REST `Order`, the body of `orders/create`) as the rows of Shopify's order export: the
 * order's fields on the first row, one row per line item, as the export writes them.
 */
export function shopifyOrderRows(order: Json): OrderRows {
  const ship = obj(order.shipping_address);
  const billing = obj(order.billing_address);
  const name = text(ship.name) || [text(ship.first_name), text(ship.last_name)].filter(Boolean).join(' ');
  const items = Array.isArray(order.line_items) ? order.line_items.map(obj) : [];
  // total_weight is the order's shipped weight in grams; without it, the line items' grams × quantity.
  const grams =
    Number(order.total_weight) > 0
      ? Number(order.total_weight)
      : items.reduce((sum, i) => sum + (i.requires_shipping === false ? 0 : (Number(i.grams) || 0) * (Number(i.quantity) || 0)), 0);
  const weight = grams > 0 ? String(Math.round(grams) / 1000) : '';
  const first: Record<string, string> = {
    Name: text(order.name) || (order.order_number !== undefined ? `#${text(order.order_number)}` : ''),
    Email: text(order.email) || text(order.contact_email),
    Currency: text(order.currency),
    Phone: text(order.phone),
    'Billing Phone': text(billing.phone),
    'Shipping Name': name,
    'Shipping Street': [text(ship.address1), text(ship.address2)].filter(Boolean).join(', '),
    'Shipping Address1': text(ship.address1),
    'Shipping Address2': text(ship.address2),
    'Shipping Company': text(ship.company),
    'Shipping City': text(ship.city),
    'Shipping Zip': text(ship.zip),
    'Shipping Province': text(ship.province_code),
    'Shipping Country': text(ship.country_code) || text(ship.country),
    'Shipping Phone': text(ship.phone),
    'Shipping Province Name': text(ship.province),
    [WEIGHT_COLUMN]: weight,
  };
  const rows = items.map((item, i) => ({ ...(i === 0 ? first : { Name: first.Name }), ...shopifyItem(item) }));
  return toRows([...Object.keys(first), ...Object.keys(shopifyItem({}))], rows.length > 0 ? rows : [first], weight === '');
}

/** A WooCommerce line item as the export's item columns. */
const woocommerceItem = (item: Json) => ({
  'Item Name': text(item.name),
  'Item SKU': text(item.sku),
  Quantity: text(item.quantity),
  'Item Cost': text(item.price),
  'Item Total': text(item.total),
});

/**
 * A WooCommerce order (REST API v3 `order`, the body of `order.created`) as the rows of a WooCommerce order
 * export. WooCommerce sends no weights: the package weight is always the source's default.
 */
export function woocommerceOrderRows(order: Json): OrderRows {
  const ship = obj(order.shipping);
  const billing = obj(order.billing);
  const first: Record<string, string> = {
    'Order Number': text(order.number) || text(order.id),
    'Order Currency': text(order.currency),
    'Shipping First Name': text(ship.first_name),
    'Shipping Last Name': text(ship.last_name),
    'Shipping Company': text(ship.company),
    'Billing Email': text(billing.email),
    'Shipping Phone': text(ship.phone),
    'Billing Phone': text(billing.phone),
    'Shipping Address 1': text(ship.address_1),
    'Shipping Address 2': text(ship.address_2),
    'Shipping City': text(ship.city),
    'Shipping State': text(ship.state),
    'Shipping Postcode': text(ship.postcode),
    'Shipping Country': text(ship.country),
  };
  const items = Array.isArray(order.line_items) ? order.line_items.map(obj) : [];
  const rows = items.map((item, i) => ({ ...(i === 0 ? first : { 'Order Number': first['Order Number'] }), ...woocommerceItem(item) }));
  return toRows([...Object.keys(first), ...Object.keys(woocommerceItem({})), WEIGHT_COLUMN], rows.length > 0 ? rows : [first], true);
}

export const ORDER_ROWS: Record<ShopPlatform, (order: Json) => OrderRows> = { shopify: shopifyOrderRows, woocommerce: woocommerceOrderRows };

/** A platform's order → the draft (or the issues that stop it), by the platform's CSV preset. */
export function mapPlatformOrder(platform: ShopPlatform, order: Json, options: ImportOptions): MappedOrder & { weightFromDefaults: boolean } {
  const { header, records, mapping, weightFromDefaults } = ORDER_ROWS[platform](order);
  const { layout } = resolveLayout(platform, header, { ...options.mapping, ...mapping });
  return { ...mapOrder(records, layout, { ...options, preset: platform }), weightFromDefaults };
}

/** What identifies an order in a webhook body: the platform's order id and its number as the shop shows it. */
export interface OrderIdentity {
  orderId: string;
  orderNo: string | null;
}

/**
 * Whether a webhook body is an order of the platform (an object with an id, and line items where the topic
 * creates a draft), and which. A reason (an error code of ours) when it is not.
 */
export function orderIdentity(platform: ShopPlatform, body: unknown, action: 'create' | 'cancel'): OrderIdentity | { notAnOrder: true } {
  if (!isObject(body)) return { notAnOrder: true };
  // Shopify's ids exceed a double's exact integers: its GraphQL id carries the same id as text.
  const gid = platform === 'shopify' ? /^gid:\/\/shopify\/Order\/(\d{1,30})$/.exec(text(body.admin_graphql_api_id))?.[1] : undefined;
  const id =
    gid ??
    (typeof body.id === 'number' && Number.isInteger(body.id) && body.id > 0
      ? BigInt(body.id).toString()
      : typeof body.id === 'string' && /^[\w-]{1,64}$/.test(body.id)
        ? body.id
        : undefined);
  if (!id) return { notAnOrder: true };
  if (action === 'create' && !Array.isArray(body.line_items)) return { notAnOrder: true };
  const no = platform === 'shopify' ? text(body.name) : text(body.number);
  // NUL is no text PostgreSQL stores.
  const orderNo = no.replace(/\0/g, '').slice(0, 255);
  return { orderId: id, orderNo: orderNo || null };
}
