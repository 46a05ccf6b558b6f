import { InvalidArgumentError } from '@skillrl/core';
import { TINY_CHAT_MODEL, tinyChatDir } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import {
  chunkData,
  createTinkerClient,
  type Datum,
  datumBytes,
  modelInput,
  openTinkerSession,
  SKILLRL_TINKER_CLIENT_VERSION,
  TinkerApiError,
  TinkerPolicy,
  type TinkerRetryEvent,
  tensor,
} from '../src/index.js';
import { fake } from './support.js';

// The transport the SDK's way, against the testkit's fake: sampling sessions, backpressure, the retry
// budgets (retry phase, outage phase, billing pause), seq ids, pipelined and byte-capped forward_backward.
// `timeScale: 0.001` plays the SDK's default waits and budgets out in milliseconds.

const scaled = { retry: { timeScale: 0.001 }, futures: { pollIntervalMs: 1 } };

const datum = (advantage: number, length = 3): Datum => ({
  model_input: modelInput(Array.from({ length }, (_, i) => 2 + (i % 5))),
  loss_fn_inputs: {
    target_tokens: tensor(
      Array.from({ length }, (_, i) => 3 + (i % 5)),
      'int64',
    ),
    logprobs: tensor(Array(length).fill(-1), 'float32'),
    advantages: tensor(Array(length).fill(advantage), 'float32'),
  },
});

async function model(client: ReturnType<typeof createTinkerClient>) {
  const session = await openTinkerSession(client, { heartbeatMs: 60_000 });
  const created = await client.createModel({
    session_id: session.id,
    model_seq_id: session.nextModelSeqId(),
    base_model: TINY_CHAT_MODEL,
    lora_config: { rank: 4, seed: 1 },
  });
  return { session, modelId: created.model_id };
}

const samplePrompt = {
  prompt: modelInput([2, 5, 6]),
  sampling_params: { max_tokens: 3, seed: 1, stop: [3] },
};

describe('sampling the SDK way', () => {
  it('samples through one sampling session per checkpoint, numbering its samples, with the backpressure header', async () => {
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, ...scaled });
    const { session, modelId } = await model(client);
    const first = await client.saveWeightsForSampler({ model_id: modelId, path: 'a' });
    await client.sample({ ...samplePrompt, model_path: first.path });
    await client.sample({ ...samplePrompt, model_path: first.path });
    await client.forwardBackward({
      model_id: modelId,
      forward_backward_input: { data: [datum(1)], loss_fn: 'importance_sampling' },
    });
    await client.optimStep({ model_id: modelId, adam_params: { learning_rate: 0.1 } });
    const second = await client.saveWeightsForSampler({ model_id: modelId, path: 'b' });
    await client.sample({ ...samplePrompt, model_path: second.path });
    session.close();

    const creates = server.requests.filter((r) => r.route === 'create_sampling_session');
    expect(creates.map((r) => r.body?.model_path)).toEqual([first.path, second.path]);
    expect(creates.map((r) => r.body?.session_id)).toEqual([session.id, session.id]);
    expect(creates.map((r) => r.body?.sampling_session_seq_id)).toEqual([0, 1]);
    const samples = server.requests.filter((r) => r.route === 'asample');
    expect(samples.map((r) => r.body?.seq_id)).toEqual([1, 2, 1]);
    expect(samples.every((r) => typeof r.body?.sampling_session_id === 'string')).toBe(true);
    expect(samples.every((r) => r.body?.model_path === undefined)).toBe(true);
    expect(samples.map((r) => r.headers['x-tinker-sampling-backpressure'])).toEqual(['1', '1', '1']);
    expect(server.stats().warnings).toEqual([]);
    expect(client.stats().samplingSessions).toBe(2);
  });

  it('opens a session of its own when none is attached, and samples the base model through it', async () => {
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, ...scaled });
    const out = await client.sample({ ...samplePrompt, base_model: TINY_CHAT_MODEL, num_samples: 2 });
    expect(out.sequences).toHaveLength(2);
    expect(server.sessions()).toHaveLength(1);
    expect(server.stats().warnings).toEqual([]);
    await client.close();
  });

  it('samples by path, as before, where sessions are turned off (and the fake warns of it)', async () => {
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, ...scaled, samplingSessions: false });
    await client.sample({ ...samplePrompt, base_model: TINY_CHAT_MODEL });
    expect(server.stats().warnings).toHaveLength(1);
    expect(server.stats().byRoute.create_sampling_session).toBeUndefined();
  });

  it('waits out 429s on sampling with no count limit: 40 in a row, 1 s each (scaled) without Retry-After', async () => {
    const server = await fake({
      faults: { retryAfterMs: 0, streaks: [{ fault: 'rate-limit', count: 40, routes: ['asample'] }] },
    });
    const events: TinkerRetryEvent[] = [];
    const client = createTinkerClient({ baseURL: server.url, ...scaled, onRetry: (e) => events.push(e) });
    const out = await client.sample({ ...samplePrompt, base_model: TINY_CHAT_MODEL });
    expect(out.sequences).toHaveLength(1);
    expect(events).toHaveLength(40);
    expect(events.every((e) => e.reason === 'backpressure' && e.delayMs === 1)).toBe(true);
    expect(client.stats().backpressure).toBe(40);
    await client.close();
  });

  it("honours the server's Retry-After on sampling, and only a signal ends an endless 429", async () => {
    const server = await fake({
      faults: { retryAfterMs: 3000, streaks: [{ fault: 'rate-limit', count: 1e9, routes: ['asample'] }] },
    });
    const events: TinkerRetryEvent[] = [];
    const client = createTinkerClient({ baseURL: server.url, ...scaled, onRetry: (e) => events.push(e) });
    const signal = AbortSignal.timeout(300);
    const out = await client
      .sample({ ...samplePrompt, base_model: TINY_CHAT_MODEL }, signal)
      .catch((e: unknown) => e);
    expect((out as Error).name).toBe('TimeoutError');
    expect(events.length).toBeGreaterThan(5);
    expect(events.every((e) => e.delayMs === 3)).toBe(true);
    await client.close();
  });
});

