import { join } from 'node:path';
import { Command } from 'commander';
import { openDatabase, type Database } from '../db/database';
import { loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { addressDataCountries, ensureAddressData } from './address-data';
import { SEARCH_FIELDS, searchAddresses, type SearchField } from '../db/addresses.repository';
import { parseAddressSearchQuery } from './search-params';

/**
 * Operator commands for address data:
 *   npx tsx src/address/address.cli.ts load [--country TR --country US] [--force]
 *   npx tsx src/address/address.cli.ts search --country TR --keyword kadikoy --field city
 * The database is DATABASE_URL, else PGlite under DATA_DIR/pglite (DATA_DIR defaults to ./data).
 * PGlite allows one process per data directory: stop `npm start` first, or use DATABASE_URL.
 */
export function addressCommand(name = 'address'): Command {
  const command = new Command(name).description('address search data (Turkey, United States, Canada, France)');

  command
    .command('load')
    .description(`load or refresh the address datasets (${addressDataCountries().join(', ')}); a current dataset is skipped`)
    .option('--country <iso2>', 'only this country (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--force', 'reload even when the stored version is current')
    .action(async (options: { country?: string[]; force?: boolean }) => {
      await withDatabase(async (db) => {
        const { loaded } = await ensureAddressData(db, { countries: options.country, force: options.force, log: (line) => console.log(line) });
        console.log(loaded.length > 0 ? `loaded: ${loaded.join(', ')}` : 'address data already current');
      });
    });

  command
    .command('search')
    .description('run one search as GET /api/v1/address/search would, and print the JSON data')
    .requiredOption('--country <iso2>', 'countryIso2')
    .requiredOption('--keyword <text>', 'keyword')
    .option('--field <name>', `search field, repeatable (${SEARCH_FIELDS.join(', ')})`, (value: string, previous: string[] = []) => [...previous, value])
    .option('--page <n>', 'page', '1')
    .option('--limit <n>', 'limit', '10')
    .action(async (options: { country: string; keyword: string; field?: SearchField[]; page: string; limit: string }) => {
      const query = parseAddressSearchQuery({
        countryIso2: options.country,
        keyword: options.keyword,
        searchFields: options.field ?? [...SEARCH_FIELDS],
        page: options.page,
        limit: options.limit,
      });
      await withDatabase(async (db) => {
        console.log(JSON.stringify(await searchAddresses(db, query), null, 2));
      });
    });

  return command;
}

async function withDatabase(fn: (db: Database) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite') });
  try {
    await migrate(db);
    await fn(db);
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  addressCommand('address.cli')
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
