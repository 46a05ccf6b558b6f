import { TINY_CHAT_MODEL } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import {
  createTinkerClient,
  modelInput,
  openTinkerSession,
  TinkerApiError,
  TinkerFutureTimeoutError,
  TinkerRequestFailedError,
  tensor,
} from '../src/index.js';
import { fake } from './support.js';

// Contract tests of the client against the testkit's fake Tinker server (built from the SDK's routes and
// types): every route the client speaks, the futures' states, the faults, the key's redaction.

const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 }, futures: { pollIntervalMs: 1 } };

async function model(client: ReturnType<typeof createTinkerClient>, rank = 4) {
  const session = await openTinkerSession(client, { heartbeatMs: 60_000 });
  const created = await client.createModel({
    session_id: session.id,
    model_seq_id: session.nextModelSeqId(),
    base_model: TINY_CHAT_MODEL,
    lora_config: { rank, seed: 1 },
  });
  session.close();
  return { session, modelId: created.model_id };
}

const datum = (advantage: number) => ({
  model_input: modelInput([2, 5, 6]),
  loss_fn_inputs: {
    target_tokens: tensor([5, 6, 3], 'int64'),
    logprobs: tensor([0, 0, -2], 'float32'),
    advantages: tensor([0, 0, advantage], 'float32'),
  },
});

