import type { LabelData, LabelParty } from './label.types';

/** Text formatting shared by the PDF and ZPL labels, so both print the same words. */

/** `YYYY-MM-DD HH:MM` in UTC: the label is printed anywhere, the timestamp must not depend on the printer's zone. */
export function formatLabelDate(d: Date): string {
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/** Up to 2 decimals, no trailing zeros: 1.5, 12, 0.25. */
export function formatQuantity(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** "34000 Kadıköy / İstanbul": postal code, city, then state when it differs from the city. */
export function cityLine(p: LabelParty): string {
  const place =
    p.state && p.state.trim() && p.state.trim().toLocaleLowerCase('tr') !== p.city.trim().toLocaleLowerCase('tr') ? `${p.city} / ${p.state}` : p.city;
  return [p.postalCode, place].filter((s) => s && s.trim()).join(' ');
}

/** "TR  Tel: +90 555 000 00 00", or just the country. */
export function countryLine(p: LabelParty): string {
  return p.phone && p.phone.trim() ? `${p.countryIso2.toUpperCase()}  Tel: ${p.phone}` : p.countryIso2.toUpperCase();
}

/** The details every label prints beside the QR code, in order (the carrier's routing first, when it gave one). */
export function labelDetails(d: LabelData, none: string): Array<[caption: string, value: string]> {
  return [
    ...(d.routing ? [['Rota / Route', d.routing] as [string, string]] : []),
    ['Referans / Ref', d.referenceNo ?? none],
    ['Takip / Tracking', d.trackingCode],
    ['Ağırlık / Weight', `${formatQuantity(d.weightKg)} kg`],
    ['Desi', formatQuantity(d.desi)],
    ['Koli / Packages', String(d.packageCount)],
  ];
}
