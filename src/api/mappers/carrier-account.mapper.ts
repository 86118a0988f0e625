import type { CarrierAccountRecord } from '../../db/carrier-accounts.repository';
import { z } from 'zod';
import { answerSchema } from '../openapi/operation';
import { formatTimestamp } from './timestamps';

export const CarrierAccountAnswer = answerSchema(
  'CarrierAccount',
  z.object({
    provider_id: z.int().meta({ description: 'the provider id drafts use for this account' }),
    carrier: z.string().meta({
      examples: ['consignment_api', 'dhl_express', 'sendeo', 'kolay_gelsin', 'surat', 'yurtici', 'aras', 'mng', 'hepsijet', 'trendyol', 'hepsiburada'],
    }),
    description: z.string(),
    credentials_hint: z.string().meta({ description: 'the last characters of the credentials, never the credentials' }),
    settings: z.record(z.string(), z.unknown()),
    status: z.int().meta({ description: '1 active, 0 disabled' }),
    status_webhook: z.object({ registered: z.boolean(), error: z.string().nullable() }),
    created_at: z.string(),
    updated_at: z.string(),
  }),
  { description: 'A carrier account of yours; its credentials are never shown.' },
);

/** A carrier account as responses show it: never its credentials, only their masked hint. */
export function toCarrierAccountResponse(a: CarrierAccountRecord): z.output<typeof CarrierAccountAnswer> {
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
