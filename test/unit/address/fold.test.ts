import { deletionVariants, escapeLike, foldName, foldPostalCode, foldText, mainNameKey, upperFirst } from '../../../src/address/fold';

describe('foldText: Turkish-aware case and diacritic folding', () => {
  it.each([
    ['Kadıköy', 'kadikoy'],
    ['KADIKÖY', 'kadikoy'],
    ['kadıkoy', 'kadikoy'],
    ['KaDıKöY', 'kadikoy'],
    ['İSTANBUL', 'istanbul'],
    ['ISTANBUL', 'istanbul'],
    ['istanbul', 'istanbul'],
    ['IĞDIR', 'igdir'],
    ['Iğdır', 'igdir'],
    ['Şişli', 'sisli'],
    ['Üsküdar', 'uskudar'],
    ['Çağlayan', 'caglayan'],
    ['Gölbaşı', 'golbasi'],
    ['Âşıkpaşa', 'asikpasa'],
    ['Aix-Villemaur-Pâlis', 'aix villemaur palis'],
    ["Val-d'Auzon", 'val d auzon'],
    ['Straße', 'strasse'],
    ['  19   Mayıs  ', '19 mayis'],
    ['St. Paul', 'st paul'],
  ])('%s → %s', (input, folded) => {
    expect(foldText(input)).toBe(folded);
  });

  it('turns punctuation and LIKE metacharacters into word breaks', () => {
    expect(foldText('caf%raga')).toBe('caf raga');
    expect(foldText("o'neil_\\x")).toBe('o neil x');
    expect(foldText('%_\\\'"')).toBe('');
  });
});

describe('foldName: settlement-type words are dropped', () => {
  it.each([
    ['Caferağa Mah', 'caferaga'],
    ['Caferağa Mahallesi', 'caferaga'],
    ['Caferağa Mh.', 'caferaga'],
    ['caferaga mah.', 'caferaga'],
    ['Akçaköy Köyü', 'akcakoy'],
    ['Akcakoy Koyu', 'akcakoy'],
    ['Çakmak Mah (akdurak Köyü)', 'cakmak akdurak'],
    ['Abımıstık Mah (çakırhüyük Beldesi)', 'abimistik cakirhuyuk'],
    ['Yenimahalle Mah', 'yenimahalle'],
    ['Kadıköy', 'kadikoy'],
  ])('%s → %s', (input, folded) => {
    expect(foldName(input)).toBe(folded);
  });

  it('keeps a name made only of such words', () => {
    expect(foldName('Mah')).toBe('mah');
    expect(foldName('Köyü')).toBe('koyu');
  });
});

describe('mainNameKey', () => {
  it('drops the parenthesised parent settlement', () => {
    expect(mainNameKey('Çakmak Mah (Akdurak Köyü)')).toBe('cakmak');
    expect(mainNameKey('Caferağa Mah')).toBe('caferaga');
    expect(mainNameKey('(Only Parentheses)')).toBe('only parentheses');
  });
});

describe('foldPostalCode', () => {
  it('removes spaces and folds case', () => {
    expect(foldPostalCode('T6E 1A1')).toBe('t6e1a1');
    expect(foldPostalCode(' 34 710 ')).toBe('34710');
    expect(foldPostalCode('90210-1234')).toBe('902101234');
  });
});

describe('escapeLike', () => {
  it('escapes %, _ and backslash', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(escapeLike('plain')).toBe('plain');
  });
});

describe('deletionVariants (single-typo index)', () => {
  const shareVariant = (a: string, b: string) => {
    const va = new Set(deletionVariants(a));
    return deletionVariants(b).some((v) => va.has(v));
  };

  it('lists the key and its one-character deletions', () => {
    expect(deletionVariants('kadikoy').sort()).toEqual(['adikoy', 'kadiko', 'kadikoy', 'kadiky', 'kadioy', 'kadkoy', 'kaikoy', 'kdikoy']);
    expect(deletionVariants('kaas').sort()).toEqual(['aas', 'kaa', 'kaas', 'kas']);
  });

  it('gives short and long keys only themselves', () => {
    expect(deletionVariants('ab')).toEqual([]);
    expect(deletionVariants('kas')).toEqual(['kas']);
    expect(deletionVariants('a'.repeat(17))).toEqual(['a'.repeat(17)]);
  });

  it.each([
    ['kadikoy', 'kadkoy', 'deletion'],
    ['kadikoy', 'kadiikoy', 'insertion'],
    ['kadikoy', 'kadikay', 'substitution'],
    ['kadikoy', 'kadioky', 'transposition'],
    ['horzum', 'hrozum', 'transposition'],
    ['asagi sirt', 'asagisirt', 'missing space'],
  ])('%s and %s (%s) share a variant', (a, b) => {
    expect(shareVariant(a, b)).toBe(true);
  });

  it('does not pair names two edits apart', () => {
    expect(shareVariant('kadikoy', 'kedikay')).toBe(false);
  });
});

describe('upperFirst', () => {
  it('is Turkish-aware', () => {
    expect(upperFirst('ilıca')).toBe('İlıca');
    expect(upperFirst('ılıca')).toBe('Ilıca');
    expect(upperFirst('çakırhüyük')).toBe('Çakırhüyük');
    expect(upperFirst('')).toBe('');
  });
});
