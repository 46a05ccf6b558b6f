import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRng, InvalidArgumentError } from '@skillrl/core';
import { decodeForwardBackwardRequest, encodeForwardBackwardOutput, PROTOBUF } from './fake-protobuf.js';
import {
  type AdamState,
  accumulateGradient,
  adamStep,
  type BasePrior,
  buildBasePrior,
  type FakeAdamParams,
  type FakeSamplingParams,
  initLora,
  type LoraLayout,
  loraLayout,
  newAdamState,
  sampleSequence,
  sequenceLogProbs,
} from './lora-model.js';
import {
  requiredLossInputs,
  TINKER_LOSSES,
  type TinkerLossConfig,
  type TinkerLossName,
  tokenLoss,
} from './tinker-losses.js';
import { tinyChatBaseModels } from './tiny-chat.js';
import {
  FAKE_TINKER_FAULTS,
  type FakeFutureFault,
  type FakeTinkerCheckpoint,
  type FakeTinkerFault,
  type FakeTinkerOptions,
  type FakeTinkerRecordedRequest,
  type FakeTinkerRequestInfo,
  type FakeTinkerServer,
  type FakeTinkerStats,
  type FakeTinkerTrainingRun,
  type FakeTinkerUpdate,
} from './types.js';

// The routes and shapes below follow the Tinker Python SDK (thinking-machines-lab/tinker): the HTTP routes of
// src/tinker/resources/{service,models,training,weights,sampling,futures}.py and the JSON bodies of
// src/tinker/types/*.py (requests as `model_dump(..., exclude_none=True)` writes them; responses as the
// pydantic models read them), `retrieve_future`'s answers as src/tinker/lib/api_future_impl.py dispatches
// them (`try_again`, `RequestFailedResponse`, 410, the result), the `X-API-Key` header of
// src/tinker/lib/_auth_token_provider.py and the `X-Idempotency-Key` header of src/tinker/_client.py.
// `forward_backward` is the JSON body of the SDK's pydantic path (releases up to May 2026; newer ones send
// protobuf, which skyrl-tx and this fake do not read).

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Future {
  id: string;
  polls: number;
  pendingPolls: number;
  /** When its work is done (`futures.workMs`). */
  readyAt: number;
  /** The route that made it (a forward pass's result can be answered as protobuf). */
  route: string;
  /** Settles once the work has run (a training call waits for its turn by `seq_id`). */
  done?: Promise<void>;
  fault?: FakeFutureFault;
  result?: unknown;
  error?: { error: string; category: 'user' | 'server' | 'unknown' };
}

interface StoredWeights {
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

interface TrainingRun {
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
  /** The training calls' order: the next `seq_id` due, and the calls that came ahead of their turn. */
  nextSeq: number;
  early: Map<number, () => void>;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'api-key', 'proxy-authorization']);
const pad = (n: number) => String(n).padStart(6, '0');

function digestOf(params: Float64Array): string {
  return createHash('sha256')
    .update(Buffer.from(params.buffer, params.byteOffset, params.byteLength))
    .digest('hex');
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function need<T>(value: T | undefined | null, message: string): T {
  if (value === undefined || value === null) throw new HttpError(400, message);
  return value;
}

function str(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value === '')
    throw new HttpError(400, `${key}: expected a non-empty string`);
  return value;
}

function ints(value: unknown, what: string): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v))) {
    throw new HttpError(400, `${what}: expected a list of integers`);
  }
  return value as number[];
}

/** `ModelInput.chunks` (only `encoded_text` chunks: the fake has no images). */
function modelInputTokens(value: unknown, what: string): number[] {
  if (!isObject(value) || !Array.isArray(value.chunks))
    throw new HttpError(400, `${what}: expected { chunks: [...] }`);
  const tokens: number[] = [];
  value.chunks.forEach((chunk, i) => {
    if (!isObject(chunk)) throw new HttpError(400, `${what}.chunks[${i}]: expected an object`);
    if (chunk.type !== undefined && chunk.type !== 'encoded_text') {
      throw new HttpError(
        400,
        `${what}.chunks[${i}]: chunk type "${String(chunk.type)}" is not supported here`,
      );
    }
    tokens.push(...ints(chunk.tokens, `${what}.chunks[${i}].tokens`));
  });
  return tokens;
}

