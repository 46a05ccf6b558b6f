import { createRng } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { HouseholdEnvironment, NOTHING_HAPPENS } from '../engine/household-environment.js';
import { FAMILY_LABELS, HOUSEHOLD_FAMILIES, type HouseholdFamily } from '../families.js';
import { generateGame, HOUSEHOLD_SPLITS } from '../generator/generate-game.js';
import { PlanError, planActions } from './plan-actions.js';
import { runRandomEpisode } from './random-agent.js';

describe('planActions', () => {
  it('wins 5,000 generated games across all six types and three splits within 50 steps', () => {
    const solved = new Map<string, number>();
    let longest = 0;
    const failures: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const split = HOUSEHOLD_SPLITS[i % 3] ?? 'train';
      const { game, family } = generateGame({ split, seed: 2026, index: Math.floor(i / 3) });
      const env = new HouseholdEnvironment(game);
      env.reset();
      const plan = planActions(env);
      longest = Math.max(longest, plan.length);
      let last = { reward: 0, done: false };
      for (const action of plan) {
        // Every planned action is one the agent could have picked from the admissible list.
        if (!env.admissibleActions().includes(action))
          failures.push(`${split}/${i}: "${action}" not admissible`);
        last = env.step(action);
      }
      if (last.reward !== 1 || !last.done) failures.push(`${split}/${i}: plan did not win`);
      solved.set(`${family}/${split}`, (solved.get(`${family}/${split}`) ?? 0) + 1);
    }
    expect(failures).toEqual([]);
    // 6 types × 3 splits, each well represented.
    expect(solved.size).toBe(18);
    for (const n of solved.values()) expect(n).toBeGreaterThan(250);
    expect(longest).toBeLessThanOrEqual(50);
  });

  it('plans from any mid-episode state, and leaves the environment untouched', () => {
    const rng = createRng('mid-episode');
    for (let i = 0; i < 300; i++) {
      const { game } = generateGame({ split: 'train', seed: 11, index: i });
      const env = new HouseholdEnvironment(game);
      env.reset();
      for (let k = 0; k < 10 && !env.done; k++) env.step(rng.pick(env.admissibleActions()));
      if (env.done) continue;
      const before = [env.agentLocation, env.holding, env.steps, ...env.objectIn].join(',');
      const plan = planActions(env);
      expect([env.agentLocation, env.holding, env.steps, ...env.objectIn].join(',')).toBe(before);
      const copy = env.clone({ maxSteps: 1000 });
      for (const action of plan) expect(copy.step(action).observation).not.toBe(NOTHING_HAPPENS);
      expect(copy.won).toBe(true);
    }
  });

  it('returns no actions once the game is won', () => {
    const { game } = generateGame({ split: 'train', seed: 1, index: 0 });
    const env = new HouseholdEnvironment(game);
    env.reset();
    for (const a of planActions(env)) env.step(a);
    expect(planActions(env)).toEqual([]);
  });
});

describe('runRandomEpisode', () => {
  it('rarely wins: success per type over 600 valid_seen games (reported)', () => {
    const wins = new Map<HouseholdFamily, number>();
    const n = 100;
    for (let i = 0; i < n * 6; i++) {
      const { game, family } = generateGame({ split: 'valid_seen', seed: 0, index: i });
      const episode = runRandomEpisode(new HouseholdEnvironment(game), `random/${i}`);
      expect(episode.steps).toBeLessThanOrEqual(50);
      if (episode.won) wins.set(family, (wins.get(family) ?? 0) + 1);
    }
    const table = HOUSEHOLD_FAMILIES.map(
      (f) => `${FAMILY_LABELS[f]} ${(((wins.get(f) ?? 0) / n) * 100).toFixed(0)}%`,
    );
    console.log(`random agent success, valid_seen seed 0, ${n} games per type: ${table.join(', ')}`);
    const total = [...wins.values()].reduce((a, b) => a + b, 0);
    // A random walk over ~40 actions should almost never solve a multi-step household task.
    expect(total / (n * 6)).toBeLessThan(0.2);
  });
});

describe('PlanError', () => {
  it('is thrown, recognisably, for a game the expert cannot win', () => {
    const { game } = generateGame({ split: 'train', seed: 1, index: 0 });
    // Remove every object of the goal's type: nothing left to place.
    const broken = {
      ...game,
      objects: game.objects.map((o) => (o.kind === game.goal.objectKind ? { ...o, kind: 'ghost' } : o)),
    };
    const env = new HouseholdEnvironment(broken);
    env.reset();
    let error: unknown;
    try {
      planActions(env);
    } catch (e) {
      error = e;
    }
    expect(PlanError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/no reachable/);
  });
});
