import { InvalidArgumentError, type JsonObject, REQUEST_SEED_RANGE } from '@skillrl/core';
import { createTinkerClient } from '../client/create-tinker-client.js';
import type { TinkerClient } from '../client/tinker-client.js';
import type { TinkerClientOptions } from '../client/tinker-client-options.js';
import { openTinkerSession, type TinkerSession } from '../client/tinker-session.js';
import {
  type AdamParams,
  type Datum,
  type LossFnType,
  modelInput,
  type SampleResponse,
  type SamplingParams,
} from '../client/tinker-types.js';
import { verifyModelTokenizer } from '../client/verify-model-tokenizer.js';
import { type ChatTokenizer, loadChatTokenizer } from '../tokenizer/load-chat-tokenizer.js';
import { assertOnPolicySampling } from './on-policy-sampling.js';

/** Where a policy's weights live on the service, and how many updates they hold: what a checkpoint stores. */
export interface TinkerPolicyState extends JsonObject {
  format: 'skillrl.tinker-policy';
  version: 1;
  baseModel: string;
  loraRank: number;
  /** Updates applied so far (one per training step or generation). */
  updates: number;
  /** The resumable checkpoint of the latest update (`tinker://<run>/weights/<name>`: weights and Adam's state). */
  statePath: string | null;
  /** The sampler checkpoint the policy samples from (`tinker://<run>/sampler_weights/<name>`). */
  samplerPath: string | null;
  /** Every training run the policy has used, oldest first: a resume continues in a new one from `statePath`. */
  trainingRuns: string[];
}

export interface TinkerPolicyOptions extends TinkerClientOptions {
  /** The base model to fine-tune or sample (`Qwen/Qwen3-4B-Instruct-2507`, ...). */
  baseModel: string;
  /** A folder with the model's `tokenizer.json` and `tokenizer_config.json`, or a loaded tokenizer. */
  tokenizer: string | ChatTokenizer;
  /** More stop tokens than the tokenizer config's `eos_token`. */
  stopTokens?: string[];
  /**
   * Train even though the tokenizer's name differs from the model's `tokenizer_id` (`get_info`), knowing the
   * two tokenize alike. Default false: a mismatch is a `TinkerTokenizerMismatchError`.
   */
  acceptTokenizerMismatch?: boolean;
  /** LoRA rank of the training run: the main cost knob of training. Default 32 (the SDK's). */
  loraRank?: number;
  /** LoRA initialisation seed (`LoraConfig.seed`), so a run started again starts from the same weights. */
  seed?: number;
  /**
   * A sampler checkpoint (`tinker://…/sampler_weights/…`) to sample from while nothing trains the policy (a
   * frozen task model); by default the base model.
   */
  modelPath?: string;
  /** Checkpoint names are `<prefix>-<update, 6 digits>`. Default `skillrl`. */
  checkpointPrefix?: string;
  /** `ttl_seconds` of every checkpoint saved (storage cost); default none (kept). */
  checkpointTtlSeconds?: number;
  /** Session tags and training-run metadata. */
  tags?: string[];
  userMetadata?: Record<string, string>;
  /** Heartbeat period of the session. Default 10 000 ms. */
  heartbeatMs?: number;
  /** A client to use instead of one built from the options above. */
  client?: TinkerClient;
}

export interface TinkerSampleOptions {
  n?: number;
  seed?: number;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  signal?: AbortSignal;
}

/** How one update is taken: the loss `forward_backward` computes, and the optimizer step. */
export interface TinkerTrainOptions {
  loss: LossFnType;
  lossConfig?: Record<string, number>;
  adam: AdamParams;
  /** Datums per `forward_backward` request (the gradients of all of them are accumulated). */
  chunkSize: number;
  signal?: AbortSignal;
}

function checkPositiveInt(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
    throw new InvalidArgumentError(name, `expected an integer >= 1, got ${value}`);
  }
}

/**
 * A policy whose weights live on a Tinker service: the LoRA training client of `baseModel` (created on first
 * use, in a session with heartbeats), the sampler checkpoint it samples from, and the resumable checkpoint
 * of its latest update. The Tinker agent samples through it, the Tinker trainer and the trainable editor
 * update it; one update = `forward_backward` (chunked) + `optim_step` + `save_weights` + `save_weights_for_sampler`,
 * after which sampling uses the new weights (strictly on-policy). `toJSON()` / `restore()` carry it
 * through a run's checkpoints: a restored policy continues in a new training run that loads the saved state
 * with its optimizer moments, so updates made after that checkpoint by a process that died are discarded.
 */
