import { createRng } from '@skillrl/core';
import type { BaseModels } from './base-models.js';
import { HttpError } from './http-error.js';
import { type FakeSamplingParams, loraLayout, sampleSequence, sequenceLogProbs } from './lora-model.js';
import { isObject, modelInputTokens, need } from './read-request.js';
import type { TrainingRuns } from './training-runs.js';

// Sampling (`asample`) from a base model or a sampler checkpoint, directly or through a sampling session
// (src/tinker/resources/sampling.py, lib/public_interfaces/sampling_client.py).

/** What a sampling session samples: a base model or a sampler checkpoint. */
export interface SamplingTarget {
  modelPath?: string;
  baseModel?: string;
}

export interface Sampling {
  /** A new sampling session for `target` (not checked); its id. */
  open(target: SamplingTarget): string;
  /** `create_sampling_session`'s work: exactly one of `model_path` / `base_model`, which must exist. */
  create(body: Record<string, unknown>): string;
  /** `asample`'s work: `num_samples` sequences (and the prompt's log-probs when asked). */
  sample(body: Record<string, unknown>): Record<string, unknown>;
  list(): ({ id: string } & SamplingTarget)[];
}

/** Sampling over the fake's base models and training runs; `seed` seeds a sample that names none. */
export function createSampling(baseModels: BaseModels, runs: TrainingRuns, seed: number): Sampling {
  const sessions = new Map<string, SamplingTarget>();
  let opened = 0;
  let samples = 0;

  const open = (target: SamplingTarget): string => {
    opened += 1;
    const id = `sampling-${String(opened).padStart(6, '0')}`;
    sessions.set(id, target);
    return id;
  };

  /** A sampler checkpoint's model, or a base model's (with a zero adapter). */
  const modelOf = (modelPath: string | undefined, baseModel: string | undefined) => {
    if (modelPath) {
      const w = runs.stored(modelPath, 'sampler_weights');
      const base = baseModels.prior(w.baseModel);
      return { base, layout: loraLayout(base.V, w.rank), weights: w.params };
    }
    const name = need(
      baseModel,
      'exactly one of base_model or model_path (or a sampling session) is required',
    );
    const base = baseModels.prior(name);
    const layout = loraLayout(base.V, 1);
    return { base, layout, weights: new Float64Array(layout.size) };
  };

  return {
    open,

    create(b) {
      const modelPath = typeof b.model_path === 'string' ? b.model_path : undefined;
      const baseModel = typeof b.base_model === 'string' ? b.base_model : undefined;
      if ((modelPath === undefined) === (baseModel === undefined)) {
        throw new HttpError(400, 'Exactly one of base_model or model_path must be provided');
      }
      if (modelPath) runs.stored(modelPath, 'sampler_weights');
      else baseModels.prior(baseModel as string);
      return open({ ...(modelPath ? { modelPath } : {}), ...(baseModel ? { baseModel } : {}) });
    },

    sample(body) {
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
        const s = sessions.get(body.sampling_session_id);
        if (!s) throw new HttpError(404, `sampling session "${body.sampling_session_id}" not found`);
        if (body.seq_id === undefined)
          throw new HttpError(400, "'seq_id' must be provided when 'sampling_session_id' is used");
        modelPath = s.modelPath;
        baseModel = s.baseModel;
      }
      const { base, layout, weights } = modelOf(modelPath, baseModel);
      if (prompt.length + (params.max_tokens ?? 0) > base.maxContextLength) {
        throw new HttpError(
          400,
          `prompt (${prompt.length} tokens) and max_tokens exceed the context length ${base.maxContextLength}`,
        );
      }
      samples += 1;
      const sampleSeed =
        typeof params.seed === 'number' ? `seed:${params.seed}` : `server:${seed}:${samples}`;
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
    },

    list: () => [...sessions.entries()].map(([id, s]) => ({ id, ...s })),
  };
}
