import { type ChatModel, InvalidArgumentError, MissingFieldError, type SkillGenerator } from '@skillrl/core';
import { checkOpenAIChatModelConfigOptions, withApiKeyFromEnv } from '@skillrl/rollout';
import { createLlmSkillEditor, type LlmSkillEditorOptions } from './create-llm-skill-editor.js';

/**
 * What trains an LLM editor, as the package that trains it builds it (trainer-tinker's
 * `createTinkerEditorTraining`): the chat model the editor proposes through, and `train(editor)` that gives
 * the editor its `update()`.
 */
export interface LlmEditorTraining {
  model: ChatModel;
  train(editor: SkillGenerator): SkillGenerator;
}

/** Builds the training of an editor from the options its config gives the trainer (`trainer.options`). */
export type LlmEditorTrainer = (
  options: Record<string, unknown>,
) => LlmEditorTraining | Promise<LlmEditorTraining>;

/** What a config-level factory is told about the run (the orchestrator's component context). */
export interface LlmEditorConfigContext {
  /** The component's seed, derived from the run's. */
  seed: number;
  /** Where the options sit in the config, for messages. Default `evolve.generator.options`. */
  path?: string;
  /**
   * The trainers a config may name in `trainer`, by name, as the host provides them: this package may not
   * import the package that trains (trainer-tinker), so the host hands its builder in.
   */
  trainers?: Readonly<Record<string, LlmEditorTrainer>>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The `trainer` option, as `{ name, options }`: `"tinker"` or `{ name: tinker, options }`. */
function trainerSpec(
  spec: unknown,
  field: string,
): { name: string; options: Record<string, unknown> } | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec === 'string') return { name: spec, options: {} };
  if (isObject(spec))
    return { name: String(spec.name), options: (spec.options ?? {}) as Record<string, unknown> };
  throw new InvalidArgumentError(field, 'expected "tinker" or { name: tinker, options }');
}

/**
 * The LLM editor as a config names it (`evolve.generator: { name: llm-editor, options }`): over an
 * OpenAI-compatible `model` (its key read from the variable `apiKeyEnv` names), or, with `trainer`, trained by
 * Skill-R1's GRPO. A trained editor samples from its own training run, so it takes no `model`, and asks for its
 * tokens' log-probs: it learns from them.
 */
export async function createLlmEditorFromConfig(
  options: Readonly<Record<string, unknown>>,
  { seed, path = 'evolve.generator.options', trainers = {} }: LlmEditorConfigContext,
): Promise<SkillGenerator> {
  const trainer = trainerSpec(options.trainer, `${path}.trainer`);
  if (trainer) {
    const { trainer: _trainer, ...rest } = options;
    const build = Object.hasOwn(trainers, trainer.name) ? trainers[trainer.name] : undefined;
    if (build === undefined) {
      throw new InvalidArgumentError(
        `${path}.trainer`,
        `unknown trainer "${trainer.name}"; the LLM editor trains with ${Object.keys(trainers)
          .map((n) => `"${n}"`)
          .join(' or ')}`,
      );
    }
    if (rest.model !== undefined) {
      throw new InvalidArgumentError(
        `${path}.model`,
        'an editor trained on Tinker samples from its own training run: give trainer.options (baseModel, tokenizer, ...) and no model',
      );
    }
    const training = await build(trainer.options);
    const editor = createLlmSkillEditor({
      seed,
      ...rest,
      model: training.model,
      logprobs: true,
    } as LlmSkillEditorOptions);
    return training.train(editor);
  }
  const model = options.model;
  if (!isObject(model)) throw new MissingFieldError(path, 'model');
  return createLlmSkillEditor({
    seed,
    ...options,
    model: { seed, ...withApiKeyFromEnv(model, `${path}.model`) },
  } as LlmSkillEditorOptions);
}

/**
 * The LLM editor's options as a config gives them: its `model`'s option names (with `apiKeyEnv`), each unknown
 * one by path with the fix. A trainer's options are the trainer package's to check.
 */
export function checkLlmEditorOptions(
  options: unknown,
  path = '$.evolve.generator.options',
): { path: string; message: string }[] {
  return isObject(options) ? checkOpenAIChatModelConfigOptions(options.model, `${path}.model`) : [];
}
