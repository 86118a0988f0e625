import countries from 'i18n-iso-countries';
// Registered explicitly (not relying on the Node entry's auto-registration) so a bundled copy,
// e.g. in the Temporal workflow sandbox, has the English names too.
import en from 'i18n-iso-countries/langs/en.json';

countries.registerLocale(en);

export interface Country {
  iso2: string;
  iso3: string;
  name: string;
}

/** Looks up an ISO 3166-1 alpha-2 or alpha-3 code, case-insensitively. Numeric codes are not accepted. */
export function resolveCountry(code: string): Country | undefined {
  const upper = code.trim().toUpperCase();
  let iso2: string | undefined;
  if (/^[A-Z]{2}$/.test(upper)) iso2 = countries.alpha2ToAlpha3(upper) ? upper : undefined;
  else if (/^[A-Z]{3}$/.test(upper)) iso2 = countries.alpha3ToAlpha2(upper);
  if (!iso2) return undefined;
  const iso3 = countries.alpha2ToAlpha3(iso2);
  const name = countries.getName(iso2, 'en');
  return iso3 && name ? { iso2, iso3, name } : undefined;
}

export function isCountryIso2(code: string): boolean {
  return /^[A-Za-z]{2}$/.test(code) && resolveCountry(code) !== undefined;
}
