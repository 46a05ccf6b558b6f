import { InvalidArgumentError } from '@skillrl/core';
import type { AttributedProduct, RewardGoal } from '../product/shop-product.js';
import { tokenSetRatio } from './token-set-ratio.js';

/**
 * Python's `' '.join(x)`: a list joins its elements, but a string is an iterable of its characters, so
 * `' '.join('oil')` is `'o i l'`. WebShop's own tests pass `BulletPoints` as one string, and its reward then
 * looks for the goal attribute in the spaced-out characters (where a phrase is practically never found).
 */
function pythonSpaceJoin(value: string | readonly string[]): string {
  return typeof value === 'string' ? Array.from(value).join(' ') : value.join(' ');
}

function requireField<K extends 'Title' | 'BulletPoints' | 'Description'>(
  purchased: AttributedProduct,
  field: K,
): NonNullable<AttributedProduct[K]> {
  const value = purchased[field];
  if (value === undefined || value === null) {
    // Where WebShop raises KeyError.
    throw new InvalidArgumentError(
      `purchased.${field}`,
      `missing; it is read when no product attribute matches a goal attribute (give ${field} a value, even '' or [])`,
    );
  }
  return value as NonNullable<AttributedProduct[K]>;
}

/**
 * Port of `get_attribute_reward` → `[r_attr, num_attr_matches]`. A goal attribute matches when some product
 * attribute has token-set ratio > 85, or else when it is a substring of the lower-cased title, bullet points
 * (Python's `' '.join`) or description. As in WebShop those three fields are read lazily, in that order and only
 * for an attribute that no product attribute matched (Python's `or` short-circuits), so a product without them
 * is fine while its attributes match. Like WebShop, an empty goal attribute list divides by zero (NaN here).
 */
export function getAttributeReward(
  purchased: AttributedProduct,
  goal: Pick<RewardGoal, 'attributes'>,
): [number, number] {
  // Each text is lower-cased at most once, the first time an unmatched attribute needs it.
  let title: string | undefined;
  let bullets: string | undefined;
  let description: string | undefined;
  const inTitle = (attr: string) => {
    title ??= requireField(purchased, 'Title').toLowerCase();
    return title.includes(attr);
  };
  const inBullets = (attr: string) => {
    bullets ??= pythonSpaceJoin(requireField(purchased, 'BulletPoints')).toLowerCase();
    return bullets.includes(attr);
  };
  const inDescription = (attr: string) => {
    description ??= requireField(purchased, 'Description').toLowerCase();
    return description.includes(attr);
  };

  let matches = 0;
  for (const goalAttr of goal.attributes) {
    let matched = false;
    for (const productAttr of purchased.Attributes) {
      if (tokenSetRatio(productAttr, goalAttr) > 85) {
        matches += 1;
        matched = true;
        break;
      }
    }
    if (!matched && (inTitle(goalAttr) || inBullets(goalAttr) || inDescription(goalAttr))) {
      matches += 1;
    }
  }
  return [matches / goal.attributes.length, matches];
}
