import { createRng } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { getOptionReward } from '../reward/get-option-reward.js';
import { tokenSetRatio } from '../reward/token-set-ratio.js';
import { getSyntheticGoals, PRICE_RANGE, samplePriceUpper } from './build-goals.js';
import { generateCatalogue, generateProducts } from './generate-catalogue.js';
import { PRODUCT_KINDS } from './product-kinds.js';
import { priceTag, pythonFloatText } from './product-prices.js';

describe('generateProducts', () => {
  it('is a function of the seed', () => {
    expect(generateProducts({ seed: 3, products: 50 })).toEqual(generateProducts({ seed: 3, products: 50 }));
    expect(generateProducts({ seed: 3, products: 50 })).not.toEqual(
      generateProducts({ seed: 4, products: 50 }),
    );
  });

  it("fills WebShop's product schema", () => {
    const products = generateProducts({ seed: 1, products: 200 });
    expect(products).toHaveLength(200);
    expect(new Set(products.map((p) => p.asin)).size).toBe(200);
    for (const p of products) {
      expect(p.asin).toMatch(/^B0[0-9A-Z]{8}$/);
      expect(p.Title).toBe(p.name);
      expect(p.product_category.split(' › ').length).toBeGreaterThanOrEqual(3);
      expect(p.BulletPoints.length).toBeGreaterThan(0);
      expect(
        p.pricing.length === 1 || (p.pricing.length === 2 && (p.pricing[1] ?? 0) > (p.pricing[0] ?? 0)),
      ).toBe(true);
      expect(p.Price).toBe(priceTag(p.pricing));
      expect(p.instruction_attributes?.length).toBeGreaterThan(0);
      for (const a of p.instruction_attributes ?? []) expect(p.Attributes).toContain(a);
      for (const a of p.instruction_attributes ?? []) expect(p.instruction_text).toContain(a);
    }
  });

  it('puts distractors beside products: same kind, missing some attribute or option value', () => {
    const products = generateProducts({ seed: 2, products: 300 });
    let distractors = 0;
    for (let i = 1; i < products.length; i++) {
      const [prev, cur] = [products[i - 1], products[i]];
      if (!prev || !cur || prev.query !== cur.query) continue;
      const missesAttribute = (prev.instruction_attributes ?? []).some((a) => !cur.Attributes.includes(a));
      const missesOption = Object.entries(prev.options).some(([n, vs]) =>
        vs.some((v) => !cur.options[n]?.includes(v)),
      );
      if (missesAttribute || missesOption) distractors += 1;
    }
    expect(distractors).toBeGreaterThan(50);
  });

  it('never mentions an attribute a product lacks, so substring matching cannot credit it', () => {
    const products = generateProducts({ seed: 5, products: 300 });
    for (const p of products) {
      const kind = PRODUCT_KINDS.find((k) => k.query === p.query);
      const text = [p.Title, p.Description, ...p.BulletPoints].join(' ').toLowerCase();
      for (const a of kind?.attributes ?? []) if (!p.Attributes.includes(a)) expect(text).not.toContain(a);
    }
  });

  it('keeps attribute pools apart under the reward (no pair above 85) and every option creditable', () => {
    for (const kind of PRODUCT_KINDS) {
      for (const a of kind.attributes) {
        for (const b of kind.attributes) {
          if (a !== b) {
            expect(tokenSetRatio(a, b), `${a} / ${b}`).toBeLessThanOrEqual(85);
            expect(a.includes(b), `${a} ⊃ ${b}`).toBe(false);
          }
        }
      }
      for (const [name, values] of Object.entries(kind.options)) {
        for (const v of values) expect(getOptionReward([v], [[name, v]]), `${name}: ${v}`).toEqual([1, 1]);
      }
    }
  });

  it('rejects bad sizes, naming the option', () => {
    expect(() => generateProducts({ products: 0 })).toThrow(/options\.products/);
    expect(() => generateProducts({ familySize: 0 })).toThrow(/options\.familySize/);
  });
});

describe('synthetic goals, built the WebShop way', () => {
  it('makes one goal per option combination with WebShop instruction text', () => {
    const catalogue = generateCatalogue({ seed: 9, products: 40 });
    const expected = catalogue.products.reduce(
      (n, p) => n + Object.values(p.options).reduce((m, vs) => m * vs.length, 1),
      0,
    );
    expect(catalogue.goals).toHaveLength(expected);
    for (const g of catalogue.goals) {
      const product = catalogue.byAsin.get(g.asin);
      const price = catalogue.prices.get(g.asin) ?? Number.NaN;
      expect(g.name).toBe(product?.Title);
      expect(Object.keys(g.goal_options)).toEqual(Object.keys(product?.options ?? {}).sort());
      const optionText = Object.entries(g.goal_options)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', and ');
      expect(g.instruction_text).toBe(
        `${product?.instruction_text} with ${optionText}, and price lower than ${g.price_upper.toFixed(2)} dollars`,
      );
      expect(g.price_upper).toBeGreaterThan(price);
      // One of the 2nd–4th bounds above the price (the larger of two sampled from the first four).
      const above = PRICE_RANGE.filter((p) => p > price).slice(0, 4);
      expect(above.slice(1)).toContain(g.price_upper);
      expect(g.weight).toBeGreaterThan(0);
    }
  });

  it('writes the example instruction format', () => {
    const product = generateProducts({ seed: 0, products: 1 })[0];
    if (!product) throw new Error('no product');
    product.instruction_text = 'i need a long clip-in hair extension which is natural looking';
    product.options = { color: ['dark brown'], size: ['18 inch'] };
    const [g] = getSyntheticGoals([product], new Map([[product.asin, 31.5]]), createRng(0));
    // Bounds above 31.5: 40, 50, 60, 70 → the larger of two sampled is 50, 60 or 70.
    expect(g?.instruction_text).toMatch(
      /^i need a long clip-in hair extension which is natural looking with color: dark brown, and size: 18 inch, and price lower than (50|60|70)\.00 dollars$/,
    );
  });

  it('draws no price bound when fewer than two bounds lie above the price', () => {
    expect(samplePriceUpper(985, createRng(0))).toEqual({ price_upper: 1000000, price_text: '' });
  });

  it('prints prices as Python does', () => {
    expect(pythonFloatText(100)).toBe('100.0');
    expect(pythonFloatText(12.99)).toBe('12.99');
    expect(priceTag([5.99, 10])).toBe('$5.99 to $10.0');
  });
});
