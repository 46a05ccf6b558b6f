import {
  booleanOption,
  codeOption,
  integerOption,
  type OptionCheck,
  type OptionRules,
  optionCheck,
  stringOption,
} from '@skillrl/core';
import type { ShopAdapterOptions } from './shop-adapter.js';

const RULES: OptionRules<ShopAdapterOptions> = {
  catalogue: codeOption('object', 'a catalogue, e.g. await loadWebShop(files)'),
  shuffleFixedGoals: booleanOption,
  products: integerOption(1),
  maxSteps: integerOption(1),
  observationMode: stringOption(['text', 'text_rich']),
  showAttrs: booleanOption,
};

/** The shop adapter's options (`createShopAdapter`; `adapter: { name: shop, options }`). */
export const SHOP_ADAPTER_OPTIONS: readonly string[] = Object.keys(RULES);

/** Every problem with the shop adapter's options, by path: unknown names (with the one meant), wrong types. */
export const checkShopAdapterOptions: OptionCheck = optionCheck(RULES, 'shop adapter', '$.adapter.options');
