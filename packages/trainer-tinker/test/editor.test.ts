import type { ChatMessage, RejectedProposal, SkillCandidate, SkillGenerator } from '@skillrl/core';
import { TINY_EDITOR_MODEL, tinyChatDir } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import { createTinkerEditorParts } from '../src/index.js';
import { fake } from './support.js';

const messages: ChatMessage[] = [
  { role: 'system', content: 'write a skill .' },
  { role: 'user', content: 'task : what color is the sky ?' },
];

describe('the trainable editor on Tinker', () => {
  it('proposes through the Tinker chat model (n samples, token ids, log-probs) and trains on its own tokens', async () => {
    const server = await fake();
    const parts = createTinkerEditorParts({
      baseURL: server.url,
      baseModel: TINY_EDITOR_MODEL,
      tokenizer: tinyChatDir(),
      loraRank: 4,
      seed: 2,
      maxTokens: 8,
      learningRate: 0.3,
      futures: { pollIntervalMs: 1 },
    });
    const reply = await parts.model.complete({ messages, n: 4, seed: 9 });
    expect(reply.choices).toHaveLength(4);
    for (const choice of reply.choices) {
      expect(choice.text.startsWith('# answer')).toBe(true);
      expect(choice.logProbs).toHaveLength(choice.tokenIds!.length);
    }
    // A stand-in for the LLM editor: the candidates carry its prompt, as createLlmSkillEditor's do.
    const stub: SkillGenerator = {
      name: 'stub',
      propose: async () =>
        reply.choices.map((c) => ({
          skill: { name: 'sky', description: 'd', body: c.text },
          text: c.text,
          tokenIds: c.tokenIds!,
          logProbs: c.logProbs!,
          info: { prompt: messages },
        })),
    };
    const editor = parts.train(stub);
    const candidates = (await editor.propose(
      { task: { id: 't', family: 'sky', split: 'train', prompt: 'p' }, generation: 1, history: [] },
      4,
    )) as SkillCandidate[];
    const rewards = candidates.map((c) => (c.text.includes('blue') ? 1 : 0));
    const mean = rewards.reduce((a: number, b) => a + b, 0) / rewards.length;
    const metrics = await editor.update(
      candidates,
      rewards.map((r) => r - mean + 0.01),
    );
    expect(metrics).toMatchObject({ update: 1, candidates: 4 });
    expect(server.trainingRuns()[0]?.updates).toHaveLength(1);
    const state = editor.toJSON();
    expect(state.samplerPath).toContain('skillrl-000001');
    await expect(editor.update([{ ...candidates[0]!, info: {} }], [1])).rejects.toThrow(/candidates\[0\]/);
    expect(() =>
      createTinkerEditorParts({
        baseURL: server.url,
        baseModel: TINY_EDITOR_MODEL,
        tokenizer: tinyChatDir(),
        loss: 'nope' as never,
      }),
    ).toThrow(/loss/);
  });

  it('credits every reply: one that became no candidate gets invalidReplyAdvantage, a repaired one pays repairPenalty', async () => {
    const server = await fake();
    const parts = createTinkerEditorParts({
      baseURL: server.url,
      baseModel: TINY_EDITOR_MODEL,
      tokenizer: tinyChatDir(),
      loraRank: 4,
      seed: 2,
      maxTokens: 8,
      learningRate: 0.1,
      invalidReplyAdvantage: -0.75,
      repairPenalty: 0.25,
      futures: { pollIntervalMs: 1 },
    });
    // A stand-in for the LLM editor: it samples 6 replies and keeps those naming black; the others are what an
    // editor rejects (no SKILL.md in them), reported through onReject with their sampled tokens, as the LLM
    // editor does. The first kept one it repaired.
    const stub: SkillGenerator = {
      name: 'stub',
      propose: async (context, n) => {
        const reply = await parts.model.complete({ messages, n: 6, seed: 11 });
        for (const c of reply.choices.filter((c) => !c.text.includes('black'))) {
          context.onReject?.({
            kind: 'reply',
            reason: 'no SKILL.md in the reply',
            reply: { tokenIds: c.tokenIds!, logProbs: c.logProbs!, prompt: messages },
          });
        }
        return reply.choices
          .filter((c) => c.text.includes('black'))
          .slice(0, n)
          .map((c, i) => ({
            skill: { name: 'sky', description: 'd', body: c.text },
            text: c.text,
            tokenIds: c.tokenIds!,
            logProbs: c.logProbs!,
            info: { prompt: messages },
            ...(i === 0 ? { repaired: 'added frontmatter' } : {}),
          }));
      },
    };
    const editor = parts.train(stub);
    const task = { id: 't', family: 'sky', split: 'train' as const, prompt: 'p' };
    const proposeWithRejections = async (generation: number) => {
      const rejected: RejectedProposal[] = [];
      const out = (await editor.propose(
        { task, generation, history: [], onReject: (r) => rejected.push(r) },
        6,
      )) as SkillCandidate[];
      return { candidates: out, rejected };
    };
    const { candidates, rejected } = await proposeWithRejections(1);
    const kept = candidates.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(6);
    const before = server.requests.length;
    const metrics = await editor.update(
      candidates,
      candidates.map(() => 0.5),
      { rejected },
    );
    expect(metrics).toMatchObject({ candidates: kept, invalid_replies: 6 - kept, repaired: 1, datums: 6 });
    const sent = server.requests
      .slice(before)
      .filter((r) => r.route === 'forward_backward')
      .flatMap(
        (r) =>
          (
            r.body!.forward_backward_input as {
              data: { loss_fn_inputs: { advantages: { data: number[] } } }[];
            }
          ).data,
      );
    const perDatum = sent.map((d) => d.loss_fn_inputs.advantages.data.filter((a) => a !== 0));
    const firsts = perDatum.map((a) => a[0]);
    expect(firsts.sort()).toEqual(
      [0.25, ...Array(kept - 1).fill(0.5), ...Array(6 - kept).fill(-0.75)].sort(),
    );
    // Each datum's non-zero advantages cover exactly its reply's tokens.
    expect(perDatum.every((a) => a.every((x) => x === a[0]))).toBe(true);
    // The update credits the rejections it is given, nothing it saw sampled: the same batch with the stored
    // rejections (a resumed generation) trains the same replies, and without them none is credited.
    const again = await proposeWithRejections(2);
    const second = await editor.update(
      again.candidates,
      again.candidates.map(() => 0.5),
      { rejected: JSON.parse(JSON.stringify(again.rejected)) },
    );
    expect(second.invalid_replies).toBe(6 - again.candidates.length);
    const none = await editor.update(
      again.candidates,
      again.candidates.map(() => 0.5),
    );
    expect(none.invalid_replies).toBe(0);
    expect(() =>
      createTinkerEditorParts({
        baseURL: server.url,
        baseModel: TINY_EDITOR_MODEL,
        tokenizer: tinyChatDir(),
        invalidReplyAdvantage: 1,
      }),
    ).toThrow(/invalidReplyAdvantage/);
  });
});
