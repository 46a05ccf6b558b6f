/**
 * WebShop's own reward tests, replayed on the port: every case of `tests/web-agent-site/engine/test_goal.py` in
 * princeton-nlp/WebShop (unchanged since its first commit, 61e56db; read at 64fa2a5), in its order, with its
 * inputs and its tolerances (`isclose(…, abs_tol=1e-2)`). The file has 24 cases (36 `assert` statements); each
 * `it` below is one case and names the original test function and the comment that introduces the case there,
 * plus one test that pins the port's own value where it differs. Like the original, a case starts from the
 * previous case's (mutated) inputs.
 */
import { describe, expect, it } from 'vitest';
import { getAttributeReward } from './get-attribute-reward.js';
import { getOptionReward } from './get-option-reward.js';
import { getReward } from './get-reward.js';
import { getTypeReward } from './get-type-reward.js';

/** Python's `math.isclose(a, b, abs_tol=tol)` with the default rel_tol = 1e-9 (negligible here). */
function isclose(a: number, b: number, absTol: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-9 * Math.max(Math.abs(a), Math.abs(b)), absTol);
}

describe('test_goal.py › test_get_type_reward', () => {
  const goal = { query: 'Query 1', product_category: 'a › b › c', name: 'Name 1' };
  const purchased = { query: 'Query 1', product_category: 'a › b › c', name: 'Name 1' };

  it('Exact Match', () => {
    const result = getTypeReward(purchased, goal);
    expect(result.r_type).toBe(1);
    expect(result.query_match).toBe(true);
    expect(result.category_match).toBe(true);
    expect(result.title_score).toBe(1);
  });

  it('Query Mismatch', () => {
    purchased.query = 'Query 2';
    expect(getTypeReward(purchased, goal).query_match).toBe(false);
  });

  // "Out of order / non-matching / partially matching / duplicate categories": five cases.
  it.each([
    ['b › c › a', true],
    ['d › e › f', false],
    ['a › d › b', true],
    ['a › a › b', true],
    ['a › a › d', false],
  ] as const)('category %s → category_match %s', (category, expected) => {
    purchased.product_category = category;
    expect(getTypeReward(purchased, goal).category_match).toBe(expected);
  });

  const SIMILAR_GOAL = 'Mens D.O.N. Issue 2 Gca Basketball Sneakers Shoes Casual - Off White';
  const SIMILAR_PURCHASED =
    'PEAK High Top Mens Basketball Shoes Lou Williams Streetball Master Breathable Non Slip Outdoor Sneakers';

  // KNOWN DIFFERENCE (README, "Nouns"): the one WebShop case the port does not reproduce. WebShop's 0.333 is
  // 3 shared of 9 goal nouns, so spaCy must tag one of mens / basketball / shoes / sneakers as a non-noun in the
  // purchased name; winkNLP (and every npm tagger we measured) tags all four as nouns in both: 4/9 = 0.444.
  // `it.fails` keeps WebShop's assertion and tolerance as they are, and turns red if a tagger change fixes it.
  it.fails('Similar product names (title_score ≈ 0.333 ± 0.01)', () => {
    const score = getTypeReward(
      { ...purchased, name: SIMILAR_PURCHASED },
      { ...goal, name: SIMILAR_GOAL },
    ).title_score;
    expect(isclose(score, 0.333, 1e-2), `title_score ${score}`).toBe(true);
  });

  it('Similar product names: what the port gives instead (4 shared of 9 goal nouns)', () => {
    goal.name = SIMILAR_GOAL;
    purchased.name = SIMILAR_PURCHASED;
    expect(getTypeReward(purchased, goal).title_score).toBe(4 / 9);
  });

  it('Slightly similar product names (title_score ≈ 0.3 ± 0.01)', () => {
    goal.name =
      'Saireed UL Listed 2 Prong Power Cord for JBL Bar 3.1 Bar 2.1 Channel 4K Ultra HD Soundbar Home Theater System Subwoofer';
    purchased.name =
      'BRST AC Power Cord Outlet Socket Cable Plug Lead for Panasonic SC-HT830V DVD/VCR Combo Home Theater System';
    // winkNLP: 5 shared (power, cord, home, theater, system) of 17 goal nouns = 0.294.
    const score = getTypeReward(purchased, goal).title_score;
    expect(isclose(score, 0.3, 1e-2), `title_score ${score}`).toBe(true);
  });

  it('Slightly similar product names, shorter goal name (title_score ≈ 0.15 ± 0.01)', () => {
    goal.name = 'Saireed UL Listed 2 Prong Power Cord for JBL Bar 3.1 Bar 2.1 Channel 4K Ultra HD Soundbar';
    purchased.name =
      'BRST AC Power Cord Outlet Socket Cable Plug Lead for Panasonic SC-HT830V DVD/VCR Combo Home Theater System';
    // winkNLP: 2 shared (power, cord) of 13 goal nouns = 0.154.
    const score = getTypeReward(purchased, goal).title_score;
    expect(isclose(score, 0.15, 1e-2), `title_score ${score}`).toBe(true);
  });

  it('Completely different product names (title_score < 0.05)', () => {
    goal.name = 'Rusticware 921ORB Kitchen and Bath Cabinet Knob';
    purchased.name =
      'Minkissy 2pcs Stainless Steel Eyebrow Tweezers Blackhead Acne Remover Portable Makeup Tweezers (Silver)';
    expect(getTypeReward(purchased, goal).title_score).toBeLessThan(0.05);
  });
});

