import { describe, expect, it } from 'vitest';
import { HouseholdEnvironment } from '../engine/household-environment.js';
import { HOUSEHOLD_FAMILIES } from '../families.js';
import { generateGame, HOUSEHOLD_SPLITS } from './generate-game.js';
import { goalCombos, isHeldOut } from './goal-combos.js';

/** Everything that makes one game differ from another, as text. */
function fingerprint(split: (typeof HOUSEHOLD_SPLITS)[number], seed: number, index: number): string {
  const { game } = generateGame({ split, seed, index });
  return JSON.stringify([
    game.taskText,
    game.receptacles.map((r) => r.name),
    game.objects.map((o, i) => `${o.name}@${game.init.objectIn[i]}`),
  ]);
}

describe('generateGame', () => {
  it('is a pure function of (split, seed, index)', () => {
    for (const split of HOUSEHOLD_SPLITS) {
      expect(fingerprint(split, 7, 3)).toBe(fingerprint(split, 7, 3));
      expect(fingerprint(split, 7, 3)).not.toBe(fingerprint(split, 8, 3));
    }
  });

  it('cycles the six task types with the index', () => {
    HOUSEHOLD_FAMILIES.forEach((family, i) => {
      expect(generateGame({ split: 'train', seed: 1, index: i + 6 }).game.goal.family).toBe(family);
    });
  });

  it('keeps every family in both the seen and the held-out pool', () => {
    const { seen, unseen } = goalCombos();
    for (const family of HOUSEHOLD_FAMILIES) {
      expect(seen.get(family)?.length).toBeGreaterThan(0);
      expect(unseen.get(family)?.length).toBeGreaterThan(0);
    }
  });

  it('gives disjoint splits: held-out goals only in valid_unseen, no game shared between splits', () => {
    const prints = new Map<string, string>();
    for (const split of HOUSEHOLD_SPLITS) {
      for (let index = 0; index < 300; index++) {
        const { game } = generateGame({ split, seed: 0, index });
        const target = game.goal.receptacleKind ?? game.goal.lampKind ?? '';
        expect(isHeldOut(game.goal.family, game.goal.objectKind, target)).toBe(split === 'valid_unseen');
        const print = fingerprint(split, 0, index);
        expect(prints.get(print) ?? split).toBe(split);
        prints.set(print, split);
      }
    }
  });

  it('starts every game unsolved, with the goal objects away from their target and closed containers closed', () => {
    for (let index = 0; index < 600; index++) {
      const { game } = generateGame({ split: HOUSEHOLD_SPLITS[index % 3] ?? 'train', seed: 3, index });
      const env = new HouseholdEnvironment(game);
      env.reset();
      expect(env.goalReached()).toBe(false);
      expect(env.opened.every((x) => x === 0)).toBe(true);
      const goalObjects = game.objects.filter((o) => o.kind === game.goal.objectKind);
      expect(goalObjects.length).toBeGreaterThanOrEqual(game.goal.count);
      // Names are numbered per type from 1.
      const names = new Set(game.objects.map((o) => o.name));
      expect(names.size).toBe(game.objects.length);
    }
  });

  it('rejects unknown splits and negative indices', () => {
    expect(() => generateGame({ split: 'test' as 'train', seed: 0, index: 0 })).toThrow(/split/);
    expect(() => generateGame({ split: 'train', seed: 0, index: -1 })).toThrow(/index/);
  });
});
