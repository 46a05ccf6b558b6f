import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from '@skillrl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { tinyChatFiles } from '../../scripts/make-tiny-chat.mjs';
import { accumulateGradient, buildBasePrior, initLora, loraLayout, sequenceLogProbs } from './lora-model.js';
import { startFakeTinker } from './start-fake-tinker.js';
import { TINKER_LOSSES, tokenLoss } from './tinker-losses.js';
import { TINY_CHAT_MODEL, tinyChatBaseModels, tinyChatDir } from './tiny-chat.js';
import type { FakeTinkerServer } from './types.js';

const servers: FakeTinkerServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function call(
  server: FakeTinkerServer,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/api/v1/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function result(server: FakeTinkerServer, future: { body: Record<string, unknown> }) {
  for (let i = 0; i < 10; i++) {
    const r = await call(server, 'retrieve_future', { request_id: future.body.request_id });
    if (r.body.type !== 'try_again') return r;
  }
  throw new Error('the future never resolved');
}

/** A session and a tiny-chat training model on the fake, as the SDK opens them. */
async function openModel(server: FakeTinkerServer): Promise<{ session: string; modelId: string }> {
  const session = (await call(server, 'create_session', { tags: [], sdk_version: '0.25.0' })).body
    .session_id as string;
  const created = await call(server, 'create_model', {
    session_id: session,
    model_seq_id: 0,
    base_model: TINY_CHAT_MODEL,
  });
  return { session, modelId: (await result(server, created)).body.model_id as string };
}

const vocab = JSON.parse(readFileSync(join(tinyChatDir(), 'tokenizer.json'), 'utf8')).model.vocab as Record<
  string,
  number
>;
const id = (w: string) => vocab[w] as number;

describe('fake Tinker: the model', () => {
  it('the committed tiny-chat fixture is what scripts/make-tiny-chat.mjs writes', () => {
    for (const [name, text] of Object.entries(tinyChatFiles())) {
      expect(readFileSync(join(tinyChatDir(), name), 'utf8'), name).toBe(text);
    }
  });

  it("each loss's derivative with respect to the learner's log-prob matches finite differences", () => {
    const rng = createRng('loss-fd');
    for (const lossFn of TINKER_LOSSES) {
      for (let k = 0; k < 50; k++) {
        const x = {
          logProb: -rng.float() * 4,
          samplingLogProb: -rng.float() * 4,
          advantage: rng.normal(),
          weight: rng.float(),
        };
        const h = 1e-6;
        const at = (logProb: number) => tokenLoss(lossFn, { ...x, logProb }).loss;
        const numeric = (at(x.logProb + h) - at(x.logProb - h)) / (2 * h);
        const { dLogProb } = tokenLoss(lossFn, x);
        // CISPO's clipped ratio is a stopped-gradient coefficient: its derivative treats it as a constant.
        const expected =
          lossFn === 'cispo'
            ? -Math.max(0.8, Math.min(1.2, Math.exp(x.logProb - x.samplingLogProb))) * x.advantage
            : numeric;
        // Skip points within h of a clip boundary, where the loss has a kink.
        const ratio = Math.exp(x.logProb - x.samplingLogProb);
        if (Math.abs(ratio - 0.8) < 1e-4 || Math.abs(ratio - 1.2) < 1e-4) continue;
        expect(dLogProb, `${lossFn} at ${JSON.stringify(x)}`).toBeCloseTo(expected, 4);
      }
    }
  });

  it('the model backpropagates ∂loss/∂log-prob into the LoRA weights exactly (finite differences)', () => {
    const spec = tinyChatBaseModels()[TINY_CHAT_MODEL]!;
    const base = buildBasePrior(spec);
    const layout = loraLayout(base.V, 4);
    const params = initLora(layout, createRng('fd'));
    const rng = createRng('fd-b');
    for (let i = 0; i < params.length; i++) params[i] = (params[i] ?? 0) + rng.normal(0, 0.05);
    const inputs = [id('<|im_start|>'), id('user'), id('sky'), id('<|im_end|>'), id('assistant'), id('blue')];
    const targets = [id('user'), id('sky'), id('<|im_end|>'), id('assistant'), id('blue'), id('<|im_end|>')];
    const g = [0.3, 0, -0.2, 0, 1.1, -0.7];
    const surrogate = (p: Float64Array) =>
      sequenceLogProbs(base, layout, p, inputs, targets).reduce((s, l, i) => s + g[i]! * l, 0);
    const grad = new Float64Array(params.length);
    accumulateGradient(base, layout, params, inputs, targets, g, grad);
    const probe = createRng('probe');
    const picks = [
      layout.bias + id('blue'),
      layout.aw + id('sky') * layout.r,
      layout.bw + id('blue'),
      layout.ap + id('assistant') * layout.r + 1,
      layout.bp + 2 * layout.V + id('<|im_end|>'),
    ];
    for (let k = 0; k < 40; k++) picks.push(probe.int(params.length));
    for (const j of picks) {
      const h = 1e-5;
      const plus = Float64Array.from(params);
      const minus = Float64Array.from(params);
      plus[j] = (plus[j] ?? 0) + h;
      minus[j] = (minus[j] ?? 0) - h;
      expect(grad[j]!, `param ${j}`).toBeCloseTo((surrogate(plus) - surrogate(minus)) / (2 * h), 6);
    }
  });
});

describe('fake Tinker: the server', () => {
  it('learns from importance-sampling updates: a rewarded answer becomes the likely one', async () => {
    const server = await startFakeTinker();
    servers.push(server);
    const session = await call(server, 'create_session', {
      tags: [],
      user_metadata: {},
      sdk_version: 'test',
      type: 'create_session',
    });
    const sessionId = session.body.session_id as string;
    const created = await result(
      server,
      await call(server, 'create_model', {
        session_id: sessionId,
        model_seq_id: 0,
        base_model: TINY_CHAT_MODEL,
        lora_config: { rank: 8, seed: 3 },
      }),
    );
    const modelId = created.body.model_id as string;
    const prompt = [
      id('<|im_start|>'),
      id('user'),
      id('what'),
      id('color'),
      id('sky'),
      id('<|im_end|>'),
      id('<|im_start|>'),
      id('assistant'),
    ];
    let sampler = (
      await result(
        server,
        await call(server, 'save_weights_for_sampler', { model_id: modelId, path: 'step-0', seq_id: 1 }),
      )
    ).body.path as string;
    const share = async (path: string) => {
      const s = await result(
        server,
        await call(server, 'asample', {
          prompt: { chunks: [{ type: 'encoded_text', tokens: prompt }] },
          num_samples: 64,
          model_path: path,
          sampling_params: { max_tokens: 3, seed: 9 },
        }),
      );
      const sequences = s.body.sequences as { tokens: number[]; logprobs: number[] }[];
      return {
        sequences,
        blue: sequences.filter((q) => q.tokens[0] === id('blue')).length / sequences.length,
      };
    };
    const before = (await share(sampler)).blue;
    for (let step = 1; step <= 12; step++) {
      const { sequences } = await share(sampler);
      const rewards = sequences.map((q) => (q.tokens[0] === id('blue') ? 1 : 0));
      const mean = rewards.reduce((a: number, b) => a + b, 0) / rewards.length;
      const data = sequences.map((q, i) => {
        const full = [...prompt, ...q.tokens];
        const n = full.length - 1;
        const completionStart = prompt.length - 1;
        return {
          model_input: { chunks: [{ type: 'encoded_text', tokens: full.slice(0, -1) }] },
          loss_fn_inputs: {
            target_tokens: { data: full.slice(1), dtype: 'int64', shape: [n] },
            logprobs: {
              data: Array.from({ length: n }, (_, j) =>
                j >= completionStart ? q.logprobs[j - completionStart]! : 0,
              ),
              dtype: 'float32',
              shape: [n],
            },
            advantages: {
              data: Array.from({ length: n }, (_, j) => (j >= completionStart ? rewards[i]! - mean : 0)),
              dtype: 'float32',
              shape: [n],
            },
          },
        };
      });
      const fb = await result(
        server,
        await call(server, 'forward_backward', {
          model_id: modelId,
          seq_id: 2 * step,
          forward_backward_input: { data, loss_fn: 'importance_sampling' },
        }),
      );
      expect(fb.body.loss_fn_output_type).toBe('ArrayRecord');
      await result(
        server,
        await call(server, 'optim_step', {
          model_id: modelId,
          seq_id: 2 * step + 1,
          adam_params: { learning_rate: 0.1 },
        }),
      );
      sampler = (
        await result(
          server,
          await call(server, 'save_weights_for_sampler', {
            model_id: modelId,
            path: `step-${step}`,
            seq_id: 2 * step + 2,
          }),
        )
      ).body.path as string;
    }
    const after = (await share(sampler)).blue;
    expect(before).toBeLessThan(0.35);
    expect(after).toBeGreaterThan(0.9);
    const run = server.trainingRun(modelId)!;
    expect(run.updates).toHaveLength(12);
    expect(server.lineageOf(sampler)).toEqual(run.lineage);
  });

  it('futures resolve later, fail, expire or never resolve, as planned', async () => {
    const server = await startFakeTinker({
      futures: {
        pendingPolls: 2,
        plan: ({ route }) =>
          route === 'get_info'
            ? undefined
            : route === 'asample'
              ? 'expire'
              : route === 'unload_model'
                ? 'fail-user'
                : undefined,
      },
    });
    servers.push(server);
    const session = (await call(server, 'create_session', { tags: [], sdk_version: 't' })).body.session_id;
    const created = await call(server, 'create_model', {
      session_id: session,
      model_seq_id: 0,
      base_model: TINY_CHAT_MODEL,
    });
    const first = await call(server, 'retrieve_future', { request_id: created.body.request_id });
    expect(first.body).toMatchObject({ type: 'try_again', queue_state: 'active' });
    const done = await result(server, created);
    expect(done.body.model_id).toBe(created.body.model_id);
    const sample = await call(server, 'asample', {
      prompt: { chunks: [{ tokens: [1, 2] }] },
      base_model: TINY_CHAT_MODEL,
      sampling_params: { max_tokens: 2 },
    });
    expect((await call(server, 'retrieve_future', { request_id: sample.body.request_id })).status).toBe(410);
    const unload = await result(server, await call(server, 'unload_model', { model_id: done.body.model_id }));
    expect(unload.body).toMatchObject({ category: 'user' });
    expect(server.stats().futures).toMatchObject({ expired: 1, failed: 1 });
  });

  it('a request retried with its idempotency key after a dropped answer is not carried out twice', async () => {
    let drops = 0;
    const server = await startFakeTinker({
      faults: {
        plan: ({ route }) => (route === 'create_session' && drops++ === 0 ? 'drop-after-commit' : undefined),
      },
    });
    servers.push(server);
    const body = JSON.stringify({ tags: [], sdk_version: 't' });
    const post = () =>
      fetch(`${server.url}/api/v1/create_session`, {
        method: 'POST',
        headers: { 'x-idempotency-key': 'k-1', 'content-type': 'application/json' },
        body,
      });
    await expect(post()).rejects.toThrow();
    const again = (await (await post()).json()) as { session_id: string };
    expect(server.sessions().map((s) => s.id)).toEqual([again.session_id]);
    expect(server.stats().idempotentReplays).toBe(1);
  });

  it('checks the API key and never records it', async () => {
    const server = await startFakeTinker({ apiKey: 'tml-secret-key-123', echoKeyInErrors: true });
    servers.push(server);
    const bad = await call(server, 'healthz', undefined, { 'x-api-key': 'tml-wrong-key-456' });
    expect(bad.status).toBe(401);
    expect(String(bad.body.detail)).toContain('tml-wrong-key-456');
    const ok = await call(server, 'healthz', undefined, { 'x-api-key': 'tml-secret-key-123' });
    expect(ok.body).toEqual({ status: 'ok' });
    expect(JSON.stringify(server.requests)).not.toContain('tml-secret-key-123');
  });

  it('refuses training calls without seq_id, and warns of sampling without a sampling session', async () => {
    const server = await startFakeTinker({ futures: { pendingPolls: 0 } });
    servers.push(server);
    const { session, modelId } = await openModel(server);
    for (const route of ['forward_backward', 'optim_step', 'save_weights', 'save_weights_for_sampler']) {
      const refused = await call(server, route, { model_id: modelId, path: 'x', adam_params: {} });
      expect(refused.status).toBe(400);
      expect(String(refused.body.detail)).toContain(`seq_id: required on ${route}`);
    }
    const zero = await call(server, 'optim_step', { model_id: modelId, seq_id: 0, adam_params: {} });
    expect(zero.status).toBe(400);
    const prompt = { chunks: [{ type: 'encoded_text', tokens: [1, 2] }] };
    await call(server, 'asample', {
      prompt,
      base_model: TINY_CHAT_MODEL,
      sampling_params: { max_tokens: 2 },
    });
    expect(server.stats().warnings).toHaveLength(1);
    expect(server.requests.at(-1)?.warning).toContain('sampling session');
    const sampling = await call(server, 'create_sampling_session', {
      session_id: session,
      sampling_session_seq_id: 0,
      base_model: TINY_CHAT_MODEL,
    });
    const viaSession = await call(server, 'asample', {
      prompt,
      sampling_session_id: sampling.body.sampling_session_id,
      seq_id: 1,
      sampling_params: { max_tokens: 2 },
    });
    expect(viaSession.status).toBe(200);
    expect(server.stats().warnings).toHaveLength(1);
  });

  it('answers fault streaks in a row (429s, 500s, 402s), then normally', async () => {
    const server = await startFakeTinker({
      faults: {
        streaks: [
          { fault: 'rate-limit', count: 12, routes: ['healthz'] },
          { fault: 'payment-required', count: 2, routes: ['get_server_capabilities'] },
        ],
      },
    });
    servers.push(server);
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) statuses.push((await call(server, 'healthz')).status);
    expect(statuses).toEqual([...Array(12).fill(429), 200]);
    const billing = await call(server, 'get_server_capabilities');
    expect(billing.status).toBe(402);
    expect(String(billing.body.detail)).toContain('Billing');
    expect(server.stats().faulted).toMatchObject({ 'rate-limit': 12, 'payment-required': 1 });
  });

  it('holds a future until its work time has passed (futures.workMs)', async () => {
    const server = await startFakeTinker({
      futures: { pendingPolls: 0, workMs: { create_session: 0, create_model: 60 } },
    });
    servers.push(server);
    const session = (await call(server, 'create_session', { tags: [], sdk_version: '0.25.0' })).body
      .session_id;
    const started = Date.now();
    const created = await call(server, 'create_model', {
      session_id: session,
      model_seq_id: 0,
      base_model: TINY_CHAT_MODEL,
    });
    const done = await call(server, 'retrieve_future', { request_id: created.body.request_id });
    expect(done.body.model_id).toBe(created.body.model_id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("works a model's training calls in seq_id order, whatever order they arrive in", async () => {
    const server = await startFakeTinker({ futures: { pendingPolls: 0 }, seqGapMs: 5_000 });
    servers.push(server);
    const { modelId } = await openModel(server);
    // The step (seq 2) comes before the gradients it applies (seq 1): worked on arrival, it would fail.
    const step = await call(server, 'optim_step', {
      model_id: modelId,
      seq_id: 2,
      adam_params: { learning_rate: 0.1 },
    });
    const data = [
      {
        model_input: { chunks: [{ type: 'encoded_text', tokens: [2, 5] }] },
        loss_fn_inputs: {
          target_tokens: { data: [5, 3], dtype: 'int64' },
          logprobs: { data: [-1, -1], dtype: 'float32' },
          advantages: { data: [0, 1], dtype: 'float32' },
        },
      },
    ];
    await call(server, 'forward_backward', {
      model_id: modelId,
      seq_id: 1,
      forward_backward_input: { data, loss_fn: 'importance_sampling' },
    });
    const applied = await call(server, 'retrieve_future', { request_id: step.body.request_id });
    expect(applied.body).toMatchObject({ type: 'optim_step' });
    expect(server.trainingRun(modelId)?.updates).toHaveLength(1);
  });
});