describe('the Tinker client against the fake server', () => {
  it('speaks every route: sessions, heartbeats, training, checkpoints, sampling, training runs', async () => {
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, ...fast });
    expect(await client.healthz()).toEqual({ status: 'ok' });
    const caps = await client.getServerCapabilities();
    expect(caps.supported_models.map((m) => m.model_name)).toContain(TINY_CHAT_MODEL);

    const session = await openTinkerSession(client, { heartbeatMs: 5, tags: ['contract'] });
    await new Promise((r) => setTimeout(r, 40));
    expect(session.heartbeats().sent).toBeGreaterThan(0);
    session.close();
    expect(server.sessions()[0]).toMatchObject({
      tags: ['contract'],
      sdkVersion: expect.stringContaining('skillrl'),
    });

    const created = await client.createModel({
      session_id: session.id,
      model_seq_id: session.nextModelSeqId(),
      base_model: TINY_CHAT_MODEL,
      lora_config: { rank: 4, seed: 7 },
    });
    const modelId = created.model_id;
    const info = await client.getInfo(modelId);
    expect(info).toMatchObject({ model_id: modelId, is_lora: true, lora_rank: 4 });

    const sampler0 = await client.saveWeightsForSampler({ model_id: modelId, path: 'start', seq_id: 1 });
    expect(sampler0.path).toBe(`tinker://${modelId}/sampler_weights/start`);
    const before = await client.forward({
      model_id: modelId,
      seq_id: 2,
      forward_input: { data: [datum(1)], loss_fn: 'importance_sampling' },
    });
    const fb = await client.forwardBackward({
      model_id: modelId,
      seq_id: 3,
      forward_backward_input: {
        data: [datum(1)],
        loss_fn: 'ppo',
        loss_fn_config: { clip_low_threshold: 0.9, clip_high_threshold: 1.1 },
      },
    });
    expect(fb.loss_fn_output_type).toBe('ArrayRecord');
    expect(fb.loss_fn_outputs[0]?.logprobs?.data).toHaveLength(3);
    expect(fb.loss_fn_outputs[0]?.logprobs?.data).toEqual(before.loss_fn_outputs[0]?.logprobs?.data);
    const step = await client.optimStep({
      model_id: modelId,
      seq_id: 4,
      adam_params: { learning_rate: 0.05 },
    });
    expect(step.metrics?.step).toBe(1);
    const state = await client.saveWeights({ model_id: modelId, path: 'after-1', seq_id: 5 });
    expect(state.path).toBe(`tinker://${modelId}/weights/after-1`);
    const sampler1 = await client.saveWeightsForSampler({
      model_id: modelId,
      path: 'after-1',
      seq_id: 6,
      sampling_session_seq_id: 0,
    });
    expect(sampler1.sampling_session_id).toBeTruthy();

    const sampled = await client.sample({
      prompt: modelInput([2, 5, 6]),
      num_samples: 3,
      model_path: sampler1.path,
      sampling_params: { max_tokens: 4, seed: 11, stop: [3] },
      prompt_logprobs: true,
    });
    expect(sampled.sequences).toHaveLength(3);
    for (const s of sampled.sequences) {
      expect(s.logprobs).toHaveLength(s.tokens.length);
      expect(['stop', 'length']).toContain(s.stop_reason);
    }
    expect(sampled.prompt_logprobs?.[0]).toBeNull();
    const again = await client.sample({
      prompt: modelInput([2, 5, 6]),
      num_samples: 3,
      model_path: sampler1.path,
      sampling_params: { max_tokens: 4, seed: 11, stop: [3] },
    });
    expect(again.sequences).toEqual(sampled.sequences);
    const viaSession = await client.createSamplingSession({
      session_id: session.id,
      sampling_session_seq_id: 1,
      model_path: sampler1.path,
    });
    const bySession = await client.sample({
      prompt: modelInput([2, 5, 6]),
      sampling_session_id: viaSession.sampling_session_id,
      seq_id: 0,
      sampling_params: { max_tokens: 4, seed: 11, stop: [3] },
      num_samples: 3,
    });
    expect(bySession.sequences).toEqual(sampled.sequences);

    // Back to the first weights, optimizer state included.
    const second = await client.createModel({
      session_id: session.id,
      model_seq_id: 1,
      base_model: TINY_CHAT_MODEL,
      lora_config: { rank: 4, seed: 7 },
    });
    await client.loadWeights({ model_id: second.model_id, path: state.path, optimizer: true, seq_id: 1 });
    expect(server.trainingRun(second.model_id)?.lineage).toEqual(server.trainingRun(modelId)?.lineage);
    expect(server.trainingRun(second.model_id)?.loads).toEqual([{ path: state.path, optimizer: true }]);

    const run = await client.getTrainingRun(modelId);
    expect(run).toMatchObject({
      training_run_id: modelId,
      base_model: TINY_CHAT_MODEL,
      lora_rank: 4,
      is_lora: true,
    });
    expect(run.last_checkpoint?.tinker_path).toBe(state.path);
    const list = await client.listCheckpoints(modelId);
    expect(list.checkpoints.map((c) => c.tinker_path).sort()).toEqual(
      [sampler0.path, sampler1.path, state.path].sort(),
    );
    await client.unloadModel(modelId);
    await expect(client.getInfo(modelId)).rejects.toMatchObject({ status: 404 });

    const routes = Object.keys(server.stats().byRoute).sort();
    expect(routes).toEqual(
      [
        'asample',
        'create_model',
        'create_sampling_session',
        'create_session',
        'forward',
        'forward_backward',
        'get_info',
        'get_server_capabilities',
        'healthz',
        'load_weights',
        'optim_step',
        'retrieve_future',
        'save_weights',
        'save_weights_for_sampler',
        'session_heartbeat',
        'training_runs',
        'unload_model',
      ].sort(),
    );
    // Every POST carried an idempotency key.
    for (const r of server.requests.filter((q) => q.method === 'POST' && q.route !== 'retrieve_future')) {
      expect(r.idempotencyKey, r.route).toMatch(/^skillrl-/);
    }
  });

  it('futures: pending (try_again) then the result, failed, expired then resubmitted, never resolving', async () => {
    let expired = 0;
    const server = await fake({
      futures: {
        pendingPolls: 3,
        plan: ({ route, body }) => {
          if (
            route === 'optim_step' &&
            (body?.adam_params as { learning_rate?: number })?.learning_rate === 9
          )
            return 'fail-user';
          if (route === 'save_weights' && expired++ === 0) return 'expire';
          if (route === 'save_weights_for_sampler' && body?.path === 'stuck') return 'never';
          return undefined;
        },
      },
    });
    const client = createTinkerClient({
      baseURL: server.url,
      ...fast,
      futures: { pollIntervalMs: 1, timeoutMs: 150 },
    });
    const { modelId } = await model(client);
    // Resolves later: three try_again polls first.
    const polled = client.stats().tryAgain;
    const future = await client.submit('forward_backward', {
      model_id: modelId,
      seq_id: 1,
      forward_backward_input: { data: [datum(1)], loss_fn: 'importance_sampling' },
    });
    expect(future.requestId).toMatch(/^req-/);
    await future.result();
    expect(client.stats().tryAgain - polled).toBe(3);
    await client.forwardBackward({
      model_id: modelId,
      seq_id: 2,
      forward_backward_input: { data: [datum(1)], loss_fn: 'importance_sampling' },
    });
    expect(client.stats().tryAgain).toBeGreaterThanOrEqual(3);

    const failed = client.optimStep({ model_id: modelId, adam_params: { learning_rate: 9 } });
    await expect(failed).rejects.toSatisfy(
      (e: unknown) => TinkerRequestFailedError.isInstance(e) && e.category === 'user',
    );

    const saved = await client.saveWeights({ model_id: modelId, path: 'resubmitted' });
    expect(saved.path).toContain('resubmitted');
    expect(client.stats().resubmits).toBe(1);
    expect(server.stats().futures.expired).toBe(1);

    const stuck = client.saveWeightsForSampler({ model_id: modelId, path: 'stuck' });
    await expect(stuck).rejects.toSatisfy(
      (e: unknown) => TinkerFutureTimeoutError.isInstance(e) && e.route === 'save_weights_for_sampler',
    );
  });

  it('retries 429 (honouring retry-after-ms), 500 and dropped sockets; an answer lost after the work is not repeated', async () => {
    const faults: Record<string, string[]> = {
      create_session: ['rate-limit', 'server-error'],
      forward_backward: ['drop-after-commit'],
      optim_step: ['drop'],
    };
    const server = await fake({
      faults: {
        retryAfterMs: 7,
        plan: ({ route }) => faults[route]?.shift() as never,
      },
    });
    const delays: number[] = [];
    const client = createTinkerClient({
      baseURL: server.url,
      ...fast,
      onRetry: (e) => delays.push(e.delayMs),
    });
    const { modelId } = await model(client);
    expect(delays[0]).toBe(7);
    await client.forwardBackward({
      model_id: modelId,
      forward_backward_input: { data: [datum(1), datum(-1)], loss_fn: 'importance_sampling' },
    });
    // The first answer was lost after the gradients were accumulated; the retry (same key) was answered from
    // the server's record, so they were accumulated once.
    expect(server.trainingRun(modelId)?.pendingDatums).toBe(2);
    expect(server.stats().idempotentReplays).toBe(1);
    await client.optimStep({ model_id: modelId, adam_params: { learning_rate: 0.01 } });
    expect(server.trainingRun(modelId)?.updates).toHaveLength(1);
    expect(server.stats().faulted).toMatchObject({
      'rate-limit': 1,
      'server-error': 1,
      'drop-after-commit': 1,
      drop: 1,
    });
    expect(client.stats().retries).toBe(4);
  });

  it('gives up with a typed error naming the route: not retryable (4xx) at once, retryable after the budget', async () => {
    const server = await fake({
      faults: { plan: ({ route }) => (route === 'get_server_capabilities' ? 'server-error' : undefined) },
    });
    const client = createTinkerClient({
      baseURL: server.url,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2, outageMs: 0 },
    });
    const budget = await client.getServerCapabilities().catch((e: unknown) => e);
    expect(TinkerApiError.isInstance(budget)).toBe(true);
    expect(budget).toMatchObject({
      route: 'get_server_capabilities',
      status: 500,
      attempts: 3,
      retryable: true,
    });
    const bad = await client
      .createModel({ session_id: 'nope', model_seq_id: 0, base_model: TINY_CHAT_MODEL })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ route: 'create_model', status: 404, attempts: 1, retryable: false });
    expect((bad as Error).message).toContain('Session not found');
    const unknownModel = await client
      .createModel({
        session_id: (await client.createSession({ tags: [], user_metadata: null, sdk_version: 't' }))
          .session_id,
        model_seq_id: 0,
        base_model: 'no/such-model',
      })
      .catch((e: unknown) => e);
    expect((unknownModel as Error).message).toContain('is not served here');
  });

  it('sends the key from the named environment variable as X-API-Key and redacts it from every error', async () => {
    const key = 'tml-contract-test-key-0123456789';
    process.env.SKILLRL_TEST_TINKER_KEY = key;
    try {
      const server = await fake({ apiKey: key });
      const client = createTinkerClient({
        baseURL: server.url,
        apiKeyEnv: 'SKILLRL_TEST_TINKER_KEY',
        ...fast,
      });
      expect(client.apiKey).toEqual({ env: 'SKILLRL_TEST_TINKER_KEY', set: true });
      expect(JSON.stringify(client)).not.toContain(key);
      await model(client);
      expect(JSON.stringify(server.requests)).not.toContain(key);

      // A server that echoes the key it was given in a 401: the error carries no key.
      const strict = await fake({ apiKey: 'tml-another-key-999999999', echoKeyInErrors: true });
      const wrong = createTinkerClient({
        baseURL: strict.url,
        apiKeyEnv: 'SKILLRL_TEST_TINKER_KEY',
        ...fast,
      });
      const error = (await wrong.healthz().catch((e: unknown) => e)) as TinkerApiError;
      expect(error.status).toBe(401);
      expect(error.attempts).toBe(1);
      expect(error.message).toContain('Invalid API key');
      expect(error.message).not.toContain(key);
      expect(JSON.stringify(error)).not.toContain(key);
      expect(String(error.stack)).not.toContain(key);
    } finally {
      delete process.env.SKILLRL_TEST_TINKER_KEY;
    }
    expect(() => createTinkerClient({ apiKeyEnv: 'not a name' })).toThrow(/apiKeyEnv/);
    expect(() => createTinkerClient({ baseURL: 'ftp://x' })).toThrow(/baseURL/);
  });

  it('an abort signal stops a call and a poll at once', async () => {
    const server = await fake({ futures: { plan: () => 'never' } });
    const client = createTinkerClient({ baseURL: server.url, ...fast });
    const session = await client.createSession({ tags: [], user_metadata: null, sdk_version: 't' });
    const controller = new AbortController();
    const pending = client.createModel(
      { session_id: session.session_id, model_seq_id: 0, base_model: TINY_CHAT_MODEL },
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(pending).rejects.toThrow('stop');
  });
});
