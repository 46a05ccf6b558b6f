import { describe, expect, it } from 'vitest';
import { household, householdAgent } from '../testing/household-fixture.js';
import { playEpisode, skillFor } from '../testing/play-episode.js';

// The measured requirement: the untrained agent already succeeds more often with the skill than without.
const EPISODES = 200;
const TYPES = [
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_two_obj_and_place',
] as const;

describe('skill-reading prior at initialisation', () => {
  it(`succeeds more with the skill than without on ${EPISODES} household episodes per type`, async () => {
    const agent = await householdAgent(1);
    const skills = await household.skills();
    // Task index i has family families[i % 6]: 6·EPISODES tasks give EPISODES of each type.
    const tasks = await household.load({ split: 'valid_seen', limit: 6 * EPISODES, seed: 2026 });
    const rates: Record<string, { with: number; without: number }> = {};
    for (const family of TYPES) {
      const ofType = tasks.filter((t) => t.family === family);
      expect(ofType).toHaveLength(EPISODES);
      const skill = skillFor(skills, family);
      let withSkill = 0;
      let without = 0;
      for (const task of ofType) {
        withSkill += (await playEpisode({ adapter: household, agent, task, skill, seed: `gap/${task.id}` }))
          .reward;
        without += (await playEpisode({ adapter: household, agent, task, seed: `gap/${task.id}` })).reward;
      }
      rates[family] = { with: withSkill / EPISODES, without: without / EPISODES };
    }
    console.log('success with / without the skill at initialisation', rates);
    for (const family of TYPES.slice(0, 3)) {
      const r = rates[family] as { with: number; without: number };
      expect(r.with - r.without).toBeGreaterThan(0.15);
    }
    // Pick2 needs two searches in 50 steps: the prior helps less, but still measurably (12 of 200 vs 0).
    const pick2 = rates.pick_two_obj_and_place as { with: number; without: number };
    expect(pick2.with - pick2.without).toBeGreaterThanOrEqual(0.03);
  });
});
