import { createRng, type Seed } from '@skillrl/core';
import type { HouseholdEnvironment } from '../engine/household-environment.js';

export interface RandomEpisode {
  won: boolean;
  steps: number;
}

/** One episode of uniformly random admissible actions: the floor any learned agent should beat. */
export function runRandomEpisode(env: HouseholdEnvironment, seed: Seed): RandomEpisode {
  const rng = createRng(seed);
  env.reset();
  let steps = 0;
  for (;;) {
    const actions = env.admissibleActions();
    const result = env.step(actions[rng.int(actions.length)] as string);
    steps++;
    if (result.done) return { won: env.won, steps };
  }
}
