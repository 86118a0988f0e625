import { foldText } from '../address/fold';
import type { DraftInput, PartyInput } from '../domain/draft';
import type { CarrierFieldIssue } from './carrier';

/**
 * Turkey's provinces by plate code, which Turkish carriers use as their city ids (Kolay Gelsin's `CityId`,
 * Sendeo's `CityId`), the rule that reads a party's province from what a draft gives, and a Turkish phone number
 * in the ten digits the carriers ask for.
 */

/** Turkey's 81 provinces in plate-code order (Adana 01 … Düzce 81). */
export const PROVINCES = [
  'Adana',
  'Adıyaman',
  'Afyonkarahisar',
  'Ağrı',
  'Amasya',
  'Ankara',
  'Antalya',
  'Artvin',
  'Aydın',
  'Balıkesir',
  'Bilecik',
  'Bingöl',
  'Bitlis',
  'Bolu',
  'Burdur',
  'Bursa',
  'Çanakkale',
  'Çankırı',
  'Çorum',
  'Denizli',
  'Diyarbakır',
  'Edirne',
  'Elazığ',
  'Erzincan',
  'Erzurum',
  'Eskişehir',
  'Gaziantep',
  'Giresun',
  'Gümüşhane',
  'Hakkari',
  'Hatay',
  'Isparta',
  'Mersin',
  'İstanbul',
  'İzmir',
  'Kars',
  'Kastamonu',
  'Kayseri',
  'Kırklareli',
  'Kırşehir',
  'Kocaeli',
  'Konya',
  'Kütahya',
  'Malatya',
  'Manisa',
  'Kahramanmaraş',
  'Mardin',
  'Muğla',
  'Muş',
  'Nevşehir',
  'Niğde',
  'Ordu',
  'Rize',
  'Sakarya',
  'Samsun',
  'Siirt',
  'Sinop',
  'Sivas',
  'Tekirdağ',
  'Tokat',
  'Trabzon',
  'Tunceli',
  'Şanlıurfa',
  'Uşak',
  'Van',
  'Yozgat',
  'Zonguldak',
  'Aksaray',
  'Bayburt',
  'Karaman',
  'Kırıkkale',
  'Batman',
  'Şırnak',
  'Bartın',
  'Ardahan',
  'Iğdır',
  'Yalova',
  'Karabük',
  'Kilis',
  'Osmaniye',
  'Düzce',
];
const PLATE_OF_PROVINCE = new Map(PROVINCES.map((name, i) => [foldText(name), i + 1]));

/**
 * The plate code of the party's province: its `state_code`, else its postal code's first two digits (Turkish
 * postal codes begin with it), else its `state` or `city` named as a province.
 */
export function plateCode(p: PartyInput): number | undefined {
  for (const candidate of [p.state_code?.trim(), p.postal_code?.trim().slice(0, 2)]) {
    if (candidate && /^\d{1,2}$/.test(candidate)) {
      const code = Number(candidate);
      if (code >= 1 && code <= 81) return code;
    }
  }
  for (const name of [p.state, p.city]) {
    const code = name ? PLATE_OF_PROVINCE.get(foldText(name)) : undefined;
    if (code !== undefined) return code;
  }
  return undefined;
}

/** The province's name for a plate code (1–81). */
export const provinceName = (plate: number): string | undefined => PROVINCES[plate - 1];

/**
 * A Turkish phone number as Turkish carriers take it: its 10 digits (without +90 or the leading 0), a GSM when it
 * starts with 5; nothing when the number has not 10 digits once those are taken off.
 */
export function turkishPhone(raw: string | null | undefined): { gsm?: string; phone?: string } {
  let digits = (raw ?? '').replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith('90')) digits = digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) digits = digits.slice(1);
  if (digits.length !== 10) return {};
  return digits.startsWith('5') ? { gsm: digits } : { phone: digits };
}

/**
 * A domestic consignee as the Turkish carriers that address it by province, district and phone take it: both parties
 * in Turkey, the province (from `state_code`, the postal code or `state`), the district (the draft's `city`, unless it
 * is the province itself), the phone in ten digits. What a carrier would refuse is an issue naming the draft's field.
 */
export function turkishConsignee(
  draft: DraftInput,
  carrier: string,
  issues: CarrierFieldIssue[],
  district: { required: boolean; maxLength?: number },
): { to: PartyInput; province?: string; district?: string; phone: { gsm?: string; phone?: string } } {
  for (const side of ['consignor', 'consignee'] as const) {
    if (draft[side]?.country?.trim().toUpperCase() !== 'TR') issues.push({ field: `${side}.country`, reason: `${carrier} carries within Turkey only` });
  }
  const to: PartyInput = draft.consignee ?? {};
  const plate = plateCode(to);
  const province = plate === undefined ? undefined : provinceName(plate);
  if (!province) issues.push({ field: 'consignee.state', reason: `${carrier} needs the province: state (or state_code, its plate code)` });
  const city = to.city?.trim();
  const named = city && province && foldText(city) !== foldText(province) ? city : undefined;
  if (province && district.required && (!named || (district.maxLength !== undefined && named.length > district.maxLength)))
    issues.push({
      field: 'consignee.city',
      reason: `${carrier} needs the district (ilçe) of ${province} as the city${district.maxLength !== undefined ? `, up to ${district.maxLength} characters` : ''}`,
    });
  const phone = turkishPhone(to.phone_number);
  if (!phone.gsm && !phone.phone)
    issues.push({ field: 'consignee.phone_number', reason: `${carrier} needs a Turkish phone number of 10 digits (with its area code)` });
  return { to, province, district: named, phone };
}

/**
 * The label's pages of a shipment whose carrier scans one code on every package (Yurtiçi's cargoKey, Sürat's code):
 * a page per package, each with that code, so that every parcel carries it; one package, one page.
 */
export function piecePages(code: string, packages: number): { pieceBarcodes?: string[] } {
  return packages > 1 ? { pieceBarcodes: Array.from({ length: packages }, () => code) } : {};
}
