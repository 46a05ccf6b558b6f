import type {
  Rng,
  SkillCandidate,
  SkillGenerationContext,
  SkillGenerator,
  Task,
  TrainMetrics,
} from '@skillrl/core';
import { createRng, formatSkill, InvalidArgumentError } from '@skillrl/core';
import { type LogProbModel, policyGradientStep } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import { summarizeHistory } from '../history/summarize-history.js';
import { type ContextLayout, contextLayout, encodeContext } from './encode-context.js';
import { writeStepEditorCheckpoint } from './step-editor-checkpoint.js';
import {
  checkVocabulary,
  type ResolvedStepEditorOptions,
  resolveStepEditorOptions,
  type StepEditorOptions,
} from './step-editor-options.js';
import { buildStepIndex, type StepIndex } from './step-index.js';
import {
  type EditorRow,
  fillRow,
  initWeights,
  inputSize,
  type StepNetworkSpec,
  type StepWeights,
  sequenceLogProbs,
  stepLogits,
  WEIGHT_NAMES,
} from './step-network.js';
import { renderStepSkill } from './step-skill.js';

/** The name the end-of-skill token has in `nextStepDistribution`. */
export const END_OF_SKILL = '<end>';

/** What a step-editor candidate carries in `info.stepEditor`, so that `update` can score it again. */
export interface StepCandidateInfo {
  /** Hash of the editor's phrase list; an update refuses candidates of another vocabulary. */
  vocabularyHash: string;
  family: string;
  /** The chosen phrases, in order. */
  steps: string[];
  /** Their ids; `tokenIds` adds the end token when the skill ended before `maxSteps`. */
  stepIds: number[];
  ended: boolean;
  /** The context vector the candidate was conditioned on (history changes between generations). */
  context: number[];
}

export interface StepCandidate extends SkillCandidate {
  tokenIds: number[];
  logProbs: number[];
  logProb: number;
  info: { stepEditor: StepCandidateInfo } & Record<string, unknown>;
}

export interface StepEditor extends SkillGenerator {
  readonly name: string;
  /** Every option with its default filled in. */
  readonly options: Readonly<ResolvedStepEditorOptions>;
  readonly vocabulary: Readonly<Record<string, readonly string[]>>;
  /** The phrases by token id; id `steps.length` is the end of the skill. */
  readonly steps: readonly string[];
  /** Optimiser steps taken so far. */
  readonly updates: number;
  propose(context: SkillGenerationContext, n: number): Promise<StepCandidate[]>;
  /** One clipped GRPO update (times `epochs`) from one advantage per candidate, with KL to the reference. */
  update(candidates: readonly SkillCandidate[], advantages: ArrayLike<number>): Promise<TrainMetrics>;
  /** Log-probs of proposed candidates under the current policy (per step and summed). */
  score(candidates: readonly SkillCandidate[]): Promise<{ logProb: number; logProbs: number[] }[]>;
  /** The next-step distribution after `prefix` (phrases), with the end as `END_OF_SKILL`. */
  nextStepDistribution(
    context: SkillGenerationContext,
    prefix?: readonly string[],
  ): Promise<{ step: string; probability: number }[]>;
  /** Writes weights, reference weights, optimiser state, options and vocabulary to `dir`. */
  save(dir: string): Promise<void>;
  /** Frees the tensors; the editor cannot be used afterwards. */
  dispose(): void;
}

/** What a checkpoint restores; internal to this package's loader. */
export interface StepEditorState {
  policy: StepWeights<tf.Tensor>;
  reference: StepWeights<tf.Tensor>;
  optimizer?: { name: string; tensor: tf.Tensor }[];
  updates: number;
}

/**
 * A trainable skill editor for Skill-R1: a small autoregressive tfjs policy that writes a skill as an
 * ordered list of phrases from the adapter's step vocabulary, conditioned on the task's family and goal
 * words and on a summary of the history. Implements core's `SkillGenerator`.
 */
export function createStepEditor(options: StepEditorOptions): StepEditor {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'expected { vocabulary, ... }');
  }
  const vocabulary = checkVocabulary(options.vocabulary);
  const { vocabulary: _v, ...rest } = options;
  return buildStepEditor(vocabulary, resolveStepEditorOptions(rest));
}

/** Builds an editor from checked parts; `state` restores a checkpoint. */
export async function restoreStepEditor(
  vocabulary: Record<string, string[]>,
  resolved: ResolvedStepEditorOptions,
  state: StepEditorState,
): Promise<StepEditor> {
  const editor = buildStepEditor(vocabulary, resolved, state);
  if (state.optimizer !== undefined) await editor.restoreOptimizer(state.optimizer);
  return editor;
}

