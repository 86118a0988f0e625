import { join } from 'node:path';
import { Command } from 'commander';
import { addressCommand } from './address/address.cli';
import { loadConfig } from './config';
import { createCustomer } from './db/customers.repository';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { importCommand } from './imports/import.cli';
import { labelsCommand } from './labels/labels.cli';

/** Operator commands. `npm run cli -- customers:create --name "Acme"` prints the new customer's API key once. */
const program = new Command('consignflow').description('consignflow operator commands');

program
  .command('customers:create')
  .description('create a customer with a user and an API key; prints the key (it is stored only as a hash)')
  .requiredOption('--name <name>', 'customer name')
  .option('--authorized-name <name>', 'authorized person')
  .action(async (options: { name: string; authorizedName?: string }) => {
    const config = loadConfig();
    // PGlite allows one process per data directory: stop `npm start` first, or use DATABASE_URL.
    const db = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite') });
    try {
      await migrate(db);
      const { caller, apiKey } = await createCustomer(db, { name: options.name, authorizedName: options.authorizedName });
      console.log(JSON.stringify({ customer_id: caller.customerId, customer_code: caller.customerCode, api_key: apiKey }, null, 2));
    } finally {
      await db.close();
    }
  });

program.addCommand(addressCommand());
program.addCommand(importCommand());
program.addCommand(labelsCommand());

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
