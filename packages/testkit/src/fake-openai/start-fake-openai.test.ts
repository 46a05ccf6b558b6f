import { InvalidArgumentError } from '@skillrl/core';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { fakePromptTokenIds } from './fake-chat-template.js';
import { fakeTokenId, fakeTokenize } from './fake-tokens.js';
import { startFakeOpenAI } from './start-fake-openai.js';
import { ENDPOINT_FAULT_KINDS, type FakeOpenAIServer, type FaultKind } from './types.js';

const servers: FakeOpenAIServer[] = [];
async function start(options: Parameters<typeof startFakeOpenAI>[0] = {}) {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}
function client(server: FakeOpenAIServer, extra: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) {
  return new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test-secret-key-123', maxRetries: 0, ...extra });
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ask = (content: string) => ({ model: 'm', messages: [{ role: 'user' as const, content }] });

describe('startFakeOpenAI: protocol', () => {
  it('answers a non-streaming completion with usage, and records the request without the key', async () => {
    const server = await start({ script: ['Action: go to desk 1'] });
    const res = await client(server).chat.completions.create(ask('where now'));
    expect(res.choices[0]?.message.content).toBe('Action: go to desk 1');
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.model).toBe('m');
    // Prompt: 3 framing + 2 words ("where", " now") = 5; completion: "Action:", " go", " to", " desk", " 1" = 5.
    expect(res.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(server.requests)).not.toContain('sk-test-secret-key-123');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'm',
      messages: [{ role: 'user', content: 'where now' }],
    });
    expect(server.stats()).toMatchObject({ received: 1, completed: 1, aborted: 0 });
    expect(server.inFlight()).toBe(0);
  });

  it('streams server-sent events ending with [DONE], content reassembling exactly, usage last', async () => {
    const server = await start({ script: ['take the  apple\nfrom table 2 '] });
    const stream = await client(server).chat.completions.create({
      ...ask('x'),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('take the  apple\nfrom table 2 ');
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBe(fakeTokenize('take the  apple\nfrom table 2 ').length);
    const raw = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask('x'), stream: true }),
    }).then((r) => r.text());
    expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('returns tool calls, in both modes', async () => {
    const reply = { toolCalls: [{ name: 'act', arguments: '{"action":"open drawer 1"}' }] };
    const server = await start({ script: [reply] });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'act', parameters: { type: 'object', properties: {} } },
      },
    ];
    const res = await client(server).chat.completions.create({ ...ask('x'), tools });
    const call = res.choices[0]?.message.tool_calls?.[0];
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('act');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      action: 'open drawer 1',
    });

    const stream = client(server).chat.completions.stream({ ...ask('x'), tools, stream: true });
    const final = await stream.finalChatCompletion();
    const streamed = final.choices[0]?.message.tool_calls?.[0];
    expect(streamed?.type === 'function' && streamed.function.arguments).toBe('{"action":"open drawer 1"}');
  });

  it('returns per-token log-probs in OpenAI shape and fake token ids', async () => {
    const server = await start({ script: ['go to shelf 3'], seed: 7 });
    const res = await client(server).chat.completions.create({
      ...ask('x'),
      logprobs: true,
      top_logprobs: 3,
    });
    const choice = res.choices[0] as OpenAI.ChatCompletion.Choice & { token_ids?: number[] };
    const content = choice.logprobs?.content ?? [];
    expect(content.map((t) => t.token)).toEqual(['go', ' to', ' shelf', ' 3']);
    expect(choice.token_ids).toHaveLength(4);
    for (const entry of content) {
      expect(entry.logprob).toBeLessThanOrEqual(0);
      expect(entry.logprob).toBeGreaterThan(-2.5);
      expect(entry.top_logprobs).toHaveLength(3);
      expect(entry.top_logprobs[0]?.token).toBe(entry.token);
      const lps = entry.top_logprobs.map((t) => t.logprob);
      expect([...lps].sort((a, b) => b - a)).toEqual(lps);
      expect(entry.bytes).toEqual(Array.from(Buffer.from(entry.token)));
    }
    // Same seed, same reply: same log-probs; the ids only depend on the token text.
    const again = await client(server).chat.completions.create({ ...ask('y'), logprobs: true });
    expect(again.choices[0]?.logprobs?.content?.map((t) => t.logprob)).toEqual(content.map((t) => t.logprob));
    expect(again.choices[0]?.logprobs?.content?.[0]?.top_logprobs).toEqual([]);
    // Without logprobs, none are sent.
    const plain = await client(server).chat.completions.create(ask('z'));
    expect(plain.choices[0]?.logprobs).toBeNull();
  });

  it('answers return_token_ids as vLLM does: the reply ids per choice, the prompt ids once', async () => {
    const server = await start({ script: ['go to shelf 3'] });
    type WithIds = OpenAI.ChatCompletion & { prompt_token_ids?: number[] };
    const first = (await client(server).chat.completions.create({
      ...ask('where now'),
      return_token_ids: true,
    } as never)) as WithIds;
    const reply = (first.choices[0] as { token_ids?: number[] }).token_ids ?? [];
    expect(reply).toEqual(fakeTokenize('go to shelf 3').map(fakeTokenId));
    expect(first.prompt_token_ids).toEqual(
      fakePromptTokenIds({ messages: [{ role: 'user', content: 'where now' }] }),
    );
    // A request that replays the reply and adds a turn extends the previous prompt + reply, as a real
    // template does (special tokens around each message).
    const next = (await client(server).chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'where now' },
        { role: 'assistant', content: 'go to shelf 3' },
        { role: 'user', content: 'You see a mug.' },
      ],
      return_token_ids: true,
    } as never)) as WithIds;
    const before = [...(first.prompt_token_ids ?? []), ...reply];
    expect(next.prompt_token_ids?.slice(0, before.length)).toEqual(before);
    // Streaming: on the first chunk only.
    const stream = await client(server).chat.completions.create({
      ...ask('x'),
      stream: true,
      return_token_ids: true,
    } as never);
    const withIds: number[] = [];
    let i = 0;
    for await (const chunk of stream as unknown as AsyncIterable<{ prompt_token_ids?: number[] }>) {
      if (chunk.prompt_token_ids) withIds.push(i);
      i++;
    }
    expect(withIds).toEqual([0]);
    const plain = (await client(server).chat.completions.create(ask('z'))) as WithIds;
    expect(plain.prompt_token_ids).toBeUndefined();
  });

  it('lists models and 404s unknown routes', async () => {
    const server = await start({ models: ['a', 'b'] });
    const models = await client(server).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['a', 'b']);
    const res = await fetch(`${server.url}/v1/nope`);
    expect(res.status).toBe(404);
    const bad = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
  });

  it('cycles the script by default and fails with 500 past its end when asked', async () => {
    const cycling = await start({ script: ['a', 'b'] });
    const c = client(cycling);
    const got = [];
    for (let i = 0; i < 5; i++)
      got.push((await c.chat.completions.create(ask(`${i}`))).choices[0]?.message.content);
    expect(got).toEqual(['a', 'b', 'a', 'b', 'a']);
    const strict = await start({ script: ['only'], onScriptEnd: 'error' });
    await client(strict).chat.completions.create(ask('1'));
    await expect(client(strict).chat.completions.create(ask('2'))).rejects.toMatchObject({ status: 500 });
  });

  it('passes index, attempt and the parsed request to respond', async () => {
    const seen: [number, number][] = [];
    const server = await start({
      respond: (request, ctx) => {
        seen.push([ctx.index, ctx.attempt]);
        return `echo ${String(request.messages?.[0]?.content)}`;
      },
    });
    const c = client(server);
    expect((await c.chat.completions.create(ask('hi'))).choices[0]?.message.content).toBe('echo hi');
    await c.chat.completions.create(ask('hi'));
    await c.chat.completions.create(ask('other'));
    expect(seen).toEqual([
      [0, 0],
      [1, 1],
      [2, 0],
    ]);
  });

  it('waits latencyMs before answering', async () => {
    const server = await start({ latencyMs: [60, 80] });
    const t0 = performance.now();
    await client(server).chat.completions.create(ask('x'));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(58);
  });

  it('rejects options that cannot work, naming them', async () => {
    await expect(startFakeOpenAI({ faults: { rate: 2 } })).rejects.toSatisfy(
      (e) => InvalidArgumentError.isInstance(e) && e.argument === 'options.faults.rate',
    );
    await expect(startFakeOpenAI({ latencyMs: [5, 1] })).rejects.toThrow(/latencyMs/);
    await expect(startFakeOpenAI({ faults: { kinds: ['boom' as FaultKind] } })).rejects.toThrow(/boom/);
  });
});

