import type { ProviderDirectory } from '../api/mappers/consignment.mapper';
import type { LabelLinks } from '../labels/label-links';
import type { AddressService } from '../services/addresses.service';
import type { CarrierAccountService } from '../services/carrier-accounts.service';
import type { ConsignmentService } from '../services/consignments.service';
import type { CustomsService } from '../services/customs.service';
import type { ImportService } from '../services/imports.service';
import type { LabelBatchService } from '../services/label-batches.service';
import type { OrderSourceService } from '../services/order-sources.service';
import type { ProviderService } from '../services/providers.service';
import type { WebhookService } from '../services/webhooks.service';

/**
 * The services the console's pages call: the same objects the /api/v1 handlers call, so the two never drift.
 * Harnesses that need only some pages pass doubles for the rest (test/support/app-doubles.ts).
 */
export interface ConsolePageDeps {
  consignments: ConsignmentService;
  describeProvider: ProviderDirectory;
  providerService: ProviderService;
  labelLinks: LabelLinks;
  labelBatches: LabelBatchService;
  customs: CustomsService;
  addresses: AddressService;
  imports: ImportService;
  webhooks: WebhookService;
  carrierAccounts: CarrierAccountService;
  orderSources: OrderSourceService;
  /** the Temporal UI's address, for the link to a consignment's workflow (absent: no link) */
  temporalUiUrl?: string;
  temporalNamespace: string;
}
