import { parseDraftInput, type DraftInput, type PartyInput } from '../domain/draft';
import { DomainError, type ErrorCode, type Issue } from '../domain/errors';
import { processingIssues } from '../domain/processing';
import type { CsvRecord } from './csv-stream';
import type { ImportOptions } from './import-options';
import { cell, hasColumn, type ColumnKey, type Layout } from './presets';

/** One problem of one order, located in the file: the row and column to fix, and the draft field it feeds. */
export interface OrderIssue {
  row: number;
  /** the file's column header, when the value came from one */
  column: string | null;
  /** the draft field (the API (docs/api.md) path, e.g. `consignee.postal_code`) */
  path: string | null;
  code: ErrorCode;
  params?: Record<string, string | number>;
}

export interface MappedOrder {
  /** the order number (→ reference_no); null when the rows have none */
  orderNo: string | null;
  /** row of the order's first record */
  row: number;
  rowCount: number;
  /** the validated draft, or the issues that stop it */
  draft: DraftInput | null;
  issues: OrderIssue[];
}

type Source = { row: number; column: string };

/** The order number of a record: the key that groups consecutive rows into one order. */
export function orderKey(layout: Layout, record: CsvRecord): string | null {
  return cell(layout, record.fields, 'reference_no')?.value ?? null;
}

/**
 * Decimal numbers as exports write them: "149.90", "149,90" (a decimal comma), "1,234.50" or "1.234,50".
 * Anything else is returned as it is, so the draft validation reports the value as not a number.
 */
export function parseNumber(raw: string): number | string {
  const text = raw.replace(/\s/g, '');
  let normalised = text;
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) normalised = text.replace(/,/g, '');
  else if (/^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(text)) normalised = text.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d+,\d+$/.test(text)) normalised = text.replace(',', '.');
  return /^-?(\d+\.?\d*|\.\d+)$/.test(normalised) ? Number(normalised) : raw;
}

class OrderBuilder {
  readonly sources = new Map<string, Source>();

  constructor(
    private readonly layout: Layout,
    private readonly rows: readonly CsvRecord[],
  ) {}

  /** The first non-blank value of an order-level column among the order's rows (Shopify repeats them only on the first). */
  order(key: ColumnKey, path: string): string | undefined {
    for (const record of this.rows) {
      const found = cell(this.layout, record.fields, key);
      if (found) {
        this.sources.set(path, { row: record.row, column: found.column });
        return found.value;
      }
    }
    this.expect(key, path, this.rows[0].row);
    return undefined;
  }

  /** An item-level column of one row. */
  item(record: CsvRecord, key: ColumnKey, path: string): string | undefined {
    const found = cell(this.layout, record.fields, key);
    if (found) this.sources.set(path, { row: record.row, column: found.column });
    else this.expect(key, path, record.row);
    return found?.value;
  }

  /** A blank value still has its place in the file: a "should not be blank" points at that cell. */
  private expect(key: ColumnKey, path: string, row: number): void {
    const index = this.layout.indices[key]?.[0];
    if (index !== undefined && !this.sources.has(path)) this.sources.set(path, { row, column: this.layout.header[index].replace(/^\uFEFF/, '').trim() });
  }

