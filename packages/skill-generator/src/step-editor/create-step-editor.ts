import type {
  Rng,
  SkillCandidate,
  SkillGenerationContext,
  SkillGenerator,
  Task,
  TrainMetrics,
} from '@skillrl/core';
import { createRng, formatSkill, InvalidArgumentError, throwOnOptionIssues } from '@skillrl/core';
import { type BackendInfo, ensureBackend, type LogProbModel, policyGradientStep } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import { summarizeHistory } from '../history/summarize-history.js';
import { checkStepEditorOptions } from './check-step-editor-options.js';
import { chooseBaseSkill } from './choose-base-skill.js';
import {
  allowedOps,
  applyOp,
  type EditState,
  END_OF_SKILL,
  OP_END,
  OP_KEEP,
  opCount,
  opId,
  opName,
  startEdit,
} from './edit-ops.js';
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
  batchLength,
  type EditorRow,
  fillRow,
  hashLines,
  initWeights,
  inputSize,
  type StepNetworkSpec,
  type StepWeights,
  sequenceLogProbs,
  stepLogits,
  WEIGHT_NAMES,
} from './step-network.js';
import { readNumberedSteps, renderStepSkill } from './step-skill.js';

export { END_OF_SKILL } from './edit-ops.js';

/** What a step-editor candidate carries in `info.stepEditor`, so that `update` can score it again. */
export interface StepCandidateInfo {
  /** Hash of the editor's phrase list; an update refuses candidates of another vocabulary. */
  vocabularyHash: string;
  family: string;
  /** The numbered lines of the skill it edited (the current skill; empty when it wrote from scratch). */
  source: string[];
  /** The edit operations, by name, one per token (`keep`, `delete`, `swap`, `insert: …`, `replace: …`, `<end>`). */
  ops: string[];
  /** The lines of the revised skill, in order. */
  steps: string[];
  /** Operations other than `keep` and `<end>`: 0 means the candidate is the current skill's steps unchanged. */
  edits: number;
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
  /** The vocabulary's distinct phrases, by phrase id. */
  readonly steps: readonly string[];
  /** The edit operations' names, by token id. */
  readonly operations: readonly string[];
  /** Optimiser steps taken so far. */
  readonly updates: number;
  propose(context: SkillGenerationContext, n: number): Promise<StepCandidate[]>;
  /** One clipped GRPO update (times `epochs`) from one advantage per candidate, with KL to the reference. */
  update(candidates: readonly SkillCandidate[], advantages: ArrayLike<number>): Promise<TrainMetrics>;
  /** Log-probs of proposed candidates under the current policy (per step and summed). */
  score(candidates: readonly SkillCandidate[]): Promise<{ logProb: number; logProbs: number[] }[]>;
  /**
   * The distribution of the next edit operation after `prefix` (operation names), each as
   * `{ step: <operation name>, probability }`, with the end as `END_OF_SKILL`.
   */
  nextStepDistribution(
    context: SkillGenerationContext,
    prefix?: readonly string[],
  ): Promise<{ step: string; probability: number }[]>;
  /** Writes weights, reference weights, optimiser state, options and vocabulary to `dir`. */
  save(dir: string): Promise<void>;
  /**
   * Resolves once the tfjs backend is chosen and active and the editor's tensors live there. Creating the
   * editor starts it (tensor-ops' `ensureBackend`: the backend the process already chose, else wasm before
   * cpu); every method that computes waits for it, so awaiting it is only needed to read the backend.
   */
  ready(): Promise<BackendInfo>;
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
 * A trainable skill editor for Skill-R1: a small autoregressive tfjs policy over edit operations that
 * revises the current skill's numbered lines (keep, delete, swap, or insert / replace with a phrase of the
 * adapter's step vocabulary), conditioned on the task's family and goal words, the lines themselves and a
 * summary of the history. With no current skill it writes one from the vocabulary. Implements core's
 * `SkillGenerator`.
 */
export function createStepEditor(options: StepEditorOptions): StepEditor {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'expected { vocabulary, ... }');
  }
  throwOnOptionIssues(checkStepEditorOptions(options, 'options'), 'step editor');
  const vocabulary = checkVocabulary(options.vocabulary);
  const { vocabulary: _v, ...rest } = options;
  return buildStepEditor(vocabulary, resolveStepEditorOptions(rest));
}

