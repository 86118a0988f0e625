/**
 * The Aras Kargo SOAP test double as a standalone server, to try an `aras` carrier account by hand. Prints every request
 * it receives with its outcome. Type (then Enter) `step <IntegrationCode> <step>` to move a shipment, e.g.
 * `step CF-1001 received` (the branch takes the cargo: tracking number, no more cancel), then `inTransit`,
 * `atDeliveryBranch`, `outForDelivery`, `delivered`, `notDelivered`, `returned`, `redirected`; `orders` lists what is
 * held. Faults: `down` makes every SetOrder answer HTTP 500 until `up`; `slow` delays the next answer by 10 s; `lose`
 * makes the next SetOrder store the order and never answer (held 60 s), until `up`.
 *
 *   PORT=9405 npx tsx test/support/carriers/serve-aras-double.ts
 *   # order service: http://127.0.0.1:9405/arascargoservice/arascargoservice.asmx (neodyum / nd2580)
 *   # query service: http://127.0.0.1:9405/ArasCargoIntegrationService.svc (neodyum / nd2580 / CustomerCode 1932448851342)
 */
import { ARAS_TEST_ORDER_CREDENTIALS, ARAS_TEST_QUERY_CREDENTIALS, startArasDouble, type ArasStep } from './aras-double';
import { serveDouble } from './serve-double';

async function main(): Promise<void> {
  const aras = await startArasDouble({ port: Number(process.env.PORT ?? 9405) });
  console.log(`Aras Kargo test double: order service ${aras.orderServiceUrl}, query service ${aras.queryServiceUrl}`);
  console.log(`order service credentials ${ARAS_TEST_ORDER_CREDENTIALS.userName} / ${ARAS_TEST_ORDER_CREDENTIALS.password}`);
  console.log(
    `query service LoginInfo ${ARAS_TEST_QUERY_CREDENTIALS.userName} / ${ARAS_TEST_QUERY_CREDENTIALS.password} / ${ARAS_TEST_QUERY_CREDENTIALS.customerCode}`,
  );
  serveDouble(
    aras,
    (r) => {
      const why = r.validationErrors.length ? ` (${r.validationErrors.join('; ')})` : '';
      const ignored = r.unknownFields.length ? ` (ignored elements: ${r.unknownFields.join(', ')})` : '';
      const codes = r.resultCodes.length ? ` ResultCode ${r.resultCodes.join(',')}` : '';
      console.log(
        `${r.method} ${r.path} ${r.operation ?? r.soapAction ?? ''} → ${r.status ?? '…'} ${r.outcome}${codes}${r.fault ? ` [fault ${r.fault}]` : ''}${why}${ignored}`,
      );
    },
    ([command, code, step]) => {
      try {
        if (command === 'step' && code && step) {
          const s = aras.advance(code, step as ArasStep);
          console.log(`${code}: ${step}, tracking number ${s.trackingNumber}, DURUM KODU ${s.status}, TİP KODU ${s.type}`);
        } else if (command === 'orders') {
          for (const o of aras.orders.values())
            console.log(
              `${o.integrationCode}: ${o.pieces.length} piece(s) ${o.pieces.map((p) => p.BarcodeNumber).join(', ')}; ${o.shipment ? `tracking ${o.shipment.trackingNumber}, DURUM KODU ${o.shipment.status}` : 'not received yet'}`,
            );
        } else if (command === 'down') {
          aras.failNext({ kind: 'status', status: 500 }, { operation: 'SetOrder', times: 1_000_000 });
          console.log('SetOrder answers 500 until `up`');
        } else if (command === 'slow') {
          aras.failNext({ kind: 'delay', ms: 10_000 });
          console.log('the next answer comes after 10 s');
        } else if (command === 'lose') {
          aras.failNext({ kind: 'applyThenHold', ms: 60_000 }, { operation: 'SetOrder' });
          console.log('the next SetOrder stores the order and holds its answer for 60 s');
        } else if (command === 'up') {
          aras.clearFaults();
          console.log('no more faults');
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