  party(side: 'consignee' | 'consignor'): PartyInput {
    const v = (field: string, path: string = field) => this.order(`${side}_${field}` as ColumnKey, `${side}.${path}`);
    const name = v('name') ?? ([v('first_name', 'name'), v('last_name', 'name')].filter(Boolean).join(' ') || undefined);
    const address = v('address');
    const address2 = v('address2', 'address');
    const party: Record<string, unknown> = {
      name,
      attention_name: v('attention_name'),
      email: v('email'),
      phone_number: v('phone', 'phone_number'),
      address: address && address2 ? `${address}, ${address2}` : (address ?? address2),
      city: v('city'),
      state: v('state'),
      state_code: v('state_code'),
      // Spreadsheet exports (Shopify's among them) prefix codes with an apostrophe to keep leading zeros.
      postal_code: v('postal_code')?.replace(/^'/, ''),
      country: v('country'),
      tax_number: v('tax_number'),
      party_type: v('party_type')?.toLowerCase(),
    };
    for (const key of Object.keys(party)) if (party[key] === undefined) delete party[key];
    return party as PartyInput;
  }
}

const num = (value: string | undefined) => (value === undefined ? undefined : parseNumber(value));

/** A line item the shop says is not shipped (Shopify's "requires shipping" false: gift cards, downloads). */
function notShipped(layout: Layout, record: CsvRecord): boolean {
  const value = cell(layout, record.fields, 'item_requires_shipping')?.value.toLowerCase();
  return value === 'false' || value === 'no' || value === '0';
}

function hasItem(layout: Layout, record: CsvRecord): boolean {
  if (notShipped(layout, record)) return false;
  return (['item_description', 'item_sku', 'item_quantity', 'item_unit_price', 'item_line_total'] as const).some(
    (key) => cell(layout, record.fields, key) !== undefined,
  );
}

/** The draft body (before validation) of one order's rows, with where each value came from. */
export function buildDraftBody(
  rows: readonly CsvRecord[],
  layout: Layout,
  options: ImportOptions,
): { body: Record<string, unknown>; sources: Map<string, Source> } {
  const b = new OrderBuilder(layout, rows);
  const orderCurrency = b.order('currency', 'currency');
  const items = rows
    .filter((record) => hasItem(layout, record))
    .map((record, j) => {
      const at = (field: string) => `packages.0.items.${j}.${field}`;
      const name = b.item(record, 'item_description', at('description'));
      const sku = b.item(record, 'item_sku', at('description'));
      const quantity = num(b.item(record, 'item_quantity', at('quantity')));
      let unitPrice = num(b.item(record, 'item_unit_price', at('unit_price')));
      if (unitPrice === undefined) {
        const total = num(b.item(record, 'item_line_total', at('unit_price')));
        unitPrice = typeof total === 'number' && typeof quantity === 'number' && quantity > 0 ? Math.round((total / quantity) * 100) / 100 : total;
      }
      const currency = b.item(record, 'item_currency', at('currency_code'));
      if (!currency && orderCurrency) b.sources.set(at('currency_code'), b.sources.get('currency')!);
      const item: Record<string, unknown> = {
        description: name && sku ? `${name} [${sku}]` : (name ?? sku),
        quantity,
        unit_price: unitPrice,
        currency_code: currency ?? orderCurrency,
        gtip: b.item(record, 'item_gtip', at('gtip')),
        origin: b.item(record, 'item_origin', at('origin')),
        category: b.item(record, 'item_category', at('category')),
      };
      b.sources.set(`packages.0.items.${j}`, { row: record.row, column: '' });
      for (const key of Object.keys(item)) if (item[key] === undefined) delete item[key];
      return item;
    });

  const defaults = options.package ?? {};
  const pkg: Record<string, unknown> = {
    package_type: num(b.order('package_type', 'packages.0.package_type')) ?? defaults.package_type ?? 1,
    weight: num(b.order('package_weight', 'packages.0.weight')) ?? defaults.weight,
    length: num(b.order('package_length', 'packages.0.length')) ?? defaults.length,
    width: num(b.order('package_width', 'packages.0.width')) ?? defaults.width,
    height: num(b.order('package_height', 'packages.0.height')) ?? defaults.height,
    ...(defaults.post_type != null && { post_type: defaults.post_type }),
    ...(defaults.provider_packaging_type != null && { provider_packaging_type: defaults.provider_packaging_type }),
    ...(defaults.dangerous_goods != null && { dangerous_goods: defaults.dangerous_goods }),
    items,
  };
  for (const key of Object.keys(pkg)) if (pkg[key] === undefined || pkg[key] === null) delete pkg[key];

  // The sender: the import's consignor, overridden field by field by consignor_* columns.
  const consignor = { ...(options.consignor ?? {}), ...b.party('consignor') };
  const body: Record<string, unknown> = {
    reference_no: b.order('reference_no', 'reference_no'),
    invoice_number: b.order('invoice_number', 'invoice_number'),
    preference: num(b.order('preference', 'preference')) ?? options.preference ?? undefined,
    provider_id: num(b.order('provider_id', 'provider_id')) ?? options.provider_id ?? undefined,
    ...(options.address_resolver_type ? { address_resolver_type: options.address_resolver_type } : {}),
    consignor,
    consignee: b.party('consignee'),
    packages: [pkg],
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return { body, sources: b.sources };
}

/** The row and column an issue's field came from: the field itself, else its nearest parent, else the order's first row. */
function locate(path: string | undefined, sources: Map<string, Source>, firstRow: number): { row: number; column: string | null } {
  for (let p = path; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : undefined) {
    const source = sources.get(p);
    if (source) return { row: source.row, column: p === path && source.column ? source.column : null };
  }
  return { row: firstRow, column: null };
}

/**
 * Turns the rows of one order into a validated draft: the draft API's rules (parseDraftInput), plus what an
 * import needs (an order number, the recipient's and sender's names) and, when the import also processes,
 * the processing rules, so an order that cannot be processed is reported without leaving a draft behind.
 */
export function mapOrder(rows: readonly CsvRecord[], layout: Layout, options: ImportOptions): MappedOrder {
  const first = rows[0];
  const { body, sources } = buildDraftBody(rows, layout, options);
  const orderNo = typeof body.reference_no === 'string' ? body.reference_no : null;
  const issues: Issue[] = [];
  if (!orderNo) issues.push({ code: 'NOT_BLANK', field: 'reference_no' });
  if (!(body.consignee as PartyInput).name) issues.push({ code: 'NOT_BLANK', field: 'consignee.name' });
  if (!(body.consignor as PartyInput).name) issues.push({ code: 'NOT_BLANK', field: 'consignor.name' });
  let draft: DraftInput | null = null;
  try {
    draft = parseDraftInput(body, 'create');
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    issues.push(...error.issues);
  }
  if (draft && options.process) {
    for (const issue of processingIssues(draft)) if (!issues.some((i) => i.field === issue.field)) issues.push(issue);
  }
  const located: OrderIssue[] = issues.map((issue) => {
    const { row, column } = locate(issue.field, sources, first.row);
    return { row, column, path: issue.field ?? null, code: issue.code, ...(issue.params && { params: issue.params }) };
  });
  // In the order a reader of the file meets them: by row, then by column.
  const position = (issue: OrderIssue) =>
    issue.column === null ? Number.MAX_SAFE_INTEGER : layout.header.findIndex((h) => h.replace(/^\uFEFF/, '').trim() === issue.column);
  located.sort((a, b) => a.row - b.row || position(a) - position(b));
  return { orderNo, row: first.row, rowCount: rows.length, draft: located.length ? null : draft, issues: located };
}

/** Whether orders of this layout take their sender from the consignor option (the file has no consignor column). */
export function needsConsignorOption(layout: Layout): boolean {
  return !hasColumn(layout, 'consignor_name');
}

/**
 * Groups records into orders: consecutive rows with the same order number are one order (Shopify and
 * WooCommerce write one row per line item); a row without an order number is an order of its own. The
 * file's header (row 1 at offset 0) is skipped. A group is yielded once the next one begins, or at the end.
 */
export async function* orderGroups(records: AsyncIterable<CsvRecord>, layout: Layout): AsyncGenerator<CsvRecord[]> {
  let group: CsvRecord[] = [];
  let groupKey: string | null = null;
  for await (const record of records) {
    if (record.start === 0 && record.row === 1) continue;
    const key = orderKey(layout, record);
    if (group.length > 0 && (key === null || groupKey === null || key !== groupKey)) {
      yield group;
      group = [];
    }
    group.push(record);
    groupKey = key;
  }
  if (group.length > 0) yield group;
}
