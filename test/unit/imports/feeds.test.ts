import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferSource, CsvScanner, CsvSyntaxError, detectDelimiter, readCsvRecords } from '../../../src/imports/csv-stream';
import { parseImportOptions, type ImportOptions } from '../../../src/imports/import-options';
import { mapOrder, orderGroups, parseNumber, type MappedOrder } from '../../../src/imports/order-mapper';
import { COLUMN_KEYS, resolveLayout, templateCsv, type PresetName } from '../../../src/imports/presets';
import { DomainError } from '../../../src/domain/errors';
import { SHOPIFY_ORDER_1001 } from './shopify-order-1001';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/imports', name));
const consignor = { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', address: 'Moda Cd. 1', phone_number: '+902161234567' };
const options = (preset: PresetName, extra: Record<string, unknown> = {}): ImportOptions => parseImportOptions({ preset, consignor, preference: 1, ...extra });

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The whole pipeline of a parse activity, in memory: records → orders → mapped drafts. */
async function importOrders(file: Buffer | string, opts: ImportOptions, chunkSize = 97): Promise<MappedOrder[]> {
  const text = typeof file === 'string' ? file : file.toString('utf8');
  const delimiter = detectDelimiter(text.slice(0, 4096));
  const all = await collect(readCsvRecords(bufferSource(file, chunkSize), { offset: 0, row: 1, delimiter }));
  const { layout, missing } = resolveLayout(opts.preset, all[0].fields, opts.mapping);
  expect(missing).toEqual([]);
  const groups = await collect(orderGroups(readCsvRecords(bufferSource(file, chunkSize), { offset: 0, row: 1, delimiter }), layout));
  return groups.map((rows) => mapOrder(rows, layout, opts));
}

describe('CSV streaming', () => {
  it('gives each record its spreadsheet row and byte range, across chunk boundaries, BOM and multi-line fields', async () => {
    const text = '\uFEFFa,b\r\n1,"iki\r\nsatır"\r\n\r\n3,"ç ""tırnak"""\r\n';
    const bytes = Buffer.from(text, 'utf8');
    const records = await collect(readCsvRecords(bufferSource(bytes, 3), { offset: 0, row: 1, delimiter: ',' }));
    expect(records.map((r) => [r.row, r.fields])).toEqual([
      [1, ['a', 'b']],
      [2, ['1', 'iki\r\nsatır']],
      [3, ['3', 'ç "tırnak"']],
    ]);
    // Each record's end is where the next one can be read from, on its own.
    for (const record of records.slice(0, -1)) {
      const rest = await collect(readCsvRecords(bufferSource(bytes.subarray(record.end), 5), { offset: record.end, row: record.row + 1, delimiter: ',' }));
      expect(rest.map((r) => r.fields)).toEqual(records.filter((r) => r.row > record.row).map((r) => r.fields));
      expect(rest[0].start).toBe(record.end);
    }
  });

  it('detects semicolon and tab delimited files from the header', () => {
    expect(detectDelimiter('Name;Email;"Shipping; Name"\n#1;a;b')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('"a;b",c,d')).toBe(',');
  });

  it('scans an upload: header, record count, broken quoting and non-UTF-8 text', async () => {
    const ok = new CsvScanner();
    for (const chunk of [Buffer.from('Name,Email\n#1,a@b.c\n'), Buffer.from('#2,"x\ny"\n')]) ok.write(chunk);
    await ok.end();
    expect([ok.header, ok.records, ok.utf8]).toEqual([['Name', 'Email'], 2, true]);

    const broken = new CsvScanner();
    broken.write(Buffer.from('Name,Email\n#1,"never closed\n'));
    await expect(broken.end()).rejects.toBeInstanceOf(CsvSyntaxError);

    const latin = new CsvScanner();
    latin.write(Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0xfe, 0x0a])); // "Name\n" + ş in Windows-1254
    await latin.end();
    expect(latin.utf8).toBe(false);
  });
});

describe('numbers in exports', () => {
  it.each([
    ['149.90', 149.9],
    ['149,90', 149.9],
    ['1,234.50', 1234.5],
    ['1.234,50', 1234.5],
    ['2', 2],
    [' 3 ', 3],
    ['iki', 'iki'],
  ])('%s → %s', (raw, expected) => expect(parseNumber(raw)).toBe(expected));
});

