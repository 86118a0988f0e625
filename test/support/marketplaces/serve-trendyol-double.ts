/**
 * The Trendyol seller-API test double as a standalone server, to try a `trendyol` order source by hand (issue #43).
 * Prints every request it receives with its outcome. Commands (type, then Enter):
 *   `order [n] [TEX|ARAS|seller]`   places n orders (default 1, Trendyol pays with Trendyol Express)
 *   `list`                          the packages: id, order number, status, carrier, tracking number
 *   `status <packageId> <Status>`   e.g. `status 3330111111 Shipped` (Picking, Invoiced, Shipped, Delivered, …)
 *   `cancel <packageId> [lineId]`   the customer cancels the package (or one line: the rest becomes a new package)
 *   `split <packageId> <lineId>`    the line goes to a new package, the rest to another (the old one is UnPacked)
 *   `address <packageId> <text…>`   the customer fixes the delivery address (address1)
 *   `hook <packageId>`              POSTs the package to the registered webhooks (`hook <id> bad` with a wrong credential)
 *   `retry`                         sends failed webhook deliveries again (Trendyol: every 5 minutes)
 *   `down` / `up`                   a marketplace outage (503 to everything) / no more outage or faults
 *   `slow`                          every request answered 10 seconds late until `up`
 *   `lose`                          the next status update takes effect and the connection drops
 *
 *   PORT=9420 npx tsx test/support/marketplaces/serve-trendyol-double.ts
 *   # a source needs: base URL http://127.0.0.1:9420, sellerId 2738, API key ty-test-api-key, API secret ty-test-api-secret,
 *   # and the header User-Agent: "2738 - SelfIntegration". Optional: ENVIRONMENT=production, RATE_LIMITS=0, AUTO_WEBHOOKS=1.
 */
import { serveDouble } from '../carriers/serve-double';
import { TRENDYOL_TEST_SELLER, startTrendyolDouble } from './trendyol-double';
import type { TrendyolPackageStatus } from './trendyol.schemas';

async function main(): Promise<void> {
  const ty = await startTrendyolDouble({
    port: Number(process.env.PORT ?? 9420),
    environment: process.env.ENVIRONMENT === 'production' ? 'production' : 'stage',
    rateLimits: process.env.RATE_LIMITS !== '0',
    autoDeliverWebhooks: process.env.AUTO_WEBHOOKS === '1',
  });
  console.log(`Trendyol seller API test double at ${ty.baseUrl}/integration/...`);
  console.log(
    `seller: sellerId ${TRENDYOL_TEST_SELLER.sellerId}, API key ${TRENDYOL_TEST_SELLER.apiKey}, API secret ${TRENDYOL_TEST_SELLER.apiSecret}, ` +
      `User-Agent "${TRENDYOL_TEST_SELLER.sellerId} - SelfIntegration"`,
  );
  serveDouble(
    ty,
    (r) => {
      const why = r.validationErrors.length ? ` (${r.validationErrors.join('; ')})` : '';
      console.log(
        `${r.method} ${r.path} → ${r.status ?? '…'} ${r.outcome}${r.fault ? ` [fault ${r.fault}]` : ''}${r.rateLimit ? ` [limit ${r.rateLimit}]` : ''}${why}`,
      );
    },
    (words) => {
      const [command, a, b] = words;
      const id = Number(a);
      try {
        if (command === 'order') {
          const n = Number(a ?? 1) || 1;
          for (let i = 0; i < n; i++) {
            const p = ty.placeOrder({
              lines: [
                { barcode: '9900000000486', quantity: 1 },
                { barcode: '8683772071724', quantity: 2 },
              ],
              whoPays: b === 'seller' ? 'seller' : 'trendyol',
              carrier: b === 'ARAS' ? 'ARAS' : b === 'seller' ? 'YKMP' : 'TEX',
            });
            console.log(`package ${p.json.shipmentPackageId} (order ${p.json.orderNumber}), ${p.json.cargoProviderName} ${p.json.cargoTrackingNumber ?? ''}`);
          }
        } else if (command === 'list') {
          for (const p of ty.packages.values())
            console.log(
              `${p.json.shipmentPackageId}  ${p.json.orderNumber}  ${p.json.status}  ${p.json.cargoProviderName}  ${p.json.cargoTrackingNumber ?? '-'}  lines ${p.json.lines
                .map((l) => `${l.lineId}×${l.quantity}`)
                .join(', ')}`,
            );
        } else if (command === 'status' && a && b) {
          ty.advance(id, b as TrendyolPackageStatus);
          console.log(`${a}: ${b}`);
        } else if (command === 'cancel' && a) {
          const r = ty.cancel(id, b ? { lines: [{ lineId: Number(b) }] } : {});
          console.log(`${a} cancelled${r.newPackageId ? `, the rest is package ${r.newPackageId}` : ''}`);
        } else if (command === 'split' && a && b) {
          console.log(`${a} split into ${ty.split(id, [[Number(b)]]).join(', ')}`);
        } else if (command === 'address' && a) {
          ty.changeAddress(id, { address1: words.slice(2).join(' ') });
          console.log(`${a}: address changed`);
        } else if (command === 'hook' && a) {
          void ty.deliverWebhooks(id, b === 'bad' ? { credential: { apiKey: 'wrong' } } : {}).then((ds) => {
            if (!ds.length) console.log('no ACTIVE webhook is subscribed to that status');
            for (const d of ds) console.log(`webhook ${d.webhookId} ${d.url} → ${d.status ?? d.error}`);
          });
        } else if (command === 'retry') {
          void ty.retryWebhooks().then((ds) => console.log(`${ds.length} deliveries sent again`));
        } else if (command === 'down') {
          ty.outage(true);
          console.log('every request answers 503 until `up`');
        } else if (command === 'slow') {
          ty.failNext({ kind: 'delay', ms: 10_000 }, { times: 1_000_000 });
          console.log('every request is answered 10 s late until `up`');
        } else if (command === 'lose') {
          ty.failNext({ kind: 'applyThenDrop' }, { operation: 'updatePackage' });
          console.log('the next status update takes effect and drops the connection');
        } else if (command === 'up') {
          ty.outage(false);
          ty.clearFaults();
          console.log('no more outage or faults');
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
