/**
 * The Sendeo web service test double as a standalone server, to try a `sendeo` carrier account by hand. Prints every
 * request it receives with its contract check. Type `status <ReferenceNo> <statusId>` (then Enter), e.g.
 * `status CF-1001 102`, to add a status to a delivery (TRACKDELIVERY shows it); `statuses` lists Sendeo's status ids;
 * `expire` makes every token issued so far answer 401. Faults: `down` makes every SETDELIVERY answer 500 until `up`;
 * `lose` makes the next SETDELIVERY book and drop its answer, and GETBARCODE not answer, until `up`.
 *
 *   PORT=9403 npx tsx test/support/carriers/serve-sendeo-double.ts
 *   # carrier account: {"carrier": "sendeo", "credentials": {"customer_code": "TEST", "password": "TesT.43e54"},
 *   #                   "settings": {"base_url": "http://127.0.0.1:9403"}}
 *   # optional: TRACKING_CACHE_MS=1800000 to emulate TRACKDELIVERY's 30-minute cache
 */
import { SENDEO_STATUSES, SENDEO_TEST_CUSTOMER, startSendeoDouble } from './sendeo-double';
import { serveDouble } from './serve-double';

async function main(): Promise<void> {
  const sendeo = await startSendeoDouble({ port: Number(process.env.PORT ?? 9403), trackingCacheMs: Number(process.env.TRACKING_CACHE_MS ?? 0) });
  console.log(`Sendeo web service test double at ${sendeo.baseUrl} (operations under /api/...)`);
  console.log(
    `credentials: customer_code ${SENDEO_TEST_CUSTOMER.code}, password ${SENDEO_TEST_CUSTOMER.password} (CustomerId ${SENDEO_TEST_CUSTOMER.customerId})`,
  );
  serveDouble(
    sendeo,
    (r) => {
      const verdict = r.validationErrors.length ? `contract violations: ${r.validationErrors.join('; ')}` : 'within the contract';
      const ignored = r.unknownFields.length ? ` (ignored fields: ${r.unknownFields.join(', ')})` : '';
      console.log(`${r.method} ${r.path} → ${r.status ?? '…'} ${r.outcome}${r.fault ? ` [fault ${r.fault}]` : ''} (${verdict})${ignored}`);
      if (r.operation === 'SETDELIVERY' && r.status === 200) {
        const d = [...sendeo.deliveries.values()].find((x) => x.rawRequest === r.body);
        if (d) console.log(`  ReferenceNo ${d.referenceNo} → TrackingNumber ${d.trackingNumber}, ${d.pieces} piece(s): ${d.barcodeNumbers.join(', ')}`);
      }
    },
    ([command, referenceNo, statusId]) => {
      try {
        if (command === 'status' && referenceNo && statusId) {
          sendeo.advance(referenceNo, Number(statusId));
          console.log(`${referenceNo}: status ${statusId} ${SENDEO_STATUSES[Number(statusId)].name} added`);
        } else if (command === 'statuses') {
          for (const [id, s] of Object.entries(SENDEO_STATUSES)) console.log(`${id} ${s.name} — ${s.description}`);
        } else if (command === 'expire') {
          sendeo.expireTokens();
          console.log('every token issued so far now answers 401');
        } else if (command === 'down') {
          sendeo.failNext({ kind: 'status', status: 500 }, { operation: 'SETDELIVERY', times: 1_000_000 });
          console.log('SETDELIVERY answers 500 until `up`');
        } else if (command === 'lose') {
          sendeo.failNext({ kind: 'applyThenDrop' }, { operation: 'SETDELIVERY' });
          sendeo.failNext({ kind: 'hang' }, { operation: 'GETBARCODE', times: 1_000_000 });
          console.log('the next SETDELIVERY books and drops its answer; GETBARCODE does not answer until `up`');
        } else if (command === 'up') {
          sendeo.clearFaults();
          console.log('no more faults');
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