describe('retry budgets like the SDK', () => {
  it('retries 10 times, then goes on for the outage phase with waits doubling up to 30 s (scaled)', async () => {
    const server = await fake({
      faults: { streaks: [{ fault: 'server-error', count: 18, routes: ['get_server_capabilities'] }] },
    });
    const events: TinkerRetryEvent[] = [];
    // 0.01: the waits (1.9 s in all) stay well inside the outage budget (3 s) even on a loaded machine.
    const client = createTinkerClient({
      baseURL: server.url,
      retry: { timeScale: 0.01 },
      onRetry: (e) => events.push(e),
    });
    const caps = await client.getServerCapabilities();
    expect(caps.supported_models.length).toBeGreaterThan(0);
    expect(events.map((e) => e.reason)).toEqual([...Array(10).fill('retry'), ...Array(8).fill('outage')]);
    // The retry phase: 0.5 s doubling to 10 s, less up to 25 % jitter.
    events.slice(0, 10).forEach((e, k) => {
      const d = Math.min(10_000, 500 * 2 ** k) * 0.01;
      expect(e.delayMs).toBeGreaterThan(d * 0.75 - 1e-9);
      expect(e.delayMs).toBeLessThanOrEqual(d);
    });
    expect(events.slice(10).map((e) => e.delayMs)).toEqual([10, 20, 40, 80, 160, 300, 300, 300]);
  });

  it('gives up once the outage phase (5 minutes, scaled) has passed since the first attempt', async () => {
    const server = await fake({
      faults: { streaks: [{ fault: 'server-error', count: 1e9, routes: ['get_server_capabilities'] }] },
    });
    const client = createTinkerClient({ baseURL: server.url, ...scaled });
    const started = Date.now();
    const error = await client.getServerCapabilities().catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(TinkerApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, retryable: true, route: 'get_server_capabilities' });
    expect((error as Error).message).toContain('gave up after');
    expect(took).toBeGreaterThanOrEqual(295);
  });

  it('pauses on 402 (billing), saying why, and goes on when billing is back', async () => {
    const server = await fake({
      faults: { streaks: [{ fault: 'payment-required', count: 4, routes: ['create_session'] }] },
    });
    const events: TinkerRetryEvent[] = [];
    const client = createTinkerClient({ baseURL: server.url, ...scaled, onRetry: (e) => events.push(e) });
    const session = await client.createSession({ tags: [], user_metadata: null, sdk_version: '0.25.0' });
    expect(session.session_id).toBeTruthy();
    expect(events).toHaveLength(4);
    for (const e of events) {
      expect(e.reason).toBe('billing');
      expect(e.delayMs).toBe(5);
      expect(e.error).toContain('402');
      expect(e.error).toContain('Billing');
    }
    expect(client.stats().billingPauses).toBe(4);
  });

  it('fails with the reason once billing has paused a call past billingPauseMs', async () => {
    const server = await fake({
      faults: { streaks: [{ fault: 'payment-required', count: 1e9, routes: ['create_session'] }] },
    });
    const client = createTinkerClient({
      baseURL: server.url,
      retry: { timeScale: 0.001, billingPauseMs: 40_000 },
      onRetry: () => {},
    });
    const error = await client
      .createSession({ tags: [], user_metadata: null, sdk_version: '0.25.0' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 402, retryable: false });
    expect((error as Error).message).toContain('billing');
  });

  it('refuses bad retry options with the field named', () => {
    expect(() => createTinkerClient({ retry: { timeScale: 0 } })).toThrow(/retry\.timeScale/);
    expect(() => createTinkerClient({ retry: { maxRetries: 1.5 } })).toThrow(/retry\.maxRetries/);
  });
});