/** `TensorData` ({ data, dtype, shape? }), flattened; sparse CSR tensors are expanded. */
function tensorData(value: unknown, what: string, length: number): number[] {
  if (!isObject(value) || !Array.isArray(value.data))
    throw new HttpError(400, `${what}: expected TensorData { data, dtype }`);
  if (value.dtype !== 'float32' && value.dtype !== 'int64') {
    throw new HttpError(400, `${what}.dtype: expected "float32" or "int64"`);
  }
  let data = value.data as unknown[];
  if (Array.isArray(value.sparse_crow_indices)) {
    const shape = need(value.shape as number[] | undefined, `${what}.shape: required for a sparse tensor`);
    const crow = ints(value.sparse_crow_indices, `${what}.sparse_crow_indices`);
    const col = ints(value.sparse_col_indices, `${what}.sparse_col_indices`);
    const cols = shape[1] ?? 1;
    const dense = new Array<number>((shape[0] ?? 0) * cols).fill(0);
    for (let row = 0; row + 1 < crow.length; row++) {
      for (let j = crow[row] as number; j < (crow[row + 1] as number); j++) {
        dense[row * cols + (col[j] as number)] = Number(data[j]);
      }
    }
    data = dense;
  }
  if (!data.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new HttpError(400, `${what}.data: expected finite numbers`);
  }
  if (data.length !== length) {
    throw new HttpError(400, `${what}: has ${data.length} values, the model input has ${length} tokens`);
  }
  return data as number[];
}

interface ParsedDatum {
  inputs: number[];
  targets: number[];
  logprobs: number[];
  advantages: number[];
  weights: number[];
}

function parseDatums(
  input: unknown,
  what: string,
): { datums: ParsedDatum[]; lossFn: TinkerLossName; config: TinkerLossConfig } {
  if (!isObject(input) || !Array.isArray(input.data))
    throw new HttpError(400, `${what}: expected { data, loss_fn }`);
  const lossFn = input.loss_fn as TinkerLossName;
  if (!TINKER_LOSSES.includes(lossFn)) {
    throw new HttpError(
      400,
      `${what}.loss_fn: expected one of ${TINKER_LOSSES.join(', ')}, got ${JSON.stringify(input.loss_fn)}`,
    );
  }
  if (input.data.length === 0) throw new HttpError(400, `${what}.data: no datums`);
  const config = (isObject(input.loss_fn_config) ? input.loss_fn_config : {}) as TinkerLossConfig;
  const datums = input.data.map((datum, i) => {
    const at = `${what}.data[${i}]`;
    if (!isObject(datum) || !isObject(datum.loss_fn_inputs))
      throw new HttpError(400, `${at}: expected { model_input, loss_fn_inputs }`);
    const inputs = modelInputTokens(datum.model_input, `${at}.model_input`);
    const fields = datum.loss_fn_inputs;
    for (const key of requiredLossInputs(lossFn)) {
      if (fields[key] === undefined)
        throw new HttpError(400, `${at}.loss_fn_inputs.${key}: required by loss_fn "${lossFn}"`);
    }
    const n = inputs.length;
    const read = (key: string, fill: number) =>
      fields[key] === undefined
        ? new Array<number>(n).fill(fill)
        : tensorData(fields[key], `${at}.loss_fn_inputs.${key}`, n);
    return {
      inputs,
      targets: read('target_tokens', 0).map((t) => Math.trunc(t)),
      logprobs: read('logprobs', 0),
      advantages: read('advantages', 0),
      weights: read('weights', 1),
    };
  });
  return { datums, lossFn, config };
}

/**
 * Starts a fake Tinker API server on 127.0.0.1 for tests, built from the Tinker SDK's routes and types, that
 * hosts a small real learnable model per LoRA training run: a bigram base model over the tiny-chat
 * vocabulary with a LoRA adapter (see `lora-model.ts`), trained by `forward_backward` with Tinker's losses
 * (`importance_sampling`, `ppo`, `cispo`, `dro`, `cross_entropy`) and AdamW `optim_step`s, saved as training
 * or sampler checkpoints, loaded back, and sampled. Futures resolve after `futures.pendingPolls` polls, or
 * fail, expire or never resolve as planned; HTTP faults (429, 500, dropped sockets before or after the work
 * is done) are seeded. Every update is recorded with a digest, and checkpoints carry the lineage of updates
 * their weights descend from, so a test can tell whether two runs trained the same way.
 */