describe('test_goal.py › test_get_attribute_reward', () => {
  const goalAttributes = ['tea tree', 'essential oils', 'natural ingredients'];

  it('Exact Match (the product has no Title, BulletPoints or Description: every attribute matches fuzzily)', () => {
    const purchased = { Attributes: ['tea tree', 'essential oil', 'natural ingredients'] };
    const [r_attr, num_attr_matches] = getAttributeReward(purchased, { attributes: goalAttributes });
    expect(r_attr).toBe(1);
    expect(num_attr_matches).toBe(3);
  });

  it('Partial Match', () => {
    const purchased = {
      Attributes: ['essential oil', 'natural ingredients'],
      Title: '',
      BulletPoints: [],
      Description: '',
    };
    const [r_attr, num_attr_matches] = getAttributeReward(purchased, { attributes: goalAttributes });
    expect(r_attr).toBe(2 / 3);
    expect(num_attr_matches).toBe(2);
  });

  it('Goal attributes found in purchased non-goals', () => {
    const purchased = {
      Attributes: [],
      Title: '',
      BulletPoints: ['This shampoo has essential oils and smells like lemons'],
      Description: 'Best shampoo on the market, made with natural ingredients',
    };
    const [r_attr, num_attr_matches] = getAttributeReward(purchased, { attributes: goalAttributes });
    expect(r_attr).toBe(2 / 3);
    expect(num_attr_matches).toBe(2);
  });

  it('No match', () => {
    const purchased = {
      Attributes: ['tea bag', 'earl gray', 'lipton'],
      Title: 'English tea for breakfast',
      BulletPoints: ['Soothing aroma', 'Calming, great feeling'],
      Description: 'Best tea made by Lipton, great to pair with breakfast',
    };
    const [r_attr, num_attr_matches] = getAttributeReward(purchased, { attributes: goalAttributes });
    expect(r_attr).toBe(0);
    expect(num_attr_matches).toBe(0);
  });
});

