/**
 * The Sürat Kargo web service test double as a standalone server, to try a `surat` carrier account by hand. Prints
 * every request it receives with its contract check. Type (then Enter) `pickup <key>`, `transit <key>`, `out <key>`,
 * `deliver <key>` or `return <key>` to move a shipment (key: OzelKargoTakipNo or barcode; KargoTakipHareketDetayliV2
 * shows it); `show <key>` prints its movements. Faults: `down` makes every create answer HTTP 500 until `up`; `slow`
 * holds the next answer 30 s; `lose` makes the next create book the shipment and never answer, until `up`.
 *
 *   PORT=9404 npx tsx test/support/carriers/serve-surat-double.ts
 *   # carrier account: {"carrier": "surat", "credentials": {"account_code": "1038106246", "password": "123456",
 *   #                   "web_service_password": "123456.Ff"}, "settings": {"base_url": "http://127.0.0.1:9404/services.asmx"}}
 */
import { serveDouble } from './serve-double';
import { SURAT_TEST_ACCOUNT, SURAT_TEST_COD_ACCOUNT, startSuratDouble, type SuratMovementKind } from './surat-double';

const MOVES: Record<string, Exclude<SuratMovementKind, 'withdrawn'>> = {
  pickup: 'pickedUp',
  transit: 'inTransit',
  out: 'outForDelivery',
  deliver: 'delivered',
  return: 'returned',
};

async function main(): Promise<void> {
  const surat = await startSuratDouble({ port: Number(process.env.PORT ?? 9404) });
  console.log(`Sürat Kargo web service test double at ${surat.serviceUrl} (SOAP 1.1 and 1.2, namespace http://tempuri.org/)`);
  for (const a of [SURAT_TEST_ACCOUNT, SURAT_TEST_COD_ACCOUNT])
    console.log(`account ${a.cariKodu}: cari şifresi ${a.sifre}, web servis şifresi ${a.webSifre}${a.cashOnDelivery ? ' (cash on delivery)' : ''}`);
  serveDouble(
    surat,
    (r) => {
      const verdict = r.validationErrors.length ? `contract violations: ${r.validationErrors.join('; ')}` : 'within the contract';
      const ignored = r.unknownFields.length ? ` (ignored elements: ${r.unknownFields.join(', ')})` : '';
      console.log(
        `${r.method} ${r.path} ${r.operation ?? r.action ?? ''} → ${r.status ?? '…'} ${r.outcome}${r.fault ? ` [fault ${r.fault}]` : ''} (${verdict})${ignored}`,
      );
      const result = r.result as { isError?: boolean; Barcode?: string } | undefined;
      if (r.operation === 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur' && result?.isError === false) {
        const s = surat.shipments.get(result.Barcode ?? '');
        if (s) console.log(`  OzelKargoTakipNo ${s.ozelKargoTakipNo ?? '(none)'} → barcode ${s.barcode}`);
      }
    },
    ([command, key]) => {
      try {
        if (command && MOVES[command] && key) {
          const m = surat.move(key, MOVES[command]);
          console.log(`${key}: ${m.text} at ${m.location}`);
        } else if (command === 'show' && key) {
          console.log(surat.trackingText(key) || `${key}: no movements yet`);
        } else if (command === 'down') {
          surat.failNext({ kind: 'status', status: 500 }, { operation: 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur', times: 1_000_000 });
          console.log('create answers HTTP 500 until `up`');
        } else if (command === 'slow') {
          surat.failNext({ kind: 'applyThenHold', ms: 30_000 });
          console.log('the next request is carried out and answered after 30 s');
        } else if (command === 'lose') {
          surat.failNext({ kind: 'applyThenHang' }, { operation: 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur' });
          console.log('the next create books the shipment and never answers');
        } else if (command === 'up') {
          surat.clearFaults();
          console.log('no more faults');
        }
      } catch (error) {
        console.log((error as Error).message);
      }
    },
  );
}

void main();
