import type { GenerationRecord, Skill } from '@skillrl/core';
import { normalizeStep } from './step-index.js';
import { readNumberedSteps } from './step-skill.js';

/** Which skill the editor revises: the one the loop carries, or the one with the best pooled evidence. */
export type EditBase = 'current' | 'best';

/** A distinct skill of the history (by its numbered lines) and the evidence about it. */
export interface SkillEvidence {
  skill: Skill;
  /** Evaluations pooled: one per generation record or candidate that had these lines. */
  count: number;
  /** Mean of those evaluations' rewards. */
  mean: number;
  /** The mean shrunk toward the history's overall mean by `prior` pseudo-evaluations. */
  score: number;
}

const keyOf = (skill: Skill): string => readNumberedSteps(skill.body).map(normalizeStep).join('\n');

/**
 * Pools the history's evaluations by skill (same numbered lines, same skill): each generation's candidates
 * with their rewards, or the record's own skill and reward when it lists no candidates (generation 0's
 * s0). A skill re-proposed unchanged in several generations is measured several times, so its pooled
 * mean is steadier than one generation's two-episode score. Scores shrink toward the overall mean by
 * `prior` pseudo-evaluations, so a single lucky evaluation does not outrank a skill measured often.
 */
export function skillEvidence(history: readonly GenerationRecord[], prior = 1): SkillEvidence[] {
  const pooled = new Map<string, { skill: Skill; sum: number; count: number }>();
  let total = 0;
  let count = 0;
  for (const record of history) {
    const evaluations = record.candidates ?? [{ skill: record.skill, reward: record.reward }];
    for (const e of evaluations) {
      if (!Number.isFinite(e.reward)) continue;
      const key = keyOf(e.skill);
      const entry = pooled.get(key) ?? { skill: e.skill, sum: 0, count: 0 };
      entry.sum += e.reward;
      entry.count += 1;
      pooled.set(key, entry);
      total += e.reward;
      count += 1;
    }
  }
  const overall = count > 0 ? total / count : 0;
  return [...pooled.values()].map((p) => ({
    skill: p.skill,
    count: p.count,
    mean: p.sum / p.count,
    score: (p.sum + prior * overall) / (p.count + prior),
  }));
}

/**
 * The skill to revise. `current`: the carried skill (else the history's last). `best`: the history's skill
 * with the highest shrunk score (`skillEvidence`); ties go to the carried skill, then to the one seen first.
 */
export function chooseBaseSkill(
  base: EditBase,
  current: Skill | undefined,
  history: readonly GenerationRecord[],
  prior = 1,
): Skill | undefined {
  const carried = current ?? history[history.length - 1]?.skill;
  if (base === 'current') return carried;
  const evidence = skillEvidence(history, prior);
  if (evidence.length === 0) return carried;
  const carriedKey = carried === undefined ? undefined : keyOf(carried);
  let best = evidence[0] as SkillEvidence;
  for (const e of evidence) {
    const better = e.score > best.score + 1e-12;
    const tie = Math.abs(e.score - best.score) <= 1e-12 && keyOf(e.skill) === carriedKey;
    if (better || tie) best = e;
  }
  return best.skill;
}