/**
 * Builds an editor from checked parts; `state` restores a checkpoint (its tensors read on the backend the
 * loader chose).
 */
export async function restoreStepEditor(
  vocabulary: Record<string, string[]>,
  resolved: ResolvedStepEditorOptions,
  state: StepEditorState,
): Promise<StepEditor> {
  const editor = buildStepEditor(vocabulary, resolved, state);
  if (state.optimizer !== undefined) await editor.restoreOptimizer(state.optimizer);
  else await editor.ready();
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

/** The editor's tensors: its weights, the frozen reference, Adam, and the model tensor-ops trains. */
interface Net {
  policy: StepWeights<tf.Variable>;
  reference: StepWeights<tf.Tensor>;
  optimizer: tf.Optimizer;
  model: LogProbModel<EditorRow[]>;
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
    keepPrior: opts.keepPrior,
    lineBuckets: opts.lineBuckets,
    restrictToFamily: opts.restrictToFamily,
    allowRepeats: opts.allowRepeats,
  };
  const d = inputSize(spec);
  const k = opCount(index.steps.length);
  const operations = Array.from({ length: k }, (_, op) => opName(op, index));
  const expected: Record<string, number[]> = {
    w1: [d, opts.hiddenSize],
    b1: [opts.hiddenSize],
    w2: [opts.hiddenSize, k],
    b2: [k],
  };
  // A checkpoint's shapes are checked now (a shape is read without computing); fresh weights fit by construction.
  for (const name of state ? WEIGHT_NAMES : []) {
    const shape = (state as StepEditorState).policy[name].shape;
    if (shape.join(',') !== (expected[name] as number[]).join(',')) {
      throw new InvalidArgumentError(
        `checkpoint.weights.${name}`,
        `expected shape [${expected[name]}] for this vocabulary and options, got [${shape}]`,
      );
    }
  }
  const weightsRng = createRng(opts.seed).fork('step-editor-weights');
  let updates = state?.updates ?? 0;
  let disposed = false;

  // The tensors are made once the backend is chosen: made at once, they would start tfjs's cpu backend.
  const buildNet = (): Net => {
    const initial = state?.policy ?? initWeights(spec, weightsRng);
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
    return {
      policy,
      reference,
      optimizer: tf.train.adam(opts.learningRate),
      model: {
        trainableVariables: [policy.w1, policy.b1, policy.w2, policy.b2],
        logProbs: (rows) => sequenceLogProbs(spec, policy, rows),
      },
    };
  };
  let net: Net | undefined;
  const disposeNet = (): void => {
    if (net !== undefined) {
      tf.dispose([...Object.values(net.policy), ...Object.values(net.reference)]);
      net.optimizer.dispose();
      net = undefined;
    } else if (state !== undefined) {
      // Disposed before the backend was ready: the checkpoint's tensors were never taken over.
      tf.dispose([...Object.values(state.policy), ...Object.values(state.reference)]);
    }
  };
  const backend = ensureBackend().then((info) => {
    if (!disposed) net = buildNet();
    return info;
  });
  // Not lost if nobody awaits it: `ready()` and every computing method report a failure.
  backend.catch(() => {});

  const alive = (): void => {
    if (disposed) throw new InvalidArgumentError('editor', 'this step editor was disposed');
  };
  /** The editor's tensors, once the backend is ready. */
  const use = async (): Promise<Net> => {
    alive();
    await backend;
    alive();
    return net as Net;
  };

  const adamPowers = (optimizer: tf.Optimizer): { name: string; tensor: tf.Tensor }[] => {
    const internals = optimizer as unknown as AdamInternals;
    return ADAM_POWERS.flatMap((name) => {
      const v = internals[name as 'accBeta1' | 'accBeta2'];
      return v === undefined ? [] : [{ name, tensor: v.clone() }];
    });
  };

  const encode = (context: SkillGenerationContext): { ctx: Float32Array; source: string[] } => {
    if (typeof context !== 'object' || context === null || typeof context.task !== 'object') {
      throw new InvalidArgumentError('context.task', 'expected a SkillGenerationContext with a task');
    }
    const task: Task = context.task;
    if (typeof task.family !== 'string' || typeof task.prompt !== 'string') {
      throw new InvalidArgumentError('context.task', 'expected a task with string family and prompt');
    }
    const summary = summarizeHistory(context.history ?? [], { lastGenerations: opts.historyWindow });
    const current = chooseBaseSkill(
      opts.base,
      context.currentSkill,
      context.history ?? [],
      opts.evidencePrior,
    );
    return {
      ctx: encodeContext(task, summary, context.currentSkill, index, layout),
      source: current === undefined ? [] : readNumberedSteps(current.body),
    };
  };

  /** Replays operations from the start, checking each against the edit rules; returns the final state. */
  const replay = (
    family: string,
    source: readonly string[],
    ops: readonly number[],
    field: (i: number) => string,
  ): EditState => {
    const state = startEdit(source);
    ops.forEach((op, i) => {
      if (!Number.isInteger(op) || op < 0 || op >= k || !allowedOps(spec, family, state)[op]) {
        throw new InvalidArgumentError(
          field(i),
          `operation ${Number.isInteger(op) && op >= 0 && op < k ? `"${operations[op]}"` : op} is not allowed after the operations before it`,
        );
      }
      applyOp(state, op, index);
    });
    return state;
  };

  const rowOf = (candidate: SkillCandidate, i: number): EditorRow => {
    const info = (candidate?.info as { stepEditor?: StepCandidateInfo } | undefined)?.stepEditor;
    if (info === undefined || !Array.isArray(info.source) || !Array.isArray(info.context)) {
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
    if (!info.source.every((line) => typeof line === 'string')) {
      throw new InvalidArgumentError(`candidates[${i}].info.stepEditor.source`, 'expected the edited lines');
    }
    const tokens = candidate.tokenIds;
    if (!Array.isArray(tokens)) {
      throw new InvalidArgumentError(
        `candidates[${i}].tokenIds`,
        'expected the edit operations it was proposed with',
      );
    }
    const end = replay(info.family, info.source, tokens, (t) => `candidates[${i}].tokenIds[${t}]`);
    if (!end.ended) {
      throw new InvalidArgumentError(
        `candidates[${i}].tokenIds`,
        `expected the operations to end with "${END_OF_SKILL}"`,
      );
    }
    return { context: info.context, family: info.family, source: info.source, tokens };
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
    operations,
    get updates() {
      return updates;
    },

    async propose(context, n) {
      alive();
      if (!Number.isInteger(n) || n < 1) {
        throw new InvalidArgumentError('n', `expected an integer >= 1 candidates, got ${n}`);
      }
      context?.signal?.throwIfAborted();
      const { policy } = await use();
      const { ctx, source } = encode(context);
      const family = context.task.family;
      const seed = context.seed ?? opts.seed;
      // Each candidate has its own stream, so candidate i does not depend on how many were asked for.
      const base = createRng(seed)
        .fork('step-editor')
        .fork(context.task.id ?? '')
        .fork(context.generation ?? 0);
      const rngs = Array.from({ length: n }, (_, i) => base.fork(i));
      const hashes = hashLines(source, opts.lineBuckets);
      const states = Array.from({ length: n }, () => startEdit(source));
      const chosen: number[][] = Array.from({ length: n }, () => []);
      // Every operation uses a line or writes one, so an edit ends within this many operations.
      const limit = source.length + opts.maxSteps + 1;
      for (let pos = 0; pos < limit; pos++) {
        const active = states.map((_, i) => i).filter((i) => !(states[i] as EditState).ended);
        if (active.length === 0) break;
        const x = new Float32Array(active.length * d);
        const bias = new Float32Array(active.length * k);
        active.forEach((i, r) => {
          fillRow(spec, ctx, family, states[i] as EditState, hashes, x, r * d, bias, r * k);
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
          let token = -1;
          let lastOpen = -1;
          for (let j = 0; j < k; j++) {
            if ((row[j] as number) <= 0) continue;
            lastOpen = j;
            u -= row[j] as number;
            if (u < 0) {
              token = j;
              break;
            }
          }
          // Rounding can leave u just above 0 after the last open operation: that one is the draw.
          if (token < 0) token = lastOpen;
          (chosen[i] as number[]).push(token);
          applyOp(states[i] as EditState, token, index);
        });
      }
      const rows: EditorRow[] = chosen.map((tokens) => ({ context: ctx, family, source, tokens }));
      // Scored by the same function `update` uses, so the first epoch's ratios are exactly 1.
      const logProbs = rowLogProbs(policy, rows);
      const contextArray = Array.from(ctx);
      const candidates = rows.map((row, i) => {
        const state = states[i] as EditState;
        const skill = renderStepSkill(family, state.output);
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
              source: [...source],
              ops: row.tokens.map((op) => operations[op] as string),
              steps: [...state.output],
              edits: row.tokens.filter((op) => op !== OP_KEEP && op !== OP_END).length,
              context: contextArray,
            },
          },
        };
      });
      // Fewest edits first (stable): a loop that breaks reward ties by the earliest candidate then keeps
      // the current skill unless an edit scored strictly better, instead of drifting on noise.
      return candidates
        .map((c, i) => ({ c, i }))
        .sort((a, b) => a.c.info.stepEditor.edits - b.c.info.stepEditor.edits || a.i - b.i)
        .map(({ c }) => c);
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
      const { reference, model, optimizer } = await use();
      const t = batchLength(rows);
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
      const { policy } = await use();
      return rowLogProbs(policy, rows).map((lp) => ({
        logProbs: lp,
        logProb: lp.reduce((s, x) => s + x, 0),
      }));
    },

    async nextStepDistribution(context, prefix = []) {
      alive();
      const { policy } = await use();
      const { ctx, source } = encode(context);
      const family = context.task.family;
      const ids = prefix.map((name, i) => {
        const id = opId(name, index);
        if (id === undefined) {
          throw new InvalidArgumentError(
            `prefix[${i}]`,
            `"${name}" is not an edit operation (keep, delete, swap, insert: <phrase>, replace: <phrase>, ${END_OF_SKILL}) of this vocabulary`,
          );
        }
        return id;
      });
      const state = replay(family, source, ids, (i) => `prefix[${i}]`);
      if (state.ended) {
        throw new InvalidArgumentError('prefix', `expected a prefix before "${END_OF_SKILL}"`);
      }
      const x = new Float32Array(d);
      const bias = new Float32Array(k);
      fillRow(spec, ctx, family, state, hashLines(source, opts.lineBuckets), x, 0, bias, 0);
      const probs = tf.tidy(() =>
        tf.softmax(stepLogits(spec, policy, tf.tensor2d(x, [1, d]), tf.tensor2d(bias, [1, k]))),
      );
      const p = Array.from(probs.dataSync());
      probs.dispose();
      return p.map((probability, id) => ({ step: operations[id] as string, probability }));
    },

    async save(dir) {
      const { policy, reference, optimizer } = await use();
      const optimizerWeights = [...(await optimizer.getWeights()), ...adamPowers(optimizer)];
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
      const { optimizer } = await use();
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

    ready: () => backend,

    dispose() {
      if (disposed) return;
      disposed = true;
      disposeNet();
    },
  };
  return editor;
}
