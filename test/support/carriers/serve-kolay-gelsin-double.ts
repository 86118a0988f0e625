/**
 * The Kolay Gelsin API test double as a standalone server, to try a `kolay_gelsin` carrier account by hand
 * (docs/carriers.md, "Try Kolay Gelsin locally"). Prints every request it receives with its contract check. Type
 * `event <ShipmentId> <CargoEventType>` (then Enter), e.g. `event 100000 12`, to add an event to a shipment and
 * push Kolay Gelsin's webhook for it to WEBHOOK_URL with Basic auth (user `consignflow`, password WEBHOOK_SECRET).
 *
 *   PORT=9402 WEBHOOK_URL=http://127.0.0.1:8080/api/v1/carrier-accounts/1001/status-updates \
 *     WEBHOOK_SECRET=a-long-webhook-secret npx tsx test/support/carriers/serve-kolay-gelsin-double.ts
 */
import { startKolayGelsinDouble } from './kolay-gelsin-double';
import { serveDouble } from './serve-double';

async function main(): Promise<void> {
  const kg = await startKolayGelsinDouble({ port: Number(process.env.PORT ?? 9402) });
  console.log(`Kolay Gelsin API test double at ${kg.baseUrl}`);
  console.log(`credentials: token ${kg.token}, customer_id 20, address_id 28`);
  serveDouble(
    kg,
    (r) => {
      const verdict = r.validationErrors?.length ? `contract violations: ${r.validationErrors.join('; ')}` : 'within the contract';
      console.log(`${r.method} ${r.path} → ${r.status ?? '…'} ${r.outcome} (${verdict})`);
      if (r.operation === 'SaveIntegrationShipment') console.log(`  ${JSON.stringify(r.body)}`);
    },
    ([command, shipmentId, code]) => {
      if (command !== 'event' || !shipmentId || !code) return;
      try {
        const payload = kg.advance(shipmentId, Number(code));
        const url = process.env.WEBHOOK_URL;
        if (!url) return console.log(`${shipmentId}: event ${code} added (no WEBHOOK_URL: nothing pushed)`);
        const auth = { type: 'basic' as const, username: 'consignflow', password: process.env.WEBHOOK_SECRET ?? '' };
        kg.pushWebhook(url, payload, auth).then(
          (pushed) => console.log(`${shipmentId}: event ${code} added, webhook pushed → HTTP ${pushed.status} ${pushed.body}`),
          (error: Error) => console.log(`${shipmentId}: event ${code} added, webhook failed: ${error.message}`),
        );
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
