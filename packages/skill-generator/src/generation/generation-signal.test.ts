import { createRng, type Skill, type Task, type Trajectory } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { generationSignal, identicalToParent } from './generation-signal.js';
import { createSkillR1State, runSkillR1Generation, type SkillR1Ports } from './skill-r1-generation.js';

const skill = (name: string, body = `1. ${name}\n`): Skill => ({ name, description: 'Do it.', body });
const task = (id: string): Task => ({ id, family: 'f', split: 'train', prompt: id });

describe('identicalToParent', () => {
  it('compares the SKILL.md byte for byte; no parent is never identical', () => {
    expect(identicalToParent(skill('a'), skill('a'))).toBe(true);
    expect(identicalToParent(skill('a', '1. a\n'), skill('a', '1. a \n'))).toBe(false);
    expect(identicalToParent(skill('a'), { ...skill('a'), description: 'Do it!' })).toBe(false);
    expect(identicalToParent(skill('a'), undefined)).toBe(false);
  });
});

describe('generationSignal', () => {
  const counts = { groups: 2, zeroVarianceGroups: 1, candidates: 6, identicalCandidates: 2, fallbacks: 0 };
  it('carries signal when candidates differ, some groups vary, and the update moved', () => {
    expect(generationSignal(counts, { grad_norm: 0.3 }).void).toBeUndefined();
    expect(generationSignal(counts, undefined).void).toBeUndefined();
  });
  it('is void, saying why, for each way a generation teaches nothing', () => {
    expect(generationSignal({ ...counts, identicalCandidates: 6 }, undefined).void).toMatch(
      /every candidate was byte-identical.*6 of 6/,
    );
    expect(generationSignal({ ...counts, zeroVarianceGroups: 2 }, undefined).void).toMatch(/scored alike/);
    expect(generationSignal(counts, { grad_norm: 0 }).void).toMatch(/update was zero/);
    expect(generationSignal({ ...counts, groups: 0 }, undefined).void).toMatch(/every rollout errored/);
    expect(
      generationSignal({ ...counts, candidates: 0, identicalCandidates: 0, fallbacks: 2 }, undefined).void,
    ).toMatch(/every task fell back/);
  });
});

describe('a generation whose editor returns its input', () => {
  it('is void: every candidate byte-identical to its parent, counted per task', async () => {
    const tasks = [task('a'), task('b')];
    const state = createSkillR1State(tasks);
    for (const t of tasks) state.tasks[t.id] = { history: [], current: skill(`start-${t.id}`) };
    let episode = 0;
    const ports: SkillR1Ports = {
      // The editor hands back the skill it was given, K times.
      propose: async (context, n) =>
        Array.from({ length: n }, () => ({
          skill: context.currentSkill as Skill,
          text: (context.currentSkill as Skill).body,
        })),
      runEpisodes: async (request) =>
        request.tasks.flatMap((t) => {
          const list = request.skills(t);
          const skills = Array.isArray(list) ? list : [list];
          return skills.flatMap((s, k) =>
            Array.from({ length: request.groupSize }, (_, i): Trajectory => {
              const reward = (episode++ % 3) / 2;
              return {
                id: `${t.id}:k${k}:i${i}`,
                taskId: t.id,
                family: 'f',
                condition: s ? 1 : 0,
                candidate: k,
                generation: request.generation,
                steps: [{ index: 0, observation: 'o', action: 'x', reward, done: true }],
                reward,
                verdict: { score: reward, passed: reward === 1 },
              };
            }),
          );
        }),
      estimate: (batch) => ({ advantages: new Float64Array(batch.scores.length), metrics: {} }),
    };
    const result = await runSkillR1Generation(
      {
        generation: 1,
        tasks,
        state,
        candidates: 3,
        episodes: 2,
        lambda: 1,
        interGeneration: true,
        carry: 'best',
        train: false,
        initialSkill: () => undefined,
        rng: createRng(3),
        unit: 'g1',
      },
      ports,
    );
    expect(result.signal).toMatchObject({ candidates: 6, identicalCandidates: 6, fallbacks: 0 });
    expect(result.signal?.void).toMatch(/byte-identical/);
    expect(result.tasks.map((t) => t.signal?.identicalCandidates)).toEqual([3, 3]);
  });
});
