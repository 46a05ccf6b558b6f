import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type RecordingProxy, type RecordingProxyOptions, startRecordingProxy } from '../src/index.js';
import { programClient, sseChunk, startScriptedUpstream, wait } from './proxy-helpers.js';

const REAL_KEY = 'sk-real-upstream-key-DO-NOT-LEAK-0123456789';
const FAST_RETRY = { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 };
const messages = [{ role: 'user' as const, content: 'hello' }];
const unexpected = (): never => {
  throw new Error('expected the call to fail');
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

async function proxyFor(
  baseURL: string,
  upstream: Partial<RecordingProxyOptions['upstream']> = {},
): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy({
    upstream: { model: 'served-model', baseURL, apiKeyEnv: 'MY_KEY', retry: FAST_RETRY, ...upstream },
    env: { MY_KEY: REAL_KEY },
  });
  open.unshift(proxy);
  return proxy;
}

async function fakeWith(options: Parameters<typeof startFakeOpenAI>[0]): Promise<FakeOpenAIServer> {
  const fake = await startFakeOpenAI(options);
  open.push(fake);
  return fake;
}

async function drain(stream: AsyncIterable<{ choices: { delta: { content?: string | null } }[] }>) {
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

describe('startRecordingProxy: retries, failures, cuts and secrets', () => {
  it('retries an upstream 500 and answers the program with the success', async () => {
    const fake = await fakeWith({
      script: ['second time lucky'],
      faults: { plan: ({ attempt }) => (attempt === 0 ? 'server-error' : undefined) },
    });
    const proxy = await proxyFor(fake.baseURL);
    const episode = proxy.openEpisode({ episodeId: 'ep-r', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    const plain = await program.chat.completions.create({ model: 'm', messages });
    expect(plain.choices[0]?.message.content).toBe('second time lucky');
    // A stream that failed before its first byte is retried too.
    const streamed = await drain(
      await program.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'again' }],
        stream: true,
      }),
    );
    expect(streamed).toBe('second time lucky');
    expect(fake.stats().faulted['server-error']).toBe(2);
    const calls = episode.takeCalls();
    expect(calls.map((c) => [c.status, c.attempts, c.error])).toEqual([
      [200, 2, undefined],
      [200, 2, undefined],
    ]);
    expect(episode.failure).toBeUndefined();
  });

  it('honours Retry-After on a 429', async () => {
    const fake = await fakeWith({
      faults: { plan: ({ attempt }) => (attempt === 0 ? 'rate-limit' : undefined), retryAfterMs: 300 },
    });
    const proxy = await proxyFor(fake.baseURL);
    const episode = proxy.openEpisode({ episodeId: 'ep-429', condition: 0 });
    const started = performance.now();
    await programClient(proxy.url, episode.token).chat.completions.create({ model: 'm', messages });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(episode.takeCalls()[0]?.attempts).toBe(2);
  });

  it('past the retry budget: the program gets the status and a redacted OpenAI-style error, the episode a failure', async () => {
    const fake = await fakeWith({ faults: { plan: () => 'server-error' } });
    const proxy = await proxyFor(fake.baseURL);
    const episode = proxy.openEpisode({ episodeId: 'ep-500', condition: 0 });
    // The program's own client would retry a 500 twice; the proxy tells it not to (x-should-retry: false).
    const program = programClient(proxy.url, episode.token, { maxRetries: 2 });
    const error = await program.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 500 });
    expect((error as APIError).message).toContain('upstream chat completion failed after 3 attempts');
    expect((error as APIError).message).toContain('Internal server error (injected fault).');
    expect(fake.stats().received).toBe(3);
    expect(episode.failure).toEqual({
      code: 'upstream_status',
      message: 'upstream chat completion failed after 3 attempts: Internal server error (injected fault).',
    });
    const [call] = episode.takeCalls();
    expect(call).toMatchObject({ status: 500, attempts: 3, error: episode.failure?.message });
    expect(call?.reply).toBeUndefined();
    expect(proxy.stats()).toMatchObject({ calls: 1, failures: 1 });
  });

  it('passes a request the upstream rejects (400) back as is, without marking the episode errored', async () => {
    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'max_tokens is too large', type: 'invalid_request_error', code: 'bad' },
        }),
      );
    });
    open.push(upstream);
    const proxy = await proxyFor(upstream.baseURL);
    const episode = proxy.openEpisode({ episodeId: 'ep-400', condition: 0 });
    const error = await programClient(proxy.url, episode.token)
      .chat.completions.create({ model: 'm', messages })
      .then(unexpected, (e: unknown) => e as APIError);
    expect(error).toMatchObject({ status: 400, code: 'bad', type: 'invalid_request_error' });
    expect(error.message).toContain('max_tokens is too large');
    expect(upstream.received).toHaveLength(1);
    expect(episode.failure).toBeUndefined();
    expect(episode.takeCalls()[0]).toMatchObject({
      status: 400,
      attempts: 1,
      error: 'max_tokens is too large',
    });
  });

  it('a stream whose upstream hangs before its first byte is cut after timeoutMs, retried, then failed', async () => {
    const fake = await fakeWith({ faults: { plan: () => 'hang' } });
    const proxy = await proxyFor(fake.baseURL, { timeoutMs: 150, retry: { ...FAST_RETRY, maxRetries: 1 } });
    const episode = proxy.openEpisode({ episodeId: 'ep-hang', condition: 0 });
    const started = performance.now();
    const error = await programClient(proxy.url, episode.token)
      .chat.completions.create({ model: 'm', messages, stream: true })
      .then(drain)
      .then(unexpected, (e: unknown) => e as APIError);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(502);
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(2_000);
    expect(fake.stats().received).toBe(2);
    // The proxy gave up on both hanging requests: nothing is left open upstream.
    await wait(20);
    expect(fake.inFlight()).toBe(0);
    expect(episode.failure?.code).toBe('upstream_timeout');
    const [call] = episode.takeCalls();
    expect(call).toMatchObject({ stream: true, status: 502, attempts: 2 });
    expect(call?.error).toContain('sent no byte within 150 ms');
  });

  it('a stream that stalls between chunks is cut with an SSE error event and recorded as failed', async () => {
    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseChunk({ role: 'assistant', content: '' }));
      res.write(sseChunk({ content: 'half of ' }));
      setTimeout(() => res.write(sseChunk({ content: 'the answer' })), 50);
      // ...and then nothing: no finish, no [DONE].
    });
    open.push(upstream);
    const proxy = await proxyFor(upstream.baseURL, { timeoutMs: 200 });
    const episode = proxy.openEpisode({ episodeId: 'ep-stall', condition: 0 });
    const stream = await programClient(proxy.url, episode.token).chat.completions.create({
      model: 'm',
      messages,
      stream: true,
    });
    let seen = '';
    const started = performance.now();
    const error = await (async () => {
      for await (const chunk of stream) seen += chunk.choices[0]?.delta.content ?? '';
    })().then(unexpected, (e: unknown) => e as APIError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    // The program got the chunks that came, in time, and then an error rather than a quiet end.
    expect(seen).toBe('half of the answer');
    expect(error).toBeInstanceOf(APIError);
    expect(String((error as APIError).message)).toContain('the stream sent nothing for 200 ms');
    // Not retried: the stream had begun.
    expect(upstream.received).toHaveLength(1);
    expect(episode.failure?.code).toBe('stream_stalled');
    const [call] = episode.takeCalls();
    expect(call).toMatchObject({ stream: true, status: 200, reply: { content: 'half of the answer' } });
    expect(call?.error).toContain('the stream sent nothing for 200 ms');
  });

  it('a stream dropped before its first byte is retried; one broken mid-way reaches the program as an error', async () => {
    // The fake's `drop` destroys the socket before its corked first write leaves: nothing was sent yet.
    const fake = await fakeWith({ script: ['one two three'], faults: { plan: () => 'drop' } });
    const proxy = await proxyFor(fake.baseURL);
    const episode = proxy.openEpisode({ episodeId: 'ep-drop', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    const early = await program.chat.completions
      .create({ model: 'm', messages, stream: true })
      .then(drain)
      .then(unexpected, (e: unknown) => e as APIError);
    expect(early).toMatchObject({ status: 502 });
    expect(fake.stats().received).toBe(3);
    expect(episode.failure?.code).toBe('upstream_unreachable');

    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseChunk({ role: 'assistant', content: 'partial' }));
      setTimeout(() => res.socket?.destroy(), 30);
    });
    open.push(upstream);
    const broken = await proxyFor(upstream.baseURL);
    const other = broken.openEpisode({ episodeId: 'ep-broken', condition: 0 });
    const late = await programClient(broken.url, other.token)
      .chat.completions.create({ model: 'm', messages, stream: true })
      .then(drain)
      .then(unexpected, (e: unknown) => e as APIError);
    expect(late).toBeInstanceOf(APIError);
    expect(late.message).toContain('the endpoint closed the connection mid-stream');
    expect(upstream.received).toHaveLength(1);
    expect(other.failure?.code).toBe('stream_broken');
    expect(other.takeCalls()[0]).toMatchObject({ status: 200, attempts: 1, reply: { content: 'partial' } });
  });

  it('end() cuts an in-flight stream and files it at once', async () => {
    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseChunk({ role: 'assistant', content: 'thinking' }));
    });
    open.push(upstream);
    const proxy = await proxyFor(upstream.baseURL, { timeoutMs: 10_000 });
    const episode = proxy.openEpisode({ episodeId: 'ep-cut', condition: 0 });
    const stream = await programClient(proxy.url, episode.token).chat.completions.create({
      model: 'm',
      messages,
      stream: true,
    });
    const reading = (async () => {
      for await (const _ of stream) {
        // read until cut
      }
    })().catch((e: unknown) => e);
    await wait(50);
    expect(episode.takeCalls()).toEqual([]);
    episode.end();
    const [call] = episode.takeCalls();
    expect(call).toMatchObject({ status: 200, stream: true, reply: { content: 'thinking' } });
    expect(call?.error).toBe('episode ep-cut ended while the call was in flight');
    expect(await reading).toBeInstanceOf(APIError);
    // The harness ended it: that is not an upstream failure.
    expect(episode.failure).toBeUndefined();
  });

  it('delivers each chunk as it arrives, and stops the upstream when the program hangs up', async () => {
    let upstreamClosed = false;
    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseChunk({ role: 'assistant', content: 'first' }));
      const later = setTimeout(() => res.write(sseChunk({ content: ' second' })), 400);
      res.on('close', () => {
        upstreamClosed = true;
        clearTimeout(later);
      });
    });
    open.push(upstream);
    const proxy = await proxyFor(upstream.baseURL);
    const episode = proxy.openEpisode({ episodeId: 'ep-flush', condition: 0 });
    const controller = new AbortController();
    const started = performance.now();
    const stream = await programClient(proxy.url, episode.token).chat.completions.create(
      { model: 'm', messages, stream: true },
      { signal: controller.signal },
    );
    for await (const chunk of stream) {
      // The first chunk is not held back until the stream ends (400 ms later).
      expect(chunk.choices[0]?.delta.content).toBe('first');
      expect(performance.now() - started).toBeLessThan(300);
      break;
    }
    controller.abort();
    await wait(50);
    expect(upstreamClosed).toBe(true);
    const [call] = episode.takeCalls();
    expect(call).toMatchObject({ status: 499, reply: { content: 'first' } });
    expect(call?.error).toBe('the program closed the connection before the reply was complete');
    expect(episode.failure).toBeUndefined();
  });

  it('never lets the real key out: upstream headers, recorded calls, errors and 401s', async () => {
    // A careless upstream that echoes the credentials it got into its error messages.
    let n = 0;
    const upstream = await startScriptedUpstream((req, res) => {
      n++;
      if (n % 2 === 1) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `overloaded; you sent ${req.headers.authorization}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          choices: [
            { index: 0, message: { role: 'assistant', content: `ok ${REAL_KEY}` }, finish_reason: 'stop' },
          ],
        }),
      );
    });
    open.push(upstream);
    const proxy = await proxyFor(upstream.baseURL, { retry: { ...FAST_RETRY, maxRetries: 0 } });
    const episode = proxy.openEpisode({
      episodeId: 'ep-secret',
      condition: 1,
      skill: { name: 's', description: 'd', body: 'b' },
    });
    const program = programClient(proxy.url, episode.token);
    const failed = await program.chat.completions
      .create({ model: 'm', messages })
      .then(unexpected, (e: unknown) => e as APIError);
    const ok = await program.chat.completions.create({ model: 'm', messages });
    const unknown = await fetch(`${proxy.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${REAL_KEY}` },
      body: '{}',
    });
    // Upstream: the real key, never the program's token.
    expect(upstream.received.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${REAL_KEY}`,
      `Bearer ${REAL_KEY}`,
    ]);
    expect(JSON.stringify(upstream.received)).not.toContain(episode.token);
    // Program-facing text and everything recorded: never the key.
    const calls = episode.takeCalls();
    expect(calls).toHaveLength(2);
    expect(failed.status).toBe(503);
    expect(failed.message).toContain('overloaded; you sent');
    expect(ok.choices[0]?.message.content).toContain('ok');
    const texts = [
      JSON.stringify(calls),
      failed.message,
      JSON.stringify(failed.error),
      JSON.stringify(episode.failure),
      await unknown.text(),
    ];
    for (const text of texts) expect(text).not.toContain(REAL_KEY);
    expect(calls[0]?.error).toContain('[REDACTED]');
    expect(calls[1]?.reply?.content).toBe('ok [REDACTED]');
  });

  it('reads the key from apiKeyEnv, and sends EMPTY when it is unset', async () => {
    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { content: 'x' }, finish_reason: 'stop' }] }));
    });
    open.push(upstream);
    const proxy = await startRecordingProxy({ upstream: { model: 'm', baseURL: upstream.baseURL }, env: {} });
    open.unshift(proxy);
    const episode = proxy.openEpisode({ episodeId: 'ep-empty', condition: 0 });
    await programClient(proxy.url, episode.token).chat.completions.create({ model: 'm', messages });
    expect(upstream.received[0]?.headers.authorization).toBe('Bearer EMPTY');
  });

  it('answers a body that is not JSON with a 400 and records it', async () => {
    const fake = await fakeWith({});
    const proxy = await proxyFor(fake.baseURL);
    const episode = proxy.openEpisode({ episodeId: 'ep-bad', condition: 0 });
    const res = await fetch(`${proxy.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${episode.token}`, 'content-type': 'application/json' },
      body: '{"messages": [',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect(fake.requests).toHaveLength(0);
    expect(episode.takeCalls()[0]).toMatchObject({ status: 400, attempts: 0 });
  });

  it('checks its options with typed errors naming the option', async () => {
    const bad: [unknown, string][] = [
      [{}, 'options.upstream'],
      [{ upstream: { model: '' } }, 'options.upstream.model'],
      [{ upstream: { model: 'm', baseURL: 'localhost:8000' } }, 'options.upstream.baseURL'],
      [{ upstream: { model: 'm', baseURLs: [] } }, 'options.upstream.baseURLs'],
      [{ upstream: { model: 'm', timeoutMs: 0 } }, 'options.upstream.timeoutMs'],
      [{ upstream: { model: 'm', concurrency: 1.5 } }, 'options.upstream.concurrency'],
      [{ upstream: { model: 'm' }, injectSkill: 'user' }, 'options.injectSkill'],
      [{ upstream: { model: 'm', retry: { maxRetries: -1 } } }, 'retry.maxRetries'],
    ];
    for (const [options, argument] of bad) {
      const error = await startRecordingProxy(options as RecordingProxyOptions).catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error), argument).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe(argument);
    }
    const fake = await fakeWith({});
    const proxy = await proxyFor(fake.baseURL);
    expect(() => proxy.openEpisode({ episodeId: 'x', condition: 1 })).toThrow(MissingFieldError);
    expect(() => proxy.openEpisode({ episodeId: '', condition: 0 })).toThrow(InvalidArgumentError);
    expect(() => proxy.openEpisode({ episodeId: 'x', condition: 2 as 0 })).toThrow(InvalidArgumentError);
  });
});
