import { InvalidArgumentError, type Rng } from '@skillrl/core';
import type { ShopEnvironment } from '../env/shop-environment.js';

/**
 * A uniformly random admissible action; the search form is filled with one to four words of the
 * instruction. The baseline for benchmarks and smoke tests.
 */
export function randomAction(env: ShopEnvironment, rng: Rng): string {
  const actions = env.admissibleActions();
  if (actions.length === 0)
    throw new InvalidArgumentError('env', 'the episode is over (nothing is clickable); reset it');
  const choice = rng.pick(actions);
  if (choice !== 'search[<keywords>]') return choice;
  const words = env.goal.instruction_text.split(/\s+/).filter((word) => word.length > 0);
  const picked = rng.shuffle(words).slice(0, 1 + rng.int(4));
  return `search[${picked.join(' ')}]`;
}