export class TinkerPolicy {
  readonly client: TinkerClient;
  readonly tokenizer: ChatTokenizer;
  readonly baseModel: string;
  readonly loraRank: number;
  /** Set by a trainer: the policy then samples from its own training run's checkpoints. */
  trainable = false;
  private readonly options: TinkerPolicyOptions;
  private session: TinkerSession | undefined;
  private ready: Promise<void> | undefined;
  private modelId: string | undefined;
  private seq = 1;
  private state: TinkerPolicyState;
  /** A checkpoint's state, applied when the policy is next used. */
  private attach: TinkerPolicyState | undefined;
  private readonly counts = { samples: 0, updates: 0, skippedUpdates: 0 };

  constructor(options: TinkerPolicyOptions) {
    if (typeof options?.baseModel !== 'string' || options.baseModel === '') {
      throw new InvalidArgumentError(
        'baseModel',
        'expected the base model to train or sample, e.g. "Qwen/Qwen3-4B-Instruct-2507"',
      );
    }
    if (options.tokenizer === undefined) {
      throw new InvalidArgumentError(
        'tokenizer',
        "expected a folder with the model's tokenizer.json and tokenizer_config.json",
      );
    }
    checkPositiveInt('loraRank', options.loraRank);
    if (options.modelPath !== undefined && !/^tinker:\/\//.test(options.modelPath)) {
      throw new InvalidArgumentError(
        'modelPath',
        `expected a tinker:// sampler path, got ${JSON.stringify(options.modelPath)}`,
      );
    }
    if (options.checkpointPrefix !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(options.checkpointPrefix)) {
      throw new InvalidArgumentError('checkpointPrefix', 'expected 1-64 letters, digits, "_" or "-"');
    }
    this.options = options;
    this.client = options.client ?? createTinkerClient(options);
    this.tokenizer =
      typeof options.tokenizer === 'string'
        ? loadChatTokenizer(options.tokenizer, options.stopTokens ? { stopTokens: options.stopTokens } : {})
        : options.tokenizer;
    this.baseModel = options.baseModel;
    this.loraRank = options.loraRank ?? 32;
    this.state = {
      format: 'skillrl.tinker-policy',
      version: 1,
      baseModel: this.baseModel,
      loraRank: this.loraRank,
      updates: 0,
      statePath: null,
      samplerPath: null,
      trainingRuns: [],
    };
  }

  /** Updates applied so far. */
  get updates(): number {
    return (this.attach ?? this.state).updates;
  }

  /** What sampling uses now: the latest sampler checkpoint, else `modelPath`, else the base model. */
  get samplerPath(): string | undefined {
    return (this.attach?.samplerPath ?? this.state.samplerPath) || this.options.modelPath;
  }

  get trainingRunId(): string | undefined {
    return this.modelId;
  }

  stats() {
    return { ...this.counts, updates: this.state.updates, trainingRuns: [...this.state.trainingRuns] };
  }

  private nextSeq(): number {
    return this.seq++;
  }

  private checkpointName(update: number): string {
    return `${this.options.checkpointPrefix ?? 'skillrl'}-${String(update).padStart(6, '0')}`;
  }

  private ttl(): { ttl_seconds?: number } {
    return this.options.checkpointTtlSeconds === undefined
      ? {}
      : { ttl_seconds: this.options.checkpointTtlSeconds };
  }

