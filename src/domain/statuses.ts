import { DomainError } from './errors';

/**
 * The consignment status catalog. 24, 1, 2 and 3 come from the API (docs/api.md); the carrier-driven numbers are ours
 * (docs/api.md, "Statuses"). Numbers are stored and sent to clients, so never renumber an existing status.
 */
export const STATUS = {
  NEW_DRAFT: 24,
  SENDED_TO_PROVIDER: 1,
  // Processing a draft ends in 2 or 3 (the API contract leaves the rule to us):
  //   3 AWAITING_PICKUP when a carrier pickup from the consignor was booked (the label waits for the courier);
  //   2 LABEL_CREATED when the consignor hands the parcel in at the carrier (drop-off), so nothing is awaited.
  // The carrier adapters decide which applies per booking.
  LABEL_CREATED: 2,
  AWAITING_PICKUP: 3,
  PICKED_UP: 4,
  IN_TRANSIT: 5,
  OUT_FOR_DELIVERY: 6,
  DELIVERED: 7,
  RETURNED: 8,
  EXCEPTION: 9,
  CANCELLED: 10,
} as const;

export type StatusName = keyof typeof STATUS;
export type StatusCode = (typeof STATUS)[StatusName];
export type StatusLocale = 'en' | 'tr';

const TEXTS: Record<StatusName, { en: string; tr: string; final?: true }> = {
  NEW_DRAFT: { en: 'New draft', tr: 'Yeni taslak' },
  SENDED_TO_PROVIDER: { en: 'Consignment sent to provider', tr: 'Gönderi kargo firmasına iletildi' },
  LABEL_CREATED: { en: 'Label created, sent to the carrier', tr: 'Etiket oluşturuldu, kargo firmasına iletildi' },
  AWAITING_PICKUP: {
    en: 'Label created, awaiting carrier pickup',
    tr: 'Etiket oluşturuldu, kargo firmasının teslim alması bekleniyor',
  },
  PICKED_UP: { en: 'Picked up by the carrier', tr: 'Kargo firması tarafından teslim alındı' },
  IN_TRANSIT: { en: 'In transit', tr: 'Gönderi yolda' },
  OUT_FOR_DELIVERY: { en: 'Out for delivery', tr: 'Dağıtıma çıktı' },
  DELIVERED: { en: 'Delivered', tr: 'Teslim edildi', final: true },
  RETURNED: { en: 'Returned to the consignor', tr: 'Göndericiye iade edildi', final: true },
  EXCEPTION: { en: 'Delivery exception reported by the carrier', tr: 'Kargo firması bir teslimat sorunu bildirdi' },
  CANCELLED: { en: 'Cancelled', tr: 'İptal edildi', final: true },
};

export const STATUS_CATALOG: Record<number, { name: string; en: string; tr: string; final: boolean }> = Object.fromEntries(
  (Object.keys(STATUS) as StatusName[]).map((name) => {
    const { en, tr, final } = TEXTS[name];
    return [STATUS[name], { name, en, tr, final: final === true }];
  }),
);

const S = STATUS;
/** Which status may follow which. 5 → 5 lets repeated in-transit scans through; final statuses allow nothing. */
export const ALLOWED_TRANSITIONS: Record<number, number[]> = {
  [S.NEW_DRAFT]: [S.LABEL_CREATED, S.AWAITING_PICKUP, S.CANCELLED],
  [S.LABEL_CREATED]: [S.SENDED_TO_PROVIDER, S.PICKED_UP, S.CANCELLED, S.EXCEPTION],
  [S.AWAITING_PICKUP]: [S.SENDED_TO_PROVIDER, S.PICKED_UP, S.CANCELLED, S.EXCEPTION],
  [S.SENDED_TO_PROVIDER]: [S.PICKED_UP, S.IN_TRANSIT, S.CANCELLED, S.EXCEPTION],
  [S.PICKED_UP]: [S.IN_TRANSIT, S.OUT_FOR_DELIVERY, S.DELIVERED, S.RETURNED, S.EXCEPTION, S.CANCELLED],
  [S.IN_TRANSIT]: [S.IN_TRANSIT, S.OUT_FOR_DELIVERY, S.DELIVERED, S.RETURNED, S.EXCEPTION, S.CANCELLED],
  // With the carrier, like 4, 5 and 9: cancelling is the carrier's call (cancelRule asks it).
  [S.OUT_FOR_DELIVERY]: [S.IN_TRANSIT, S.DELIVERED, S.RETURNED, S.EXCEPTION, S.CANCELLED],
  [S.EXCEPTION]: [S.PICKED_UP, S.IN_TRANSIT, S.OUT_FOR_DELIVERY, S.DELIVERED, S.RETURNED, S.CANCELLED],
  [S.DELIVERED]: [],
  [S.RETURNED]: [],
  [S.CANCELLED]: [],
};

/** The catalog name, e.g. `NEW_DRAFT`; `UNKNOWN` for a number outside the catalog. */
export function statusName(code: number): string {
  return STATUS_CATALOG[code]?.name ?? 'UNKNOWN';
}

export function statusMessage(code: number, locale: StatusLocale): string {
  return STATUS_CATALOG[code]?.[locale] ?? (locale === 'tr' ? `Bilinmeyen durum ${code}` : `Unknown status ${code}`);
}

export function canTransition(from: number, to: number): boolean {
  return ALLOWED_TRANSITIONS[from]?.includes(to) ?? false;
}

/**
 * The one not-a-draft rule: only a consignment in status 24 (NEW_DRAFT) is a draft, which can be changed,
 * processed or deleted. The workflow decides with it; the service's fast pre-checks and the activities' guards call it too.
 */
export function isDraft(status: number | null | undefined): boolean {
  return status === S.NEW_DRAFT;
}

/** NOT_DRAFT unless `status` is a draft's (isDraft). */
export function requireDraft(status: number): void {
  if (!isDraft(status)) throw new DomainError('NOT_DRAFT');
}

export function isFinal(status: number | null): boolean {
  return status !== null && STATUS_CATALOG[status]?.final === true;
}

/** Statuses in which the parcel is with the carrier: cancelling needs the carrier's consent. */
export const WITH_CARRIER: ReadonlySet<number> = new Set([S.PICKED_UP, S.IN_TRANSIT, S.OUT_FOR_DELIVERY, S.EXCEPTION]);

/** Why a cancel is refused, as an error code with its text parameters. */
export interface CancelRefusal {
  code: 'ALREADY_DELIVERED' | 'ALREADY_CANCELLED' | 'CANCEL_FAILED';
  params?: Record<string, string>;
}

/**
 * The cancel rule, derived from the transition table: a consignment can be cancelled when its status may move
 * to CANCELLED. `carrier`: a booking exists and the carrier must be told (a draft has none); `inTransit`: the
 * parcel is with the carrier, which may refuse.
 */
export function cancelRule(status: number): { refusal: CancelRefusal } | { refusal: null; carrier: boolean; inTransit: boolean } {
  if (canTransition(status, S.CANCELLED)) return { refusal: null, carrier: status !== S.NEW_DRAFT, inTransit: WITH_CARRIER.has(status) };
  if (status === S.DELIVERED) return { refusal: { code: 'ALREADY_DELIVERED' } };
  if (status === S.CANCELLED) return { refusal: { code: 'ALREADY_CANCELLED' } };
  if (status === S.RETURNED) return { refusal: { code: 'CANCEL_FAILED', params: { reason: 'the shipment was returned to the consignor' } } };
  return { refusal: { code: 'CANCEL_FAILED', params: { reason: `a consignment in status ${statusName(status)} cannot be cancelled` } } };
}
