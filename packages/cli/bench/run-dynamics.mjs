// What a finished internalize run directory says about its training dynamics, for bench:paper: the
// with/without gap at each paired validation (summary.json's gapByStep, step 0 first) and each skill type's
// retirement, read from the run's validation events (each carries the curriculum state after it and the
// validation's per-type rates with their episode counts).
import { readRunStream } from '@skillrl/core';
import { mean } from './paired-stats.mjs';

/** A run's measured gaps (step 0 first) and its last / first ratio (a ratio needs a positive first gap). */
export function gapsOf(summary) {
  const gaps = (summary.gapByStep ?? [])
    .filter((v) => v.gap !== null && v.gap !== undefined)
    .map((v) => ({ step: v.step, gap: v.gap }));
  const first = gaps[0]?.gap;
  const last = gaps.at(-1)?.gap;
  return { gaps, ratio: gaps.length >= 2 && first > 0 ? last / first : Number.NaN };
}

/** Mean over runs of each validation's gap, by step; `seeds` = how many runs measured one there. */
export function gapCurve(summaries) {
  const bySteps = new Map();
  for (const summary of summaries) {
    for (const { step, gap } of gapsOf(summary).gaps) {
      const list = bySteps.get(step) ?? [];
      list.push(gap);
      bySteps.set(step, list);
    }
  }
  return [...bySteps.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, gaps]) => ({ step, gap: mean(gaps), seeds: gaps.length }));
}

/**
 * The types a run retired: the validation step at which each first appears in the curriculum's `retired`,
 * and whether that validation was all-fail for it (no success with its skill nor without: it says nothing
 * about the gap, so retiring on it is retiring on no evidence).
 */
export function retirementsOf(dir) {
  const out = [];
  let before = new Set();
  for (const e of readRunStream(dir, 'events')) {
    if (e.type !== 'validation') continue;
    const now = new Set(e.curriculum?.retired ?? []);
    for (const family of now) {
      if (before.has(family)) continue;
      const v = e.validation?.families?.[family];
      const successes = v
        ? Math.round(v.withSkill * v.withSkillEpisodes + v.withoutSkill * v.withoutSkillEpisodes)
        : Number.NaN;
      out.push({ family, step: e.step, allFail: successes === 0 });
    }
    before = now;
  }
  return out;
}