describe('Shopify preset', () => {
  it('turns the rows of each order into one draft whose items are its line items', async () => {
    const orders = await importOrders(fixture('shopify-orders.csv'), options('shopify'));
    expect(orders.map((o) => [o.orderNo, o.row, o.rowCount])).toEqual([
      ['#1001', 2, 2],
      ['#1002', 4, 1],
      ['#1003', 5, 2],
      ['#1004', 7, 3],
      ['#1005', 10, 1],
      ['#1006', 11, 1],
    ]);
    const first = orders[0];
    expect(first.issues).toEqual([]);
    expect(first.draft).toEqual({
      reference_no: '#1001',
      preference: 1,
      consignor: { ...consignor },
      consignee: { ...SHOPIFY_ORDER_1001.consignee, phone_number: '+90 532 111 22 33' },
      packages: [{ package_type: 1, items: SHOPIFY_ORDER_1001.items }],
    });
    // A quoted note with a line break and quotes inside does not disturb the row; the company is the attention name.
    expect(orders[1].draft?.consignee).toMatchObject({ name: 'Şükrü Öztürk', attention_name: 'Öztürk Gıda Ltd. Şti.', address: 'Atatürk Blv. 112' });
    expect(orders[1].draft?.packages?.[0].items).toEqual([
      { description: 'İpek eşarp "Lale" desenli [IE-LALE]', quantity: 1, unit_price: 599, currency_code: 'TRY' },
    ]);
    expect(orders[3].draft?.consignee).toMatchObject({ country: 'US', state_code: 'CA', state: 'California', address: '1600 Amphitheatre Pkwy, Suite 4' });
    expect(orders[3].draft?.packages?.[0].items).toHaveLength(3);
    expect(orders[3].draft?.packages?.[0].items?.[2]).toEqual({ description: 'Nazar boncuğu anahtarlık', quantity: 1, unit_price: 20, currency_code: 'USD' });
  });

  it('reports each problem at the row and column to fix', async () => {
    const orders = await importOrders(fixture('shopify-orders.csv'), options('shopify'));
    expect(orders[2].draft).toBeNull();
    expect(orders[2].issues).toEqual([
      { row: 5, column: 'Shipping Country', path: 'consignee.country', code: 'TOO_LONG', params: { max: 3 } },
      { row: 6, column: 'Lineitem quantity', path: 'packages.0.items.1.quantity', code: 'NOT_POSITIVE' },
    ]);
    expect(orders[4].issues).toEqual([{ row: 10, column: 'Shipping Name', path: 'consignee.name', code: 'NOT_BLANK' }]);
  });

  it('checks the processing rules too when the import processes', async () => {
    const orders = await importOrders(fixture('shopify-orders.csv'), options('shopify', { process: true, package: { weight: 1.2 } }));
    expect(orders[0].issues).toEqual([]);
    expect(orders[0].draft?.packages?.[0]).toMatchObject({ weight: 1.2, package_type: 1 });
    // Across a border every item needs customs data, which a Shopify export does not carry.
    expect(orders[3].issues.map((i) => [i.row, i.path])).toEqual(
      expect.arrayContaining([
        [7, 'packages.0.items.0.gtip'],
        [9, 'packages.0.items.2.origin'],
      ]),
    );
  });

  it('refuses a file of another shop by its columns', async () => {
    const header = (await collect(readCsvRecords(bufferSource(fixture('woocommerce-orders.csv')), { offset: 0, row: 1, delimiter: ',' })))[0].fields;
    expect(resolveLayout('shopify', header).missing).toEqual(['Name', 'Shipping Name', 'Shipping Address1', 'Lineitem name', 'Lineitem quantity']);
  });
});

describe('WooCommerce preset', () => {
  it('joins first and last names, both address lines, and takes every field from the quoted export', async () => {
    const orders = await importOrders(fixture('woocommerce-orders.csv'), options('woocommerce'));
    expect(orders.map((o) => [o.orderNo, o.row, o.rowCount])).toEqual([
      ['2051', 2, 2],
      ['2052', 4, 1],
      ['2053', 5, 1],
    ]);
    expect(orders[0].draft).toMatchObject({
      reference_no: '2051',
      consignee: {
        name: 'Zeynep Kaya',
        address: 'İnönü Sk. No:4, Daire 8',
        city: 'Bursa',
        state_code: 'TR16',
        postal_code: '16010',
        country: 'TR',
        phone_number: '05321112233',
      },
      packages: [
        {
          items: [
            { description: "Zeytinyağlı sabun (3'lü) [ZS-3]", quantity: 2, unit_price: 89.9, currency_code: 'TRY' },
            { description: 'Lavanta kesesi [LK-1]', quantity: 1, unit_price: 45 },
          ],
        },
      ],
    });
    expect(orders[1].draft?.consignee).toMatchObject({ name: 'Emre Koç', attention_name: 'Koç Yapı A.Ş.' });
    expect(orders[2].issues).toEqual([{ row: 5, column: 'Billing Email', path: 'consignee.email', code: 'INVALID_EMAIL' }]);
  });

  it('accepts the snake_case keys of other WooCommerce exporters, with a unit price from the line total', async () => {
    const csv =
      'order_number,shipping_first_name,shipping_last_name,shipping_address_1,shipping_city,shipping_postcode,shipping_country,billing_phone,item_name,item_quantity,item_total\n' +
      '3001,Çağrı,Aydın,Çiçek Sk. 2,Konak,35250,TR,05551234567,Kilim yastık,2,300\n';
    const [order] = await importOrders(csv, options('woocommerce'));
    expect(order.issues).toEqual([]);
    expect(order.draft?.packages?.[0].items).toEqual([{ description: 'Kilim yastık', quantity: 2, unit_price: 150 }]);
  });
});

