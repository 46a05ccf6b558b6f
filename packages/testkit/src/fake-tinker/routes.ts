import type { BaseModels } from './base-models.js';
import type { ClientSessions } from './client-sessions.js';
import type { FakeAnswer, FutureStore } from './futures.js';
import { HttpError } from './http-error.js';
import type { FakeAdamParams } from './lora-model.js';
import { isObject, str } from './read-request.js';
import type { Sampling } from './sampling.js';
import { checkpointName, type TrainingRuns } from './training-runs.js';
import type { FakeTinkerRecordedRequest, FakeTinkerRequestInfo, FakeTinkerStats } from './types.js';

// The routes and shapes below follow the Tinker Python SDK (thinking-machines-lab/tinker): the HTTP routes of
// src/tinker/resources/{service,models,training,weights,sampling,futures}.py and the JSON bodies of
// src/tinker/types/*.py (requests as `model_dump(..., exclude_none=True)` writes them; responses as the
// pydantic models read them), `retrieve_future`'s answers as src/tinker/lib/api_future_impl.py dispatches
// them (`try_again`, `RequestFailedResponse`, 410, the result), the `X-API-Key` header of
// src/tinker/lib/_auth_token_provider.py and the `X-Idempotency-Key` header of src/tinker/_client.py.

/** Answers one request the pipeline let through (decoded, authorised, not faulted, not a replay). */
export type RouteHandler = (
  method: string,
  route: string,
  body: Record<string, unknown> | undefined,
  info: FakeTinkerRequestInfo,
  entry?: FakeTinkerRecordedRequest,
) => Promise<FakeAnswer>;

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

export function createRoutes(parts: {
  baseModels: BaseModels;
  sessions: ClientSessions;
  runs: TrainingRuns;
  sampling: Sampling;
  futures: FutureStore;
  stats: FakeTinkerStats;
}): RouteHandler {
  const { baseModels, sessions, runs, sampling, futures, stats } = parts;

  return async function handle(method, route, body, info, entry) {
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
        request_id: futures.create(
          info,
          work,
          ordered ? { run: ordered, seq: b.seq_id as number } : undefined,
        ),
        ...(modelId ? { model_id: modelId } : {}),
      },
    });
    if (method === 'GET' && route === 'healthz') return { status: 200, body: { status: 'ok' } };
    if (method === 'GET' && route === 'get_server_capabilities') {
      return {
        status: 200,
        body: {
          supported_models: baseModels.names().map((name) => ({
            model_name: name,
            max_context_length: baseModels.prior(name).maxContextLength,
          })),
        },
      };
    }
    const checkpointsRoute = /^training_runs\/([^/]+)\/checkpoints$/.exec(route);
    if (method === 'GET' && checkpointsRoute) {
      const run = runs.get(decodeURIComponent(checkpointsRoute[1] as string));
      if (!run) throw new HttpError(404, 'training run not found');
      return { status: 200, body: { checkpoints: runs.checkpointsJson(run), cursor: null } };
    }
    const runRoute = /^training_runs\/([^/]+)$/.exec(route);
    if (method === 'GET' && runRoute) {
      const run = runs.get(decodeURIComponent(runRoute[1] as string));
      if (!run) throw new HttpError(404, 'training run not found');
      return { status: 200, body: runs.runJson(run) };
    }
    if (method !== 'POST') throw new HttpError(404, `no route ${method} /api/v1/${route}`);
    switch (route) {
      case 'create_session':
        return { status: 200, body: { type: 'create_session', session_id: sessions.create(b) } };
      case 'session_heartbeat': {
        const session = sessions.require(b);
        session.heartbeats += 1;
        stats.heartbeats += 1;
        return { status: 200, body: { type: 'session_heartbeat' } };
      }
      case 'create_sampling_session': {
        sessions.require(b);
        const id = sampling.create(b);
        return { status: 200, body: { type: 'create_sampling_session', sampling_session_id: id } };
      }
      case 'create_model': {
        const session = sessions.require(b);
        const run = runs.prepare(b, session.id);
        return future(() => {
          runs.add(run);
          return { type: 'create_model', model_id: run.id };
        }, run.id);
      }
      case 'get_info': {
        const run = runs.runOf(b.model_id);
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
        const run = runs.runOf(b.model_id);
        return future(() => {
          run.unloaded = true;
          return { type: 'unload_model', model_id: run.id };
        });
      }
      case 'forward_backward': {
        const run = runs.runOf(b.model_id);
        return future(() => runs.forward(run, b.forward_backward_input, 'forward_backward_input', true));
      }
      case 'forward': {
        const run = runs.runOf(b.model_id);
        return future(() => runs.forward(run, b.forward_input, 'forward_input', false));
      }
      case 'optim_step': {
        const run = runs.runOf(b.model_id);
        const adam = (isObject(b.adam_params) ? b.adam_params : {}) as FakeAdamParams;
        return future(() => runs.optimStep(run, adam));
      }
      case 'save_weights': {
        const run = runs.runOf(b.model_id);
        const name = checkpointName(run, b.path, 'state');
        if (run.checkpoints.has(`weights/${name}`) && b.overwrite !== true) {
          throw new HttpError(409, `Checkpoint '${name}' already exists for model '${run.id}'`);
        }
        return future(() => ({
          type: 'save_weights',
          path: runs.save(run, name, 'training', b.overwrite === true).tinkerPath,
        }));
      }
      case 'save_weights_for_sampler': {
        const run = runs.runOf(b.model_id);
        const name = checkpointName(run, b.path, 'sampler');
        if (run.checkpoints.has(`sampler_weights/${name}`)) {
          throw new HttpError(409, `Checkpoint '${name}' already exists for model '${run.id}'`);
        }
        return future(() => {
          const w = runs.save(run, name, 'sampler', false);
          const out: Record<string, unknown> = { type: 'save_weights_for_sampler', path: w.tinkerPath };
          if (Number.isInteger(b.sampling_session_seq_id)) {
            out.sampling_session_id = sampling.open({ modelPath: w.tinkerPath });
          }
          return out;
        });
      }
      case 'load_weights': {
        const run = runs.runOf(b.model_id);
        const path = str(b, 'path');
        const optimizer = b.optimizer === true;
        const source = runs.stored(path, 'weights');
        if (source.baseModel !== run.baseModel || source.rank !== run.rank) {
          throw new HttpError(
            400,
            `checkpoint ${path} is ${source.baseModel} rank ${source.rank}; this model is ${run.baseModel} rank ${run.rank}`,
          );
        }
        return future(() => {
          runs.load(run, path, source, optimizer);
          return { type: 'load_weights', path, model_id: run.id };
        });
      }
      case 'asample':
        return future(() => sampling.sample(b));
      case 'retrieve_future':
        return futures.retrieve(str(b, 'request_id'), String(entry?.headers.accept ?? ''));
      default:
        throw new HttpError(404, `no route POST /api/v1/${route}`);
    }
  };
}
