import { formatSkill, parseSkill, type Skill } from '@skillrl/core';

/** The family every WebShop task belongs to. */
export const SHOP_FAMILY = 'shopping';

const BODY = `# Shopping on WebShop

Actions are \`search[keywords]\` and \`click[value]\`, where the value is a button, a product id or an option
exactly as the page shows it. \`click[buy now]\` ends the episode, so everything must be chosen first.

1. Read the instruction: the product type, its attributes, each option (\`color: …\`, \`size: …\`) and the price bound.
2. Search with the product type and the key attributes; leave out the price and the option values.
3. Open the result whose title names the product type and the most attributes, and whose price is under the bound.
4. On the item page click each requested option value; check the price again.
5. Open Description or Features only when an attribute is not visible in the title.
6. If no result fits, click \`< prev\` and try the next one, or \`back to search\` with other words.
7. Click \`buy now\`. There are 15 steps in all: do not browse pages you do not need.
`;

/**
 * The starting skill: the procedure the instruction implies, written once through core's `formatSkill` and
 * read back with `parseSkill`, so it is a valid SKILL.md by construction.
 */
export function shopSkill(): Skill {
  const skill: Skill = {
    name: 'webshop-buy-matching-product',
    description:
      'Find and buy the product a WebShop instruction describes: search with its type and attributes, open the best match, choose the requested options, check the price, buy.',
    body: BODY,
    families: [SHOP_FAMILY],
  };
  return parseSkill(formatSkill(skill));
}

/** Short procedure phrases for the trainable step editor. */
export function shopStepVocabulary(): Record<string, string[]> {
  return {
    [SHOP_FAMILY]: [
      'search with the key attributes',
      'search with the product type',
      'open the best-matching result',
      'go to the next page of results',
      'go back to the results',
      'read the description',
      'read the features',
      'choose the requested options',
      'check the price is under the bound',
      'buy it',
    ],
  };
}
