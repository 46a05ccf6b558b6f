import {
  type ChatMessage,
  InvalidArgumentError,
  type SkillCandidate,
  type SkillGenerator,
  type SkillUpdateContext,
} from '@skillrl/core';
import { buildUpdate, type UpdateTurn } from './build-update.js';
import { createTinkerChatModel, type TinkerChatModelOptions } from './create-tinker-chat-model.js';
import { assertOnPolicySampling } from './on-policy-sampling.js';
import { TinkerPolicy, type TinkerPolicyOptions, type TinkerPolicyState } from './tinker-policy.js';
import {
  resolveTrainerOptions,
  TINKER_TRAINER_OPTION_KEYS,
  type TinkerTrainerOptions,
} from './trainer-options.js';

/** A skill editor trained on Tinker: `update` takes one update of its policy from candidate advantages. */
export interface TinkerTrainedEditor extends SkillGenerator {
  readonly policy: TinkerPolicy;
  update(
    candidates: readonly SkillCandidate[],
    advantages: ArrayLike<number>,
    context?: SkillUpdateContext,
  ): Promise<Record<string, number>>;
  toJSON(): TinkerPolicyState;
  restore(state: unknown): void;
}

/** How the trained editor credits what its replies became. */
export interface TinkerEditorCreditOptions {
  /**
   * The advantage of a reply that became no candidate (no SKILL.md in it, or a skill the generation step
   * rejected): a number <= 0, default -1 (one standard deviation below its group, on GRPO's normalised scale).
   * 0 leaves such replies untrained. The replies come from the update's `context.rejected` (the generation's
   * rejected proposals that carry their sampled tokens, stored with the proposals), so a resumed run credits
   * the same ones.
   */
  invalidReplyAdvantage?: number;
  /**
   * Subtracted from the advantage of a candidate the editor repaired (`candidate.repaired`: frontmatter or
   * names supplied, fields fixed), so a reply that needed the repair earns less than the same skill written
   * whole. Default 0.
   */
  repairPenalty?: number;
}

/** The editor credit options' names (`createTinkerEditorParts` takes them in its flat options). */
export const TINKER_EDITOR_CREDIT_KEYS: readonly (keyof TinkerEditorCreditOptions)[] = [
  'invalidReplyAdvantage',
  'repairPenalty',
];

function checkCredit(options: TinkerEditorCreditOptions): Required<TinkerEditorCreditOptions> {
  const { invalidReplyAdvantage = -1, repairPenalty = 0 } = options;
  if (
    !(typeof invalidReplyAdvantage === 'number' && Number.isFinite(invalidReplyAdvantage)) ||
    invalidReplyAdvantage > 0
  ) {
    throw new InvalidArgumentError(
      'invalidReplyAdvantage',
      `expected a number <= 0 (the advantage of a reply that became no candidate), got ${JSON.stringify(invalidReplyAdvantage)}`,
    );
  }
  if (!(typeof repairPenalty === 'number' && Number.isFinite(repairPenalty)) || repairPenalty < 0) {
    throw new InvalidArgumentError(
      'repairPenalty',
      `expected a number >= 0, got ${JSON.stringify(repairPenalty)}`,
    );
  }
  return { invalidReplyAdvantage, repairPenalty };
}

/**
 * Makes an LLM skill editor that proposes through `createTinkerChatModel(policy)` trainable (Skill-R1 GRPO):
 * `update(candidates, advantages)` — the two-level advantages the generation step computed, one per
 * candidate — builds one datum per candidate from the editor's own tokens (its prompt, `info.prompt`,
 * rendered again through the chat template, which gives the same tokens the sampler saw; the reply's
 * `tokenIds` and `logProbs`) and takes one update with the configured loss and advantage shaping
 * (`buildUpdate`). Its state travels through checkpoints with `toJSON`/`restore` (the policy's).
 *
 * Credit. The gradient goes to the reply's own sampled tokens — the only tokens whose sampler log-probs
 * exist, so the only ones the importance ratio is defined on — with the advantage of the skill its repair
 * became: the repair is a fixed function of the reply, part of what the reply earns, so this is the
 * policy gradient of the reward of the repaired skill. What makes that honest is that every reply is
 * credited, not only those the repair saved: a reply that became no candidate (no SKILL.md, or a skill the
 * generation step rejected) gets `invalidReplyAdvantage` (default -1), from the update's `context.rejected`
 * (stored with the proposals, so a resumed generation credits the same replies); a
 * repaired candidate's advantage is lowered by `repairPenalty` (default 0).
 */
