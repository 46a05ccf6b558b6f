import { createHash } from 'node:crypto';
import { createRng } from '@skillrl/core';
import type { BaseModels } from './base-models.js';
import type { SeqOrder } from './futures.js';
import { HttpError } from './http-error.js';
import {
  type AdamState,
  accumulateGradient,
  adamStep,
  type FakeAdamParams,
  initLora,
  type LoraLayout,
  loraLayout,
  newAdamState,
  sequenceLogProbs,
} from './lora-model.js';
import { isObject, parseDatums, str } from './read-request.js';
import { tokenLoss } from './tinker-losses.js';
import type { FakeTinkerCheckpoint, FakeTinkerTrainingRun, FakeTinkerUpdate } from './types.js';

// LoRA training runs (`create_model`), each a small real learnable model: forward passes with Tinker's losses,
// AdamW steps, and checkpoints (training or sampler weights at `tinker://` paths) that carry the lineage of
// updates their weights descend from.

export interface StoredWeights {
  params: Float64Array;
  adam: AdamState;
  lineage: string[];
  digest: string;
  time: string;
  type: 'training' | 'sampler';
  checkpointId: string;
  tinkerPath: string;
  baseModel: string;
  rank: number;
}

export interface TrainingRun extends SeqOrder {
  id: string;
  sessionId: string;
  baseModel: string;
  rank: number;
  layout: LoraLayout;
  params: Float64Array;
  adam: AdamState;
  grad: Float64Array;
  pending: {
    datums: number;
    tokens: number;
    lossFn: string;
    hash: ReturnType<typeof createHash>;
    lossSum: number;
  };
  lineage: string[];
  updates: FakeTinkerUpdate[];
  checkpoints: Map<string, StoredWeights>;
  loads: { path: string; optimizer: boolean }[];
  userMetadata: Record<string, unknown> | undefined;
  created: string;
  lastRequest: string;
  unloaded: boolean;
}

export interface TrainingRuns {
  /** A run by id, unloaded ones included (no request touches it). */
  get(id: string): TrainingRun | undefined;
  /** The run a request names: 404 when there is none or it was unloaded; its last request time is now. */
  runOf(modelId: unknown): TrainingRun;
  /** The weights at a `tinker://` path (of `kind`, when given); 400 for a malformed path, 404 for none. */
  stored(path: string, kind?: 'weights' | 'sampler_weights'): StoredWeights;
  /** A new run from a `create_model` body in a session (checked, not yet added: its future adds it). */
  prepare(body: Record<string, unknown>, sessionId: string): TrainingRun;
  add(run: TrainingRun): void;
  /** `forward` / `forward_backward`: the per-datum log-probs and loss; the gradient kept when `backward`. */
  forward(
    run: TrainingRun,
    input: unknown,
    what: string,
    backward: boolean,
  ): {
    loss_fn_output_type: string;
    loss_fn_outputs: { logprobs: { data: number[]; dtype: string; shape: number[] } }[];
    metrics: Record<string, number>;
  };
  /** `optim_step`'s work: AdamW over the gradient since the last step, recorded as an update. */
  optimStep(
    run: TrainingRun,
    adam: FakeAdamParams,
  ): { type: 'optim_step'; metrics: { grad_norm: number; learning_rate: number; step: number } };
  /** Saves the run's weights (and Adam's state) under a name; 409 when it exists and `overwrite` is not set. */
  save(run: TrainingRun, name: string, type: 'training' | 'sampler', overwrite: boolean): StoredWeights;
  /** `load_weights`' work: the weights (Adam's moments too with `optimizer`) and lineage of a checkpoint. */
  load(run: TrainingRun, path: string, source: StoredWeights, optimizer: boolean): void;
  /** `GET training_runs/{id}`'s body (src/tinker/types/training_run.py). */
  runJson(run: TrainingRun): Record<string, unknown>;
  /** `GET training_runs/{id}/checkpoints`' checkpoints (src/tinker/types/checkpoint.py). */
  checkpointsJson(run: TrainingRun): Record<string, unknown>[];
  /** A copy of a run, as a test reads it. */
  publicRun(run: TrainingRun): FakeTinkerTrainingRun;
  list(): TrainingRun[];
}

const pad = (n: number) => String(n).padStart(6, '0');
const now = () => new Date().toISOString();

function digestOf(params: Float64Array): string {
  return createHash('sha256')
    .update(Buffer.from(params.buffer, params.byteOffset, params.byteLength))
    .digest('hex');
}

