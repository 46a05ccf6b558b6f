import type { SkillR1Proposal, SkillR1ProposalAttempt } from './propose-candidates.js';
import type { SkillR1State } from './skill-r1-generation.js';

/**
 * `<prefix>generation_<g>_mean` for every generation that scored something (a generation without a score is
 * a hole in `generationMeans`, and has no key rather than a made-up 0).
 */
export function skillR1GenerationMeans(state: SkillR1State, prefix = ''): Record<string, number> {
  const metrics: Record<string, number> = {};
  state.generationMeans.forEach((m, g) => {
    if (m !== undefined && m !== null) metrics[`${prefix}generation_${g}_mean`] = m;
  });
  return metrics;
}

/**
 * Skill-R1's summary of a track's final state: `final_reward`, the mean over the tasks of each one's latest
 * generation reward (its previous mean when its history is empty, 0 for a task never scored), each
 * generation's mean, and the number of tasks.
 */
export function skillR1SummaryMetrics(
  state: SkillR1State,
  taskIds: readonly string[],
): Record<string, number> {
  let finalSum = 0;
  for (const id of taskIds) {
    const ts = state.tasks[id];
    const last = ts?.history[ts.history.length - 1];
    finalSum += last?.reward ?? ts?.previousMean ?? 0;
  }
  return {
    final_reward: finalSum / taskIds.length,
    ...skillR1GenerationMeans(state),
    tasks: taskIds.length,
  };
}

/**
 * What the editor cost and how it failed, over stored proposals (`onCandidates`' records, a resumed run's
 * whole history included): its calls, the calls that threw, the proposals rejected, and the tasks that fell
 * back.
 */
export function skillR1ProposalTotals(
  records: readonly {
    attempts?: readonly SkillR1ProposalAttempt[];
    fallback?: SkillR1Proposal['fallback'];
  }[],
): { editor_calls: number; editor_failed_calls: number; rejected_proposals: number; fallbacks: number } {
  let calls = 0;
  let failed = 0;
  let rejected = 0;
  let fallbacks = 0;
  for (const r of records) {
    for (const a of r.attempts ?? []) {
      calls++;
      if (a.error !== undefined) failed++;
      rejected += a.rejections.length;
    }
    if (r.fallback) fallbacks++;
  }
  return { editor_calls: calls, editor_failed_calls: failed, rejected_proposals: rejected, fallbacks };
}
