import type { Seed } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { AGGREGATION_MODES, type AggregationMode, KL_KINDS, listPolicyLosses } from '@skillrl/tensor-ops';
import type { EditBase } from './choose-base-skill.js';

export interface StepEditorOptions {
  /** Procedure phrases per family, usually `adapter.stepVocabulary()`. Required. */
  vocabulary: Readonly<Record<string, readonly string[]>>;
  /** Seeds the weights and, when a context has no seed, the proposals (default 0). */
  seed?: Seed;
  /** Most lines in one skill (default 12). */
  maxSteps?: number;
  /** Fewest lines before the end operation may be chosen (default 1). */
  minSteps?: number;
  /** Hidden units of the step scorer (default 64). */
  hiddenSize?: number;
  /** Sampling temperature; log-probs are those of the tempered policy (default 1). */
  temperature?: number;
  /**
   * Fixed logit bonus for `keep` (and for `<end>` once every line was used) when editing a current skill:
   * with each phrase operation sharing one unit of mass, the untrained editor keeps a line with probability
   * e^k / (e^k + 4) (delete, swap, all inserts and all replaces weigh 1 each), so its proposals stay near
   * the current skill (default 4: about 0.93 per line; 0 turns it off).
   */
  keepPrior?: number;
  /**
   * Writing from scratch (no current skill), fixed logit bonus for inserting the phrase that follows the
   * previous one in the family's vocabulary order (the expert's plan order), and for the end after its last
   * phrase: the prior that makes the untrained editor write plausible procedures (default 2; 0 turns it off).
   */
  orderPrior?: number;
  /** Hash buckets for the words of the line under the cursor, and of the next one (default 32). */
  lineBuckets?: number;
  /**
   * The skill revised: `best` (default), the history's skill with the best reward pooled over every
   * generation it was evaluated in (shrunk by `evidencePrior`); `current`, the skill the loop carries.
   */
  base?: EditBase;
  /** Pseudo-evaluations at the history's mean reward that each skill's pooled score starts with (default 1). */
  evidencePrior?: number;
  /** Choose only the task family's phrases when the family is in the vocabulary (default true). */
  restrictToFamily?: boolean;
  /** Let a step appear twice in one skill (default false). */
  allowRepeats?: boolean;
  /** Hash buckets for the goal's words (default 64). */
  goalBuckets?: number;
  /** Hash buckets for the words of failed episodes' verifier reasons and last observations (default 32). */
  failureBuckets?: number;
  /** Generations of history the editor conditions on (default 3). */
  historyWindow?: number;
  /** Adam learning rate (default 0.01). */
  learningRate?: number;
  /** Registered tensor-ops policy loss (default `vanilla`: the clipped GRPO surrogate). */
  loss?: string;
  /** Ratio clip below (default 0.2). */
  clipLow?: number;
  /** Ratio clip above (default `clipLow`). */
  clipHigh?: number;
  /** Loss aggregation over step tokens (default `seq-mean-token-mean`, GRPO's). */
  aggregation?: AggregationMode;
  /** KL penalty to the frozen reference copy (default `{ kind: 'k3', coef: 0.01 }`; `false` for none). */
  kl?: { kind: string; coef: number } | false;
  /** Entropy bonus coefficient (default 0). */
  entropyCoef?: number;
  /** Global gradient-norm clip (default 1). */
  maxGradNorm?: number;
  /** Optimiser steps per `update` on the same candidates, against their proposal log-probs (default 1). */
  epochs?: number;
  /** `SkillGenerator.name` (default `step-editor`). */
  name?: string;
}

/** Every option with its default filled in: what a checkpoint stores. */
export interface ResolvedStepEditorOptions {
  seed: Seed;
  maxSteps: number;
  minSteps: number;
  hiddenSize: number;
  temperature: number;
  orderPrior: number;
  keepPrior: number;
  lineBuckets: number;
  base: EditBase;
  evidencePrior: number;
  restrictToFamily: boolean;
  allowRepeats: boolean;
  goalBuckets: number;
  failureBuckets: number;
  historyWindow: number;
  learningRate: number;
  loss: string;
  clipLow: number;
  clipHigh: number;
  aggregation: AggregationMode;
  kl: { kind: string; coef: number } | false;
  entropyCoef: number;
  maxGradNorm: number;
  epochs: number;
  name: string;
}

