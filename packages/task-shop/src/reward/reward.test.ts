import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PurchasedProduct, RewardGoal } from '../product/shop-product.js';
import { getAttributeReward } from './get-attribute-reward.js';
import { getOptionReward } from './get-option-reward.js';
import { getReward, getRewardWithInfo, goalOptionValues } from './get-reward.js';
import { getTypeReward } from './get-type-reward.js';
import { normalizeColor } from './normalize-color.js';
import { titleNouns } from './title-nouns.js';
import { tokenSetRatio } from './token-set-ratio.js';

function product(overrides: Partial<PurchasedProduct> = {}): PurchasedProduct {
  return {
    query: 'headphones',
    product_category: 'Electronics › Headphones, Earbuds & Accessories › Headphones › Over-Ear Headphones',
    name: 'wireless bluetooth headphones',
    Title: 'wireless bluetooth headphones',
    Attributes: ['noise cancelling', 'long battery life'],
    BulletPoints: ['Foldable design', 'Comes with a travel case'],
    Description: 'Soft ear cushions and a hands free microphone.',
    ...overrides,
  };
}

function goal(overrides: Partial<RewardGoal> = {}): RewardGoal {
  return {
    query: 'headphones',
    product_category: 'Electronics › Headphones, Earbuds & Accessories › Headphones › Over-Ear Headphones',
    name: 'wireless bluetooth headphones',
    attributes: ['noise cancelling'],
    goal_options: {},
    price_upper: 40,
    ...overrides,
  };
}

const UNRELATED_CATEGORY = 'Home & Kitchen › Bath › Towels';

describe('titleNouns (the spaCy stand-in)', () => {
  it('keeps NOUN and PROPN tokens, lower-cased', () => {
    expect(titleNouns('wireless bluetooth headphones')).toEqual(['wireless', 'bluetooth', 'headphones']);
    expect(titleNouns('Bluetooth Speaker')).toEqual(['bluetooth', 'speaker']);
    expect(titleNouns('very quickly')).toEqual([]);
  });
});

describe('getTypeReward', () => {
  it('is 1 with the same query, category and name', () => {
    expect(getTypeReward(product(), goal())).toEqual({
      r_type: 1,
      query_match: true,
      category_match: true,
      title_score: 1,
    });
  });

  it('counts breadcrumb items as a set split on ›, needing two in common', () => {
    const p = product({ query: 'other', product_category: 'Electronics › Headphones › Toys' });
    expect(getTypeReward(p, goal()).category_match).toBe(true);
    const q = product({ query: 'other', product_category: 'Electronics › Cables' });
    expect(getTypeReward(q, goal()).category_match).toBe(false);
  });

  it('keeps 1 on noun overlap alone when above 0.2', () => {
    // desired nouns {wireless, bluetooth, headphones}; purchased {bluetooth, speaker}: 1/3 > 0.2.
    const p = product({ query: 'speakers', product_category: UNRELATED_CATEGORY, name: 'Bluetooth Speaker' });
    const r = getTypeReward(p, goal());
    expect(r.title_score).toBeCloseTo(1 / 3, 12);
    expect(r.r_type).toBe(1);
  });

  it('gives 0.5 when nothing matches and the noun overlap is in [0.1, 0.2]', () => {
    const desired = 'apple banana date elder fig';
    expect(titleNouns(desired)).toHaveLength(5);
    const p = product({ query: 'fruit', product_category: UNRELATED_CATEGORY, name: 'apple' });
    // 1 shared noun of 5 = 0.2, which is not > 0.2.
    const r = getTypeReward(p, goal({ name: desired }));
    expect(r).toEqual({ r_type: 0.5, query_match: false, category_match: false, title_score: 0.2 });
  });

  it('gives 0.1 when the noun overlap is under 0.1, even with the same query', () => {
    const desired = 'apple banana cherry date elder fig grape honeydew kiwi lemon mango melon';
    expect(titleNouns(desired)).toHaveLength(11); // "cherry" is tagged ADJ
    const r = getTypeReward(product({ name: 'apple' }), goal({ name: desired }));
    expect(r.query_match).toBe(true);
    expect(r.title_score).toBeCloseTo(1 / 11, 12);
    expect(r.r_type).toBe(0.1);
  });

  it('gives 0 with no shared noun, whatever the query and category', () => {
    const r = getTypeReward(product({ name: 'cotton bath towel' }), goal());
    expect(r.query_match).toBe(true);
    expect(r.category_match).toBe(true);
    expect(r.title_score).toBe(0);
    expect(r.r_type).toBe(0);
  });

  it('scores 0.2 when the goal name has no noun', () => {
    expect(getTypeReward(product(), goal({ name: 'very quickly' })).title_score).toBe(0.2);
    expect(getTypeReward(product(), goal({ name: 'very quickly' })).r_type).toBe(1);
    const p = product({ query: 'x', product_category: UNRELATED_CATEGORY });
    expect(getTypeReward(p, goal({ name: 'very quickly' })).r_type).toBe(0.5);
  });
});

