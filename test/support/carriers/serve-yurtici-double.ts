/**
 * The Yurtiçi Kargo ShippingOrderDispatcherServices test double as a standalone server, to try a `yurtici` carrier
 * account by hand. Prints every request it receives with its contract check. Type (then Enter):
 *   `pickup <cargoKey>`, `scan <cargoKey>`, `move <cargoKey> loaded|unloaded|outForDelivery`, `deliver <cargoKey>`,
 *   `undelivered <cargoKey>` (reason "Alıcı Müşteriye Ulaşılamıyor"), `return <cargoKey>`, `list` (shipments),
 *   `forget` (the one-minute query rule starts afresh).
 * Faults: `down` makes every createShipment answer a SOAP Server fault (HTTP 500) until `up`; `slow` delays every
 * answer by 10 s until `up`; `lose` makes the next createShipment book and drop its answer.
 *
 *   PORT=9404 npx tsx test/support/carriers/serve-yurtici-double.ts
 *   # endpoint: http://127.0.0.1:9404/KOPSWebServices/ShippingOrderDispatcherServices
 *   # users: YKTEST / YK (sender pays), YKTESTAO / YK (receiver pays), language TR
 *   # optional: QUERY_COOLDOWN_MS=0 to switch off queryShipment's one-minute rule
 */
import { serveDouble } from './serve-double';
import { YURTICI_TEST_USER_RECEIVER_PAYS, YURTICI_TEST_USER_SENDER_PAYS, startYurticiDouble } from './yurtici-double';

async function main(): Promise<void> {
  const yk = await startYurticiDouble({
    port: Number(process.env.PORT ?? 9404),
    queryCooldownMs: process.env.QUERY_COOLDOWN_MS === undefined ? undefined : Number(process.env.QUERY_COOLDOWN_MS),
  });
  console.log(`Yurtiçi Kargo ShippingOrderDispatcherServices test double at ${yk.endpointUrl}`);
  for (const u of [YURTICI_TEST_USER_SENDER_PAYS, YURTICI_TEST_USER_RECEIVER_PAYS])
    console.log(`user ${u.userName} / ${u.password}: ${u.paymentType === 'sender' ? 'sender pays' : 'receiver pays'}`);
  serveDouble(
    yk,
    (r) => {
      const verdict = r.errors.length ? `refusals: ${r.errors.join('; ')}` : 'within the contract';
      const ignored = r.unknownFields.length ? ` (ignored elements: ${r.unknownFields.join(', ')})` : '';
      console.log(
        `${r.method} ${r.path} ${r.operation ?? '?'} [${r.userName ?? '-'}] → ${r.status ?? '…'} ${r.outcome}${r.fault ? ` [fault ${r.fault}]` : ''} (${verdict})${ignored}`,
      );
    },
    ([command, cargoKey, arg]) => {
      try {
        if (command === 'pickup' && cargoKey) console.log(`${cargoKey}: IND, docId ${yk.pickUp(cargoKey).docId}`);
        else if (command === 'scan' && cargoKey) console.log(`${cargoKey}: ${yk.scan(cargoKey).status}`);
        else if (command === 'move' && cargoKey && (arg === 'loaded' || arg === 'unloaded' || arg === 'outForDelivery')) {
          yk.move(cargoKey, arg);
          console.log(`${cargoKey}: ${arg}`);
        } else if (command === 'deliver' && cargoKey) console.log(`${cargoKey}: ${yk.deliver(cargoKey).status}`);
        else if (command === 'undelivered' && cargoKey)
          console.log(`${cargoKey}: rejectStatus ${yk.notDelivered(cargoKey, 'Alıcı Müşteriye Ulaşılamıyor').rejectStatus}`);
        else if (command === 'return' && cargoKey) console.log(`${cargoKey}: returnStatus ${yk.returnToSender(cargoKey).returnStatus}`);
        else if (command === 'list') for (const [key, s] of yk.shipments) console.log(`${key} ${s.status} ${s.userName} docId ${s.docId ?? '-'}`);
        else if (command === 'forget') {
          yk.forgetQueries();
          console.log('queryShipment one-minute rule reset');
        } else if (command === 'down') {
          yk.failNext({ kind: 'status', status: 500 }, { operation: 'createShipment', times: 1_000_000 });
          console.log('createShipment answers a SOAP Server fault until `up`');
        } else if (command === 'slow') {
          yk.failNext({ kind: 'slow', ms: 10_000 }, { times: 1_000_000 });
          console.log('every answer leaves 10 s late until `up`');
        } else if (command === 'lose') {
          yk.failNext({ kind: 'applyThenDrop' }, { operation: 'createShipment' });
          console.log('the next createShipment books and drops its answer');
        } else if (command === 'up') {
          yk.clearFaults();
          console.log('no more faults');
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