export function withTinkerTraining(
  editor: SkillGenerator,
  policy: TinkerPolicy,
  options: TinkerTrainerOptions = {},
  credit: TinkerEditorCreditOptions = {},
): TinkerTrainedEditor {
  const settings = resolveTrainerOptions(options);
  const { invalidReplyAdvantage, repairPenalty } = checkCredit(credit);
  policy.trainable = true;
  return {
    ...(editor.name !== undefined ? { name: editor.name } : {}),
    ...(editor.maxConcurrency !== undefined ? { maxConcurrency: editor.maxConcurrency } : {}),
    policy,
    propose: (context, n) => editor.propose(context, n),
    async update(candidates, advantages, context) {
      if (advantages.length !== candidates.length) {
        throw new InvalidArgumentError(
          'advantages',
          `expected ${candidates.length}, got ${advantages.length}`,
        );
      }
      const items: UpdateTurn[] = [];
      let zero = 0;
      let repaired = 0;
      candidates.forEach((candidate, i) => {
        let advantage = Number(advantages[i]);
        if (!Number.isFinite(advantage))
          throw new InvalidArgumentError(`advantages[${i}]`, `expected a finite number, got ${advantage}`);
        const prompt = (candidate.info as { prompt?: ChatMessage[] } | undefined)?.prompt;
        if (!Array.isArray(prompt) || !candidate.tokenIds || !candidate.logProbs) {
          throw new InvalidArgumentError(
            `candidates[${i}]`,
            'has no info.prompt, tokenIds or logProbs: only the LLM editor proposing through the Tinker chat model (logprobs: true) writes them',
          );
        }
        if (candidate.repaired) {
          repaired += 1;
          advantage -= repairPenalty;
        }
        if (advantage === 0) zero += 1;
        items.push({
          turn: {
            promptTokens: policy.tokenizer.promptTokens(prompt),
            completionTokens: candidate.tokenIds,
            completionLogProbs: candidate.logProbs,
          },
          advantage,
          trajectory: i,
        });
      });
      // The generation's replies that became no candidate, with their own sampled tokens: each trained once.
      let invalid = 0;
      for (const rejection of context?.rejected ?? []) {
        const reply = rejection.reply;
        if (!reply || reply.tokenIds.length === 0 || reply.tokenIds.length !== reply.logProbs.length)
          continue;
        invalid += 1;
        items.push({
          turn: {
            promptTokens: policy.tokenizer.promptTokens(reply.prompt),
            completionTokens: reply.tokenIds,
            completionLogProbs: reply.logProbs,
          },
          advantage: invalidReplyAdvantage,
          trajectory: candidates.length + invalid - 1,
        });
      }
      const built = await buildUpdate(policy, items, settings);
      const metrics = await policy.train(built.datums, settings);
      return {
        ...metrics,
        ...built.metrics,
        candidates: candidates.length,
        zero_advantage: zero,
        repaired,
        invalid_replies: invalid,
      };
    },
    toJSON: () => policy.toJSON(),
    restore: (state) => policy.restore(state),
  };
}

/** The options of a Tinker-trained editor: the policy's (`TinkerPolicyOptions`) and the trainer's, side by side. */
export type TinkerEditorOptions = TinkerPolicyOptions &
  TinkerTrainerOptions &
  TinkerChatModelOptions &
  TinkerEditorCreditOptions;

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
  const credit: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if ((TINKER_TRAINER_OPTION_KEYS as readonly string[]).includes(key)) trainer[key] = value;
    else if ((MODEL_KEYS as readonly string[]).includes(key)) model[key] = value;
    else if ((TINKER_EDITOR_CREDIT_KEYS as readonly string[]).includes(key)) credit[key] = value;
    else rest[key] = value;
  }
  const trainerOptions = trainer as TinkerTrainerOptions;
  resolveTrainerOptions(trainerOptions);
  checkCredit(credit);
  // This editor is always trained: its sampling settings must keep the samples on-policy.
  assertOnPolicySampling(model as TinkerChatModelOptions, 'options');
  const policy = new TinkerPolicy(rest as unknown as TinkerPolicyOptions);
  return {
    policy,
    model: createTinkerChatModel(policy, model as TinkerChatModelOptions),
    train: (editor: SkillGenerator) => withTinkerTraining(editor, policy, trainerOptions, credit),
  };
}
