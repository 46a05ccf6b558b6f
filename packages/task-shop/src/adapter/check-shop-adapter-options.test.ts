import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { checkShopAdapterOptions, SHOP_ADAPTER_OPTIONS } from './check-shop-adapter-options.js';
import { createShopAdapter } from './shop-adapter.js';

describe('checkShopAdapterOptions', () => {
  it('names an unknown option with the one meant', () => {
    expect(checkShopAdapterOptions({ product: 100 })).toEqual([
      {
        path: '$.adapter.options.product',
        message: 'unknown option of the shop adapter; did you mean products?',
      },
    ]);
  });

  it('reports wrong types, each by path; a catalogue is given in code', () => {
    expect(
      checkShopAdapterOptions({
        products: 0,
        observationMode: 'html',
        showAttrs: 'yes',
        catalogue: 'x.json',
      }),
    ).toEqual([
      { path: '$.adapter.options.products', message: 'expected an integer >= 1, got 0' },
      {
        path: '$.adapter.options.observationMode',
        message: 'expected one of "text", "text_rich", got "html"',
      },
      { path: '$.adapter.options.showAttrs', message: 'expected true or false, got "yes"' },
      {
        path: '$.adapter.options.catalogue',
        message:
          'expected a catalogue, e.g. await loadWebShop(files) (given in code; a config file cannot hold one), got "x.json"',
      },
    ]);
  });

  it('passes a valid full set; the factory refuses what the check refuses', () => {
    const full = {
      products: 50,
      maxSteps: 10,
      observationMode: 'text_rich',
      showAttrs: true,
      shuffleFixedGoals: false,
    };
    expect(checkShopAdapterOptions(full)).toEqual([]);
    expect(SHOP_ADAPTER_OPTIONS).toEqual(expect.arrayContaining([...Object.keys(full), 'catalogue']));
    expect(createShopAdapter(full as never).name).toBe('shop');
    expect(() => createShopAdapter({ product: 100 } as never)).toThrow(ValidationError);
  });
});