  /** Creates the training run (or, after `restore`, a new one loading the saved state). */
  ensureTraining(signal?: AbortSignal): Promise<void> {
    this.ready ??= this.startTraining(signal).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async startTraining(signal?: AbortSignal): Promise<void> {
    if (!this.session) {
      this.session = await openTinkerSession(this.client, {
        tags: ['skillrl', ...(this.options.tags ?? [])],
        userMetadata: { ...this.options.userMetadata },
        ...(this.options.heartbeatMs !== undefined ? { heartbeatMs: this.options.heartbeatMs } : {}),
        ...(signal ? { signal } : {}),
      });
    }
    const created = await this.client.createModel(
      {
        session_id: this.session.id,
        model_seq_id: this.session.nextModelSeqId(),
        base_model: this.baseModel,
        lora_config: {
          rank: this.loraRank,
          ...(this.options.seed !== undefined ? { seed: this.options.seed % REQUEST_SEED_RANGE } : {}),
        },
        user_metadata: { ...this.options.userMetadata },
      },
      signal,
    );
    this.modelId = created.model_id;
    this.seq = 1;
    // A tokenizer folder for another model would go unnoticed otherwise (a nameless one cannot be checked).
    await verifyModelTokenizer(this.client, created.model_id, this.tokenizer, {
      ...(this.options.acceptTokenizerMismatch ? { acceptMismatch: true } : {}),
      ...(signal ? { signal } : {}),
    });
    const attach = this.attach;
    this.attach = undefined;
    const runs = [...(attach?.trainingRuns ?? this.state.trainingRuns), created.model_id];
    if (attach?.statePath) {
      // A resume: the weights and Adam's moments of the checkpointed update, in a fresh training run.
      await this.client.loadWeights(
        { model_id: created.model_id, path: attach.statePath, optimizer: true, seq_id: this.nextSeq() },
        signal,
      );
      this.state = { ...attach, trainingRuns: runs };
      return;
    }
    // A new policy samples from its own checkpoint from the start, so every rollout names the weights it saw.
    const sampler = await this.client.saveWeightsForSampler(
      { model_id: created.model_id, path: this.checkpointName(0), seq_id: this.nextSeq(), ...this.ttl() },
      signal,
    );
    this.state = {
      ...this.state,
      updates: attach?.updates ?? 0,
      samplerPath: sampler.path,
      trainingRuns: runs,
    };
  }

  /** `num_samples` continuations of the prompt from the current weights (the sampler checkpoint). */
  async sample(
    prompt: number[],
    options: TinkerSampleOptions = {},
  ): Promise<SampleResponse & { sampler: string }> {
    if (this.trainable) {
      // A trained policy's samples are its training data: they must come from its own distribution.
      assertOnPolicySampling(options, 'sampling');
      await this.ensureTraining(options.signal);
    }
    const path = this.samplerPath;
    const params: SamplingParams = {
      ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.topP !== undefined ? { top_p: options.topP } : {}),
      ...(options.topK !== undefined ? { top_k: options.topK } : {}),
      ...(options.seed !== undefined
        ? { seed: Math.abs(Math.trunc(options.seed)) % REQUEST_SEED_RANGE }
        : {}),
      stop: this.tokenizer.stopTokenIds,
    };
    this.counts.samples += 1;
    const response = await this.client.sample(
      {
        prompt: modelInput(prompt),
        num_samples: options.n ?? 1,
        sampling_params: params,
        ...(path ? { model_path: path } : { base_model: this.baseModel }),
      },
      options.signal,
    );
    return { ...response, sampler: path ?? this.baseModel };
  }

