import type { Caller } from '../db/customers.repository';
import { customsDataOf, documentDate } from '../customs/customs-data';
import { customsDocuments, CN22_CEILING_SDR } from '../customs/customs-forms';
import { renderCustomsDocument } from '../customs/customs-pdf';
import type { CustomsDocumentKind } from '../customs/customs.types';
import { declaredValueSdr, DEFAULT_SDR_RATES, type SdrRates } from '../customs/sdr';
import { DomainError } from '../domain/errors';
import { STATUS } from '../domain/statuses';
import type { Locale } from '../i18n/messages';
import type { ConsignmentService } from './consignments.service';

export const CUSTOMS_DOCUMENT_KINDS: readonly CustomsDocumentKind[] = ['cn22', 'cn23', 'proforma'];

export function createCustomsService(deps: {
  consignments: ConsignmentService;
  carrierName: (providerId: number) => Promise<string | undefined>;
  sdrRates?: SdrRates;
}) {
  const rates = deps.sdrRates ?? DEFAULT_SDR_RATES;
  return {
    rates,

    /** A customs document of one of the caller's consignments, as a PDF in `locale`; a refusal says why it does not apply. */
    async document(caller: Caller, id: number, kind: CustomsDocumentKind, locale: Locale): Promise<{ pdf: Buffer; fileName: string }> {
      const { consignment: c } = await deps.consignments.find({ id, customerId: caller.customerId });
      if (c.status === STATUS.CANCELLED) throw new DomainError('ALREADY_CANCELLED');
      const carrierName = c.provider_id !== null ? ((await deps.carrierName(c.provider_id)) ?? null) : null;
      const data = customsDataOf(c, { barcode: c.barcode, date: documentDate(c), carrierName });
      if (!data) throw new DomainError(c.consignment_type === 2 ? 'CUSTOMS_NO_ITEMS' : 'CUSTOMS_NOT_INTERNATIONAL');
      const applicable = customsDocuments(data, rates);
      if (!applicable[kind]) {
        const value = declaredValueSdr(data.items, rates);
        const params = { value: 'sdr' in value ? value.sdr.toFixed(2) : '?', ceiling: CN22_CEILING_SDR };
        throw new DomainError(kind === 'cn22' ? 'CUSTOMS_CN22_OVER_CEILING' : 'CUSTOMS_CN23_WITHIN_CEILING', { params });
      }
      const pdf = await renderCustomsDocument(kind, data, { lang: locale });
      return { pdf, fileName: `${kind}-${c.barcode ?? c.id}.pdf` };
    },
  };
}

export type CustomsService = ReturnType<typeof createCustomsService>;
