import {
  type ChatModel,
  type ChatRequest,
  InvalidArgumentError,
  MissingFieldError,
  redactSecrets,
  type SkillGenerator,
} from '@skillrl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLlmEditorOptions, createLlmEditorFromConfig } from './llm-editor-from-config.js';

const SKILL =
  '---\nname: heat-mug-first\ndescription: Heat the mug before placing it.\n---\n1. Take the mug.\n2. Heat it.\n';
const VAR = 'LLM_EDITOR_FROM_CONFIG_KEY';
afterEach(() => {
  delete process.env[VAR];
});

const context = {
  task: { id: 't1', family: 'heat', split: 'train', prompt: 'Heat a mug and put it in the cabinet.' },
  generation: 1,
  history: [],
  seed: 7,
};

/** A chat model that records its requests and answers each with the same SKILL.md. */
function recordingModel(): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: 'trained-editor',
    requests,
    complete: async (request) => {
      requests.push(request);
      return { choices: Array.from({ length: request.n ?? 1 }, () => ({ text: SKILL })) };
    },
  };
}

const caught = async (p: Promise<unknown>) => p.then(() => undefined).catch((e: unknown) => e);

describe('createLlmEditorFromConfig', () => {
  it('over an OpenAI-compatible model: model required, its key read from apiKeyEnv and registered', async () => {
    const missing = await caught(createLlmEditorFromConfig({}, { seed: 1 }));
    expect(MissingFieldError.isInstance(missing)).toBe(true);
    expect(missing).toMatchObject({ component: 'evolve.generator.options', field: 'model' });

    const unset = await caught(
      createLlmEditorFromConfig({ model: { model: 'm', apiKeyEnv: VAR } }, { seed: 1 }),
    );
    expect(InvalidArgumentError.isInstance(unset)).toBe(true);
    expect(unset).toMatchObject({ argument: 'evolve.generator.options.model.apiKeyEnv' });

    process.env[VAR] = 'sk-llm-editor-config-5e0b';
    const editor = await createLlmEditorFromConfig(
      { model: { model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: VAR } },
      { seed: 1 },
    );
    expect(editor.name).toBe('llm-editor:m');
    expect(redactSecrets('sk-llm-editor-config-5e0b')).not.toContain('sk-llm-editor-config-5e0b');
  });

  it("with a trainer: built from the host's trainer with its options, proposing with log-probs, then trained", async () => {
    const model = recordingModel();
    const given: Record<string, unknown>[] = [];
    let trained: SkillGenerator | undefined;
    const editor = await createLlmEditorFromConfig(
      { trainer: { name: 'tinker', options: { baseModel: 'b', tokenizer: 'tok' } }, maxRepairs: 0 },
      {
        seed: 3,
        trainers: {
          tinker: async (options) => {
            given.push(options);
            return {
              model,
              train: (inner) => {
                trained = inner;
                return { ...inner, name: 'trained' };
              },
            };
          },
        },
      },
    );
    expect(given).toEqual([{ baseModel: 'b', tokenizer: 'tok' }]);
    expect(editor.name).toBe('trained');
    const candidates = await (trained as SkillGenerator).propose(context, 2);
    expect(candidates).toHaveLength(2);
    expect(model.requests[0]?.logprobs).toBe(true);
  });

  it('a trained editor takes no model; an unknown or malformed trainer is named with what is known', async () => {
    const trainers = { tinker: () => ({ model: recordingModel(), train: (e: SkillGenerator) => e }) };
    const withModel = await caught(
      createLlmEditorFromConfig({ trainer: 'tinker', model: { model: 'm' } }, { seed: 1, trainers }),
    );
    expect((withModel as Error).message).toBe(
      'Invalid evolve.generator.options.model: an editor trained on Tinker samples from its own training run: give trainer.options (baseModel, tokenizer, ...) and no model',
    );
    const unknown = await caught(createLlmEditorFromConfig({ trainer: 'torch' }, { seed: 1, trainers }));
    expect((unknown as Error).message).toBe(
      'Invalid evolve.generator.options.trainer: unknown trainer "torch"; the LLM editor trains with "tinker"',
    );
    const malformed = await caught(createLlmEditorFromConfig({ trainer: ['tinker'] }, { seed: 1, trainers }));
    expect((malformed as Error).message).toBe(
      'Invalid evolve.generator.options.trainer: expected "tinker" or { name: tinker, options }',
    );
  });
});

describe('checkLlmEditorOptions', () => {
  it("names each unknown option of the model by path, with the fix; apiKeyEnv is the config's own", () => {
    expect(checkLlmEditorOptions({ model: { model: 'm', apiKeyEnv: 'K', temperature: 1 } })).toEqual([]);
    expect(checkLlmEditorOptions({ model: { model: 'm', temprature: 0.7, mode: 'text' } })).toEqual([
      {
        path: '$.evolve.generator.options.model.temprature',
        message: 'unknown option of the OpenAI chat model; did you mean temperature?',
      },
      {
        path: '$.evolve.generator.options.model.mode',
        message: 'unknown option of the OpenAI chat model; did you mean model?',
      },
    ]);
    expect(checkLlmEditorOptions({ trainer: 'tinker' })).toEqual([]);
  });
});