describe('getAttributeReward', () => {
  it('matches by token-set ratio > 85', () => {
    // token_set_ratio('natural look', 'natural looking'): intersection "natural"; the two full strings
    // "natural look" (12) and "natural looking" (15) share 12 characters: 2·12/27 = 88.9 → 89 > 85.
    expect(tokenSetRatio('natural look', 'natural looking')).toBe(89);
    const p = product({ Attributes: ['natural look'] });
    expect(getAttributeReward(p, goal({ attributes: ['natural looking'] }))).toEqual([1, 1]);
  });

  it('falls back to a substring of the title, bullet points or description', () => {
    const g = goal({ attributes: ['hands free', 'travel case', 'foldable design', 'water resistant'] });
    // "hands free" is in the description, "travel case" in a bullet, "foldable design" in a bullet (lower-cased);
    // "water resistant" is nowhere: 3 of 4.
    expect(getAttributeReward(product(), g)).toEqual([0.75, 3]);
  });

  it('does not match a near miss', () => {
    // token_set_ratio('noise cancelling', 'noise isolating') is well under 86.
    expect(tokenSetRatio('noise cancelling', 'noise isolating')).toBeLessThanOrEqual(85);
    const p = product({ Attributes: ['noise isolating'], Description: '', BulletPoints: [], Title: 'x' });
    expect(getAttributeReward(p, goal({ attributes: ['noise cancelling'] }))).toEqual([0, 0]);
  });

  it('reads Title, BulletPoints and Description only when an attribute is unmatched, in that order', () => {
    const read: string[] = [];
    const watched = {
      Attributes: ['noise cancelling'],
      get Title() {
        read.push('Title');
        return 'Travel headphones';
      },
      get BulletPoints() {
        read.push('BulletPoints');
        return ['hands free calls'];
      },
      get Description() {
        read.push('Description');
        return '';
      },
    };
    expect(getAttributeReward(watched, { attributes: ['noise cancelling'] })).toEqual([1, 1]);
    expect(read).toEqual([]);
    // "travel" is in the title: Python's `or` stops there.
    expect(getAttributeReward(watched, { attributes: ['travel'] })).toEqual([1, 1]);
    expect(read).toEqual(['Title']);
    read.length = 0;
    // "hands free" is in a bullet; the title is lower-cased once per call, however many attributes need it.
    expect(getAttributeReward(watched, { attributes: ['hands free', 'water resistant'] })).toEqual([0.5, 1]);
    expect(read).toEqual(['Title', 'BulletPoints', 'Description']);
  });

  it('throws a typed error naming a field it needs and the product lacks (WebShop: KeyError)', () => {
    expect(() => getAttributeReward({ Attributes: [] }, { attributes: ['tea tree'] })).toThrow(
      /purchased\.Title/,
    );
    expect(() =>
      getAttributeReward({ Attributes: [], Title: '', BulletPoints: [] }, { attributes: ['tea tree'] }),
    ).toThrow(/purchased\.Description/);
  });

  it("reads one BulletPoints string as Python's ' '.join(string): its characters spaced out", () => {
    const p = { Attributes: [], Title: '', Description: '', BulletPoints: 'Tea tree oil' };
    // ' '.join('Tea tree oil') is 't e a   t r e e   o i l' once lower-cased: "tea tree" is not in it,
    // but a single letter or "e a" is.
    expect(getAttributeReward(p, { attributes: ['tea tree'] })).toEqual([0, 0]);
    expect(getAttributeReward(p, { attributes: ['e a', 'o'] })).toEqual([1, 2]);
    expect(
      getAttributeReward({ ...p, BulletPoints: ['Tea tree oil'] }, { attributes: ['tea tree'] }),
    ).toEqual([1, 1]);
  });
});