describe('seq ids, finite inputs, the session version', () => {
  it('numbers training calls per model when the caller does not (request_id + 1), after any it gave', async () => {
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, ...scaled });
    const { session, modelId } = await model(client);
    await client.saveWeightsForSampler({ model_id: modelId, path: 's0' });
    await client.forwardBackward({
      model_id: modelId,
      seq_id: 5,
      forward_backward_input: { data: [datum(1)], loss_fn: 'importance_sampling' },
    });
    await client.optimStep({ model_id: modelId, adam_params: { learning_rate: 0.1 } });
    await client.saveWeights({ model_id: modelId, path: 'w1' });
    session.close();
    const seqs = server.requests
      .filter((r) =>
        ['save_weights_for_sampler', 'forward_backward', 'optim_step', 'save_weights'].includes(r.route),
      )
      .map((r) => r.body?.seq_id);
    expect(seqs).toEqual([1, 5, 6, 7]);
    expect(client.nextSeqId(modelId)).toBe(8);
    await expect(
      client.forwardBackward({
        model_id: modelId,
        seq_id: 0,
        forward_backward_input: { data: [datum(1)], loss_fn: 'ppo' },
      }),
    ).rejects.toThrow(/seq_id/);
  });

  it('refuses non-finite log-probs before sending, naming the datum and the position', async () => {
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, ...scaled });
    const bad = datum(1);
    (bad.loss_fn_inputs.logprobs as { data: number[] }).data[2] = Number.NEGATIVE_INFINITY;
    let error: unknown;
    try {
      await client.forwardBackward({
        model_id: 'm',
        forward_backward_input: { data: [datum(1), bad], loss_fn: 'importance_sampling' },
      });
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      'forward_backward_input.data[1].loss_fn_inputs.logprobs.data[2]',
    );
    expect((error as Error).message).toContain('-Infinity');
    expect(server.stats().received).toBe(0);
  });

  it('reports a semver sdk_version', async () => {
    expect(SKILLRL_TINKER_CLIENT_VERSION).toMatch(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/);
    const server = await fake();
    const client = createTinkerClient({ baseURL: server.url, ...scaled });
    (await openTinkerSession(client, { heartbeatMs: 60_000 })).close();
    expect(server.sessions()[0]?.sdkVersion).toBe(SKILLRL_TINKER_CLIENT_VERSION);
  });
});

