import type { Skill, Task, Trajectory, ValidationResult } from '@skillrl/core';
import { planRollouts } from '@skillrl/rollout';
import type { EpisodeRunContext } from '../run/run-planned-episodes.js';
import type { RunSession } from '../run/run-session.js';

/**
 * Paired validation: every validation task runs `episodes` times with its family's skill and `episodes`
 * times without; success rates and episode counts per family (see `summariseValidation`).
 */
export async function pairedValidation(
  session: RunSession,
  step: number,
  tasks: readonly Task[],
  skills: Record<string, Skill>,
  episodes: number,
  seed: number,
  ctx: Omit<EpisodeRunContext, 'signal'>,
  unit = `v${step}`,
): Promise<{ validation: ValidationResult; runs: Trajectory[] }> {
  const plan = planRollouts({
    tasks,
    skills: (task) => skills[task.family],
    groupSize: 2 * episodes,
    pairing: { rho: 0.5 },
    seed,
  });
  const runs = await session.runEpisodes(plan, unit, ctx);
  return { validation: summariseValidation(step, runs), runs };
}

/**
 * Success rate and episode count per family and side. A family without a skill ran no with-skill episodes:
 * `withSkillEpisodes` is 0 and `withSkill` repeats its skill-free rate as a placeholder, so readers of rates
 * alone see a zero gap while a curriculum sees that side as no evidence.
 */
export function summariseValidation(step: number, runs: readonly Trajectory[]): ValidationResult {
  const acc = new Map<string, { w: number; wn: number; o: number; on: number }>();
  for (const t of runs) {
    let a = acc.get(t.family);
    if (!a) {
      a = { w: 0, wn: 0, o: 0, on: 0 };
      acc.set(t.family, a);
    }
    if (t.condition === 1) {
      a.wn++;
      if (t.verdict.passed) a.w++;
    } else {
      a.on++;
      if (t.verdict.passed) a.o++;
    }
  }
  const families: ValidationResult['families'] = {};
  for (const [family, a] of [...acc.entries()].sort(([x], [y]) => x.localeCompare(y))) {
    const without = a.on ? a.o / a.on : 0;
    families[family] = {
      withSkill: a.wn ? a.w / a.wn : without,
      withoutSkill: without,
      withSkillEpisodes: a.wn,
      withoutSkillEpisodes: a.on,
      episodes: a.wn + a.on,
    };
  }
  return { step, families };
}
