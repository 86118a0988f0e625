import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { CONSOLE_TEXTS } from '../../../src/i18n/console';

const DIR = join(__dirname, '../../../src/i18n/console');

describe('the console texts', () => {
  it('has every key once across the catalogue files (a spread would silently keep the last one)', async () => {
    const seen = new Map<string, string>();
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const module = (await import(join(DIR, file))) as Record<string, Record<string, unknown>>;
      // A catalogue module exports its texts as `<AREA>_TEXTS` (the module object also holds `default` under Jest).
      for (const [name, texts] of Object.entries(module)) {
        if (!name.endsWith('_TEXTS')) continue;
        for (const key of Object.keys(texts)) {
          expect(`${key} in ${file}`).toBe(`${key} in ${seen.get(key) ?? file}`);
          seen.set(key, file);
        }
      }
    }
    expect(seen.size).toBe(Object.keys(CONSOLE_TEXTS).length);
  });

  it('says everything in English and Turkish, with the same {values} in both', () => {
    for (const [key, text] of Object.entries(CONSOLE_TEXTS) as [string, { en: string; tr: string }][]) {
      expect(`${key}: ${text.en.trim() !== '' && text.tr.trim() !== ''}`).toBe(`${key}: true`);
      const values = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(`${key}: ${values(text.tr).join(',')}`).toBe(`${key}: ${values(text.en).join(',')}`);
    }
  });
});