describe('pipelined, byte-capped forward_backward', () => {
  it('chunks by datum count and by bytes: a datum over the cap travels alone', () => {
    const small = datum(1, 4);
    const big = datum(1, 400);
    const cap = datumBytes(small, 'json') * 3 + 1;
    expect(datumBytes(big, 'json')).toBeGreaterThan(cap);
    const chunks = chunkData([small, small, small, small, big, small], { maxData: 10, maxBytes: cap });
    expect(chunks.map((c) => c.data.length)).toEqual([3, 1, 1, 1]);
    expect(chunks[2]?.data[0]).toBe(big);
    expect(chunkData(Array(7).fill(small), { maxData: 3 }).map((c) => c.data.length)).toEqual([3, 3, 1]);
    // The protobuf estimate is the SDK's: 4 bytes a token, each tensor at its dtype's width.
    expect(datumBytes(small, 'protobuf')).toBe(4 * 4 + 4 * 8 + 4 * 4 + 4 * 4);
    expect(() => chunkData([small], { maxData: 0 })).toThrow(/maxData/);
  });

  it('submits every chunk before awaiting any result, in seq order, and returns the results in order', async () => {
    const server = await fake({ futures: { pendingPolls: 0, workMs: { forward_backward: 30 } } });
    const client = createTinkerClient({ baseURL: server.url, ...scaled });
    const { session, modelId } = await model(client);
    const data = Array.from({ length: 10 }, (_, i) => datum(i % 2 ? 1 : -1, 3 + i));
    const out = await client.forwardBackwardChunks(
      { model_id: modelId, data, loss_fn: 'importance_sampling' },
      { maxData: 3 },
    );
    session.close();
    expect(out.chunks.map((c) => c.data.length)).toEqual([3, 3, 3, 1]);
    expect(out.chunks.map((c) => c.seqId)).toEqual([1, 2, 3, 4]);
    out.chunks.forEach((c) => {
      expect(c.output.loss_fn_outputs).toHaveLength(c.data.length);
      c.output.loss_fn_outputs.forEach((o, i) => {
        expect(o.logprobs?.data).toHaveLength(c.data[i]?.model_input.chunks[0]?.tokens.length as number);
      });
    });
    const routes = server.requests.map((r) => r.route);
    const submits = routes.flatMap((r, i) => (r === 'forward_backward' ? [i] : []));
    const firstPoll = routes.indexOf('retrieve_future', submits[0]);
    expect(submits).toHaveLength(4);
    expect(Math.max(...submits)).toBeLessThan(firstPoll);
    expect(server.trainingRun(modelId)?.pendingDatums).toBe(10);
    // The SDK's order: the rest at once, then the first (the server works them by seq_id).
    const seqs = server.requests.filter((r) => r.route === 'forward_backward').map((r) => r.body?.seq_id);
    expect(seqs.at(-1)).toBe(1);
    expect([...seqs].sort()).toEqual([1, 2, 3, 4]);
  });

  it("TinkerPolicy's update is pipelined: its chunks are all submitted before a result is awaited", async () => {
    const server = await fake({ futures: { pendingPolls: 0 } });
    const policy = new TinkerPolicy({
      baseURL: server.url,
      baseModel: TINY_CHAT_MODEL,
      tokenizer: tinyChatDir(),
      loraRank: 2,
      heartbeatMs: 60_000,
      futures: { pollIntervalMs: 1 },
    });
    const data = Array.from({ length: 5 }, (_, i) => datum(i % 2 ? 1 : -1));
    const metrics = await policy.train(data, {
      loss: 'importance_sampling',
      adam: { learning_rate: 0.01 },
      chunkSize: 2,
    });
    policy.close();
    expect(metrics).toMatchObject({ datums: 5, forward_backward_requests: 3 });
    const routes = server.requests.map((r) => r.route);
    const submits = routes.flatMap((r, i) => (r === 'forward_backward' ? [i] : []));
    expect(submits).toHaveLength(3);
    expect(Math.max(...submits)).toBeLessThan(routes.indexOf('retrieve_future', submits[0]));
    const seqs = server.requests
      .filter((r) => r.route === 'forward_backward')
      .map((r) => r.body?.seq_id as number);
    // The policy's own numbers: the first sampler checkpoint took 1.
    expect([...seqs].sort()).toEqual([2, 3, 4]);
    expect(server.trainingRuns()[0]?.updates[0]?.datums).toBe(5);
  });
});
