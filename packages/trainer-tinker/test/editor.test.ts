import type { ChatMessage, SkillCandidate, SkillGenerator } from '@skillrl/core';
import { type FakeTinkerServer, startFakeTinker, TINY_EDITOR_MODEL, tinyChatDir } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createTinkerEditorParts } from '../src/index.js';

const servers: FakeTinkerServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const messages: ChatMessage[] = [
  { role: 'system', content: 'write a skill .' },
  { role: 'user', content: 'task : what color is the sky ?' },
];

describe('the trainable editor on Tinker', () => {
  it('proposes through the Tinker chat model (n samples, token ids, log-probs) and trains on its own tokens', async () => {
    const server = await startFakeTinker();
    servers.push(server);
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
});