function integer(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(`options.${name}`, `expected an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function number(name: string, value: unknown, fallback: number, check: (x: number) => boolean, want: string) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || !check(value)) {
    throw new InvalidArgumentError(`options.${name}`, `expected ${want}, got ${String(value)}`);
  }
  return value;
}

function boolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentError(`options.${name}`, `expected true or false, got ${String(value)}`);
  }
  return value;
}

/** Checks the vocabulary: at least one family, each with at least one one-line phrase. */
export function checkVocabulary(vocabulary: unknown): Record<string, string[]> {
  if (typeof vocabulary !== 'object' || vocabulary === null || Array.isArray(vocabulary)) {
    throw new InvalidArgumentError(
      'options.vocabulary',
      'expected procedure phrases per family, e.g. adapter.stepVocabulary()',
    );
  }
  const entries = Object.entries(vocabulary as Record<string, unknown>);
  if (entries.length === 0) {
    throw new InvalidArgumentError('options.vocabulary', 'expected at least one family with phrases');
  }
  const out: Record<string, string[]> = {};
  for (const [family, phrases] of entries) {
    if (!Array.isArray(phrases) || phrases.length === 0) {
      throw new InvalidArgumentError(`options.vocabulary.${family}`, 'expected a non-empty array of phrases');
    }
    phrases.forEach((p, i) => {
      if (typeof p !== 'string' || p.trim().length === 0 || /[\r\n]/.test(p)) {
        throw new InvalidArgumentError(
          `options.vocabulary.${family}[${i}]`,
          'expected a non-empty one-line phrase (each step renders as one numbered line)',
        );
      }
    });
    out[family] = phrases.map((p: string) => p.trim());
  }
  return out;
}

/** Fills defaults and checks every option; a bad one throws `InvalidArgumentError` naming it. */
export function resolveStepEditorOptions(
  options: Omit<StepEditorOptions, 'vocabulary'>,
): ResolvedStepEditorOptions {
  const seed = options.seed ?? 0;
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isSafeInteger(seed)))) {
    throw new InvalidArgumentError(
      'options.seed',
      `expected a safe integer or a string, got ${String(seed)}`,
    );
  }
  const maxSteps = integer('maxSteps', options.maxSteps, 12, 1);
  const minSteps = integer('minSteps', options.minSteps, 1, 0);
  if (minSteps > maxSteps) {
    throw new InvalidArgumentError(
      'options.minSteps',
      `expected at most maxSteps (${maxSteps}), got ${minSteps}`,
    );
  }
  const loss = options.loss ?? 'vanilla';
  if (!listPolicyLosses().includes(loss)) {
    throw new InvalidArgumentError(
      'options.loss',
      `expected a registered policy loss (${listPolicyLosses().join(', ')}), got ${loss}`,
    );
  }
  const aggregation = options.aggregation ?? 'seq-mean-token-mean';
  if (!(AGGREGATION_MODES as readonly string[]).includes(aggregation)) {
    throw new InvalidArgumentError(
      'options.aggregation',
      `expected one of ${AGGREGATION_MODES.join(', ')}, got ${String(aggregation)}`,
    );
  }
  const kl = options.kl === undefined ? { kind: 'k3', coef: 0.01 } : options.kl;
  if (kl !== false) {
    if (typeof kl !== 'object' || kl === null || !(KL_KINDS as readonly string[]).includes(kl.kind)) {
      throw new InvalidArgumentError(
        'options.kl.kind',
        `expected one of ${KL_KINDS.join(', ')}, got ${String((kl as { kind?: unknown })?.kind)}`,
      );
    }
    if (typeof kl.coef !== 'number' || !(kl.coef >= 0) || !Number.isFinite(kl.coef)) {
      throw new InvalidArgumentError('options.kl.coef', `expected a number >= 0, got ${String(kl.coef)}`);
    }
  }
  const clipLow = number('clipLow', options.clipLow, 0.2, (x) => x > 0 && x < 1, 'a number in (0, 1)');
  const base = options.base ?? 'best';
  if (base !== 'best' && base !== 'current') {
    throw new InvalidArgumentError('options.base', `expected "best" or "current", got ${String(base)}`);
  }
  const name = options.name ?? 'step-editor';
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidArgumentError('options.name', 'expected a non-empty string');
  }
  return {
    seed,
    maxSteps,
    minSteps,
    hiddenSize: integer('hiddenSize', options.hiddenSize, 64, 1),
    temperature: number('temperature', options.temperature, 1, (x) => x > 0, 'a number > 0'),
    orderPrior: number('orderPrior', options.orderPrior, 2, (x) => x >= 0, 'a number >= 0'),
    keepPrior: number('keepPrior', options.keepPrior, 4, (x) => x >= 0, 'a number >= 0'),
    lineBuckets: integer('lineBuckets', options.lineBuckets, 32, 1),
    base,
    evidencePrior: number('evidencePrior', options.evidencePrior, 2, (x) => x >= 0, 'a number >= 0'),
    restrictToFamily: boolean('restrictToFamily', options.restrictToFamily, true),
    allowRepeats: boolean('allowRepeats', options.allowRepeats, false),
    goalBuckets: integer('goalBuckets', options.goalBuckets, 64, 1),
    failureBuckets: integer('failureBuckets', options.failureBuckets, 32, 1),
    historyWindow: integer('historyWindow', options.historyWindow, 3, 1),
    learningRate: number('learningRate', options.learningRate, 0.01, (x) => x > 0, 'a number > 0'),
    loss,
    clipLow,
    clipHigh: number('clipHigh', options.clipHigh, clipLow, (x) => x > 0, 'a number > 0'),
    aggregation,
    kl: kl === false ? false : { kind: kl.kind, coef: kl.coef },
    entropyCoef: number('entropyCoef', options.entropyCoef, 0, (x) => x >= 0, 'a number >= 0'),
    maxGradNorm: number('maxGradNorm', options.maxGradNorm, 1, (x) => x > 0, 'a number > 0'),
    epochs: integer('epochs', options.epochs, 1, 1),
    name,
  };
}
