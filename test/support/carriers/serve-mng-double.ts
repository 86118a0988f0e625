/**
 * The MNG Kargo (DHL eCommerce Türkiye) REST API test double as a standalone server, to try an `mng` carrier account by
 * hand (issue #42). Prints every request it receives with its outcome. Commands (type, then Enter):
 *   `status <referenceId> <code>`  e.g. `status OMN-12345 2`: adds shipmentStatusCode 1–8 to the order's live barcode
 *   `statuses`                     lists MNG's status codes
 *   `expire`                       every JWT issued so far answers 401 (token expired mid-run)
 *   `down`                         createOrder answers 500 until `up`
 *   `slow`                         every request is answered 10 seconds late until `up`
 *   `lose`                         the next createOrder creates the order and drops the connection
 *   `losebarcode`                  the next createbarcode issues the barcode and answers 500
 *   `up`                           no more faults
 *
 *   PORT=9407 npx tsx test/support/carriers/serve-mng-double.ts
 *   # what an account needs: X-IBM-Client-Id client-id, X-IBM-Client-Secret client-secret, customerNumber 2951471412,
 *   # password pwd, base URL http://127.0.0.1:9407 (the API is under /mngapi/api/...)
 *   # optional: BRANCH_RESOLUTION_MS=0 lets createbarcode work right after createOrder without createRecipient
 */
import { MNG_STATUSES, MNG_TEST_APP, MNG_TEST_CUSTOMER, startMngDouble } from './mng-double';
import { serveDouble } from './serve-double';

async function main(): Promise<void> {
  const afterOrderMs = process.env.BRANCH_RESOLUTION_MS === undefined ? undefined : Number(process.env.BRANCH_RESOLUTION_MS);
  const mng = await startMngDouble({ port: Number(process.env.PORT ?? 9407), branchResolution: { afterOrderMs } });
  console.log(`MNG Kargo REST API test double at ${mng.baseUrl}/mngapi/api/...`);
  console.log(`app: X-IBM-Client-Id ${MNG_TEST_APP.clientId}, X-IBM-Client-Secret ${MNG_TEST_APP.clientSecret}`);
  console.log(`customer: customerNumber ${MNG_TEST_CUSTOMER.customerNumber}, password ${MNG_TEST_CUSTOMER.password}, identityType 1`);
  serveDouble(
    mng,
    (r) => {
      const verdict = r.validationErrors.length ? `refused: ${r.validationErrors.join('; ')}` : 'within the contract';
      const ignored = r.unknownFields.length ? ` (ignored fields: ${r.unknownFields.join(', ')})` : '';
      console.log(`${r.method} ${r.path} → ${r.status ?? '…'} ${r.outcome}${r.fault ? ` [fault ${r.fault}]` : ''} (${verdict})${ignored}`);
      const answered = (r.response ?? r.lostResponse) as { shipmentId?: string; barcodes?: { barcode: string }[] }[] | undefined;
      if (r.operation === 'createbarcode' && Array.isArray(answered) && answered[0]?.shipmentId)
        console.log(`  shipmentId ${answered[0].shipmentId}, barcode(s): ${(answered[0].barcodes ?? []).map((b) => b.barcode).join(', ')}`);
    },
    ([command, referenceId, code]) => {
      try {
        if (command === 'status' && referenceId && code) {
          mng.advance(referenceId, Number(code));
          console.log(`${referenceId}: status ${code} ${MNG_STATUSES[Number(code)].text} added`);
        } else if (command === 'statuses') {
          for (const [c, s] of Object.entries(MNG_STATUSES)) console.log(`${c} ${s.text} (${s.name})`);
        } else if (command === 'expire') {
          mng.expireTokens();
          console.log('every JWT issued so far now answers 401');
        } else if (command === 'down') {
          mng.failNext({ kind: 'status', status: 500 }, { operation: 'createOrder', times: 1_000_000 });
          console.log('createOrder answers 500 until `up`');
        } else if (command === 'slow') {
          mng.failNext({ kind: 'delay', ms: 10_000 }, { times: 1_000_000 });
          console.log('every request is answered 10 s late until `up`');
        } else if (command === 'lose') {
          mng.failNext({ kind: 'applyThenDrop' }, { operation: 'createOrder' });
          console.log('the next createOrder creates the order and drops the connection');
        } else if (command === 'losebarcode') {
          mng.failNext({ kind: 'applyThenStatus', status: 500 }, { operation: 'createbarcode' });
          console.log('the next createbarcode issues the barcode and answers 500');
        } else if (command === 'up') {
          mng.clearFaults();
          console.log('no more faults');
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