/**
 * Adam's running β^t. `setWeights` recomputes them with one `pow`, which differs from the product the
 * optimiser accumulated in the last float32 bit; saved and assigned back, the update after a reload equals
 * the one without it exactly. (Internals of tfjs 4.22's AdamOptimizer; skipped when absent.)
 */
const ADAM_POWERS: readonly string[] = ['accBeta1', 'accBeta2'];
interface AdamInternals {
  accBeta1?: tf.Variable;
  accBeta2?: tf.Variable;
}

interface InternalStepEditor extends StepEditor {
  restoreOptimizer(weights: { name: string; tensor: tf.Tensor }[]): Promise<void>;
}

function buildStepEditor(
  vocabulary: Record<string, string[]>,
  opts: ResolvedStepEditorOptions,
  state?: StepEditorState,
): InternalStepEditor {
  const index: StepIndex = buildStepIndex(vocabulary);
  const layout: ContextLayout = contextLayout(index, opts.goalBuckets, opts.failureBuckets);
  const spec: StepNetworkSpec = {
    index,
    contextSize: layout.size,
    hiddenSize: opts.hiddenSize,
    maxSteps: opts.maxSteps,
    minSteps: opts.minSteps,
    temperature: opts.temperature,
    orderPrior: opts.orderPrior,
    restrictToFamily: opts.restrictToFamily,
    allowRepeats: opts.allowRepeats,
  };
  const d = inputSize(spec);
  const k = index.steps.length + 1;
  const initial = state?.policy ?? initWeights(spec, createRng(opts.seed).fork('step-editor-weights'));
  const expected: Record<string, number[]> = {
    w1: [d, opts.hiddenSize],
    b1: [opts.hiddenSize],
    w2: [opts.hiddenSize, k],
    b2: [k],
  };
  for (const name of WEIGHT_NAMES) {
    const shape = initial[name].shape;
    if (shape.join(',') !== (expected[name] as number[]).join(',')) {
      throw new InvalidArgumentError(
        `checkpoint.weights.${name}`,
        `expected shape [${expected[name]}] for this vocabulary and options, got [${shape}]`,
      );
    }
  }
  const policy: StepWeights<tf.Variable> = {
    w1: tf.variable(initial.w1, true),
    b1: tf.variable(initial.b1, true),
    w2: tf.variable(initial.w2, true),
    b2: tf.variable(initial.b2, true),
  };
  // The frozen reference is the policy as it was created (or as the checkpoint recorded it).
  const reference: StepWeights<tf.Tensor> = state?.reference
    ? { ...state.reference }
    : { w1: initial.w1.clone(), b1: initial.b1.clone(), w2: initial.w2.clone(), b2: initial.b2.clone() };
  // Variables share the initial tensors' data (ref-counted), so the initial handles can go.
  tf.dispose([initial.w1, initial.b1, initial.w2, initial.b2]);
  const optimizer = tf.train.adam(opts.learningRate);
  let updates = state?.updates ?? 0;
  let disposed = false;

  const adamPowers = (): { name: string; tensor: tf.Tensor }[] => {
    const internals = optimizer as unknown as AdamInternals;
    return ADAM_POWERS.flatMap((name) => {
      const v = internals[name as 'accBeta1' | 'accBeta2'];
      return v === undefined ? [] : [{ name, tensor: v.clone() }];
    });
  };

  const alive = (): void => {
    if (disposed) throw new InvalidArgumentError('editor', 'this step editor was disposed');
  };

  const encode = (context: SkillGenerationContext): Float32Array => {
    if (typeof context !== 'object' || context === null || typeof context.task !== 'object') {
      throw new InvalidArgumentError('context.task', 'expected a SkillGenerationContext with a task');
    }
    const task: Task = context.task;
    if (typeof task.family !== 'string' || typeof task.prompt !== 'string') {
      throw new InvalidArgumentError('context.task', 'expected a task with string family and prompt');
    }
    const summary = summarizeHistory(context.history ?? [], { lastGenerations: opts.historyWindow });
    return encodeContext(task, summary, context.currentSkill, index, layout);
  };

  const model: LogProbModel<EditorRow[]> = {
    trainableVariables: [policy.w1, policy.b1, policy.w2, policy.b2],
    logProbs: (rows) => sequenceLogProbs(spec, policy, rows),
  };

  const rowOf = (candidate: SkillCandidate, i: number): EditorRow => {
    const info = (candidate?.info as { stepEditor?: StepCandidateInfo } | undefined)?.stepEditor;
    if (info === undefined || !Array.isArray(info.stepIds) || !Array.isArray(info.context)) {
      throw new InvalidArgumentError(
        `candidates[${i}].info.stepEditor`,
        'missing: only candidates proposed by a step editor can be scored or trained on',
      );
    }
    if (info.vocabularyHash !== index.hash) {
      throw new InvalidArgumentError(
        `candidates[${i}].info.stepEditor.vocabularyHash`,
        `the candidate came from an editor with another vocabulary (${info.vocabularyHash}, this one is ${index.hash})`,
      );
    }
    if (info.context.length !== layout.size) {
      throw new InvalidArgumentError(
        `candidates[${i}].info.stepEditor.context`,
        `expected ${layout.size} numbers for this editor's options, got ${info.context.length}`,
      );
    }
    const tokens = [...info.stepIds, ...(info.ended ? [index.end] : [])];
    const badId = info.stepIds.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= index.end);
    if (badId >= 0 || tokens.length > opts.maxSteps) {
      throw new InvalidArgumentError(
        `candidates[${i}].info.stepEditor.stepIds`,
        badId >= 0
          ? `expected phrase ids in [0, ${index.end}), got ${info.stepIds[badId]}`
          : `expected at most maxSteps (${opts.maxSteps}) tokens, got ${tokens.length}`,
      );
    }
    return {
      context: info.context,
      family: info.family,
      tokens,
    };
  };

  const rowLogProbs = (w: StepWeights, rows: EditorRow[]): number[][] => {
    const { logProbs, entropy } = sequenceLogProbs(spec, w, rows);
    const values = logProbs.arraySync();
    tf.dispose([logProbs, entropy]);
    return values.map((row, i) => row.slice(0, (rows[i] as EditorRow).tokens.length));
  };

  const editor: InternalStepEditor = {
    name: opts.name,
    options: opts,
    vocabulary,
    steps: index.steps,
    get updates() {
      return updates;
    },

    async propose(context, n) {
      alive();
      if (!Number.isInteger(n) || n < 1) {
        throw new InvalidArgumentError('n', `expected an integer >= 1 candidates, got ${n}`);
      }
      context?.signal?.throwIfAborted();
      const ctx = encode(context);
      const family = context.task.family;
      const seed = context.seed ?? opts.seed;
      // Each candidate has its own stream, so candidate i does not depend on how many were asked for.
      const base = createRng(seed)
        .fork('step-editor')
        .fork(context.task.id ?? '')
        .fork(context.generation ?? 0);
      const rngs = Array.from({ length: n }, (_, i) => base.fork(i));
      const chosen: number[][] = Array.from({ length: n }, () => []);
      const ended = new Array<boolean>(n).fill(false);
      for (let pos = 0; pos < opts.maxSteps; pos++) {
        const active = chosen.map((_, i) => i).filter((i) => !ended[i]);
        if (active.length === 0) break;
        const x = new Float32Array(active.length * d);
        const bias = new Float32Array(active.length * k);
        active.forEach((i, r) => {
          fillRow(spec, ctx, family, chosen[i] as number[], x, r * d, bias, r * k);
        });
        const probs = tf.tidy(() =>
          tf.softmax(
            stepLogits(
              spec,
              policy,
              tf.tensor2d(x, [active.length, d]),
              tf.tensor2d(bias, [active.length, k]),
            ),
          ),
        );
        const p = probs.dataSync();
        probs.dispose();
        active.forEach((i, r) => {
          const row = p.subarray(r * k, (r + 1) * k);
          let total = 0;
          for (const q of row) total += q;
          let u = (rngs[i] as Rng).float() * total;
          let token = k - 1;
          for (let j = 0; j < k; j++) {
            u -= row[j] as number;
            if (u < 0 && (row[j] as number) > 0) {
              token = j;
              break;
            }
          }
          if (token === index.end) ended[i] = true;
          else (chosen[i] as number[]).push(token);
        });
      }
      const rows: EditorRow[] = chosen.map((ids, i) => ({
        context: ctx,
        family,
        tokens: ended[i] ? [...ids, index.end] : ids,
      }));
      // Scored by the same function `update` uses, so the first epoch's ratios are exactly 1.
      const logProbs = rowLogProbs(policy, rows);
      const contextArray = Array.from(ctx);
      return rows.map((row, i) => {
        const stepIds = chosen[i] as number[];
        const phrases = stepIds.map((id) => index.steps[id] as string);
        const skill = renderStepSkill(family, phrases);
        const lp = logProbs[i] as number[];
        return {
          skill,
          text: formatSkill(skill),
          tokenIds: [...row.tokens],
          logProbs: lp,
          logProb: lp.reduce((s, x) => s + x, 0),
          info: {
            stepEditor: {
              vocabularyHash: index.hash,
              family,
              steps: phrases,
              stepIds: [...stepIds],
              ended: ended[i] as boolean,
              context: contextArray,
            },
          },
        };
      });
    },

    async update(candidates, advantages) {
      alive();
      if (!Array.isArray(candidates) || candidates.length === 0) {
        throw new InvalidArgumentError('candidates', 'expected a non-empty array of proposed candidates');
      }
      if (advantages === null || typeof advantages !== 'object' || advantages.length !== candidates.length) {
        throw new InvalidArgumentError(
          'advantages',
          `expected one advantage per candidate (${candidates.length}), got ${advantages?.length}`,
        );
      }
      const adv = Array.from(advantages, (a, i) => {
        if (!Number.isFinite(a))
          throw new InvalidArgumentError(`advantages[${i}]`, `expected a finite number, got ${a}`);
        return a;
      });
      const rows = candidates.map(rowOf);
      const t = opts.maxSteps;
      const pad = (values: readonly number[]) => Array.from({ length: t }, (_, j) => values[j] ?? 0);
      const mask = rows.map((r) => pad(r.tokens.map(() => 1)));
      const old = candidates.map((c, i) => {
        const lp = c.logProbs;
        const n = (rows[i] as EditorRow).tokens.length;
        if (!Array.isArray(lp) || lp.length !== n || !lp.every(Number.isFinite)) {
          throw new InvalidArgumentError(
            `candidates[${i}].logProbs`,
            `expected the ${n} per-step log-probs the editor proposed it with`,
          );
        }
        return pad(lp);
      });
      const ref = opts.kl === false ? undefined : rowLogProbs(reference, rows).map(pad);
      let metrics: TrainMetrics = {};
      for (let epoch = 0; epoch < opts.epochs; epoch++) {
        metrics = await policyGradientStep(
          model,
          { inputs: rows, mask, advantages: adv, oldLogProbs: old, ...(ref && { refLogProbs: ref }) },
          {
            optimizer,
            loss: opts.loss,
            clipLow: opts.clipLow,
            clipHigh: opts.clipHigh,
            aggregation: opts.aggregation,
            ...(opts.kl !== false && { kl: opts.kl }),
            entropyCoef: opts.entropyCoef,
            maxGradNorm: opts.maxGradNorm,
          },
        );
        updates += 1;
      }
      return { ...metrics, epochs: opts.epochs, updates };
    },

    async score(candidates) {
      alive();
      const rows = candidates.map(rowOf);
      return rowLogProbs(policy, rows).map((lp) => ({
        logProbs: lp,
        logProb: lp.reduce((s, x) => s + x, 0),
      }));
    },

    async nextStepDistribution(context, prefix = []) {
      alive();
      const ctx = encode(context);
      const ids = prefix.map((phrase, i) => {
        const id = index.idOf(phrase);
        if (id === undefined) {
          throw new InvalidArgumentError(`prefix[${i}]`, `"${phrase}" is not a phrase of the vocabulary`);
        }
        return id;
      });
      if (ids.length >= opts.maxSteps) {
        throw new InvalidArgumentError('prefix', `expected fewer than maxSteps (${opts.maxSteps}) steps`);
      }
      const x = new Float32Array(d);
      const bias = new Float32Array(k);
      fillRow(spec, ctx, context.task.family, ids, x, 0, bias, 0);
      const probs = tf.tidy(() =>
        tf.softmax(stepLogits(spec, policy, tf.tensor2d(x, [1, d]), tf.tensor2d(bias, [1, k]))),
      );
      const p = Array.from(probs.dataSync());
      probs.dispose();
      return p.map((probability, id) => ({
        step: id === index.end ? END_OF_SKILL : (index.steps[id] as string),
        probability,
      }));
    },

    async save(dir) {
      alive();
      const optimizerWeights = [...(await optimizer.getWeights()), ...adamPowers()];
      try {
        await writeStepEditorCheckpoint(dir, {
          options: opts,
          vocabulary,
          updates,
          policy,
          reference,
          optimizer: optimizerWeights,
        });
      } finally {
        // getWeights returns a fresh scalar for the step count; the moments are the optimiser's own variables.
        optimizerWeights[0]?.tensor.dispose();
        for (const w of optimizerWeights) if (ADAM_POWERS.includes(w.name)) w.tensor.dispose();
      }
    },

    async restoreOptimizer(all) {
      const weights = all.filter((w) => !ADAM_POWERS.includes(w.name));
      await optimizer.setWeights(weights);
      const internals = optimizer as unknown as AdamInternals;
      for (const w of all) {
        if (ADAM_POWERS.includes(w.name)) {
          internals[w.name as 'accBeta1' | 'accBeta2']?.assign(w.tensor as tf.Scalar);
          w.tensor.dispose();
        }
      }
      // Adam's slots are new variables sharing these tensors' data; the handles passed in can go.
      tf.dispose(weights.map((w) => w.tensor));
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      tf.dispose([...Object.values(policy), ...Object.values(reference)]);
      optimizer.dispose();
    },
  };
  return editor;
}