export async function startFakeTinker(options: FakeTinkerOptions = {}): Promise<FakeTinkerServer> {
  const specs = options.baseModels ?? tinyChatBaseModels();
  if (Object.keys(specs).length === 0)
    throw new InvalidArgumentError('options.baseModels', 'expected at least one base model');
  const rate = options.faults?.rate ?? 0;
  if (!(rate >= 0 && rate <= 1))
    throw new InvalidArgumentError('options.faults.rate', `expected a probability, got ${rate}`);
  const kinds = options.faults?.kinds ?? FAKE_TINKER_FAULTS;
  const pendingPolls = options.futures?.pendingPolls ?? 1;
  const seqGapMs = options.seqGapMs ?? 100;
  const wire = options.wire ?? 'json';
  if (wire !== 'json' && wire !== 'protobuf' && wire !== 'both')
    throw new InvalidArgumentError(
      'options.wire',
      `expected "json", "protobuf" or "both", got ${JSON.stringify(wire)}`,
    );
  const seed = options.seed ?? 0;
  const record = options.record ?? true;
  const priors = new Map<string, BasePrior>();
  const prior = (name: string): BasePrior => {
    const spec = specs[name];
    if (!spec)
      throw new HttpError(
        400,
        `base_model "${name}" is not served here; served: ${Object.keys(specs).join(', ')}`,
      );
    let p = priors.get(name);
    if (!p) {
      p = buildBasePrior(spec);
      priors.set(name, p);
    }
    return p;
  };

  const requests: FakeTinkerRecordedRequest[] = [];
  const stats: FakeTinkerStats = {
    received: 0,
    byRoute: {},
    faulted: {},
    futures: { created: 0, tryAgain: 0, resolved: 0, failed: 0, expired: 0 },
    idempotentReplays: 0,
    heartbeats: 0,
    warnings: [],
  };
  const streaks = (options.faults?.streaks ?? []).map((s) => ({ ...s, left: s.count }));
  const seen = new Map<string, number>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const sessions = new Map<
    string,
    { id: string; heartbeats: number; tags: string[]; sdkVersion: string; samplers: number }
  >();
  const samplingSessions = new Map<string, { modelPath?: string; baseModel?: string }>();
  const runs = new Map<string, TrainingRun>();
  const futures = new Map<string, Future>();
  const counters = { session: 0, sampling: 0, request: 0, sample: 0 };
  const now = () => new Date().toISOString();

  function drawFault(info: FakeTinkerRequestInfo): FakeTinkerFault | undefined {
    for (const streak of streaks) {
      const routes = streak.routes;
      const applies = routes ? routes.includes(info.route) : info.route !== 'retrieve_future';
      if (applies && streak.left > 0) {
        streak.left -= 1;
        return streak.fault;
      }
    }
    const planned = options.faults?.plan?.(info);
    if (planned) return planned;
    if (rate <= 0) return undefined;
    const rng = createRng(
      `${seed}/${info.method}/${info.route}/${JSON.stringify(info.body ?? null)}/${info.attempt}`,
    );
    return rng.float() < rate ? rng.pick(kinds) : undefined;
  }

  function runOf(modelId: unknown): TrainingRun {
    if (typeof modelId !== 'string') throw new HttpError(400, 'model_id: expected a string');
    const run = runs.get(modelId);
    if (!run || run.unloaded) throw new HttpError(404, `model "${modelId}" not found`);
    run.lastRequest = now();
    return run;
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

  function stored(path: string, kind?: 'weights' | 'sampler_weights'): StoredWeights {
    const parsed = parsePath(path);
    if (kind && parsed.kind !== kind) throw new HttpError(400, `path "${path}": expected a ${kind} path`);
    const run = runs.get(parsed.runId);
    const weights = run?.checkpoints.get(`${parsed.kind}/${parsed.name}`);
    if (!weights) throw new HttpError(404, `checkpoint "${path}" not found`);
    return weights;
  }

  /**
   * Runs a training call's work in `seq_id` order, as the service does ("the server won't process later
   * chunks until the first one arrives"): a call ahead of its turn waits for the ones before it, or for
   * `seqGapMs` when one never comes (a client that skipped a number). A repeat of a past number runs at once.
   */
  function inOrder(run: TrainingRun, seq: number, work: () => void): Promise<void> {
    return new Promise<void>((resolve) => {
      const go = () => {
        run.early.delete(seq);
        work();
        resolve();
        run.nextSeq = Math.max(run.nextSeq, seq + 1);
        for (;;) {
          const next = run.early.get(run.nextSeq);
          if (!next) break;
          next();
        }
      };
      // In turn: worked just after the request is answered (as a service queues it), not before.
      if (seq <= run.nextSeq) {
        setImmediate(go);
        return;
      }
      run.early.set(seq, go);
      setTimeout(() => {
        if (run.early.get(seq) !== go) return;
        // The calls before it never came: run everything waiting up to it, in order.
        for (const k of [...run.early.keys()].sort((a, b) => a - b)) {
          if (k > seq) break;
          run.nextSeq = Math.max(run.nextSeq, k);
          run.early.get(k)?.();
        }
      }, seqGapMs);
    });
  }

  function newFuture(
    info: FakeTinkerRequestInfo,
    work: () => unknown,
    order?: { run: TrainingRun; seq: number },
  ): string {
    counters.request += 1;
    const id = `req-${pad(counters.request)}`;
    const fault = options.futures?.plan?.({ ...info, requestId: id });
    const future: Future = {
      id,
      polls: 0,
      pendingPolls,
      readyAt: Date.now() + (options.futures?.workMs?.[info.route] ?? 0),
      route: info.route,
      ...(fault ? { fault } : {}),
    };
    stats.futures.created += 1;
    if (fault === 'fail-user' || fault === 'fail-server') {
      future.error = {
        error: `the ${info.route} request failed (planned fault)`,
        category: fault === 'fail-user' ? 'user' : 'server',
      };
    } else if (fault !== 'expire' && fault !== 'never') {
      const execute = () => {
        try {
          future.result = work();
        } catch (error) {
          // A request the server accepted but could not carry out: the future fails, as Tinker's do.
          const message = error instanceof Error ? error.message : String(error);
          future.error = {
            error: message,
            category: error instanceof HttpError && error.status < 500 ? 'user' : 'server',
          };
        }
      };
      if (order) future.done = inOrder(order.run, order.seq, execute);
      else execute();
    }
    futures.set(id, future);
    return id;
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

  function publicRun(run: TrainingRun): FakeTinkerTrainingRun {
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
  }

  function resetPending(run: TrainingRun): void {
    run.grad.fill(0);
    run.pending = { datums: 0, tokens: 0, lossFn: '', hash: createHash('sha256'), lossSum: 0 };
  }

  function forward(run: TrainingRun, input: unknown, what: string, backward: boolean) {
    const { datums, lossFn, config } = parseDatums(input, what);
    const base = prior(run.baseModel);
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
    return { loss_fn_output_type: 'ArrayRecord', loss_fn_outputs: outputs, metrics: { 'loss:sum': lossSum } };
  }

  function saveWeights(
    run: TrainingRun,
    name: string,
    type: 'training' | 'sampler',
    overwrite: boolean,
  ): StoredWeights {
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

  function trainingRunJson(run: TrainingRun) {
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
  }

  function sample(body: Record<string, unknown>) {
    const prompt = modelInputTokens(body.prompt, 'prompt');
    const params = (isObject(body.sampling_params) ? body.sampling_params : {}) as FakeSamplingParams & {
      seed?: number | null;
      stop?: unknown;
    };
    if (params.stop !== undefined && params.stop !== null) {
      const stop = Array.isArray(params.stop) ? params.stop : [params.stop];
      if (!stop.every((s) => Number.isInteger(s)))
        throw new HttpError(400, 'sampling_params.stop: this server takes stop token ids only');
      params.stop = stop as number[];
    }
    const n = body.num_samples === undefined ? 1 : Number(body.num_samples);
    if (!Number.isInteger(n) || n < 1) throw new HttpError(400, 'num_samples: expected an integer >= 1');
    let modelPath = typeof body.model_path === 'string' ? body.model_path : undefined;
    let baseModel = typeof body.base_model === 'string' ? body.base_model : undefined;
    if (typeof body.sampling_session_id === 'string') {
      const s = samplingSessions.get(body.sampling_session_id);
      if (!s) throw new HttpError(404, `sampling session "${body.sampling_session_id}" not found`);
      if (body.seq_id === undefined)
        throw new HttpError(400, "'seq_id' must be provided when 'sampling_session_id' is used");
      modelPath = s.modelPath;
      baseModel = s.baseModel;
    }
    let base: BasePrior;
    let layout: LoraLayout;
    let weights: Float64Array;
    if (modelPath) {
      const w = stored(modelPath, 'sampler_weights');
      base = prior(w.baseModel);
      layout = loraLayout(base.V, w.rank);
      weights = w.params;
    } else {
      const name = need(
        baseModel,
        'exactly one of base_model or model_path (or a sampling session) is required',
      );
      base = prior(name);
      layout = loraLayout(base.V, 1);
      weights = new Float64Array(layout.size);
    }
    if (prompt.length + (params.max_tokens ?? 0) > base.maxContextLength) {
      throw new HttpError(
        400,
        `prompt (${prompt.length} tokens) and max_tokens exceed the context length ${base.maxContextLength}`,
      );
    }
    counters.sample += 1;
    const sampleSeed =
      typeof params.seed === 'number' ? `seed:${params.seed}` : `server:${seed}:${counters.sample}`;
    const root = createRng(sampleSeed);
    const sequences = Array.from({ length: n }, (_, i) =>
      sampleSequence(base, layout, weights, prompt, params, root.fork(i)),
    );
    const out: Record<string, unknown> = { type: 'sample', sequences };
    if (body.prompt_logprobs === true) {
      const lp = sequenceLogProbs(base, layout, weights, prompt.slice(0, -1), prompt.slice(1));
      out.prompt_logprobs = [null, ...Array.from(lp)];
    }
    return out;
  }

  // The SDK numbers every training call (`seq_id = request_id + 1`); a server reads a missing one as 0 and
  // refuses it, so this one does too, with the reason.
  const SEQUENCED = new Set([
    'forward_backward',
    'forward',
    'optim_step',
    'save_weights',
    'save_weights_for_sampler',
    'load_weights',
  ]);

  async function handle(
    method: string,
    route: string,
    body: Record<string, unknown> | undefined,
    info: FakeTinkerRequestInfo,
    entry?: FakeTinkerRecordedRequest,
  ): Promise<{ status: number; body: unknown; bytes?: Uint8Array }> {
    const b = body ?? {};
    if (method === 'POST' && SEQUENCED.has(route)) {
      const seq = b.seq_id;
      if (seq === undefined || seq === null) {
        throw new HttpError(
          400,
          `seq_id: required on ${route} (the SDK sends request_id + 1 for every training call; a missing one is read as 0, which is out of range)`,
        );
      }
      if (!(Number.isInteger(seq) && (seq as number) >= 1))
        throw new HttpError(400, `seq_id: expected an integer >= 1, got ${JSON.stringify(seq)}`);
    }
    if (method === 'POST' && route === 'asample' && typeof b.sampling_session_id !== 'string') {
      const warning =
        'asample without a sampling_session_id: the SDK always samples through a sampling session (create_sampling_session)';
      stats.warnings.push({ route, warning });
      if (entry) entry.warning = warning;
    }
    const ordered = SEQUENCED.has(route) ? runs.get(String(b.model_id)) : undefined;
    const future = (work: () => unknown, modelId?: string) => ({
      status: 200,
      body: {
        request_id: newFuture(info, work, ordered ? { run: ordered, seq: b.seq_id as number } : undefined),
        ...(modelId ? { model_id: modelId } : {}),
      },
    });
    if (method === 'GET' && route === 'healthz') return { status: 200, body: { status: 'ok' } };
    if (method === 'GET' && route === 'get_server_capabilities') {
      return {
        status: 200,
        body: {
          supported_models: Object.keys(specs).map((name) => ({
            model_name: name,
            max_context_length: prior(name).maxContextLength,
          })),
        },
      };
    }
    const checkpointsRoute = /^training_runs\/([^/]+)\/checkpoints$/.exec(route);
    if (method === 'GET' && checkpointsRoute) {
      const run = runs.get(decodeURIComponent(checkpointsRoute[1] as string));
      if (!run) throw new HttpError(404, 'training run not found');
      return {
        status: 200,
        body: { checkpoints: [...run.checkpoints.values()].map(checkpointJson), cursor: null },
      };
    }
    const runRoute = /^training_runs\/([^/]+)$/.exec(route);
    if (method === 'GET' && runRoute) {
      const run = runs.get(decodeURIComponent(runRoute[1] as string));
      if (!run) throw new HttpError(404, 'training run not found');
      return { status: 200, body: trainingRunJson(run) };
    }
    if (method !== 'POST') throw new HttpError(404, `no route ${method} /api/v1/${route}`);
    switch (route) {
      case 'create_session': {
        counters.session += 1;
        const id = `session-${pad(counters.session)}`;
        const tags = Array.isArray(b.tags) ? (b.tags as unknown[]).map(String) : [];
        sessions.set(id, { id, heartbeats: 0, tags, sdkVersion: String(b.sdk_version ?? ''), samplers: 0 });
        return { status: 200, body: { type: 'create_session', session_id: id } };
      }
      case 'session_heartbeat': {
        const session = sessions.get(str(b, 'session_id'));
        if (!session) throw new HttpError(404, 'Session not found');
        session.heartbeats += 1;
        stats.heartbeats += 1;
        return { status: 200, body: { type: 'session_heartbeat' } };
      }
      case 'create_sampling_session': {
        const session = sessions.get(str(b, 'session_id'));
        if (!session) throw new HttpError(404, 'Session not found');
        const modelPath = typeof b.model_path === 'string' ? b.model_path : undefined;
        const baseModel = typeof b.base_model === 'string' ? b.base_model : undefined;
        if ((modelPath === undefined) === (baseModel === undefined)) {
          throw new HttpError(400, 'Exactly one of base_model or model_path must be provided');
        }
        if (modelPath) stored(modelPath, 'sampler_weights');
        else prior(baseModel as string);
        counters.sampling += 1;
        const id = `sampling-${pad(counters.sampling)}`;
        samplingSessions.set(id, {
          ...(modelPath ? { modelPath } : {}),
          ...(baseModel ? { baseModel } : {}),
        });
        return { status: 200, body: { type: 'create_sampling_session', sampling_session_id: id } };
      }
      case 'create_model': {
        const sessionId = str(b, 'session_id');
        if (!sessions.has(sessionId)) throw new HttpError(404, 'Session not found');
        const seq = b.model_seq_id;
        if (!Number.isInteger(seq)) throw new HttpError(400, 'model_seq_id: expected an integer');
        const baseModel = str(b, 'base_model');
        const base = prior(baseModel);
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
        const run: TrainingRun = {
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
        return future(() => {
          runs.set(id, run);
          return { type: 'create_model', model_id: id };
        }, id);
      }
      case 'get_info': {
        const run = runOf(b.model_id);
        return {
          status: 200,
          body: {
            type: 'get_info',
            model_data: { arch: 'fake-lora-bigram', model_name: run.baseModel, tokenizer_id: run.baseModel },
            model_id: run.id,
            is_lora: true,
            lora_rank: run.rank,
            model_name: run.baseModel,
          },
        };
      }
      case 'unload_model': {
        const run = runOf(b.model_id);
        return future(() => {
          run.unloaded = true;
          return { type: 'unload_model', model_id: run.id };
        });
      }
      case 'forward_backward': {
        const run = runOf(b.model_id);
        return future(() => forward(run, b.forward_backward_input, 'forward_backward_input', true));
      }
      case 'forward': {
        const run = runOf(b.model_id);
        return future(() => forward(run, b.forward_input, 'forward_input', false));
      }
      case 'optim_step': {
        const run = runOf(b.model_id);
        const adam = (isObject(b.adam_params) ? b.adam_params : {}) as FakeAdamParams;
        return future(() => {
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
        });
      }
      case 'save_weights': {
        const run = runOf(b.model_id);
        const name =
          typeof b.path === 'string' && b.path !== '' ? b.path : `state-${pad(run.checkpoints.size + 1)}`;
        if (run.checkpoints.has(`weights/${name}`) && b.overwrite !== true) {
          throw new HttpError(409, `Checkpoint '${name}' already exists for model '${run.id}'`);
        }
        return future(() => ({
          type: 'save_weights',
          path: saveWeights(run, name, 'training', b.overwrite === true).tinkerPath,
        }));
      }
      case 'save_weights_for_sampler': {
        const run = runOf(b.model_id);
        const name =
          typeof b.path === 'string' && b.path !== '' ? b.path : `sampler-${pad(run.checkpoints.size + 1)}`;
        if (run.checkpoints.has(`sampler_weights/${name}`)) {
          throw new HttpError(409, `Checkpoint '${name}' already exists for model '${run.id}'`);
        }
        return future(() => {
          const w = saveWeights(run, name, 'sampler', false);
          const out: Record<string, unknown> = { type: 'save_weights_for_sampler', path: w.tinkerPath };
          if (Number.isInteger(b.sampling_session_seq_id)) {
            counters.sampling += 1;
            const id = `sampling-${pad(counters.sampling)}`;
            samplingSessions.set(id, { modelPath: w.tinkerPath });
            out.sampling_session_id = id;
          }
          return out;
        });
      }
      case 'load_weights': {
        const run = runOf(b.model_id);
        const path = str(b, 'path');
        const optimizer = b.optimizer === true;
        const source = stored(path, 'weights');
        if (source.baseModel !== run.baseModel || source.rank !== run.rank) {
          throw new HttpError(
            400,
            `checkpoint ${path} is ${source.baseModel} rank ${source.rank}; this model is ${run.baseModel} rank ${run.rank}`,
          );
        }
        return future(() => {
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
          return { type: 'load_weights', path, model_id: run.id };
        });
      }
      case 'asample':
        return future(() => sample(b));
      case 'retrieve_future': {
        const id = str(b, 'request_id');
        const f = futures.get(id);
        if (!f) throw new HttpError(404, 'Future not found');
        if (f.fault === 'expire') {
          stats.futures.expired += 1;
          futures.delete(id);
          throw new HttpError(410, `promise ${id} expired`);
        }
        if (f.done) await f.done;
        const early = f.readyAt - Date.now();
        // A poll before the work is done is held until it is (servers hold polls open too).
        if (early > 0) await new Promise((r) => setTimeout(r, early));
        f.polls += 1;
        if (f.fault === 'never' || f.polls <= f.pendingPolls) {
          stats.futures.tryAgain += 1;
          return { status: 200, body: { type: 'try_again', request_id: id, queue_state: 'active' } };
        }
        if (f.error) {
          stats.futures.failed += 1;
          return { status: 200, body: f.error };
        }
        stats.futures.resolved += 1;
        if (f.route === 'forward' || f.route === 'forward_backward') {
          const accept = String(entry?.headers.accept ?? '');
          if (wire !== 'json' && accept.includes(PROTOBUF)) {
            return {
              status: 200,
              body: undefined,
              bytes: encodeForwardBackwardOutput(
                f.result as Parameters<typeof encodeForwardBackwardOutput>[0],
              ),
            };
          }
          if (wire === 'protobuf') {
            throw new HttpError(
              406,
              `the ${f.route} result is served as protobuf only here; ask with Accept: ${PROTOBUF}`,
            );
          }
        }
        return { status: 200, body: f.result };
      }
      default:
        throw new HttpError(404, `no route POST /api/v1/${route}`);
    }
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const baseRoute = url.pathname.replace(/^\/api\/v1\//, '');
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      return;
    }
    const contentType = String(req.headers['content-type'] ?? '');
    const binary = contentType.includes(PROTOBUF);
    // A protobuf body is identified (idempotency, fault draws) by its bytes.
    const text = binary ? raw.toString('base64') : raw.toString('utf8');
    let route = baseRoute;
    stats.received += 1;
    stats.byRoute[route.startsWith('training_runs/') ? 'training_runs' : route] =
      (stats.byRoute[route.startsWith('training_runs/') ? 'training_runs' : route] ?? 0) + 1;
    let body: Record<string, unknown> | undefined;
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !SECRET_HEADERS.has(k.toLowerCase())),
    );
    const key = req.headers['x-idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : undefined;
    const entry: FakeTinkerRecordedRequest = {
      method,
      route,
      status: 0,
      body: undefined,
      headers,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    };
    if (record) requests.push(entry);
    const send = (
      status: number,
      payload: unknown,
      extra: Record<string, string> = {},
      bytes?: Uint8Array,
    ) => {
      entry.status = status;
      const out = bytes ?? JSON.stringify(payload);
      const write = () => {
        if (res.destroyed) return;
        res.writeHead(status, {
          'content-type': bytes ? PROTOBUF : 'application/json',
          'content-length': typeof out === 'string' ? Buffer.byteLength(out) : out.byteLength,
          ...extra,
        });
        res.end(out);
      };
      if (options.latencyMs) setTimeout(write, options.latencyMs);
      else write();
    };
    try {
      if (binary) {
        // The SDK 0.25's forward_backward (a forward pass too, with forward_only); skyrl-tx reads JSON only.
        if (wire === 'json') {
          throw new HttpError(
            415,
            'this server reads JSON bodies only (like skyrl-tx), not application/x-protobuf',
          );
        }
        if (!(method === 'POST' && baseRoute === 'forward_backward')) {
          throw new HttpError(
            415,
            `POST /api/v1/${baseRoute} takes JSON; only forward_backward takes protobuf`,
          );
        }
        try {
          const decoded = decodeForwardBackwardRequest(raw);
          route = decoded.route;
          body = decoded.body;
          entry.route = route;
        } catch (error) {
          throw new HttpError(
            400,
            `the protobuf ForwardBackwardRequest does not parse: ${(error as Error).message}`,
          );
        }
      } else if (wire === 'protobuf' && (baseRoute === 'forward_backward' || baseRoute === 'forward')) {
        throw new HttpError(
          415,
          `this server reads ${baseRoute} as protobuf only (application/x-protobuf), as SDK 0.25 sends it`,
        );
      } else if (text.length > 0) {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (!isObject(parsed)) throw new HttpError(400, 'expected a JSON object');
          body = parsed;
        } catch (error) {
          if (error instanceof HttpError) throw error;
          throw new HttpError(
            400,
            "the body is not JSON (this server reads the SDK's JSON requests, not protobuf)",
          );
        }
      }
      if (record) entry.body = body;
      if (options.apiKey !== undefined) {
        const given = req.headers['x-api-key'];
        if (given !== options.apiKey) {
          const named = options.echoKeyInErrors && typeof given === 'string' ? ` "${given}"` : '';
          throw new HttpError(401, `Invalid API key${named}; set TINKER_API_KEY`);
        }
      }
      const signature = `${method} ${route} ${text}`;
      const attempt = seen.get(signature) ?? 0;
      seen.set(signature, attempt + 1);
      const info: FakeTinkerRequestInfo = { method, route, body, attempt };
      const fault = drawFault(info);
      if (fault) {
        entry.fault = fault;
        stats.faulted[fault] = (stats.faulted[fault] ?? 0) + 1;
      }
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault === 'rate-limit') {
        const wait = options.faults?.retryAfterMs ?? 5;
        // 0: a 429 that does not say how long to wait (the client's own backoff decides).
        return send(
          429,
          { detail: 'rate limited' },
          wait > 0 ? { 'retry-after-ms': String(wait), 'retry-after': String(Math.ceil(wait / 1000)) } : {},
        );
      }
      if (fault === 'server-error') return send(500, { detail: 'internal server error (planned fault)' });
      if (fault === 'unauthorized') return send(401, { detail: 'Invalid API key' });
      if (fault === 'payment-required') {
        return send(402, { detail: 'Billing: the organization has no credits left (planned fault)' });
      }
      // A retried request with a key seen before gets the first answer again, without doing the work twice.
      const cacheKey = idempotencyKey && method !== 'GET' ? `${route} ${idempotencyKey}` : undefined;
      const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
      let answer: { status: number; body: unknown; bytes?: Uint8Array };
      if (cached) {
        stats.idempotentReplays += 1;
        answer = cached;
      } else {
        answer = await handle(method, route, body, info, entry);
        if (answer.bytes) {
          // Binary answers are not kept for replays (only futures' results are binary, and polls have no key).
          if (fault === 'drop-after-commit') {
            req.socket.destroy();
            return;
          }
          return send(answer.status, undefined, {}, answer.bytes);
        }
        if (cacheKey && answer.status < 500) idempotent.set(cacheKey, answer);
      }
      if (fault === 'drop-after-commit') {
        req.socket.destroy();
        return;
      }
      send(answer.status, answer.body);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      send(status, { detail: message });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    requests,
    stats: () => JSON.parse(JSON.stringify(stats)) as FakeTinkerStats,
    sessions: () =>
      [...sessions.values()].map(({ id, heartbeats, tags, sdkVersion }) => ({
        id,
        heartbeats,
        tags: [...tags],
        sdkVersion,
      })),
    samplingSessions: () => [...samplingSessions.entries()].map(([id, s]) => ({ id, ...s })),
    trainingRuns: () => [...runs.values()].map(publicRun),
    trainingRun: (id) => {
      const run = runs.get(id);
      return run ? publicRun(run) : undefined;
    },
    lineageOf: (path) => {
      try {
        return [...stored(path).lineage];
      } catch {
        return undefined;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
