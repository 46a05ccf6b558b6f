import type { Skill, Task } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRollouts, withSkillCount } from './plan-rollouts.js';

const task = (id: string, family = 'f'): Task => ({ id, family, split: 'train', prompt: id });
const skill = (name: string): Skill => ({ name, description: name, body: `do ${name}` });

describe('withSkillCount', () => {
  it('rounds rho · n half up (hand-computed)', () => {
    // 0.5·3 = 1.5 → 2; 0.25·2 = 0.5 → 1; 0.7·10 = 7; 0.35·10 = 3.5 → 4; 0.3·5 = 1.5 → 2; 0·8 = 0; 1·8 = 8.
    expect([
      withSkillCount(0.5, 3),
      withSkillCount(0.25, 2),
      withSkillCount(0.7, 10),
      withSkillCount(0.35, 10),
      withSkillCount(0.3, 5),
      withSkillCount(0, 8),
      withSkillCount(1, 8),
    ]).toEqual([2, 1, 7, 4, 2, 0, 8]);
  });
});

describe('planRollouts', () => {
  it('builds task × condition × index groups with the paired split', () => {
    const plan = planRollouts({
      tasks: [task('a'), task('b')],
      skills: skill('s'),
      groupSize: 4,
      pairing: { rho: 0.5 },
    });
    expect(plan).toHaveLength(8);
    for (const id of ['a', 'b']) {
      const group = plan.filter((e) => e.task.id === id);
      expect(group.map((e) => e.index)).toEqual([0, 1, 2, 3]);
      expect(group.filter((e) => e.condition === 1)).toHaveLength(2);
      expect(group.every((e) => e.groupId === id && e.id === `${id}:c${e.condition}:i${e.index}`)).toBe(true);
      expect(group.every((e) => (e.condition === 1) === (e.skill?.name === 's'))).toBe(true);
    }
    expect(new Set(plan.map((e) => e.seed)).size).toBe(8);
  });

  it('is a function of the seed alone', () => {
    const make = (seed: number) =>
      planRollouts({
        tasks: [task('a')],
        skills: skill('s'),
        groupSize: 16,
        pairing: { rho: 0.5 },
        seed,
      }).map((e) => `${e.id}/${e.seed}`);
    expect(make(3)).toEqual(make(3));
    expect(make(3)).not.toEqual(make(4));
  });

  it('runs without a skill when none applies, all with it when pairing is off, and groups candidates', () => {
    const bySource = planRollouts({
      tasks: [task('a', 'x'), task('b', 'y')],
      skills: { y: skill('for-y') },
      groupSize: 2,
    });
    expect(bySource.map((e) => e.id)).toEqual(['a:c0:i0', 'a:c0:i1', 'b:c1:i0', 'b:c1:i1']);
    const candidates = planRollouts({ tasks: [task('a')], skills: [skill('p'), skill('q')], groupSize: 2 });
    expect(candidates.map((e) => [e.id, e.groupId, e.candidate, e.skill?.name])).toEqual([
      ['a:k0:c1:i0', 'a:k0', 0, 'p'],
      ['a:k0:c1:i1', 'a:k0', 0, 'p'],
      ['a:k1:c1:i0', 'a:k1', 1, 'q'],
      ['a:k1:c1:i1', 'a:k1', 1, 'q'],
    ]);
    const byFunction = planRollouts({
      tasks: [task('a')],
      skills: () => undefined,
      groupSize: 1,
      pairing: { rho: 1 },
    });
    expect(byFunction[0]?.condition).toBe(0);
  });

  it('rejects duplicate tasks and impossible sizes', () => {
    expect(() => planRollouts({ tasks: [task('a'), task('a')], groupSize: 1 })).toThrow(/appears twice/);
    expect(() => planRollouts({ tasks: [task('a')], groupSize: 0 })).toThrow(/groupSize/);
    expect(() => planRollouts({ tasks: [task('a')], groupSize: 2, pairing: { rho: 1.5 } })).toThrow(
      /pairing.rho/,
    );
  });

  it('property: every group has n episodes, withSkillCount(ρ, n) of them with the skill, ids unique', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer(),
        (tasks, n, rho, seed) => {
          const list = Array.from({ length: tasks }, (_, i) => task(`t${i}`));
          const plan = planRollouts({
            tasks: list,
            skills: skill('s'),
            groupSize: n,
            pairing: { rho },
            seed,
          });
          if (new Set(plan.map((e) => e.id)).size !== tasks * n) return false;
          return list.every(
            (t) =>
              plan.filter((e) => e.task.id === t.id && e.condition === 1).length === withSkillCount(rho, n),
          );
        },
      ),
    );
  });
});
