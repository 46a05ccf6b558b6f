import type { RejectedProposal, Skill } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import type { SkillR1ProposalAttempt } from './propose-candidates.js';
import type { SkillR1State } from './skill-r1-generation.js';
import {
  skillR1GenerationMeans,
  skillR1ProposalTotals,
  skillR1SummaryMetrics,
} from './skill-r1-summary-metrics.js';

const skill = (name: string): Skill => ({ name, description: 'Do it.', body: `1. ${name}\n` });

/** Task a scored 0.25 then 0.75; b only measured at s0 (0.5, no history kept); c never scored. */
const state: SkillR1State = {
  tasks: {
    a: {
      history: [
        { generation: 0, skill: skill('s0'), reward: 0.25 },
        { generation: 1, skill: skill('a1'), reward: 0.75 },
      ],
      previousMean: 0.5,
    },
    b: { history: [], previousMean: 0.5 },
    c: { history: [] },
  },
  // Generation 1 scored nothing: a hole.
  generationMeans: [0.4, undefined as unknown as number, 0.6],
};

describe('skillR1SummaryMetrics', () => {
  it("final_reward averages each task's latest reward, its previous mean, else 0 (golden values)", () => {
    expect(skillR1SummaryMetrics(state, ['a', 'b', 'c'])).toEqual({
      // (0.75 + 0.5 + 0) / 3
      final_reward: 1.25 / 3,
      generation_0_mean: 0.4,
      generation_2_mean: 0.6,
      tasks: 3,
    });
  });

  it('generation means under a prefix, holes left out', () => {
    expect(skillR1GenerationMeans(state, 'heldout_')).toEqual({
      heldout_generation_0_mean: 0.4,
      heldout_generation_2_mean: 0.6,
    });
    expect(skillR1GenerationMeans({ tasks: {}, generationMeans: [] })).toEqual({});
  });
});

describe('skillR1ProposalTotals', () => {
  const rejection: RejectedProposal = { reason: 'no SKILL.md in the reply', kind: 'reply' };
  const attempt = (rejections: number, error?: string): SkillR1ProposalAttempt => ({
    attempt: 0,
    seed: 1,
    requested: 4,
    accepted: 0,
    rejections: Array.from({ length: rejections }, () => rejection),
    ...(error !== undefined ? { error } : {}),
  });

  it('counts calls, failed calls, rejected proposals and fallbacks over the records', () => {
    expect(
      skillR1ProposalTotals([
        { attempts: [attempt(2), attempt(0, 'timeout'), attempt(1)], fallback: 'current-skill' },
        { attempts: [attempt(0)] },
        // Records written before attempts were stored.
        { fallback: 'no-skill' },
      ]),
    ).toEqual({ editor_calls: 4, editor_failed_calls: 1, rejected_proposals: 3, fallbacks: 2 });
    expect(skillR1ProposalTotals([])).toEqual({
      editor_calls: 0,
      editor_failed_calls: 0,
      rejected_proposals: 0,
      fallbacks: 0,
    });
  });
});
