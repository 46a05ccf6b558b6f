import { type FakeTinkerServer, TINY_CHAT_MODEL } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import {
  createTinkerClient,
  type Datum,
  modelInput,
  openTinkerSession,
  TinkerApiError,
  tensor,
} from '../src/index.js';
import { fake } from './support.js';

// Both wire formats of forward_backward, each against a fake that reads only that one: protobuf (SDK 0.25,
// from its own descriptor) and JSON (skyrl-tx, the older SDKs), and `auto` choosing by the server's answer.

const fakeReading = (wire: 'json' | 'protobuf' | 'both') => fake({ wire, futures: { pendingPolls: 0 } });

const datum = (advantage: number, tokens: number[]): Datum => ({
  model_input: modelInput(tokens.slice(0, -1)),
  loss_fn_inputs: {
    target_tokens: tensor(tokens.slice(1), 'int64'),
    logprobs: tensor(
      tokens.slice(1).map(() => -2.5),
      'float32',
    ),
    advantages: tensor(
      tokens.slice(1).map((_, i) => (i === tokens.length - 2 ? advantage : 0)),
      'float32',
    ),
  },
});
const data = [datum(1, [2, 5, 6, 3]), datum(-1, [2, 7, 3]), datum(0.5, [2, 5, 9, 11, 3])];

/** A training run, one forward, one forward_backward and a pipelined pair of chunks: the logprobs of each. */
async function exercise(server: FakeTinkerServer, wire: 'json' | 'protobuf' | 'auto') {
  const client = createTinkerClient({ baseURL: server.url, wire, futures: { pollIntervalMs: 1 } });
  const session = await openTinkerSession(client, { heartbeatMs: 60_000 });
  const { model_id } = await client.createModel({
    session_id: session.id,
    model_seq_id: session.nextModelSeqId(),
    base_model: TINY_CHAT_MODEL,
    lora_config: { rank: 4, seed: 3 },
  });
  const forward = await client.forward({ model_id, forward_input: { data, loss_fn: 'importance_sampling' } });
  const fb = await client.forwardBackward({
    model_id,
    forward_backward_input: {
      data,
      loss_fn: 'ppo',
      loss_fn_config: { clip_low_threshold: 0.8, clip_high_threshold: 1.2 },
    },
  });
  const chunks = await client.forwardBackwardChunks(
    { model_id, data, loss_fn: 'importance_sampling' },
    { maxData: 2 },
  );
  await client.optimStep({ model_id, adam_params: { learning_rate: 0.1 } });
  session.close();
  return {
    client,
    model_id,
    forward: forward.loss_fn_outputs.map((o) => o.logprobs?.data),
    fb: fb.loss_fn_outputs.map((o) => o.logprobs?.data),
    fbLoss: fb.metrics['loss:sum'],
    chunks: chunks.chunks.flatMap((c) => c.output.loss_fn_outputs.map((o) => o.logprobs?.data)),
  };
}

const close = (a: (number[] | undefined)[], b: (number[] | undefined)[]) => {
  expect(a.map((x) => x?.length)).toEqual(b.map((x) => x?.length));
  a.forEach((x, i) => {
    x?.forEach((v, t) => {
      expect(v).toBeCloseTo((b[i] as number[])[t] as number, 5);
    });
  });
};

describe('forward_backward on both wire formats', () => {
  it('speaks protobuf to a server that reads only protobuf, with the same results as JSON to a JSON one', async () => {
    const proto = await fakeReading('protobuf');
    const json = await fakeReading('json');
    const p = await exercise(proto, 'protobuf');
    const j = await exercise(json, 'json');
    close(p.forward, j.forward);
    close(p.fb, j.fb);
    close(p.chunks, j.chunks);
    expect(p.fbLoss).toBeCloseTo(j.fbLoss as number, 4);
    // The two servers trained alike: one update of 3 + 3 data each.
    expect(proto.trainingRun(p.model_id)?.updates[0]?.datums).toBe(6);
    expect(json.trainingRun(j.model_id)?.updates[0]?.datums).toBe(6);

    const posts = proto.requests.filter((r) => r.headers['content-type']?.includes('x-protobuf'));
    // forward, forward_backward, two chunks: all on the forward_backward route, the first with forward_only.
    expect(posts.map((r) => r.route)).toEqual([
      'forward',
      'forward_backward',
      'forward_backward',
      'forward_backward',
    ]);
    expect(posts.map((r) => r.body?.seq_id)).toEqual([1, 2, expect.any(Number), expect.any(Number)]);
    expect(proto.stats().byRoute.forward).toBeUndefined();
    const polls = proto.requests.filter(
      (r) => r.route === 'retrieve_future' && String(r.headers.accept).includes('x-protobuf'),
    );
    expect(polls.length).toBeGreaterThanOrEqual(4);
    expect(json.requests.some((r) => r.headers['content-type']?.includes('x-protobuf'))).toBe(false);
  });

  it('fails with a typed 415 where the server does not read the format it was told to speak', async () => {
    for (const [server, wire] of [
      [await fakeReading('json'), 'protobuf'],
      [await fakeReading('protobuf'), 'json'],
    ] as const) {
      const error = await exercise(server, wire).catch((e: unknown) => e);
      expect(TinkerApiError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ status: 415, retryable: false });
    }
  });

  it('auto speaks protobuf where it is read, and falls back to JSON for good where it is not', async () => {
    const proto = await fakeReading('protobuf');
    const p = await exercise(proto, 'auto');
    expect(p.client.wire()).toBe('protobuf');
    expect(p.client.stats().wireFallbacks).toBe(0);

    const json = await fakeReading('json');
    const j = await exercise(json, 'auto');
    expect(j.client.wire()).toBe('json');
    expect(j.client.stats().wireFallbacks).toBe(1);
    close(j.fb, p.fb);
    // One protobuf body was refused; everything after it went as JSON.
    expect(json.requests.filter((r) => r.headers['content-type']?.includes('x-protobuf'))).toHaveLength(1);
  });

  it('defaults to JSON for a self-hosted URL and to auto for the hosted service', () => {
    expect(createTinkerClient({ baseURL: 'http://127.0.0.1:1' }).wire()).toBe('json');
    expect(
      createTinkerClient({ baseURL: 'https://tinker.thinkingmachines.dev/services/tinker-prod' }).wire(),
    ).toBe('protobuf');
    expect(() => createTinkerClient({ wire: 'xml' as never })).toThrow(/wire/);
  });
});
