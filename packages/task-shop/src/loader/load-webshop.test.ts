import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createShopAdapter } from '../adapter/shop-adapter.js';
import { ShopEnvironment } from '../env/shop-environment.js';
import { expertActions } from '../expert/expert-actions.js';
import { webshopGoalOrder } from '../python-random/python-random.js';
import { loadWebShop, loadWebShopProducts, parsePricing } from './load-webshop.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../test-fixtures/${name}`, import.meta.url));
const FILES = {
  products: fixture('items_shuffle_fixture.json'),
  attributes: fixture('items_ins_v2_fixture.json'),
  humanInstructions: fixture('items_human_ins_fixture.json'),
};

describe('parsePricing', () => {
  it("parses WebShop's price strings", () => {
    expect(parsePricing('$12.99')).toEqual({ pricing: [12.99], Price: '$12.99' });
    expect(parsePricing('$64.98 - $80.00')).toEqual({ pricing: [64.98, 80], Price: '$64.98 to $80.0' });
    expect(parsePricing('')).toEqual({ pricing: [100], Price: '$100.0' });
    expect(parsePricing('$1,299.00')).toEqual({ pricing: [1299], Price: '$1299.0' });
  });
});

describe('loadWebShopProducts', () => {
  it('builds products as load_products does', async () => {
    const products = await loadWebShopProducts(FILES, { humanGoals: false });
    // "nan" and the repeated ASIN are dropped.
    expect(products.map((p) => p.asin)).toEqual(['B07V1CR4HS', 'B000VOHH8I', 'B08JD14GJF']);
    const [keto, perfume, shirt] = products;
    expect(keto?.Title).toBe(keto?.name);
    expect(keto?.Description).toBe('A keto friendly baking mix made from all-natural ingredients.');
    expect(keto?.BulletPoints).toHaveLength(2);
    // Option names lower-cased, values trimmed, "/" → " | ", lower-cased; a null option list is skipped.
    expect(keto?.options).toEqual({ 'flavor name': ['blueberry muffin', 'triple chocolate | cake'] });
    expect(keto?.query).toBe('keto baking mix');
    expect(keto?.Attributes).toEqual(['keto friendly', 'gluten free', 'all-natural ingredients']);
    expect(keto?.instruction_attributes).toEqual(['keto friendly', 'all-natural ingredients']);
    expect(keto?.MainImage).toBe('https://example.invalid/main.jpg');
    expect(perfume?.BulletPoints).toEqual(['Long lasting woody aquatic scent']);
    expect(perfume?.pricing).toEqual([64.98, 80]);
    expect(shirt?.Attributes).toEqual(['DUMMY_ATTR']);
    expect(shirt?.Price).toBe('$100.0');
    expect(shirt?.instruction_text).toBeNull();
  });

  it('asks for the human instructions file when human goals are wanted', async () => {
    await expect(
      loadWebShopProducts({ products: FILES.products, attributes: FILES.attributes }),
    ).rejects.toThrow(/files\.humanInstructions/);
  });

  it('names an unreadable file', async () => {
    await expect(loadWebShopProducts({ ...FILES, products: fixture('missing.json') })).rejects.toThrow(
      /files\.products/,
    );
  });
});

describe('loadWebShop', () => {
  it('builds human goals as get_human_goals does', async () => {
    const catalogue = await loadWebShop(FILES, { seed: 1, goalOrder: 'file' });
    // Three human rows; the one with no attributes is skipped.
    expect(catalogue.goals).toHaveLength(2);
    const [keto, shirt] = catalogue.goals;
    expect(keto).toMatchObject({
      asin: 'B07V1CR4HS',
      query: 'keto baking mix',
      name: 'SWEET LOGIC Keto Baking Mix | Delicious Keto Baked Goods (Triple Chocolate Cake)',
      attributes: ['keto friendly', 'all-natural ingredients'],
      goal_options: ['blueberry muffin'],
      weight: 1,
    });
    // Price 12.99: bounds above are 20, 30, 40, 50 → the larger of two is 30, 40 or 50. The final "." is stripped.
    expect(keto?.instruction_text).toMatch(
      /^I want keto friendly blueberry baking mix made from all-natural ingredients, and price lower than (30|40|50)\.00 dollars$/,
    );
    expect(shirt?.goal_options).toEqual(['b-purple-thumbhole', 'x-large']);
  });

  it('builds synthetic goals as get_synthetic_goals does', async () => {
    const catalogue = await loadWebShop(FILES, { humanGoals: false, seed: 1, goalOrder: 'file' });
    // Keto: 2 flavours → 2 goals; perfume: no options → 1 goal; the shirt has no instruction → none.
    expect(catalogue.goals.map((g) => g.asin)).toEqual(['B07V1CR4HS', 'B07V1CR4HS', 'B000VOHH8I']);
    expect(catalogue.goals[1]?.instruction_text).toMatch(
      /^i want to get some keto friendly baking mix that's made from all-natural ingredients with flavor name: triple chocolate \| cake, and price lower than \d+\.00 dollars$/,
    );
    // Attribute weights: "keto friendly" and "all-natural ingredients" appear in 2 goals each, "long lasting" in 1.
    expect(catalogue.goals[0]?.weight).toBe(0.5);
    expect(catalogue.goals[2]?.weight).toBe(1);
  });

  it("puts goals in WebShop's session order by default (random.seed(233); random.shuffle)", async () => {
    const inFileOrder = await loadWebShop(FILES, { humanGoals: false, seed: 1, goalOrder: 'file' });
    const inWebShopOrder = await loadWebShop(FILES, { humanGoals: false, seed: 1 });
    const order = webshopGoalOrder(3);
    expect(inWebShopOrder.goals).toEqual(order.map((i) => inFileOrder.goals[i]));
  });

  it('plays the real-format catalogue in the environment: the expert buys the human goal for 1.0', async () => {
    const catalogue = await loadWebShop(FILES, { seed: 1 });
    const goal = catalogue.goals[0];
    if (!goal) throw new Error('no goal');
    const env = new ShopEnvironment({ catalogue, goal });
    env.reset();
    let reward = -1;
    for (const action of expertActions(goal, catalogue)) {
      const result = env.step(action);
      if (result.done) reward = result.reward;
    }
    expect(reward).toBe(1);
  });
});

describe('an adapter over a loaded catalogue', () => {
  it("takes WebShop's split from the loaded goal order and verifies purchases", async () => {
    const catalogue = await loadWebShop(FILES, { seed: 1 });
    const adapter = createShopAdapter({ catalogue });
    // 2 goals: under 5,000, so test is the first 10 % (0 goals) and eval the next 20 % (0); train has both.
    expect(await adapter.load({ split: 'test' })).toEqual([]);
    const tasks = await adapter.load({ split: 'train' });
    expect(tasks.map((t) => t.metadata?.goalIndex)).toEqual([0, 1]);
    expect(tasks[0]?.prompt).toBe(catalogue.goals[0]?.instruction_text);
  });
});
