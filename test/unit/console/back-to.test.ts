import { describe, expect, it } from '@jest/globals';
import { backTo } from '../../../src/console/console.plugin';

describe('where the console returns after sign-in or a language switch', () => {
  it('goes back to a console page', () => {
    expect(backTo('/console/consignments?status=24')).toBe('/console/consignments?status=24');
  });

  it.each([
    ['https://evil.example/console/x'],
    ['//evil.example/console/'],
    ['/console\\@evil'],
    ['/api/v1/consignments'],
    [undefined],
    [42],
    ['/console/x\r\nSet-Cookie: a=b'],
  ])('never leaves the console: %p goes to the list', (value) => {
    expect(backTo(value)).toBe('/console/consignments');
  });
});