  /**
   * One update: `forward_backward` over the datums (in chunks of `chunkSize`, gradients accumulated), one
   * `optim_step`, then the resumable state and the sampler weights saved under the update's name; sampling
   * uses the new weights from then on. No datums (every advantage zero) is an update that changes nothing.
   */
  async train(datums: Datum[], options: TinkerTrainOptions): Promise<Record<string, number>> {
    await this.ensureTraining(options.signal);
    const modelId = this.modelId as string;
    const update = this.state.updates + 1;
    if (datums.length === 0) {
      this.state = { ...this.state, updates: update };
      this.counts.skippedUpdates += 1;
      return { update, datums: 0, skipped: 1 };
    }
    let lossSum = 0;
    let tokens = 0;
    let klSum = 0;
    let klTokens = 0;
    let maxLogRatio = 0;
    let requests = 0;
    // Pipelined as the SDK does: every chunk submitted before any result is awaited (numbered by the policy).
    const pipelined = await this.client.forwardBackwardChunks(
      {
        model_id: modelId,
        data: datums,
        loss_fn: options.loss,
        ...(options.lossConfig ? { loss_fn_config: options.lossConfig } : {}),
      },
      {
        maxData: options.chunkSize,
        nextSeqId: () => this.nextSeq(),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    for (const { data: chunk, output: out } of pipelined.chunks) {
      requests += 1;
      lossSum += out.metrics?.['loss:sum'] ?? 0;
      // How far the learner's log-probs are from the sampler's on the trained tokens: ~0 when on-policy.
      out.loss_fn_outputs.forEach((output, i) => {
        const datum = chunk[i];
        const learner = output.logprobs?.data;
        if (!datum || !learner) return;
        const sampling = datum.loss_fn_inputs.logprobs?.data ?? [];
        const advantages = datum.loss_fn_inputs.advantages?.data ?? [];
        const weights = datum.loss_fn_inputs.weights?.data;
        for (let t = 0; t < learner.length; t++) {
          const trained = weights ? (weights[t] ?? 0) !== 0 : (advantages[t] ?? 0) !== 0;
          if (!trained) continue;
          tokens += 1;
          if (datum.loss_fn_inputs.logprobs) {
            const d = (sampling[t] ?? 0) - (learner[t] ?? 0);
            klSum += d;
            klTokens += 1;
            maxLogRatio = Math.max(maxLogRatio, Math.abs(d));
          }
        }
      });
    }
    const optim = await this.client.optimStep(
      { model_id: modelId, seq_id: this.nextSeq(), adam_params: options.adam },
      options.signal,
    );
    const name = this.checkpointName(update);
    const state = await this.client.saveWeights(
      { model_id: modelId, path: name, seq_id: this.nextSeq(), ...this.ttl() },
      options.signal,
    );
    const sampler = await this.client.saveWeightsForSampler(
      { model_id: modelId, path: name, seq_id: this.nextSeq(), ...this.ttl() },
      options.signal,
    );
    this.state = { ...this.state, updates: update, statePath: state.path, samplerPath: sampler.path };
    this.counts.updates += 1;
    const metrics: Record<string, number> = {
      update,
      datums: datums.length,
      tokens,
      loss_sum: lossSum,
      forward_backward_requests: requests,
      sampler_kl: klTokens ? klSum / klTokens : 0,
      sampler_max_log_ratio: maxLogRatio,
    };
    for (const [key, value] of Object.entries(optim?.metrics ?? {})) {
      if (typeof value === 'number' && Number.isFinite(value))
        metrics[`optim_${key.replace(/[^A-Za-z0-9_]/g, '_')}`] = value;
    }
    return metrics;
  }

  /**
   * The learner's log-prob of each datum's target tokens at the current weights: one `forward` per chunk of
   * `chunkSize` (no gradients; `loss` only names the loss the datums are shaped for).
   */
  async learnerLogProbs(
    datums: Datum[],
    options: { loss: LossFnType; chunkSize: number; signal?: AbortSignal },
  ): Promise<number[][]> {
    await this.ensureTraining(options.signal);
    const out: number[][] = [];
    for (let start = 0; start < datums.length; start += options.chunkSize) {
      const chunk = datums.slice(start, start + options.chunkSize);
      const result = await this.client.forward(
        {
          model_id: this.modelId as string,
          seq_id: this.nextSeq(),
          forward_input: { data: chunk, loss_fn: options.loss },
        },
        options.signal,
      );
      chunk.forEach((_, i) => {
        out.push([...(result.loss_fn_outputs[i]?.logprobs?.data ?? [])]);
      });
    }
    return out;
  }

  /**
   * The base model's log-prob of every token of each sequence after its first (index k: token k + 1), as the
   * SDK's `compute_logprobs` gets them: one sample of one token with `prompt_logprobs`, from the base model
   * (not the trained weights): the reference of a KL penalty.
   */
  async baseLogProbs(sequences: readonly (readonly number[])[], signal?: AbortSignal): Promise<number[][]> {
    const one = async (tokens: readonly number[]): Promise<number[]> => {
      const response = await this.client.sample(
        {
          prompt: modelInput([...tokens]),
          num_samples: 1,
          sampling_params: { max_tokens: 1 },
          base_model: this.baseModel,
          prompt_logprobs: true,
        },
        signal,
      );
      const lp = response.prompt_logprobs ?? [];
      if (lp.length !== tokens.length) {
        throw new InvalidArgumentError(
          'prompt_logprobs',
          `expected one per prompt token (${tokens.length}) from the base model, got ${lp.length}`,
        );
      }
      return lp.slice(1).map((v) => (typeof v === 'number' ? v : Number.NaN));
    };
    // A few at a time: each is a request of its own.
    const out: number[][] = new Array(sequences.length);
    let next = 0;
    const worker = async () => {
      while (next < sequences.length) {
        const i = next++;
        out[i] = await one(sequences[i] as readonly number[]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, sequences.length) }, worker));
    return out;
  }

  /** The state a checkpoint stores (names of the service's checkpoints; no weights travel). */
  toJSON(): TinkerPolicyState {
    return { ...(this.attach ?? this.state), trainingRuns: [...(this.attach ?? this.state).trainingRuns] };
  }

  /** Continues from a checkpoint's state: the next use creates a training run that loads its weights. */
  restore(value: unknown): void {
    const v = value as Partial<TinkerPolicyState> | null;
    if (v?.format !== 'skillrl.tinker-policy' || v.version !== 1) {
      throw new InvalidArgumentError('checkpoint', 'expected a skillrl.tinker-policy v1 state');
    }
    if (v.baseModel !== this.baseModel || v.loraRank !== this.loraRank) {
      throw new InvalidArgumentError(
        'checkpoint',
        `the run trained ${v.baseModel} at LoRA rank ${v.loraRank}, but the config names ${this.baseModel} at rank ${this.loraRank}`,
      );
    }
    this.attach = { ...(v as TinkerPolicyState), trainingRuns: [...(v.trainingRuns ?? [])] };
    this.ready = undefined;
    this.modelId = undefined;
  }

  /** Stops the session's heartbeats. */
  close(): void {
    this.session?.close();
    this.session = undefined;
  }
}
