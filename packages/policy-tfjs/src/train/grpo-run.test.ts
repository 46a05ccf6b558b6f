import type { Trajectory } from '@skillrl/core';
import { initBackend } from '@skillrl/tensor-ops';
import { describe, expect, it } from 'vitest';
import { household, householdAgent } from '../testing/household-fixture.js';
import { playEpisode, skillFor } from '../testing/play-episode.js';
import { createTfjsTrainer } from './create-tfjs-trainer.js';

describe('a short GRPO run with the skill always present', () => {
  it('raises household success on its tasks', async () => {
    await initBackend();
    const agent = await householdAgent(1);
    const skills = await household.skills();
    // One task of each of the six types; groups of 8 samples; advantages = reward − group mean.
    const tasks = await household.load({ split: 'train', limit: 6, seed: 3 });
    const trainer = createTfjsTrainer(agent, {
      lr: 0.1,
      kl: { kind: 'k3', coef: 0.001 },
      aggregation: 'seq-mean-token-mean',
    });
    const evaluate = async () => {
      let wins = 0;
      let n = 0;
      for (const task of tasks) {
        for (let k = 0; k < 20; k++) {
          const skill = skillFor(skills, task.family);
          wins += (
            await playEpisode({ adapter: household, agent, task, skill, seed: `grpo-eval/${k}/${task.id}` })
          ).reward;
          n += 1;
        }
      }
      return wins / n;
    };
    const before = await evaluate();
    const trainSuccess: number[] = [];
    for (let step = 0; step < 10; step++) {
      const trajectories: Trajectory[] = [];
      const advantages: number[] = [];
      for (const task of tasks) {
        const group: Trajectory[] = [];
        for (let g = 0; g < 8; g++) {
          const skill = skillFor(skills, task.family);
          group.push(
            await playEpisode({ adapter: household, agent, task, skill, seed: `grpo/${step}/${g}` }),
          );
        }
        const mean = group.reduce((a, t) => a + t.reward, 0) / group.length;
        for (const t of group) {
          trajectories.push(t);
          advantages.push(t.reward - mean);
        }
      }
      const metrics = await trainer.update({ trajectories, advantages });
      expect(metrics.episodes).toBe(48);
      trainSuccess.push(trajectories.reduce((a, t) => a + t.reward, 0) / trajectories.length);
    }
    const after = await evaluate();
    console.log('GRPO: eval success before', before, 'after', after, 'train success per step', trainSuccess);
    expect(after).toBeGreaterThan(before + 0.08);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(trainSuccess.slice(-3))).toBeGreaterThan(mean(trainSuccess.slice(0, 3)));
    trainer.dispose();
  });
});