describe('test_goal.py › test_get_option_reward', () => {
  it('Exact Match', () => {
    const goal = ['grey', 'XL', 'pack of 12'];
    const [r_option, matches] = getOptionReward(['pack of 12', 'grey', 'XL'], goal);
    expect(matches).toBe(goal.length);
    expect(r_option).toBe(1);
  });

  it('Partial Match', () => {
    const goal = ['grey', 'XL', 'pack of 12'];
    const [r_option, matches] = getOptionReward(['pack of 12', 'blue', 'XL'], goal);
    expect(matches).toBe(goal.length - 1);
    expect(r_option).toBe(2 / 3);
  });

  it('Fuzzy Match', () => {
    const goal = ['cool powder snow', 'XL', 'pack of 12'];
    const [r_option, matches] = getOptionReward(['pack of 12', 'powder snow', 'XL'], goal);
    expect(matches).toBe(goal.length);
    expect(r_option).toBe(1);
  });

  it('Empty Goal Options', () => {
    const [r_option, matches] = getOptionReward(['goal 1', 'goal 2'], []);
    expect(matches).toBe(0);
    expect(r_option).toBeNull();
  });

  it('Empty Purchased Options', () => {
    const [r_option, matches] = getOptionReward([], ['goal 1', 'goal 2']);
    expect(matches).toBe(0);
    expect(r_option).toBe(0);
  });
});

describe('test_goal.py › test_get_reward', () => {
  const goal: {
    query: string;
    product_category: string;
    name: string;
    attributes: string[];
    goal_options: Record<string, string>;
    price_upper: number;
  } = {
    query: 'Query 1',
    product_category: 'a › b › c',
    name: 'Mens D.O.N. Issue 2 Gca Basketball Sneakers Shoes Casual - Off White',
    attributes: ['tea tree', 'essential oils', 'natural ingredients'],
    goal_options: { color: 'grey', size: 'XL' },
    price_upper: 40.0,
  };
  const purchased: {
    query: string;
    product_category: string;
    name: string;
    Attributes: string[];
    Title: string;
    BulletPoints: string | string[];
    Description: string;
    goal_options: Record<string, string>;
  } = {
    query: 'Query 1',
    product_category: 'a › b › c',
    name: 'Mens D.O.N. Issue 2 Gca Basketball Sneakers Shoes Casual - Off White',
    Attributes: ['tea tree', 'essential oil', 'natural ingredients'],
    Title: '',
    BulletPoints: [],
    Description: '',
    goal_options: { color: 'grey', size: 'XL' },
  };

  it('Exact Match', () => {
    expect(getReward(purchased, goal, 35, purchased.goal_options)).toBe(1);
  });

  it('Variation in r_attributes reward (BulletPoints is a string: Python joins its characters)', () => {
    purchased.Attributes = [];
    purchased.Title = '';
    purchased.BulletPoints = 'This shampoo has essential oils and smells like lemons';
    purchased.Description = 'Best shampoo on the market, made with natural ingredients';
    // ' '.join(str) spaces out the characters, so "essential oils" is not found there; "natural ingredients" is in
    // the description. Options ('color', 'grey') and ('size', 'XL') both match, price 35 ≤ 40:
    // (1 + 2 + 1) / (3 + 2 + 1) = 2/3, r_type 1 (same name).
    const reward = getReward(purchased, goal, 35, purchased.goal_options);
    expect(isclose(reward, 2 / 3, 1e-2), `reward ${reward}`).toBe(true);
  });

  it('Variation in r_option reward', () => {
    goal.goal_options = { color: 'grey', size: 'XL', amount: 'pack of 12' };
    // (1 + 2 + 1) / (3 + 3 + 1) = 4/7 ≈ 0.5714.
    const reward = getReward(purchased, goal, 35, purchased.goal_options);
    expect(isclose(reward, 0.5714, 1e-2), `reward ${reward}`).toBe(true);
  });

  it('Variation in r_type reward', () => {
    goal.name = 'Saireed UL Listed 2 Prong Power Cord for JBL Bar 3.1 Bar 2.1 Channel 4K Ultra HD Soundbar';
    purchased.name =
      'BRST AC Power Cord Outlet Socket Cable Plug Lead for Panasonic SC-HT830V DVD/VCR Combo Home Theater System';
    purchased.query = 'Query 2';
    purchased.product_category = 'a › d › e';
    // No query or category match and title_score in [0.1, 0.2]: r_type 0.5, so 4/7 · 0.5 ≈ 0.2857.
    const reward = getReward(purchased, goal, 35, purchased.goal_options);
    expect(isclose(reward, 0.2857, 1e-2), `reward ${reward}`).toBe(true);
  });
});
