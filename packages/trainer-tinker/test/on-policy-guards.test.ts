import { InvalidArgumentError } from '@skillrl/core';
import { TINY_EDITOR_MODEL, tinyChatDir } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import {
  checkTinkerAgentOptions,
  checkTinkerEditorOptions,
  createTinkerEditorParts,
  createTinkerTrainer,
  ON_POLICY_REASON,
} from '../src/index.js';
import { fake, setupAgent } from './support.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};

const context = {
  task: { id: 't', family: 'sky', split: 'train' as const, prompt: 'What color is the sky?' },
  condition: 0 as const,
  history: [],
  observation: 'What color is the sky?',
  seed: 3,
};

describe('on-policy sampling while the policy is trained', () => {
  it.each([
    [{ temperature: 0.7 }, 'agent.temperature'],
    [{ topP: 0.9 }, 'agent.topP'],
    [{ topK: 20 }, 'agent.topK'],
  ])('a trainer refuses an agent sampling with %j, naming the setting and why', async (sampling, path) => {
    const { agent } = await setupAgent({ maxTokens: 4, ...sampling });
    const error = refusal(() => createTinkerTrainer(agent));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(path);
    expect((error as Error).message).toContain(ON_POLICY_REASON);
    expect((error as Error).message).toContain('evaluation');
  });

  it("an agent nothing trains samples with them (evaluation); temperature 1, topP 1 and topK -1 are the policy's own", async () => {
    const { server, agent } = await setupAgent({ maxTokens: 4, temperature: 0.5, topP: 0.9, topK: 5 });
    const action = await agent.act(context as never);
    expect(action.tokenIds?.length).toBeGreaterThan(0);
    const sample = server.requests.find((r) => r.route === 'asample');
    expect(sample?.body?.sampling_params).toMatchObject({ temperature: 0.5, top_p: 0.9, top_k: 5 });
    const { agent: own } = await setupAgent({ maxTokens: 4, temperature: 1, topP: 1, topK: -1 });
    expect(() => createTinkerTrainer(own)).not.toThrow();
  });

  it('the trained policy refuses an off-policy sample whoever asks for it', async () => {
    const { agent } = await setupAgent({ maxTokens: 4 });
    createTinkerTrainer(agent);
    await expect(agent.policy.sample([1, 2, 3], { temperature: 0.8 })).rejects.toThrow(
      /sampling\.temperature/,
    );
    await expect(agent.policy.sample([1, 2, 3], { topK: 3 })).rejects.toThrow(/importance ratio/);
  });

  it("the trained editor refuses them at build, and its chat model refuses a request's own", async () => {
    const server = await fake();
    const options = {
      baseURL: server.url,
      baseModel: TINY_EDITOR_MODEL,
      tokenizer: tinyChatDir(),
      futures: { pollIntervalMs: 1 },
    };
    expect(() => createTinkerEditorParts({ ...options, temperature: 0.8 })).toThrow(/options\.temperature/);
    expect(() => createTinkerEditorParts({ ...options, topP: 0.95 })).toThrow(/options\.topP/);
    const parts = createTinkerEditorParts(options);
    parts.train({ name: 'stub', propose: async () => [] });
    await expect(
      parts.model.complete({ messages: [{ role: 'user', content: 'sky' }], temperature: 0.6 }),
    ).rejects.toThrow(/importance ratio/);
  });

  it('the config checks say so before anything is built', () => {
    const agent = { baseModel: 'm', tokenizer: 't', temperature: 0.7, topP: 0.9, topK: 4 };
    expect(checkTinkerAgentOptions(agent, '$.agent.options')).toEqual([]);
    const trained = checkTinkerAgentOptions(agent, '$.agent.options', { trained: true });
    expect(trained.map((i) => i.path)).toEqual([
      '$.agent.options.temperature',
      '$.agent.options.topP',
      '$.agent.options.topK',
    ]);
    expect(trained[0]?.message).toContain(ON_POLICY_REASON);
    // Out of range is said once, as a range problem.
    expect(
      checkTinkerAgentOptions({ ...agent, temperature: -1, topP: 1, topK: -1 }, 'o', { trained: true }),
    ).toEqual([{ path: 'o.temperature', message: 'expected a number >= 0, got -1' }]);
    expect(checkTinkerEditorOptions({ baseModel: 'm', tokenizer: 't', temperature: 0.9 }, 'e')).toEqual([
      { path: 'e.temperature', message: expect.stringContaining(ON_POLICY_REASON) },
    ]);
    expect(checkTinkerEditorOptions({ baseModel: 'm', tokenizer: 't', temperature: 1 }, 'e')).toEqual([]);
  });
});
