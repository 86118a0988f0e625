/**
 * The MyDHL API test double as a standalone server, to try a `dhl_express` carrier account by hand
 * (docs/carriers.md, "Try DHL Express locally"). Prints every request it receives with its contract check;
 * type `deliver <waybill>` (then Enter) to make a shipment's tracking reach DHL's delivered checkpoint, or
 * `lose <n>` to make the next n shipment creations book and then drop the connection (a lost answer).
 * `MYDHL_LABEL_PER_PIECE=1` answers one label document per piece (as the contract allows).
 *
 *   PORT=9401 npx tsx test/support/carriers/serve-mydhl-double.ts
 */
import { startMyDhlDouble } from './mydhl-double';
import { serveDouble } from './serve-double';

async function main(): Promise<void> {
  const dhl = await startMyDhlDouble({ port: Number(process.env.PORT ?? 9401), labelPerPiece: process.env.MYDHL_LABEL_PER_PIECE === '1' });
  console.log(`MyDHL API test double at ${dhl.baseUrl}`);
  console.log(`credentials: username ${dhl.username}, password ${dhl.password}; any account number`);
  serveDouble(
    dhl,
    (r) => {
      const verdict = r.validationErrors.length ? `contract violations: ${r.validationErrors.join('; ')}` : 'within the contract';
      console.log(`${r.method} ${r.path} → ${r.status ?? '…'} (${verdict})`);
      const content = (r.body as { content?: { incoterm?: string; exportDeclaration?: { lineItems?: unknown[] } } } | undefined)?.content;
      if (r.operation === 'shipments.create' && content)
        console.log(`  incoterm ${content.incoterm}, customs line items ${JSON.stringify(content.exportDeclaration?.lineItems ?? [])}`);
      if (r.fault) console.log(`  fault: ${r.fault}`);
    },
    ([command, waybill]) => {
      if (command === 'deliver' && waybill) {
        dhl.setTracking(waybill, 'delivered');
        console.log(`${waybill}: tracking now ends with DHL's delivered checkpoint (OK)`);
      }
      if (command === 'lose') {
        const times = Math.max(1, Number(waybill ?? 1) || 1);
        dhl.failNext({ kind: 'applyThenDrop' }, { operation: 'shipments.create', times });
        console.log(`the next ${times} shipment creation(s) book, then drop the connection without an answer`);
      }
    },
  );
}

void main();