describe('generic template', () => {
  it('imports its own template: the documented example orders are valid', async () => {
    const orders = await importOrders(templateCsv(), options('generic'));
    expect(orders.map((o) => [o.orderNo, o.rowCount, o.issues])).toEqual([
      ['SIP-1001', 2, []],
      ['SIP-1002', 1, []],
    ]);
    expect(orders[0].draft?.packages?.[0]).toMatchObject({
      weight: 1.5,
      length: 30,
      width: 20,
      height: 10,
      items: [{ quantity: 2 }, { description: 'Türk kahvesi, 250 g [TK-250]' }],
    });
    expect(orders[1].draft?.packages?.[0]).toMatchObject({ package_type: 2, weight: 0.4 });
  });

  it('maps the columns of any file with `mapping`, semicolons and a decimal comma included', async () => {
    const csv =
      'Sipariş No;Alıcı;Telefon;Adres;İl;Posta Kodu;Ülke;Ürün;Adet;Fiyat;Gönderen\n' +
      'A-1;Ümit Şahin;05321112233;"Çankaya; Ankara";Ankara;06690;TR;Halı;1;1.250,50;Depo 2\n';
    const mapping = {
      reference_no: 'Sipariş No',
      consignee_name: 'Alıcı',
      consignee_phone: 'Telefon',
      consignee_address: 'Adres',
      consignee_city: 'İl',
      consignee_postal_code: 'Posta Kodu',
      consignee_country: 'Ülke',
      item_description: 'Ürün',
      item_quantity: 'Adet',
      item_unit_price: 'Fiyat',
      consignor_name: 'Gönderen',
    };
    const [order] = await importOrders(csv, options('generic', { mapping }));
    expect(order.issues).toEqual([]);
    expect(order.draft).toMatchObject({
      reference_no: 'A-1',
      consignor: { ...consignor, name: 'Depo 2' },
      consignee: { name: 'Ümit Şahin', address: 'Çankaya; Ankara', postal_code: '06690' },
      packages: [{ items: [{ description: 'Halı', quantity: 1, unit_price: 1250.5 }] }],
    });
  });

  it('makes a row without an order number an order of its own, reported at that row', async () => {
    const csv = 'reference_no,consignee_name,item_description,item_quantity\nR-1,Ali,Kalem,1\n,Veli,Defter,x\nR-1,Ali,Silgi,1\n';
    const orders = await importOrders(csv, options('generic'));
    expect(orders.map((o) => [o.orderNo, o.row])).toEqual([
      ['R-1', 2],
      [null, 3],
      ['R-1', 4],
    ]);
    expect(orders[1].issues).toEqual([
      { row: 3, column: 'reference_no', path: 'reference_no', code: 'NOT_BLANK' },
      { row: 3, column: 'item_quantity', path: 'packages.0.items.0.quantity', code: 'INVALID_TYPE', params: { type: 'integer' } },
    ]);
  });

  it('lists every logical column in the template or the docs', () => {
    expect(COLUMN_KEYS).toContain('reference_no');
    expect(templateCsv().split('\r\n')[0]).toMatch(/^reference_no,invoice_number,/);
  });
});

describe('import options', () => {
  it('validates with the draft rules and names every field', () => {
    const attempt = () =>
      parseImportOptions({
        preset: 'shopfy',
        process: 'yes',
        mapping: { nope: 'X' },
        consignor: { country: 'Narnia' },
        package: { weight: -1 },
        preference: 0,
        extra: 1,
      });
    expect(attempt).toThrow(DomainError);
    try {
      attempt();
    } catch (error) {
      expect((error as DomainError).issues.map((i) => [i.field, i.code])).toEqual(
        expect.arrayContaining([
          ['extra', 'UNKNOWN_FIELD'],
          ['preset', 'IMPORT_UNKNOWN_PRESET'],
          ['mapping.nope', 'UNKNOWN_FIELD'],
          ['process', 'INVALID_TYPE'],
          ['consignor.country', 'TOO_LONG'],
          ['package.weight', 'TOO_SMALL'],
          ['provider_id', 'PREFERENCE_RULE'],
        ]),
      );
    }
  });

  it('normalises what it keeps', () => {
    expect(parseImportOptions({ preset: 'Shopify', consignor: { name: ' Depo ', country: 'tur' }, package: { weight: 2 } })).toEqual({
      preset: 'shopify',
      mapping: {},
      process: false,
      preference: null,
      provider_id: null,
      address_resolver_type: null,
      consignor: { name: 'Depo', country: 'TR' },
      package: { weight: 2 },
    });
    expect(parseImportOptions({ preset: 'generic', address_resolver_type: 1 }).address_resolver_type).toBe(1);
  });
});
