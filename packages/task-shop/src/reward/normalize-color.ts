/**
 * WebShop's `engine/normalize.py` colour vocabulary, in its order: `normalize_color` returns the first of
 * these that occurs in the value, so order decides ties ("navy blue" → "blue").
 */
export const COLOR_SET: readonly string[] = [
  'alabaster',
  'apricot',
  'aqua',
  'ash',
  'asphalt',
  'azure',
  'banana',
  'beige',
  'black',
  'blue',
  'blush',
  'bordeaux',
  'bronze',
  'brown',
  'burgundy',
  'camel',
  'camo',
  'caramel',
  'champagne',
  'charcoal',
  'cheetah',
  'chestnut',
  'chocolate',
  'christmas',
  'coffee',
  'cognac',
  'copper',
  'coral',
  'cranberry',
  'cream',
  'crystal',
  'dark',
  'denim',
  'eggplant',
  'elephant',
  'espresso',
  'fuchsia',
  'gold',
  'granite',
  'grape',
  'graphite',
  'grass',
  'gray',
  'green',
  'grey',
  'heather',
  'indigo',
  'ivory',
  'ivy',
  'khaki',
  'lavender',
  'lemon',
  'leopard',
  'light',
  'lilac',
  'lime',
  'magenta',
  'maroon',
  'mauve',
  'merlot',
  'midnight',
  'mint',
  'mocha',
  'multicolor',
  'mushroom',
  'mustard',
  'natural',
  'navy',
  'nude',
  'olive',
  'orange',
  'peach',
  'pewter',
  'pink',
  'plum',
  'purple',
  'rainbow',
  'red',
  'rose',
  'royal',
  'rust',
  'sand',
  'sapphire',
  'seashell',
  'silver',
  'skull',
  'slate',
  'steel',
  'stone',
  'stonewash',
  'sunflower',
  'tan',
  'taupe',
  'teal',
  'tiger',
  'turquoise',
  'violet',
  'walnut',
  'wheat',
  'white',
  'wine',
  'yellow',
];

/**
 * A goal option as `get_reward` hands it to `get_option_reward`: a plain value (human goals), or a
 * `[name, value]` pair, because for synthetic goals (a dict) WebShop passes `goal_options.items()`.
 */
export type OptionValue = string | readonly [string, string];

/**
 * `normalize_color`: the first colour of COLOR_SET "in" the value, else the value unchanged. Python's `in`
 * is a substring test on a string but an element test on a tuple, so a `[name, value]` pair normalises
 * only when its name or value *is* a colour word ("black" yes, "jet black" no).
 */
export function normalizeColor(value: OptionValue): OptionValue {
  if (typeof value === 'string') {
    for (const color of COLOR_SET) if (value.includes(color)) return color;
    return value;
  }
  for (const color of COLOR_SET) if (value[0] === color || value[1] === color) return color;
  return value;
}
