import type { Text } from '../messages';

/** The address search page: the address search endpoint as a search box. */
export const ADDRESS_SEARCH_TEXTS = {
  ADDR_INTRO: {
    en: 'Places, districts, cities and postal codes of a country, as the address search of the API finds them: by prefix, one typo forgiven, Turkish letters folded (kadikoy finds Kadıköy).',
    tr: 'Bir ülkenin mahalle, ilçe, il ve posta kodları, API’nin adres aramasının bulduğu gibi: baştan eşleşme, bir yazım hatası hoş görülür, Türkçe harfler sadeleştirilir (kadikoy, Kadıköy’ü bulur).',
  },
  ADDR_COUNTRY: { en: 'Country', tr: 'Ülke' },
  ADDR_KEYWORD: { en: 'Place, district, city or postal code', tr: 'Mahalle, ilçe, il veya posta kodu' },
  ADDR_SEARCH_IN: { en: 'Search in', tr: 'Arama alanı' },
  ADDR_IN_ALL: { en: 'Everything', tr: 'Tümü' },
  ADDR_IN_PLACE: { en: 'Places / neighbourhoods', tr: 'Mahalleler / yerler' },
  ADDR_IN_CITY: { en: 'Cities / districts', tr: 'İlçeler / şehirler' },
  ADDR_IN_STATE: { en: 'States / provinces', tr: 'İller / eyaletler' },
  ADDR_IN_POSTAL_CODE: { en: 'Postal codes', tr: 'Posta kodları' },
  ADDR_STATE: { en: 'State / province', tr: 'İl / eyalet' },
  ADDR_CITY: { en: 'City / district', tr: 'İlçe / şehir' },
  ADDR_PLACE: { en: 'Place / neighbourhood', tr: 'Mahalle / yer' },
  ADDR_POSTAL_CODE: { en: 'Postal code', tr: 'Posta kodu' },
  ADDR_STATE_CODE: { en: 'State code', tr: 'İl kodu' },
  ADDR_RESULTS: { en: 'Matches', tr: 'Eşleşmeler' },
  ADDR_TYPE_TO_SEARCH: {
    en: 'Type at least one letter or digit: matches appear as you type.',
    tr: 'En az bir harf veya rakam yazın: eşleşmeler siz yazdıkça görünür.',
  },
  ADDR_NO_MATCH: { en: 'Nothing matches "{keyword}" in {country}.', tr: '{country} içinde "{keyword}" ile eşleşen bir şey yok.' },
  ADDR_SHOWING: {
    en: 'The first {shown} of {total} matches: type more to narrow them.',
    tr: '{total} eşleşmenin ilk {shown} tanesi: daraltmak için yazmaya devam edin.',
  },
  ADDR_COUNT: { en: '{total} matches.', tr: '{total} eşleşme.' },
  ADDR_NO_DATA: {
    en: 'No address data is loaded on this server (ADDRESS_COUNTRIES): a search finds nothing.',
    tr: 'Bu sunucuda yüklü adres verisi yok (ADDRESS_COUNTRIES): arama hiçbir şey bulmaz.',
  },
  ADDR_USE: { en: 'Use this address', tr: 'Bu adresi kullan' },
  ADDR_USE_LABEL: { en: 'Use {place} as the address', tr: '{place} adresini kullan' },
} satisfies Record<string, Text>;