describe('normalizeColor and getOptionReward', () => {
  it('normalises to the first COLOR_SET word contained in the value', () => {
    expect(normalizeColor('navy blue')).toBe('blue'); // "blue" precedes "navy" in COLOR_SET
    expect(normalizeColor('peppermint')).toBe('mint');
    expect(normalizeColor('x-large')).toBe('x-large');
    expect(normalizeColor(['color', 'black'])).toBe('black');
    expect(normalizeColor(['color', 'jet black'])).toEqual(['color', 'jet black']); // tuple: element test only
  });

  it('matches colours through normalisation (human goals: a list of values)', () => {
    // "navy blue" → "blue", "dark blue" → "blue": ratio 100. "medium" vs "large": 0.
    expect(getOptionReward(['navy blue', 'medium'], ['dark blue', 'large'])).toEqual([0.5, 1]);
  });

  it('compares synthetic-goal pairs through their tuple text, as WebShop does', () => {
    // ('size', 'large') is scored as "size large"; "large" ⊂ it, so the token-set ratio is 100.
    expect(getOptionReward(['large'], [['size', 'large']])).toEqual([1, 1]);
    // "peppermint" → "mint", but the pair stays ('flavor', 'peppermint'): no shared token, so the score is
    // the plain ratio of "mint" and "flavor peppermint": 2·4 / (4 + 17) = 38.1 → 38, no match.
    expect(tokenSetRatio('mint', ['flavor', 'peppermint'])).toBe(38);
    expect(getOptionReward(['peppermint'], [['flavor', 'peppermint']])).toEqual([0, 0]);
  });

  it('returns null without goal options', () => {
    expect(getOptionReward(['black'], [])).toEqual([null, 0]);
  });

  it('passes dict goal options as pairs and lists as they are', () => {
    expect(goalOptionValues({ color: 'black', size: 'large' })).toEqual([
      ['color', 'black'],
      ['size', 'large'],
    ]);
    expect(goalOptionValues(['black'])).toEqual(['black']);
  });
});

describe('getReward', () => {
  it('combines the factors as (attrs + options + price) / (N_attr + N_opt + 1) · r_type', () => {
    const g = goal({ attributes: ['noise cancelling', 'water resistant'], goal_options: { color: 'black' } });
    // 1 of 2 attributes, 1 of 1 option, price 30 ≤ 40: (1 + 1 + 1) / 4 = 0.75, r_type 1.
    expect(getReward(product(), g, 30, { color: 'black' })).toBe(0.75);
    // Over the bound: (1 + 1 + 0) / 4 = 0.5.
    expect(getReward(product(), g, 45, { color: 'black' })).toBe(0.5);
    // Price exactly at the bound counts (≤).
    expect(getReward(product(), g, 40, { color: 'black' })).toBe(0.75);
    // Wrong option and over the bound: 1 / 4.
    expect(getReward(product(), g, 45, { color: 'white' })).toBe(0.25);
  });

  it('scales by r_type', () => {
    const g = goal({ name: 'apple banana date elder fig', query: 'q', product_category: UNRELATED_CATEGORY });
    // r_type 0.5 (see above, purchased name "apple"); all else matches: (1 + 0 + 1) / 2 · 0.5 = 0.5.
    const p = product({ name: 'apple', query: 'fruit' });
    const { reward, info } = getRewardWithInfo(p, g, 10, {});
    expect(info.r_type).toBe(0.5);
    expect(reward).toBe(0.5);
    expect(info.w_att).toBe(0.5);
    expect(info.r_option).toBeUndefined();
  });

  it('rejects a goal without a positive price bound, where WebShop would crash', () => {
    expect(() => getReward(product(), goal({ price_upper: 0 }), 1, {})).toThrow(/goal\.price_upper/);
  });

  it('stays in [0, 1] and is 1 for the goal product bought with the goal options under budget', () => {
    const pool = ['noise cancelling', 'long battery life', 'hands free', 'travel case'];
    fc.assert(
      fc.property(
        fc.subarray(pool, { minLength: 1 }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.constantFrom('black', 'white', 'navy blue'),
        (attributes, price, color) => {
          const g = goal({ attributes, goal_options: { color }, price_upper: 100 });
          const exact = getReward(product(), g, Math.min(price, 100), { color });
          expect(exact).toBe(1);
          const any = getReward(product(), g, price, { color: 'grey' });
          expect(any).toBeGreaterThanOrEqual(0);
          expect(any).toBeLessThan(1);
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });
});
