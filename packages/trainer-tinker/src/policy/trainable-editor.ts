import {
  type ChatMessage,
  InvalidArgumentError,
  type SkillCandidate,
  type SkillGenerator,
} from '@skillrl/core';
import type { Datum } from '../client/tinker-types.js';
import { createTinkerChatModel, type TinkerChatModelOptions } from './create-tinker-chat-model.js';
import { TinkerPolicy, type TinkerPolicyOptions, type TinkerPolicyState } from './tinker-policy.js';
import {
  resolveTrainerOptions,
  TINKER_TRAINER_OPTION_KEYS,
  type TinkerTrainerOptions,
} from './trainer-options.js';
import { turnDatum } from './turn-datum.js';

/** A skill editor trained on Tinker: `update` takes one update of its policy from candidate advantages. */
export interface TinkerTrainedEditor extends SkillGenerator {
  readonly policy: TinkerPolicy;
  update(
    candidates: readonly SkillCandidate[],
    advantages: ArrayLike<number>,
  ): Promise<Record<string, number>>;
  toJSON(): TinkerPolicyState;
  restore(state: unknown): void;
}

/**
 * Makes an LLM skill editor that proposes through `createTinkerChatModel(policy)` trainable (Skill-R1 GRPO):
 * `update(candidates, advantages)` — the two-level advantages the generation step computed, one per
 * candidate — builds one datum per candidate from the editor's own tokens (its prompt, `info.prompt`,
 * rendered again through the chat template, which gives the same tokens the sampler saw; the reply's
 * `tokenIds` and `logProbs`) and takes one update with the configured loss. Candidates whose advantage is 0
 * are not sent. Its state travels through checkpoints with `toJSON`/`restore` (the policy's).
 */
export function withTinkerTraining(
  editor: SkillGenerator,
  policy: TinkerPolicy,
  options: TinkerTrainerOptions = {},
): TinkerTrainedEditor {
  const settings = resolveTrainerOptions(options);
  policy.trainable = true;
  return {
    ...(editor.name !== undefined ? { name: editor.name } : {}),
    ...(editor.maxConcurrency !== undefined ? { maxConcurrency: editor.maxConcurrency } : {}),
    policy,
    propose: (context, n) => editor.propose(context, n),
    async update(candidates, advantages) {
      if (advantages.length !== candidates.length) {
        throw new InvalidArgumentError(
          'advantages',
          `expected ${candidates.length}, got ${advantages.length}`,
        );
      }
      const datums: Datum[] = [];
      let zero = 0;
      candidates.forEach((candidate, i) => {
        const advantage = Number(advantages[i]);
        if (!Number.isFinite(advantage))
          throw new InvalidArgumentError(`advantages[${i}]`, `expected a finite number, got ${advantage}`);
        const prompt = (candidate.info as { prompt?: ChatMessage[] } | undefined)?.prompt;
        if (!Array.isArray(prompt) || !candidate.tokenIds || !candidate.logProbs) {
          throw new InvalidArgumentError(
            `candidates[${i}]`,
            'has no info.prompt, tokenIds or logProbs: only the LLM editor proposing through the Tinker chat model (logprobs: true) writes them',
          );
        }
        if (advantage === 0) {
          zero += 1;
          return;
        }
        datums.push(
          turnDatum(
            {
              promptTokens: policy.tokenizer.promptTokens(prompt),
              completionTokens: candidate.tokenIds,
              completionLogProbs: candidate.logProbs,
            },
            advantage,
          ),
        );
      });
      const metrics = await policy.train(datums, settings);
      return { ...metrics, candidates: candidates.length, zero_advantage: zero };
    },
    toJSON: () => policy.toJSON(),
    restore: (state) => policy.restore(state),
  };
}

/** The options of a Tinker-trained editor: the policy's (`TinkerPolicyOptions`) and the trainer's, side by side. */
export type TinkerEditorOptions = TinkerPolicyOptions & TinkerTrainerOptions & TinkerChatModelOptions;

const MODEL_KEYS = ['maxTokens', 'temperature', 'topP'] as const;

/**
 * What the orchestrator's `llm-editor` with `trainer: tinker` is built from: the policy, the chat model the
 * editor proposes through, and `train(editor)` that makes the editor trainable. Options are one flat object
 * (a config's `trainer.options`): the trainer's keys (`loss`, `learningRate`, …), the chat model's
 * (`maxTokens`, `temperature`, `topP`), the rest the policy's (`baseModel`, `tokenizer`, `loraRank`, …).
 */
export function createTinkerEditorParts(options: TinkerEditorOptions) {
  const trainer: Record<string, unknown> = {};
  const model: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if ((TINKER_TRAINER_OPTION_KEYS as readonly string[]).includes(key)) trainer[key] = value;
    else if ((MODEL_KEYS as readonly string[]).includes(key)) model[key] = value;
    else rest[key] = value;
  }
  const trainerOptions = trainer as TinkerTrainerOptions;
  resolveTrainerOptions(trainerOptions);
  const policy = new TinkerPolicy(rest as unknown as TinkerPolicyOptions);
  return {
    policy,
    model: createTinkerChatModel(policy, model as TinkerChatModelOptions),
    train: (editor: SkillGenerator) => withTinkerTraining(editor, policy, trainerOptions),
  };
}
