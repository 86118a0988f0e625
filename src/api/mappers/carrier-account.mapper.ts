import type { CarrierAccountRecord } from '../../db/carrier-accounts.repository';
import { formatTimestamp } from './consignment.mapper';

/** A carrier account as responses show it: never its credentials, only their masked hint. */
export function toCarrierAccountResponse(a: CarrierAccountRecord) {
  return {
    provider_id: a.providerId,
    carrier: a.carrier,
    description: a.description,
    credentials_hint: a.credentialsHint,
    settings: a.settings,
    status: a.status,
    status_webhook: { registered: a.statusWebhook.registered, error: a.statusWebhook.error },
    created_at: formatTimestamp(a.createdAt),
    updated_at: formatTimestamp(a.updatedAt),
  };
}
