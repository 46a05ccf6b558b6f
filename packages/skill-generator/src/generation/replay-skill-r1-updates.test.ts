import type { RejectedProposal, SkillCandidate, SkillUpdateContext } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { editorUpdateInput } from './editor-update.js';
import type { SkillR1ProposalAttempt } from './propose-candidates.js';
import { replaySkillR1Updates } from './replay-skill-r1-updates.js';

const candidate = (name: string): SkillCandidate => ({
  skill: { name, description: 'Do it.', body: `1. ${name}\n` },
  text: name,
});
/** A rejected reply that carries its sampled tokens (`text` tells them apart). */
const reply = (text: string): RejectedProposal => ({
  reason: 'no SKILL.md in the reply',
  kind: 'reply',
  excerpt: text,
  reply: { tokenIds: [1, 2], logProbs: [-0.5, -0.25], prompt: [{ role: 'user', content: text }] },
});
const attempt = (rejections: RejectedProposal[]): SkillR1ProposalAttempt => ({
  attempt: 0,
  seed: 1,
  requested: 2,
  accepted: 0,
  rejections,
});

describe('editorUpdateInput', () => {
  it("keeps the editor's own rows, drops a fallback's, and gathers the rejected replies that carry one", () => {
    const withoutReply: RejectedProposal = { reason: 'nothing came back', kind: 'empty' };
    const out = editorUpdateInput(
      [{ id: 'a0', fallback: false }, { id: 'b0', fallback: true }, { id: 'a1' }],
      [{ attempts: [attempt([reply('x'), withoutReply])] }, { attempts: [] }],
    );
    expect(out?.rows.map((r) => r.id)).toEqual(['a0', 'a1']);
    expect(out?.rejected).toEqual([reply('x')]);
  });

  it('nothing to learn from: only fallbacks and no rejected reply', () => {
    expect(editorUpdateInput([{ fallback: true }], [{ attempts: [] }])).toBeUndefined();
    expect(editorUpdateInput([], [])).toBeUndefined();
  });

  it('rejected replies alone are an update (a task that fell back after its replies were rejected)', () => {
    const out = editorUpdateInput([{ fallback: true }], [{ attempts: [attempt([reply('y')])] }]);
    expect(out).toEqual({ rows: [], rejected: [reply('y')] });
  });
});

describe('replaySkillR1Updates', () => {
  /** Two finished generations (completed 3) of tasks a and b, as a run directory holds them. */
  const advantages: Record<
    number,
    { taskId: string; candidate: number; advantage: number; fallback?: true }[]
  > = {
    1: [
      { taskId: 'a', candidate: 0, advantage: 0.5 },
      { taskId: 'a', candidate: 1, advantage: -0.5 },
      { taskId: 'b', candidate: 0, advantage: 0, fallback: true },
    ],
    2: [{ taskId: 'b', candidate: 1, advantage: 0.25 }],
  };
  const proposals: Record<string, { candidates: SkillCandidate[]; attempts?: SkillR1ProposalAttempt[] }> = {
    '1/a': { candidates: [candidate('a-one'), candidate('a-two')] },
    '1/b': { candidates: [candidate('b-current')], attempts: [attempt([reply('bad')])] },
    '2/a': { candidates: [] },
    '2/b': { candidates: [candidate('b-zero'), candidate('b-one')] },
  };

  function recorder() {
    const calls: { names: string[]; advantages: number[]; rejected: RejectedProposal[] }[] = [];
    return {
      calls,
      editor: {
        async update(
          candidates: readonly SkillCandidate[],
          adv: ArrayLike<number>,
          context?: SkillUpdateContext,
        ) {
          calls.push({
            names: candidates.map((c) => c.skill.name),
            advantages: Array.from(adv),
            rejected: [...(context?.rejected ?? [])],
          });
          return {};
        },
      },
    };
  }

  it('replays generations 1..completed − 1 in order, own candidates and rejected replies, as the step did', async () => {
    const { calls, editor } = recorder();
    await replaySkillR1Updates({
      completed: 3,
      taskIds: ['a', 'b'],
      readAdvantages: (g) => advantages[g],
      readProposal: (g, taskId) => proposals[`${g}/${taskId}`],
      editor,
    });
    expect(calls).toEqual([
      { names: ['a-one', 'a-two'], advantages: [0.5, -0.5], rejected: [reply('bad')] },
      { names: ['b-one'], advantages: [0.25], rejected: [] },
    ]);
  });

  it('stops at completed: a checkpoint after generation 1 replays generation 1 only', async () => {
    const { calls, editor } = recorder();
    await replaySkillR1Updates({
      completed: 2,
      taskIds: ['a', 'b'],
      readAdvantages: (g) => advantages[g],
      readProposal: (g, taskId) => proposals[`${g}/${taskId}`],
      editor,
    });
    expect(calls.map((c) => c.names)).toEqual([['a-one', 'a-two']]);
  });

  it('skips a generation without stored advantages or with nothing to learn from', async () => {
    const { calls, editor } = recorder();
    await replaySkillR1Updates({
      completed: 3,
      taskIds: ['b'],
      readAdvantages: (g) =>
        g === 1 ? undefined : [{ taskId: 'b', candidate: 0, advantage: 1, fallback: true }],
      readProposal: () => ({ candidates: [candidate('x')] }),
      editor,
    });
    expect(calls).toEqual([]);
  });

  it('a row whose candidate is not stored names it: the run directory is damaged', async () => {
    const { editor } = recorder();
    const replay = replaySkillR1Updates({
      completed: 2,
      taskIds: ['a'],
      readAdvantages: () => [{ taskId: 'a', candidate: 3, advantage: 1 }],
      readProposal: () => ({ candidates: [candidate('only')] }),
      editor,
    });
    await expect(replay).rejects.toThrow(InvalidArgumentError);
    await expect(replay).rejects.toThrow(/candidate 3 of a in generation 1 is missing/);
  });
});
