import type { RejectedProposal } from '@skillrl/core';
import { rejectedReplies, type SkillR1Proposal } from './propose-candidates.js';

/**
 * What Skill-R1's editor update learns from, of a generation's scored rows and its tasks' proposals: the
 * editor's own candidates only (a fallback's current skill is not something it wrote), and its rejected
 * replies (its own too: a task that fell back is where they matter most). `undefined` when there is nothing
 * to learn from, and no update is made. The generation step and the replay on resume both apply this rule,
 * so a rebuilt editor is given what the live one was.
 */
export function editorUpdateInput<Row extends { fallback?: boolean }>(
  rows: readonly Row[],
  proposals: readonly Pick<SkillR1Proposal, 'attempts'>[],
): { rows: Row[]; rejected: RejectedProposal[] } | undefined {
  const learned = rows.filter((r) => !r.fallback);
  const rejected = proposals.flatMap((p) => rejectedReplies(p));
  if (learned.length === 0 && rejected.length === 0) return undefined;
  return { rows: learned, rejected };
}
