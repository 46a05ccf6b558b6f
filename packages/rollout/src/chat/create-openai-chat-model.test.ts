import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@skillrl/core';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { UnknownOptionError } from '../options/unknown-option-error.js';
import { ModelCallError } from '../resilience/model-call-error.js';
import { NoChoiceError } from '../resilience/no-choice-error.js';
import { choiceSeed, createOpenAIChatModel } from './create-openai-chat-model.js';

const servers: FakeOpenAIServer[] = [];
const raw: Server[] = [];
async function serve(options: Parameters<typeof startFakeOpenAI>[0]) {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const s of raw.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A bare node:http server answering every chat completion with `answer(body, authorization)`. */
async function serveRaw(answer: (body: FakeChatRequest, auth: string) => { status: number; body: unknown }) {
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const out = answer(JSON.parse(Buffer.concat(parts).toString('utf8')), req.headers.authorization ?? '');
      const text = JSON.stringify(out.body);
      res.writeHead(out.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  raw.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const messages: ChatMessage[] = [
  { role: 'system', content: 'You write skills.' },
  { role: 'user', content: 'Revise the skill.' },
];
const bodies = (server: FakeOpenAIServer) => server.requests.map((r) => r.body as FakeChatRequest);

describe('createOpenAIChatModel', () => {
  it('completes one prompt with usage, cost, log-probs and token ids', async () => {
    const server = await serve({ script: ['Heat the mug first.'] });
    const model = createOpenAIChatModel({
      model: 'editor',
      baseURL: server.baseURL,
      temperature: 0.7,
      maxTokens: 64,
      prices: { editor: { input: 2, output: 10 } },
    });
    const reply = await model.complete({ messages, seed: 5, logprobs: true });
    expect(model.model).toBe('editor');
    expect(reply.choices).toHaveLength(1);
    const [choice] = reply.choices;
    expect(choice?.text).toBe('Heat the mug first.');
    expect(choice?.finishReason).toBe('stop');
    // Fake tokens: "Heat", " the", " mug", " first." = 4, each with an id and a log-prob.
    expect(choice?.tokenIds).toHaveLength(4);
    expect(choice?.logProbs).toHaveLength(4);
    for (const lp of choice?.logProbs ?? []) expect(lp).toBeLessThanOrEqual(0);
    // Prompt: 3 per message + "You write skills." (3) + "Revise the skill." (3) = 12; completion 4.
    // Cost = (12·2 + 4·10) / 1e6 = 6.4e-5.
    expect(reply.usage).toEqual({ inputTokens: 12, outputTokens: 4, requests: 1, cost: 6.4e-5 });
    const [body] = bodies(server);
    expect(body).toMatchObject({
      model: 'editor',
      temperature: 0.7,
      max_tokens: 64,
      seed: 5,
      logprobs: true,
    });
    expect(body?.n).toBeUndefined();
    expect(body?.messages).toEqual(messages);
  });

  it('lets the request override the defaults and leaves log-probs out unless asked', async () => {
    const server = await serve({ script: ['x'] });
    const model = createOpenAIChatModel({ model: 'm', baseURL: server.baseURL, temperature: 0.2 });
    const reply = await model.complete({ messages, temperature: 1.1, topP: 0.9, maxTokens: 8 });
    expect(reply.choices[0]?.logProbs).toBeUndefined();
    expect(reply.choices[0]?.tokenIds).toBeUndefined();
    expect(bodies(server)[0]).toMatchObject({ temperature: 1.1, top_p: 0.9, max_tokens: 8 });
    expect(bodies(server)[0]?.seed).toBeUndefined();
  });

  it('falls back to one request per missing choice, with derived seeds, when the server ignores n', async () => {
    const server = await serve({ script: ['first', 'second', 'third'] });
    const model = createOpenAIChatModel({ model: 'm', baseURL: server.baseURL });
    const reply = await model.complete({ messages, n: 3, seed: 7, logprobs: true });
    expect(reply.choices.map((c) => c.text).sort()).toEqual(['first', 'second', 'third']);
    expect(reply.choices[0]?.text).toBe('first');
    for (const c of reply.choices) expect(c.logProbs).toHaveLength(1);
    const sent = bodies(server);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({ n: 3, seed: 7 });
    const derived = sent.slice(1).map((b) => b.seed);
    expect(derived.sort()).toEqual([choiceSeed(7, 1), choiceSeed(7, 2)].sort());
    for (const b of sent.slice(1)) expect(b.n).toBeUndefined();
    expect(reply.usage?.requests).toBe(3);
  });

  it('derives distinct, reproducible seeds below 2^31', () => {
    const seeds = Array.from({ length: 50 }, (_, i) => choiceSeed(123, i));
    expect(seeds[0]).toBe(123);
    expect(new Set(seeds).size).toBe(50);
    for (const s of seeds) expect(s).toBeLessThan(2 ** 31);
    expect(Array.from({ length: 50 }, (_, i) => choiceSeed(123, i))).toEqual(seeds);
    expect(choiceSeed(124, 1)).not.toBe(choiceSeed(123, 1));
  });

  it('takes n choices from one request when the server honours n, keeping token data', async () => {
    const seen: FakeChatRequest[] = [];
    const baseURL = await serveRaw((body) => {
      seen.push(body);
      const n = body.n ?? 1;
      return {
        status: 200,
        body: {
          id: 'c',
          object: 'chat.completion',
          created: 0,
          model: 'm',
          // Out of order on purpose: choices are read by `index`.
          choices: Array.from({ length: n }, (_, k) => n - 1 - k).map((i) => ({
            index: i,
            message: { role: 'assistant', content: `choice ${i}` },
            finish_reason: i === 0 ? 'length' : 'stop',
            logprobs: {
              content: [{ token: 'choice', logprob: -0.5 * i - 0.25, bytes: [], top_logprobs: [] }],
            },
            token_ids: [i, i + 1],
          })),
          usage: { prompt_tokens: 10, completion_tokens: 2 * n, total_tokens: 10 + 2 * n },
        },
      };
    });
    const model = createOpenAIChatModel({ model: 'm', baseURL });
    const reply = await model.complete({ messages, n: 3, seed: 1, logprobs: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.n).toBe(3);
    expect(reply.choices).toEqual([
      { text: 'choice 0', finishReason: 'length', tokenIds: [0, 1], logProbs: [-0.25] },
      { text: 'choice 1', finishReason: 'stop', tokenIds: [1, 2], logProbs: [-0.75] },
      { text: 'choice 2', finishReason: 'stop', tokenIds: [2, 3], logProbs: [-1.25] },
    ]);
    expect(reply.usage).toEqual({ inputTokens: 10, outputTokens: 6, requests: 1 });
  });

  it('sends n separate requests when told to', async () => {
    const server = await serve({ script: ['a', 'b'] });
    const model = createOpenAIChatModel({ model: 'm', baseURL: server.baseURL, sampling: 'separate' });
    const reply = await model.complete({ messages, n: 2, seed: 3 });
    expect(reply.choices.map((c) => c.text).sort()).toEqual(['a', 'b']);
    const sent = bodies(server);
    expect(sent.map((b) => b.n)).toEqual([undefined, undefined]);
    expect(sent.map((b) => b.seed).sort()).toEqual([3, choiceSeed(3, 1)].sort());
  });

  it('retries a 429 honouring Retry-After and a 500, then answers', async () => {
    const plan = ['rate-limit', 'server-error'] as const;
    const server = await serve({
      script: ['done'],
      faults: { plan: ({ index }) => plan[index], retryAfterMs: 150 },
    });
    const delays: number[] = [];
    const model = createOpenAIChatModel({
      model: 'm',
      baseURL: server.baseURL,
      retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 10 },
      onRetry: (e) => delays.push(e.delayMs),
    });
    const reply = await model.complete({ messages, seed: 1 });
    expect(reply.choices[0]?.text).toBe('done');
    expect(server.stats().received).toBe(3);
    // The first wait is the server's Retry-After (150 ms); the second is backoff in [2.5, 10] ms.
    expect(delays[0]).toBe(150);
    expect(delays[1]).toBeLessThanOrEqual(10);
    expect(model.stats()).toMatchObject({ requests: 3, retries: 2, failures: 0 });
  });

  it('throws ModelCallError past the budget, without the API key anywhere', async () => {
    const apiKey = 'sk-proj-chatmodelsecret987654321';
    const server = await serve({ faults: { plan: () => 'server-error' } });
    const model = createOpenAIChatModel({
      model: 'm',
      baseURL: server.baseURL,
      apiKey,
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const error = await model.complete({ messages }).catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 2, status: 500 });
    expect(`${(error as Error).message} ${(error as Error).stack}`).not.toContain(apiKey);
    expect(JSON.stringify(server.requests)).not.toContain(apiKey);
    expect(model.stats().failures).toBe(1);
  });

  it('redacts the key even when the server echoes it back in a 401', async () => {
    const apiKey = 'sk-proj-echoedsecret1234567890';
    const baseURL = await serveRaw((_body, auth) => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${auth}`, type: 'invalid_request_error' } },
    }));
    const model = createOpenAIChatModel({ model: 'm', baseURL, apiKey });
    const error = (await model.complete({ messages }).catch((e: unknown) => e)) as ModelCallError;
    expect(ModelCallError.isInstance(error)).toBe(true);
    // 401 is not retryable: one attempt.
    expect(error).toMatchObject({ attempts: 1, status: 401, retryable: false });
    expect(error.message).toContain('Incorrect API key provided');
    expect(`${error.message} ${error.stack}`).not.toContain(apiKey);
  });

  it('replays from the cache, keeping unseeded samples apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-chat-cache-'));
    try {
      const server = await serve({ script: ['one', 'two'] });
      const options = { model: 'm', baseURL: server.baseURL, cache: dir };
      const first = await createOpenAIChatModel(options).complete({ messages, n: 2 });
      expect(first.choices.map((c) => c.text).sort()).toEqual(['one', 'two']);
      const again = createOpenAIChatModel(options);
      const replay = await again.complete({ messages, n: 2 });
      expect(replay.choices.map((c) => c.text)).toEqual(first.choices.map((c) => c.text));
      expect(again.stats()).toMatchObject({ requests: 0, cacheHits: 2 });
      expect(server.stats().received).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keys the cache on a seed it does not send', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-chat-cache-'));
    try {
      const server = await serve({ script: ['for seed 1', 'for seed 2'] });
      const options = { model: 'm', baseURL: server.baseURL, cache: dir, sendSeed: false };
      const model = createOpenAIChatModel(options);
      const one = await model.complete({ messages, seed: 1 });
      const two = await model.complete({ messages, seed: 2 });
      expect([one.choices[0]?.text, two.choices[0]?.text]).toEqual(['for seed 1', 'for seed 2']);
      expect(bodies(server).map((b) => b.seed)).toEqual([undefined, undefined]);
      const again = createOpenAIChatModel(options);
      expect((await again.complete({ messages, seed: 2 })).choices[0]?.text).toBe('for seed 2');
      expect(again.stats()).toMatchObject({ requests: 0, cacheHits: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cancels through the signal', async () => {
    const server = await serve({ faults: { plan: () => 'hang' } });
    const model = createOpenAIChatModel({ model: 'm', baseURL: server.baseURL });
    const controller = new AbortController();
    const pending = model.complete({ messages, signal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => server.inFlight()).toBe(1);
    controller.abort(new Error('user stop'));
    expect(await pending).toMatchObject({ message: expect.stringMatching(/abort|user stop/i) });
    await expect.poll(() => server.inFlight()).toBe(0);
  });

  it('rejects options and requests that cannot work', async () => {
    expect(() => createOpenAIChatModel({ model: '' })).toThrow(/options.model/);
    expect(() => createOpenAIChatModel({ model: 'm', sampling: 'native' as 'auto' })).toThrow(
      /options.sampling/,
    );
    expect(() => createOpenAIChatModel({ model: 'm', maxTokens: 0 })).toThrow(/options.maxTokens/);
    const model = createOpenAIChatModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1' });
    await expect(model.complete({ messages: [] })).rejects.toThrow(/request.messages/);
    await expect(model.complete({ messages, n: 0 })).rejects.toThrow(/request.n/);
    await expect(model.complete({ messages: [{ role: 'tool' as 'user', content: 'x' }] })).rejects.toThrow(
      /request.messages\[0\]/,
    );
    await expect(model.complete({ messages, topP: 0 })).rejects.toThrow(/request.topP/);
  });
});

describe('createOpenAIChatModel: a reply with no usable choice is an endpoint error', () => {
  const fast = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 };
  const failure = async (baseURL: string) => {
    const model = createOpenAIChatModel({ model: 'm', baseURL, retry: fast });
    return (await model.complete({ messages, n: 2 }).catch((e: unknown) => e)) as ModelCallError;
  };
  const completion = (choices: unknown[]) => ({
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices,
  });

  it.each([
    ['no-choices', 'the endpoint answered 200 with choices: [] (no choice)'],
    ['missing-choices', 'the endpoint answered 200 with no choices field'],
  ] as const)(
    '%s: retried by the retry policy, then ModelCallError saying what arrived',
    async (fault, says) => {
      const server = await serve({ faults: { plan: () => fault } });
      const error = await failure(server.baseURL);
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error.message).toBe(
        `chat completion for m failed (gave up after 3 attempts): NoChoiceError: ${says}`,
      );
      expect(NoChoiceError.isInstance(error.cause)).toBe(true);
      expect(error.retryable).toBe(true);
      expect(server.stats().received).toBe(3);
    },
  );

  it('only a tool call, content null: an error that names the tool', async () => {
    const server = await serve({ script: [{ toolCalls: [{ name: 'read_file', arguments: '{}' }] }] });
    const error = await failure(server.baseURL);
    expect(error.message).toContain(
      'NoChoiceError: the endpoint answered 200 with a choice whose content is null and which has only a tool call (name read_file), finish_reason tool_calls (text was asked for)',
    );
    expect(server.stats().received).toBe(3);
  });

  it('content null and nothing else; several choices, none with text', async () => {
    const nullOnly = await serveRaw(() => ({
      status: 200,
      body: completion([
        { index: 0, message: { role: 'assistant', content: null }, finish_reason: 'length' },
      ]),
    }));
    expect((await failure(nullOnly)).message).toContain(
      'with a choice whose content is null and no tool call, finish_reason length (text was asked for)',
    );
    const none = await serveRaw(() => ({
      status: 200,
      body: completion([
        { index: 0, message: { role: 'assistant', content: null } },
        { index: 1, finish_reason: 'stop' },
      ]),
    }));
    expect((await failure(none)).message).toContain(
      'with 2 choices, none usable (text was asked for); the first is a choice whose content is null and no tool call',
    );
  });

  it('a choice without text beside one with text is asked for again, never padded with empty text', async () => {
    let calls = 0;
    const base = await serveRaw((body) => {
      calls++;
      return {
        status: 200,
        body: completion(
          body.n === 2
            ? [
                { index: 0, message: { role: 'assistant', content: 'one' }, finish_reason: 'stop' },
                { index: 1, message: { role: 'assistant', content: null }, finish_reason: 'stop' },
              ]
            : [{ index: 0, message: { role: 'assistant', content: 'two' }, finish_reason: 'stop' }],
        ),
      };
    });
    const model = createOpenAIChatModel({ model: 'm', baseURL: base, retry: fast });
    const reply = await model.complete({ messages, n: 2, seed: 3 });
    expect(reply.choices.map((c) => c.text)).toEqual(['one', 'two']);
    expect(calls).toBe(2);
  });

  it('a fault on the first try only is retried through; the bad reply is not cached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-nochoice-'));
    try {
      const server = await serve({
        script: ['fine'],
        faults: { plan: ({ attempt }) => (attempt === 0 ? 'no-choices' : undefined) },
      });
      const model = createOpenAIChatModel({ model: 'm', baseURL: server.baseURL, retry: fast, cache: dir });
      expect((await model.complete({ messages, seed: 1 })).choices[0]?.text).toBe('fine');
      expect(server.stats().received).toBe(2);
      expect((await model.complete({ messages, seed: 1 })).choices[0]?.text).toBe('fine');
      expect(server.stats().received).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createOpenAIChatModel: option names', () => {
  it('a misspelt or unknown option is an UnknownOptionError with a did-you-mean', () => {
    const error = (() => {
      try {
        createOpenAIChatModel({ model: 'm', temprature: 0.7 } as never);
      } catch (e) {
        return e as UnknownOptionError;
      }
    })();
    expect(UnknownOptionError.isInstance(error)).toBe(true);
    expect(error?.option).toBe('options.temprature');
    expect(error?.suggestion).toBe('temperature');
    expect(error?.message).toBe(
      'Invalid options.temprature: unknown option of the OpenAI chat model; did you mean temperature?',
    );
    expect(() => createOpenAIChatModel({ model: 'm', max_tokens: 10 } as never)).toThrow(
      'did you mean maxTokens? (sent as max_tokens)',
    );
    // An agent option the chat model does not have.
    expect(() => createOpenAIChatModel({ model: 'm', systemPrompt: 'x' } as never)).toThrow(
      /options\.systemPrompt: unknown option of the OpenAI chat model; expected one of model, baseURL/,
    );
    expect(() => createOpenAIChatModel({ model: 'm', retry: { maxRetry: 1 } } as never)).toThrow(
      "Invalid options.retry.maxRetry: unknown option of the OpenAI chat model's retry; did you mean maxRetries?",
    );
  });
});
