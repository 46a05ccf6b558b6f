import { createRng } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { generateCatalogue } from '../catalogue/generate-catalogue.js';
import { priceTag } from '../catalogue/product-prices.js';
import { buildCatalogue } from '../catalogue/shop-catalogue.js';
import { randomAction } from '../expert/random-action.js';
import type { ShopGoal, ShopProduct } from '../product/shop-product.js';
import { getReward } from '../reward/get-reward.js';
import { parseAction } from './parse-action.js';
import { ShopEnvironment } from './shop-environment.js';

function item(
  asin: string,
  title: string,
  pricing: number[],
  options: Record<string, string[]> = {},
): ShopProduct {
  return {
    asin,
    name: title,
    Title: title,
    Description: `About ${title}.`,
    BulletPoints: [`${title} feature one`, 'feature two'],
    Attributes: ['natural looking'],
    options,
    pricing,
    Price: priceTag(pricing),
    query: 'hair extensions',
    category: 'beauty',
    product_category: 'Beauty & Personal Care › Hair Care › Hair Extensions',
    Rating: 'N.A.',
    Reviews: [],
  };
}

const HAIR = item('B000000001', 'Long Clip-in Hair Extension Natural Looking', [19.99], {
  color: ['dark brown', 'ash blonde'],
  size: ['14 inch', '18 inch'],
});
const FILLER = Array.from({ length: 12 }, (_, i) =>
  item(`B0000001${String(i).padStart(2, '0')}`, `Hair Extension Set ${i}`, [10, 20]),
);
const OTHER = {
  ...item('B000000002', 'Bluetooth Speaker', [30]),
  query: 'speakers',
  category: 'electronics',
};
const GOAL: ShopGoal = {
  asin: HAIR.asin,
  category: 'beauty',
  query: 'hair extensions',
  name: HAIR.Title,
  product_category: HAIR.product_category,
  instruction_text:
    'i need a long clip-in hair extension which is natural looking with color: dark brown, and size: 18 inch, and price lower than 40.00 dollars',
  attributes: ['natural looking'],
  price_upper: 40,
  goal_options: { color: 'dark brown', size: '18 inch' },
  weight: 1,
};

function catalogue() {
  const products = [HAIR, OTHER, ...FILLER];
  return buildCatalogue(products, new Map(products.map((p) => [p.asin, p.pricing[0] ?? 100])), [GOAL]);
}

const INSTRUCTION = `Instruction: [SEP] ${GOAL.instruction_text}`;

describe('parseAction', () => {
  it("follows WebShop's (.+)\\[(.+)\\] at the start", () => {
    expect(parseAction('search[red shoes]')).toEqual({ name: 'search', arg: 'red shoes' });
    expect(parseAction('click[< prev]')).toEqual({ name: 'click', arg: '< prev' });
    // Greedy, as in Python: the name runs to the last "[" that still leaves "x]" after it.
    expect(parseAction('search[a [b]]')).toEqual({ name: 'search[a ', arg: 'b]' });
    expect(parseAction('buy')).toEqual({ name: 'buy', arg: null });
    expect(parseAction('click[]')).toEqual({ name: 'click[]', arg: null });
  });
});

