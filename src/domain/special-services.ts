import type { DraftInput } from './draft';
import type { Issue } from './errors';

/**
 * Special services a carrier acts on, read from a draft's `special_services` (each `{service_type, details}`):
 * cash on delivery and a return from the consignee. Types are matched ignoring case; other types only add
 * their fee (docs/api.md, "Special services").
 */

const COD_TYPES = new Set(['cash_on_delivery', 'cod']);
const RETURN_TYPES = new Set(['return', 'return_pickup']);

export interface CashOnDelivery {
  /** where it stands in `special_services`, for field names */
  index: number;
  amount: number;
  /** ISO 4217; TRY when not given */
  currency: string;
  payment: 'cash' | 'card';
}

const typeOf = (s: { service_type?: string | null }) => (s.service_type ?? '').trim().toLowerCase();

/**
 * The draft's cash-on-delivery service: `details.amount` (> 0), `details.currency` (default TRY) and
 * `details.payment` (`cash`, the default, or `card`). An issue names the detail at fault.
 */
export function cashOnDelivery(draft: DraftInput): { cod?: CashOnDelivery; issue?: Issue } {
  const index = (draft.special_services ?? []).findIndex((s) => COD_TYPES.has(typeOf(s)));
  if (index < 0) return {};
  const details = draft.special_services![index].details ?? {};
  const field = (name: string) => `special_services.${index}.details.${name}`;
  const amount = details.amount;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return { issue: { code: 'NOT_POSITIVE', field: field('amount') } };
  const currency = details.currency === undefined ? 'TRY' : details.currency;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return { issue: { code: 'INVALID_CHOICE', field: field('currency') } };
  const payment = details.payment === undefined ? 'cash' : details.payment;
  if (payment !== 'cash' && payment !== 'card') return { issue: { code: 'INVALID_CHOICE', field: field('payment') } };
  return { cod: { index, amount: Math.round(amount * 100) / 100, currency, payment } };
}

/** The draft asks the carrier to collect from the consignee and bring the parcel back (a return). */
export const isReturn = (draft: DraftInput): boolean => (draft.special_services ?? []).some((s) => RETURN_TYPES.has(typeOf(s)));
