import { allocateItemWeights, consignmentCategories, itemCategory } from '../../../src/customs/customs-forms';

const grams = (kg: number): number => Math.round(kg * 1000);
const sumGrams = (shares: number[]): number => shares.reduce((sum, kg) => sum + grams(kg), 0);
const units = (...quantities: number[]) => quantities.map((quantity) => ({ quantity, unitPrice: 1 }));

describe('allocateItemWeights', () => {
  it('splits each package in proportion to quantity', () => {
    expect(
      allocateItemWeights([
        { weightKg: 2, items: units(1, 3) },
        { weightKg: 0.5, items: units(5) },
      ]),
    ).toEqual([[0.5, 1.5], [0.5]]);
  });

  it('rounds to the gram and the shares add up to the package weight', () => {
    const [shares] = allocateItemWeights([{ weightKg: 1, items: units(1, 1, 1) }]);
    expect(shares).toEqual([0.334, 0.333, 0.333]);
    expect(sumGrams(shares)).toBe(1000);
  });

  it('never exceeds the package weight, however it splits', () => {
    for (const weightKg of [0.001, 0.007, 1.2, 2.5, 3.3333, 17.9999, 29.5]) {
      for (const quantities of [[1], [1, 2], [3, 3, 3], [1, 7, 2, 9, 4], Array.from({ length: 100 }, (_, i) => (i % 5) + 1)]) {
        const [shares] = allocateItemWeights([{ weightKg, items: units(...quantities) }]);
        expect(shares).toHaveLength(quantities.length);
        for (const share of shares) {
          expect(share).toBeGreaterThanOrEqual(0);
          expect(grams(share)).toBeCloseTo(share * 1000, 6); // whole grams: 3 decimals
        }
        expect(sumGrams(shares)).toBe(Math.floor(Math.round(weightKg * 1e6) / 1000));
        expect(sumGrams(shares)).toBeLessThanOrEqual(weightKg * 1000);
      }
    }
  });

  it('gives the gram left over to the largest remainder', () => {
    // 1.2 kg over 1 : 2 : 4 → 171.43, 342.86, 685.71 g → 171, 343, 686
    expect(allocateItemWeights([{ weightKg: 1.2, items: units(1, 2, 4) }])).toEqual([[0.171, 0.343, 0.686]]);
  });

  it('splits evenly when no item has a quantity, and gives zeros for an unweighed package', () => {
    expect(allocateItemWeights([{ weightKg: 0.9, items: units(0, 0, 0) }])).toEqual([[0.3, 0.3, 0.3]]);
    expect(allocateItemWeights([{ weightKg: 0, items: units(1, 2) }])).toEqual([[0, 0]]);
    expect(allocateItemWeights([{ weightKg: 3, items: [] }])).toEqual([[]]);
    expect(allocateItemWeights([])).toEqual([]);
  });
});

describe('itemCategory', () => {
  it.each([
    ['Gift', 'gift'],
    ['HEDİYE', 'gift'],
    ['hediye', 'gift'],
    ['GIFT', 'gift'],
    ['Documents', 'documents'],
    ['Doküman', 'documents'],
    ['commercial_sample', 'commercialSample'],
    ['Ticari Numune', 'commercialSample'],
    ['Returned goods', 'returnedGoods'],
    ['İADE', 'returnedGoods'],
    ['Sale of goods', 'saleOfGoods'],
    ['Diğer', 'saleOfGoods'],
    ['Electronics', 'saleOfGoods'],
    ['', 'saleOfGoods'],
  ])('%s → %s', (category, expected) => {
    expect(itemCategory(category)).toBe(expected);
  });

  it('is Sale of goods without a category, and each item counts for the consignment', () => {
    expect(itemCategory(null)).toBe('saleOfGoods');
    expect([...consignmentCategories([{ category: 'gift' }, { category: null }, { category: 'Hediye' }])].sort()).toEqual(['gift', 'saleOfGoods']);
  });
});