describe('startFakeOpenAI: faults', () => {
  const only = (kind: FaultKind) => ({ plan: () => kind, retryAfterMs: 1500 });

  it('rate-limit: 429 with Retry-After', async () => {
    const server = await start({ faults: only('rate-limit') });
    const error = await client(server)
      .chat.completions.create(ask('x'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const headers = (error as InstanceType<typeof OpenAI.APIError>).headers;
    expect(headers?.get('retry-after')).toBe('1.5');
    expect(headers?.get('retry-after-ms')).toBe('1500');
    expect(server.stats().faulted['rate-limit']).toBe(1);
    expect(server.stats().completed).toBe(0);
  });

  it('server-error: 500', async () => {
    const server = await start({ faults: only('server-error') });
    await expect(client(server).chat.completions.create(ask('x'))).rejects.toBeInstanceOf(
      OpenAI.InternalServerError,
    );
  });

  it('hang: the client times out, the request leaves inFlight, and close still returns', async () => {
    const server = await start({ faults: only('hang') });
    const pending = client(server, { timeout: 150 }).chat.completions.create(ask('x'));
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await expect.poll(() => server.inFlight()).toBe(0);
    expect(server.stats().aborted).toBe(1);

    // A hang still open when the server closes is ended by close().
    const orphan = client(server)
      .chat.completions.create(ask('y'))
      .catch((e: unknown) => e);
    await expect.poll(() => server.inFlight()).toBe(1);
    await server.close();
    expect(await orphan).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(server.inFlight()).toBe(0);
  });

  it('hang: an aborted request is released at once', async () => {
    const server = await start({ faults: only('hang') });
    const controller = new AbortController();
    const pending = client(server).chat.completions.create(ask('x'), { signal: controller.signal });
    await expect.poll(() => server.inFlight()).toBe(1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    await expect.poll(() => server.inFlight()).toBe(0);
  });

  it('drop: the socket dies mid-body (plain and streaming)', async () => {
    const server = await start({
      faults: only('drop'),
      script: ['a fairly long answer with many words in it'],
    });
    await expect(client(server).chat.completions.create(ask('x'))).rejects.toThrow();
    const consume = async () => {
      const stream = await client(server).chat.completions.create({ ...ask('x'), stream: true });
      for await (const _ of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toThrow();
    expect(server.stats().faulted.drop).toBe(2);
    await expect.poll(() => server.inFlight()).toBe(0);
  });

  it('malformed-tool-call: arguments that JSON.parse rejects', async () => {
    const server = await start({
      faults: only('malformed-tool-call'),
      script: [{ toolCalls: [{ name: 'act', arguments: '{"action":"look"}' }] }, 'plain'],
    });
    for (let i = 0; i < 2; i++) {
      const res = await client(server).chat.completions.create(ask(`${i}`));
      const call = res.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === 'function' && call.function.name).toBe('act');
      expect(() => JSON.parse(call?.type === 'function' ? call.function.arguments : '')).toThrow();
    }
  });

  it('truncated-json: the body is cut off mid-JSON', async () => {
    const server = await start({ faults: only('truncated-json') });
    await expect(client(server).chat.completions.create(ask('x'))).rejects.toThrow();
    const raw = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(ask('y')),
    }).then((r) => r.text());
    expect(() => JSON.parse(raw)).toThrow();
  });

  it('endpoint faults: 401, 404, an HTML 502 and a non-JSON 200, on every request, never drawn by rate', async () => {
    const raw = async (server: FakeOpenAIServer) =>
      fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify(ask('y')) });
    const unauthorized = await start({ faults: only('unauthorized') });
    await expect(client(unauthorized).chat.completions.create(ask('x'))).rejects.toMatchObject({
      status: 401,
    });
    const notFound = await start({ faults: only('not-found') });
    await expect(client(notFound).chat.completions.create(ask('x'))).rejects.toMatchObject({ status: 404 });
    const gateway = await start({ faults: only('bad-gateway-html') });
    const page = await raw(gateway);
    expect(page.status).toBe(502);
    expect(page.headers.get('content-type')).toBe('text/html');
    expect(await page.text()).toContain('<title>502 Bad Gateway</title>');
    const garbage = await start({ faults: only('non-json') });
    const body = await raw(garbage);
    expect(body.status).toBe(200);
    const text = await body.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(garbage.stats().faulted['non-json']).toBe(1);
    // The default kinds stay the transient ones: rate 1 never answers 401.
    const transient = await start({ faults: { rate: 1, retryAfterMs: 1 } });
    for (let i = 0; i < 12; i++) {
      // Some default faults hang or drop: each request gives up quickly.
      await fetch(`${transient.baseURL}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify(ask(`t${i}`)),
        signal: AbortSignal.timeout(200),
      })
        .then((r) => r.text())
        .catch(() => undefined);
    }
    expect(transient.stats().received).toBe(12);
    const faulted = transient.stats().faulted;
    expect(ENDPOINT_FAULT_KINDS.every((k) => faulted[k] === 0)).toBe(true);
  });

  it('no-choices and missing-choices: a 200 completion with choices [] or none at all', async () => {
    const empty = await start({ faults: only('no-choices') });
    const res = await client(empty).chat.completions.create(ask('anything'));
    expect(res.object).toBe('chat.completion');
    expect(res.choices).toEqual([]);
    expect(empty.stats().faulted['no-choices']).toBe(1);
    const none = await start({ faults: only('missing-choices') });
    const bare = (await client(none).chat.completions.create(ask('anything'))) as unknown as Record<
      string,
      unknown
    >;
    expect(bare.object).toBe('chat.completion');
    expect('choices' in bare).toBe(false);
    // Never drawn by a rate alone: they are endpoint faults.
    expect(ENDPOINT_FAULT_KINDS).toEqual(expect.arrayContaining(['no-choices', 'missing-choices']));
  });

  it('dieAtRequest: that request and every later one find the server dead; new connections are refused', async () => {
    const server = await start({ script: ['Action: look'], dieAtRequest: 2 });
    const c = client(server);
    expect((await c.chat.completions.create(ask('one'))).choices[0]?.message.content).toBe('Action: look');
    expect(server.died()).toBe(false);
    await c.chat.completions.create(ask('two'));
    await expect(c.chat.completions.create(ask('three'))).rejects.toThrow(/Connection error/);
    expect(server.died()).toBe(true);
    // Listening stopped: a fresh connection is refused, not answered.
    await expect(fetch(`${server.baseURL}/models`)).rejects.toThrow();
    expect(server.stats().completed).toBe(2);
    await expect(startFakeOpenAI({ dieAtRequest: -1 })).rejects.toThrow(/options.dieAtRequest/);
  });

  it('draws faults from the seed: same seed and requests give the same faults, at about the rate', async () => {
    const run = async (seed: number) => {
      const server = await start({ seed, faults: { rate: 0.1, kinds: ['rate-limit', 'server-error'] } });
      const c = client(server);
      // Sequential batches so arrival order does not matter for the assertion (it would not anyway).
      for (let b = 0; b < 10; b++) {
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            c.chat.completions.create(ask(`q${b * 50 + i}`)).catch(() => null),
          ),
        );
      }
      return server.requests
        .map((r) => [JSON.stringify(r.body), r.fault ?? '-'] as const)
        .sort()
        .map(([, f]) => f);
    };
    const a = await run(1);
    const b = await run(1);
    const c = await run(2);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const n = a.filter((f) => f !== '-').length;
    // 500 draws at p = 0.1: mean 50, sd ≈ 6.7; [25, 75] is beyond 3.7 sd either side.
    expect(n).toBeGreaterThan(25);
    expect(n).toBeLessThan(75);
    expect(new Set(a)).toEqual(new Set(['-', 'rate-limit', 'server-error']));
  });
});