function checkpointOf(w: StoredWeights): FakeTinkerCheckpoint {
  return {
    checkpointId: w.checkpointId,
    type: w.type,
    tinkerPath: w.tinkerPath,
    lineage: [...w.lineage],
    weights: w.digest,
  };
}

function checkpointJson(w: StoredWeights) {
  return {
    checkpoint_id: w.checkpointId,
    checkpoint_type: w.type,
    time: w.time,
    tinker_path: w.tinkerPath,
    size_bytes: w.params.byteLength,
    public: false,
    expires_at: null,
  };
}

function resetPending(run: TrainingRun): void {
  run.grad.fill(0);
  run.pending = { datums: 0, tokens: 0, lossFn: '', hash: createHash('sha256'), lossSum: 0 };
}

function parsePath(path: string): { runId: string; kind: 'weights' | 'sampler_weights'; name: string } {
  const m = /^tinker:\/\/([^/]+)\/(weights|sampler_weights)\/([^/]+)$/.exec(path);
  if (!m)
    throw new HttpError(
      400,
      `path "${path}": expected tinker://<training run>/{weights|sampler_weights}/<name>`,
    );
  return { runId: m[1] as string, kind: m[2] as 'weights' | 'sampler_weights', name: m[3] as string };
}

/** The training runs of a fake server; `seed` seeds each run's LoRA initialisation (unless it names its own). */
export function createTrainingRuns(baseModels: BaseModels, seed: number): TrainingRuns {
  const runs = new Map<string, TrainingRun>();

  return {
    get: (id) => runs.get(id),

    runOf(modelId) {
      if (typeof modelId !== 'string') throw new HttpError(400, 'model_id: expected a string');
      const run = runs.get(modelId);
      if (!run || run.unloaded) throw new HttpError(404, `model "${modelId}" not found`);
      run.lastRequest = now();
      return run;
    },

    stored(path, kind) {
      const parsed = parsePath(path);
      if (kind && parsed.kind !== kind) throw new HttpError(400, `path "${path}": expected a ${kind} path`);
      const run = runs.get(parsed.runId);
      const weights = run?.checkpoints.get(`${parsed.kind}/${parsed.name}`);
      if (!weights) throw new HttpError(404, `checkpoint "${path}" not found`);
      return weights;
    },

    prepare(b, sessionId) {
      const seq = b.model_seq_id;
      if (!Number.isInteger(seq)) throw new HttpError(400, 'model_seq_id: expected an integer');
      const baseModel = str(b, 'base_model');
      const base = baseModels.prior(baseModel);
      const lora = isObject(b.lora_config) ? b.lora_config : { rank: 32 };
      const rank = Number(lora.rank);
      if (!Number.isInteger(rank) || rank < 1)
        throw new HttpError(400, 'lora_config.rank: expected an integer >= 1');
      const id = `${sessionId}:train:${seq}`;
      if (runs.has(id)) throw new HttpError(409, `model ${id} exists`);
      const layout = loraLayout(base.V, rank);
      const loraSeed =
        lora.seed === undefined || lora.seed === null ? `${seed}/${id}` : `lora:${String(lora.seed)}`;
      const params = initLora(layout, createRng(loraSeed));
      return {
        id,
        sessionId,
        baseModel,
        rank,
        layout,
        params,
        adam: newAdamState(layout.size),
        grad: new Float64Array(layout.size),
        pending: { datums: 0, tokens: 0, lossFn: '', hash: createHash('sha256'), lossSum: 0 },
        lineage: [],
        updates: [],
        checkpoints: new Map(),
        loads: [],
        userMetadata: isObject(b.user_metadata) ? b.user_metadata : undefined,
        created: now(),
        lastRequest: now(),
        unloaded: false,
        nextSeq: 1,
        early: new Map(),
      };
    },

    add(run) {
      runs.set(run.id, run);
    },

    forward(run, input, what, backward) {
      const { datums, lossFn, config } = parseDatums(input, what);
      const base = baseModels.prior(run.baseModel);
      let lossSum = 0;
      let tokens = 0;
      const outputs = datums.map((d) => {
        const logProbs = sequenceLogProbs(base, run.layout, run.params, d.inputs, d.targets);
        const dLogProbs = new Float64Array(d.inputs.length);
        for (let i = 0; i < d.inputs.length; i++) {
          const { loss, dLogProb } = tokenLoss(
            lossFn,
            {
              logProb: logProbs[i] as number,
              samplingLogProb: d.logprobs[i] ?? 0,
              advantage: d.advantages[i] ?? 0,
              weight: d.weights[i] ?? 1,
            },
            config,
          );
          lossSum += loss;
          dLogProbs[i] = dLogProb;
        }
        tokens += d.inputs.length;
        if (backward)
          accumulateGradient(base, run.layout, run.params, d.inputs, d.targets, dLogProbs, run.grad);
        return { logprobs: { data: Array.from(logProbs), dtype: 'float32', shape: [logProbs.length] } };
      });
      if (backward) {
        run.pending.datums += datums.length;
        run.pending.tokens += tokens;
        run.pending.lossFn = lossFn;
        run.pending.lossSum += lossSum;
        run.pending.hash.update(JSON.stringify({ lossFn, config, datums }));
      }
      return {
        loss_fn_output_type: 'ArrayRecord',
        loss_fn_outputs: outputs,
        metrics: { 'loss:sum': lossSum },
      };
    },

    optimStep(run, adam) {
      if (run.pending.datums === 0)
        throw new HttpError(400, 'optim_step with no forward_backward since the last step');
      const applied = adamStep(run.params, run.grad, run.adam, adam);
      run.pending.hash.update(JSON.stringify({ adam }));
      const update: FakeTinkerUpdate = {
        digest: run.pending.hash.digest('hex'),
        datums: run.pending.datums,
        tokens: run.pending.tokens,
        lossFn: run.pending.lossFn,
        lossSum: run.pending.lossSum,
        weights: digestOf(run.params),
      };
      run.updates.push(update);
      run.lineage.push(update.digest);
      resetPending(run);
      return {
        type: 'optim_step',
        metrics: { grad_norm: applied.grad_norm, learning_rate: applied.learning_rate, step: run.adam.t },
      };
    },

    save(run, name, type, overwrite) {
      if (!/^[A-Za-z0-9_.-]+$/.test(name))
        throw new HttpError(400, `path "${name}": expected a name of letters, digits, "_", "-" and "."`);
      const kind = type === 'training' ? 'weights' : 'sampler_weights';
      const key = `${kind}/${name}`;
      if (run.checkpoints.has(key) && !overwrite) {
        throw new HttpError(409, `checkpoint "${name}" already exists for model "${run.id}"`);
      }
      const weights: StoredWeights = {
        params: Float64Array.from(run.params),
        adam: { m: Float64Array.from(run.adam.m), v: Float64Array.from(run.adam.v), t: run.adam.t },
        lineage: [...run.lineage],
        digest: digestOf(run.params),
        time: now(),
        type,
        checkpointId: key,
        tinkerPath: `tinker://${run.id}/${kind}/${name}`,
        baseModel: run.baseModel,
        rank: run.rank,
      };
      run.checkpoints.set(key, weights);
      return weights;
    },

    load(run, path, source, optimizer) {
      run.params.set(source.params);
      if (optimizer)
        run.adam = {
          m: Float64Array.from(source.adam.m),
          v: Float64Array.from(source.adam.v),
          t: source.adam.t,
        };
      else run.adam = newAdamState(run.layout.size);
      run.lineage = [...source.lineage];
      resetPending(run);
      run.loads.push({ path, optimizer });
    },

    runJson(run) {
      const all = [...run.checkpoints.values()];
      const last = (type: 'training' | 'sampler') => {
        const found = all.filter((w) => w.type === type).at(-1);
        return found ? checkpointJson(found) : null;
      };
      return {
        training_run_id: run.id,
        base_model: run.baseModel,
        model_owner: 'fake',
        is_lora: true,
        corrupted: false,
        lora_rank: run.rank,
        last_request_time: run.lastRequest,
        last_checkpoint: last('training'),
        last_sampler_checkpoint: last('sampler'),
        user_metadata: run.userMetadata ?? null,
      };
    },

    checkpointsJson: (run) => [...run.checkpoints.values()].map(checkpointJson),

    publicRun(run) {
      return {
        id: run.id,
        sessionId: run.sessionId,
        baseModel: run.baseModel,
        rank: run.rank,
        lineage: [...run.lineage],
        updates: run.updates.map((u) => ({ ...u })),
        checkpoints: [...run.checkpoints.values()].map((w) => checkpointOf(w)),
        pendingDatums: run.pending.datums,
        loads: run.loads.map((l) => ({ ...l })),
        weights: digestOf(run.params),
      };
    },

    list: () => [...runs.values()],
  };
}

/** A checkpoint's name: the one the request gives, else `<prefix>-<n>` (n: the run's checkpoints so far + 1). */
export function checkpointName(run: TrainingRun, path: unknown, prefix: 'state' | 'sampler'): string {
  return typeof path === 'string' && path !== '' ? path : `${prefix}-${pad(run.checkpoints.size + 1)}`;
}
