import type { Skill, Task, Trajectory } from '@skillrl/core';
import household from '@skillrl/task-household';
import type { SkillReadingAgent } from '../src/index.js';
import { playEpisode, skillFor } from '../src/testing/play-episode.js';

export interface TrainingBatch {
  trajectories: Trajectory[];
  advantages: number[];
}

/**
 * Eight household episodes of each task (the k-th of `tasks`, sample g seeded by `seed(task, k, g)`) with its
 * family's skill; each episode's advantage is its reward centred on its task's mean.
 */
export async function groupedEpisodes(
  agent: SkillReadingAgent,
  skills: Skill[],
  tasks: readonly Task[],
  seed: (task: Task, k: number, g: number) => string,
): Promise<TrainingBatch> {
  const trajectories: Trajectory[] = [];
  const advantages: number[] = [];
  for (const [k, task] of tasks.entries()) {
    const group: Trajectory[] = [];
    for (let g = 0; g < 8; g++) {
      group.push(
        await playEpisode({
          adapter: household,
          agent,
          task,
          skill: skillFor(skills, task.family),
          seed: seed(task, k, g),
        }),
      );
    }
    const mean = group.reduce((a, t) => a + t.reward, 0) / group.length;
    for (const t of group) {
      trajectories.push(t);
      advantages.push(t.reward - mean);
    }
  }
  return { trajectories, advantages };
}

/** 64 episodes: 8 household tasks × 8 samples with the skill, advantages centred per task. */
export async function trainingBatch(
  agent: SkillReadingAgent,
  skills: Skill[],
  seed: string,
): Promise<TrainingBatch> {
  const tasks = await household.load({ split: 'train', limit: 8, seed: 21 });
  return groupedEpisodes(agent, skills, tasks, (task, _k, g) => `${seed}/batch/${task.id}/${g}`);
}
