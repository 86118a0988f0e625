/**
 * The Hepsiburada order integration (OMS external API) test double as a standalone server, to try a `hepsiburada`
 * order source by hand (issue #43). Prints every request it receives with its outcome. Commands (type, then Enter):
 *   `order [n]`                      places an order with n sample lines (default 2, HepsiJet); prints its line ids
 *   `ownorder`                       places an order whose lines ship with the merchant's own carrier (MP)
 *   `pack <orderNumber>`             Hepsiburada packages the order's open lines (HB otomatik paketleme)
 *   `cancel <lineId>`                the customer cancels the line (a packed line's package is unpacked)
 *   `address <orderNumber> <text>`   the delivery address changes (`addresspending …` leaves the change demand open)
 *   `ship <packageNumber>` / `deliver <packageNumber>`   Hepsiburada's carrier moves the package on
 *   `push <event> <key>`             calls PUSH_URL (createOrder <orderNumber>, createPackages|unpack|intransit|deliver|undeliver
 *                                    <packageNumber>, orderCancel <lineId>, changeShippingAddress <orderNumber>)
 *   `down` / `up`                    every request answers 503 until `up`; `up` also clears faults
 *   `slow`                           every request is answered 10 seconds late until `up`
 *   `lose`                           the next package creation takes effect and its connection is dropped
 *   `show`                           lists orders and packages
 *
 *   PORT=9501 npx tsx test/support/marketplaces/serve-hepsiburada-double.ts
 *   # source credentials: merchantId b2910839-83b9-4d45-adb6-86bad457edcb, service key Tst4Srv9Key2,
 *   # User-Agent consignflow_dev, base URL http://127.0.0.1:9501 (paths /orders/merchantid/…, /packages/merchantid/…)
 *   # optional: PUSH_URL=http://127.0.0.1:3000/hooks/hepsiburada/<source> PUSH_USER=… PUSH_PASSWORD=…
 */
import { HEPSIBURADA_TEST_ACCOUNT, startHepsiburadaDouble, type HbPushEvent } from './hepsiburada-double';
import { HB_SAMPLE_LINES } from './hepsiburada.schemas';
import { serveDouble } from '../carriers/serve-double';

async function main(): Promise<void> {
  const push = process.env.PUSH_URL
    ? { url: process.env.PUSH_URL, username: process.env.PUSH_USER ?? 'hepsiburada', password: process.env.PUSH_PASSWORD ?? 'secret' }
    : undefined;
  const hb = await startHepsiburadaDouble({ port: Number(process.env.PORT ?? 9501), push });
  const a = HEPSIBURADA_TEST_ACCOUNT;
  console.log(`Hepsiburada OMS external API test double at ${hb.baseUrl}`);
  console.log(`Basic ${a.merchantId}:${a.serviceKey}, User-Agent ${a.userAgent}`);
  if (push) console.log(`pushes go to ${push.url} (Basic ${push.username}:***)`);
  serveDouble(
    hb,
    (r) => {
      const why = r.validationErrors.length ? ` (${r.validationErrors.join('; ')})` : '';
      console.log(`${r.method} ${r.path} → ${r.status ?? '…'} ${r.outcome}${r.fault ? ` [fault ${r.fault}]` : ''}${why}`);
    },
    (words) => {
      const [command, arg, ...rest] = words;
      try {
        if (command === 'order' || command === 'ownorder') {
          const n = Math.max(1, Number(arg ?? 2));
          const lines = Array.from({ length: n }, (_, i) => ({ ...HB_SAMPLE_LINES[i % HB_SAMPLE_LINES.length], merchantSku: `SKU-${i + 1}` }));
          const o = hb.placeOrder({ lines, cargoCompany: command === 'ownorder' ? 'MP' : 'HX' });
          console.log(`order ${o.orderNumber}: lines ${o.lines.map((l) => `${l.id} (${l.quantity} × ${l.merchantSku})`).join(', ')}`);
        } else if (command === 'pack' && arg) {
          const o = hb.orders.get(arg);
          if (!o) throw new Error(`no order ${arg}`);
          const p = hb.packLines(o.lines.filter((l) => l.openQuantity > 0).map((l) => ({ lineId: l.id })));
          console.log(`package ${p.packageNumber}, barcode ${p.barcode}`);
        } else if (command === 'cancel' && arg) {
          const c = hb.cancelLine(arg);
          console.log(`line ${c.lineItemId} of order ${c.orderNumber}: ${c.quantity} cancelled by ${c.cancelledBy}`);
        } else if ((command === 'address' || command === 'addresspending') && arg) {
          hb.changeAddress(arg, { address: rest.join(' ') }, { pending: command === 'addresspending' });
          console.log(`order ${arg}: address changed${command === 'addresspending' ? ' (demand still open)' : ''}`);
        } else if ((command === 'ship' || command === 'deliver') && arg) {
          const p = hb.advance(arg, command === 'ship' ? 'InTransit' : 'Delivered');
          console.log(`package ${p.packageNumber}: ${p.status}`);
        } else if (command === 'push' && arg && rest[0]) {
          void hb.push(arg as HbPushEvent, rest[0]).then(
            (p) => console.log(`push ${p.event} ${p.method} ${p.url} → ${p.status ?? p.error}`),
            (e: Error) => console.log(e.message),
          );
        } else if (command === 'down') {
          hb.setOutage(true);
          console.log('every request answers 503 until `up`');
        } else if (command === 'slow') {
          hb.failNext({ kind: 'delay', ms: 10_000 }, { times: 1_000_000 });
          console.log('every request is answered 10 s late until `up`');
        } else if (command === 'lose') {
          hb.failNext({ kind: 'applyThenDrop' }, { operation: 'createPackage' });
          console.log('the next package creation takes effect and its connection is dropped');
        } else if (command === 'up') {
          hb.setOutage(false);
          hb.clearFaults();
          console.log('no outage, no faults');
        } else if (command === 'show') {
          for (const o of hb.orders.values())
            console.log(`order ${o.orderNumber}: ${o.lines.map((l) => `${l.id} ${l.status} open ${l.openQuantity}`).join('; ')}`);
          for (const p of hb.packages.values())
            console.log(`package ${p.packageNumber} ${p.status} ${p.cargoCompany}${p.carrier ? `/${p.carrier}` : ''} barcode ${p.barcode}`);
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