describe('ShopEnvironment', () => {
  it('starts on the search page with a search form', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL });
    expect(env.maxSteps).toBe(15);
    expect(env.reset()).toBe(`WebShop [SEP] ${INSTRUCTION} [SEP] Search`);
    expect(env.admissibleActions()).toEqual(['search[<keywords>]']);
  });

  it('lists results 10 a page with prev/next, as WebShop lays them out', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL });
    env.reset();
    const first = env.step('search[Hair Extension]');
    expect(first.reward).toBe(0);
    expect(first.done).toBe(false);
    // 13 products mention hair extension: page 1 shows 10 and a Next button, no Prev.
    expect(
      first.observation.startsWith(
        `${INSTRUCTION} [SEP] Back to Search [SEP] Page 1 (Total results: 13) [SEP] Next > [SEP] `,
      ),
    ).toBe(true);
    expect(first.observation.split(' [SEP] ').filter((s) => /^B0\d{8}$/.test(s))).toHaveLength(10);
    expect(env.admissibleActions()).toContain('click[next >]');
    expect(env.admissibleActions()).not.toContain('click[< prev]');
    expect(env.admissibleActions()).not.toContain('search[<keywords>]');
    const second = env.step('click[next >]');
    expect(second.observation).toContain('Page 2 (Total results: 13) [SEP] < Prev [SEP] ');
    expect(second.observation).not.toContain('Next >');
    expect(second.observation.split(' [SEP] ').filter((s) => /^B0\d{8}$/.test(s))).toHaveLength(3);
    // The long-titled product scores lower on a two-word query (longer document), so it is on page 2.
    expect(second.observation).toContain(`[SEP] ${HAIR.asin} [SEP] ${HAIR.Title} [SEP] $19.99`);
    expect(env.step('click[< prev]').observation).toBe(first.observation);
  });

  it('shows the item page with options, then records chosen options and buys with the reward', () => {
    const cat = catalogue();
    const env = new ShopEnvironment({ catalogue: cat, goal: GOAL });
    env.reset();
    env.step('search[long clip-in hair extension natural looking]');
    const page = env.step(`click[${HAIR.asin.toLowerCase()}]`);
    expect(page.observation).toBe(
      `${INSTRUCTION} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] dark brown [SEP] ash blonde [SEP] size [SEP] 14 inch [SEP] 18 inch [SEP] ${HAIR.Title} [SEP] Price: $19.99 [SEP] Rating: N.A. [SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now`,
    );
    expect(env.admissibleActions()).toEqual([
      'click[back to search]',
      'click[< prev]',
      'click[dark brown]',
      'click[ash blonde]',
      'click[14 inch]',
      'click[18 inch]',
      'click[description]',
      'click[features]',
      'click[reviews]',
      'click[buy now]',
    ]);
    env.step('click[dark brown]');
    expect(env.step('click[features]').observation).toBe(
      `${INSTRUCTION} [SEP] Back to Search [SEP] < Prev [SEP] ${HAIR.Title} feature one [SEP] feature two`,
    );
    expect(env.step('click[< prev]').observation).toBe(page.observation);
    env.step('click[18 inch]');
    const bought = env.step('click[buy now]');
    expect(bought.done).toBe(true);
    // Everything matches: (1 attribute + 2 options + price) / 4 · 1 = 1.
    expect(bought.reward).toBe(1);
    expect(bought.reward).toBe(getReward(HAIR, GOAL, 19.99, { color: 'dark brown', size: '18 inch' }));
    expect(bought.info?.purchase).toEqual({
      asin: HAIR.asin,
      options: { color: 'dark brown', size: '18 inch' },
      price: 19.99,
    });
    expect(bought.observation).toBe(
      'Thank you for shopping with us! [SEP] Your score (min 0.0, max 1.0) [SEP] 1',
    );
    expect(env.step('click[buy now]')).toMatchObject({ done: true, reward: 0 });
    expect(env.admissibleActions()).toEqual([]);
    expect(() => randomAction(env, createRng(0))).toThrow(/episode is over/);
  });

  it('buys without options for a partial reward', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL });
    env.reset();
    env.step('search[clip-in]');
    env.step(`click[${HAIR.asin.toLowerCase()}]`);
    // (1 attribute + 0 options + price) / 4 = 0.5.
    expect(env.step('click[buy now]').reward).toBe(0.5);
  });

  it('ignores what WebShop ignores: unknown actions, clicks on nothing, click[search], empty searches', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL });
    const start = env.reset();
    for (const action of ['look', 'click[buy now]', 'click[search]', 'search[]', 'click[b000000001]']) {
      const result = env.step(action);
      expect(result, action).toMatchObject({
        observation: start,
        reward: 0,
        done: false,
        info: { valid: false },
      });
    }
  });

  it('searches from any page, as WebShop does, and back to search resets the session', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL });
    env.reset();
    env.step('search[speaker]');
    env.step('click[b000000002]');
    expect(env.step('search[speaker]').observation).toContain('Page 1 (Total results: 1)');
    expect(env.step('click[back to search]').observation).toBe(`WebShop [SEP] ${INSTRUCTION} [SEP] Search`);
  });

  it('renders text_rich with button markers and clicked options', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL, observationMode: 'text_rich' });
    env.reset();
    const list = env.step('search[speaker]');
    expect(list.observation).toContain('[button] Back to Search [button_]\n');
    expect(list.observation).toContain('\n[button] B000000002 [button_]\n');
    env.step('search[clip-in]');
    env.step('click[b000000001]');
    const chosen = env.step('click[ash blonde]');
    expect(chosen.observation.startsWith('You have clicked ash blonde.\n')).toBe(true);
    expect(chosen.observation).toContain('  [clicked button] ash blonde [clicked button_]\n');
    expect(chosen.observation).toContain('  [button] dark brown [button_]\n');
  });

  it('marks product links opened earlier in the session (text_rich)', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL, observationMode: 'text_rich' });
    env.reset();
    env.step('search[speaker]');
    env.step('click[b000000002]');
    const back = env.step('click[< prev]');
    expect(back.observation).toContain('\n[clicked button] B000000002 [clicked button_]\n');
  });

  it('is deterministic: the same seed and actions give the same episode', () => {
    const run = () => {
      const cat = generateCatalogue({ seed: 11, products: 120 });
      const goal = cat.goals[5] as ShopGoal;
      const env = new ShopEnvironment({ catalogue: cat, goal });
      const rng = createRng(11).fork('agent');
      const trace = [env.reset()];
      for (let i = 0; i < env.maxSteps; i++) {
        const action = randomAction(env, rng);
        const result = env.step(action);
        trace.push(action, result.observation, String(result.reward));
        if (result.done) break;
      }
      return trace;
    };
    expect(run()).toEqual(run());
  });

  it('supports the <r>, <c> and <q> search forms', () => {
    const env = new ShopEnvironment({ catalogue: catalogue(), goal: GOAL, seed: 1 });
    env.reset();
    expect(env.step('search[<q> hair extensions]').observation).toContain('(Total results: 13)');
    expect(env.step('search[<c> beauty]').observation).toContain('(Total results: 13)');
    expect(env.step('search[<c> electronics]').observation).toContain('(Total results: 1)');
    expect(env.step('search[<r>]').observation).toContain('(Total results: 14)');
  });
});
