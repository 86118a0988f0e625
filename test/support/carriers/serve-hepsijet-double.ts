/**
 * The HepsiJet integration API test double as a standalone server, to try a `hepsijet` carrier account by hand. Prints
 * every request it receives with its contract check. Type (then Enter):
 *   `status <customerDeliveryNo> <EVENT>`  e.g. `status TST1000000000001 ACCEPTED`, to move a delivery on (getDeliveryTracking shows it)
 *   `events`                               HepsiJet's events with their deliveryStatus / transaction text
 *   `expire`                               every token issued so far answers 401 (token expired mid-run)
 *   `down`                                 every sendDeliveryOrderEnhanced answers 500 until `up`
 *   `slow <ms>`                            every call waits <ms> before it is handled, until `up`
 *   `lose`                                 the next sendDeliveryOrderEnhanced books and drops its answer; generateZplBarcode hangs until `up`
 *   `up`                                   no more faults
 *
 *   PORT=9404 npx tsx test/support/carriers/serve-hepsijet-double.ts
 *   # carrier account (setting names are the adapter's to choose, issue #42; these are a suggestion):
 *   #                  {"carrier": "hepsijet", "credentials": {"username": "hepsijet-test", "password": "Test.1234"},
 *   #                   "settings": {"base_url": "http://127.0.0.1:9404", "company_name": "TestCompany", "company_code": "TSTCMPNY",
 *   #                                "sender_address_id": "TSTCMPNY_ADR1", "xdock_code": "TSTCMPNY_KUSTEPE"}}
 *   # optional: FAIL_HTTP_STATUS=200 to answer {status: "FAIL"} refusals with HTTP 200 instead of 400
 */
import { HEPSIJET_EVENTS, HEPSIJET_TEST_ACCOUNT, startHepsijetDouble } from './hepsijet-double';
import type { HepsijetEventName } from './hepsijet.schemas';
import { serveDouble } from './serve-double';

async function main(): Promise<void> {
  const hepsijet = await startHepsijetDouble({
    port: Number(process.env.PORT ?? 9404),
    failHttpStatus: process.env.FAIL_HTTP_STATUS ? Number(process.env.FAIL_HTTP_STATUS) : undefined,
  });
  const a = HEPSIJET_TEST_ACCOUNT;
  console.log(`HepsiJet integration API test double at ${hepsijet.baseUrl} (/auth/getToken, /rest/delivery/...)`);
  console.log(`credentials: username ${a.username}, password ${a.password}`);
  console.log(`company ${a.company.name} / ${a.company.abbreviationCode}, sender address ${a.senderAddressId}, cross-dock ${a.xDockCode}`);
  serveDouble(
    hepsijet,
    (r) => {
      const verdict = r.validationErrors.length ? `contract violations: ${r.validationErrors.join('; ')}` : 'within the contract';
      const ignored = r.unknownFields.length ? ` (ignored fields: ${r.unknownFields.join(', ')})` : '';
      console.log(`${r.method} ${r.path} → ${r.status ?? '…'} ${r.outcome}${r.fault ? ` [fault ${r.fault}]` : ''} (${verdict})${ignored}`);
      if (r.operation === 'sendDeliveryOrderEnhanced' && r.outcome === 'ok') {
        const d = [...hepsijet.deliveries.values()].find((x) => x.rawRequest === r.body);
        if (d)
          console.log(`  customerDeliveryNo ${d.customerDeliveryNo}${d.generatedNo ? ' (made up by the service)' : ''}, ${d.booking.totalParcels} parcel(s)`);
      }
    },
    ([command, no, arg]) => {
      try {
        if (command === 'status' && no && arg) {
          hepsijet.advance(no, arg as HepsijetEventName);
          console.log(`${no}: ${arg} (${HEPSIJET_EVENTS[arg as HepsijetEventName].deliveryStatus}) added`);
        } else if (command === 'events') {
          for (const [name, e] of Object.entries(HEPSIJET_EVENTS))
            console.log(`${name}: ${e.deliveryStatus} / ${e.operationStatus} / ${e.transactionType} — ${e.transaction}`);
        } else if (command === 'expire') {
          hepsijet.expireTokens();
          console.log('every token issued so far now answers 401');
        } else if (command === 'down') {
          hepsijet.failNext({ kind: 'status', status: 500 }, { operation: 'sendDeliveryOrderEnhanced', times: 1_000_000 });
          console.log('sendDeliveryOrderEnhanced answers 500 until `up`');
        } else if (command === 'slow' && no) {
          hepsijet.failNext({ kind: 'delay', ms: Number(no) }, { times: 1_000_000 });
          console.log(`every call waits ${Number(no)} ms until \`up\``);
        } else if (command === 'lose') {
          hepsijet.failNext({ kind: 'applyThenDrop' }, { operation: 'sendDeliveryOrderEnhanced' });
          hepsijet.failNext({ kind: 'hang' }, { operation: 'generateZplBarcode', times: 1_000_000 });
          console.log('the next sendDeliveryOrderEnhanced books and drops its answer; generateZplBarcode does not answer until `up`');
        } else if (command === 'up') {
          hepsijet.clearFaults();
          console.log('no more faults');
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
