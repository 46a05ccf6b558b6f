import type { Skill } from '@skillrl/core';
import {
  type FakeChatRequest,
  type FakeOpenAIServer,
  fakePromptTokenIds,
  startFakeOpenAI,
} from '@skillrl/testkit';
import type OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type RecordedCall, type RecordingProxy, startRecordingProxy } from '../src/index.js';
import { programClient } from './proxy-helpers.js';

const SKILL: Skill = {
  name: 'careful-shopper',
  description: 'Buy exactly what was asked for.',
  body: 'Always compare the price with the budget before you click buy-now. SKILL-BODY-MARKER',
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

async function setup(
  fakeOptions: Parameters<typeof startFakeOpenAI>[0] = {},
  proxyOptions: Partial<Parameters<typeof startRecordingProxy>[0]> = {},
): Promise<{ fake: FakeOpenAIServer; proxy: RecordingProxy }> {
  const fake = await startFakeOpenAI(fakeOptions);
  open.push(fake);
  const proxy = await startRecordingProxy({
    ...proxyOptions,
    upstream: { model: 'served-model', baseURL: fake.baseURL, ...proxyOptions.upstream },
    env: proxyOptions.env ?? {},
  });
  open.unshift(proxy);
  return { fake, proxy };
}

function chatBodies(fake: FakeOpenAIServer): FakeChatRequest[] {
  return fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as FakeChatRequest);
}

async function readStream(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('startRecordingProxy: pass-through and recording', () => {
  it('forwards a plain call with the configured model and records what the program sent and got', async () => {
    const { fake, proxy } = await setup({ script: ['the answer is 42'] });
    const episode = proxy.openEpisode({ episodeId: 'ep-1', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    const completion = await program.chat.completions.create({
      model: 'whatever-the-program-says',
      messages: [{ role: 'user', content: 'what is six times seven?' }],
      temperature: 0.3,
      seed: 7,
    });
    expect(completion.choices[0]?.message.content).toBe('the answer is 42');
    const sent = chatBodies(fake)[0] as FakeChatRequest;
    expect(sent.model).toBe('served-model');
    expect(sent.temperature).toBe(0.3);
    expect(sent.seed).toBe(7);
    const [call, ...rest] = episode.takeCalls();
    expect(rest).toEqual([]);
    expect(call).toMatchObject({
      index: 0,
      episodeId: 'ep-1',
      status: 200,
      stream: false,
      attempts: 1,
      upstreamModel: 'served-model',
      request: {
        model: 'whatever-the-program-says',
        messages: [{ role: 'user', content: 'what is six times seven?' }],
        temperature: 0.3,
      },
      reply: { content: 'the answer is 42', finishReason: 'stop' },
    });
    expect(call?.usage).toEqual({
      inputTokens: completion.usage?.prompt_tokens,
      outputTokens: completion.usage?.completion_tokens,
      requests: 1,
    });
    expect(call?.error).toBeUndefined();
    expect(call?.request.injectedSkill).toBeUndefined();
    expect(Number.isNaN(Date.parse(call?.startedAt ?? ''))).toBe(false);
    expect(call?.latencyMs).toBeGreaterThanOrEqual(0);
    // Taken once: nothing is kept twice.
    expect(episode.takeCalls()).toEqual([]);
    expect(episode.calls).toBe(1);
    expect(episode.failure).toBeUndefined();
  });

  it('pipes a stream chunk for chunk: the content reassembles exactly and usage comes last', async () => {
    const text = 'Go to the kitchen, then   open the fridge.\nTake the milk — and close it.';
    const { fake, proxy } = await setup({ script: [text] });
    const episode = proxy.openEpisode({ episodeId: 'ep-s', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    const chunks = await readStream(
      await program.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(content).toBe(text);
    // Chunk for chunk: as many chunks as the fake sent (one per fake token, plus the role, finish and usage).
    expect(chunks.length).toBeGreaterThan(10);
    const last = chunks[chunks.length - 1];
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(chatBodies(fake)[0]?.stream_options).toEqual({ include_usage: true });
    const [call] = episode.takeCalls();
    expect(call).toMatchObject({ stream: true, status: 200, reply: { content: text, finishReason: 'stop' } });
    expect(call?.usage).toEqual({
      inputTokens: last?.usage?.prompt_tokens,
      outputTokens: last?.usage?.completion_tokens,
      requests: 1,
    });
  });

  it('records token ids, log-probs and prompt ids where the upstream gives them (extraBody return_token_ids)', async () => {
    const { fake, proxy } = await setup(
      { script: ['pick up the apple'] },
      { upstream: { model: 'served-model', extraBody: { return_token_ids: true } } },
    );
    const episode = proxy.openEpisode({ episodeId: 'ep-t', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    const messages = [{ role: 'user' as const, content: 'act' }];
    const plain = await program.chat.completions.create({
      model: 'm',
      messages,
      logprobs: true,
      top_logprobs: 2,
    });
    const streamed = await readStream(
      await program.chat.completions.create({ model: 'm', messages, logprobs: true, stream: true }),
    );
    const sent = chatBodies(fake);
    expect(sent[0]?.return_token_ids).toBe(true);
    expect(sent[0]?.top_logprobs).toBe(2);
    const [a, b] = episode.takeCalls();
    const logprobs = plain.choices[0]?.logprobs?.content?.map((t) => t.logprob);
    expect(a?.logProbs).toEqual(logprobs);
    expect(a?.tokenIds).toHaveLength(logprobs?.length ?? -1);
    expect(a?.promptTokenIds).toEqual(fakePromptTokenIds(sent[0] as FakeChatRequest));
    // The stream's record matches the plain call's (same reply, same seed).
    const streamLogprobs = streamed.flatMap(
      (c) => c.choices[0]?.logprobs?.content?.map((t) => t.logprob) ?? [],
    );
    expect(b?.logProbs).toEqual(streamLogprobs);
    expect(b?.tokenIds).toEqual(a?.tokenIds);
    expect(b?.promptTokenIds).toEqual(fakePromptTokenIds(sent[1] as FakeChatRequest));
    expect(b?.reply?.content).toBe('pick up the apple');
  });

  it('passes tools and tool calls through, streamed and not, and assembles streamed argument deltas', async () => {
    const args = '{"action": "go to the desk 1", "reason": "the lamp is there"}';
    const { fake, proxy } = await setup({
      script: [
        {
          toolCalls: [
            { name: 'act', arguments: args },
            { name: 'note', arguments: '{"text":"x y"}' },
          ],
        },
      ],
    });
    const episode = proxy.openEpisode({ episodeId: 'ep-tools', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: 'act', parameters: { type: 'object', properties: { action: { type: 'string' } } } },
      },
      { type: 'function', function: { name: 'note', parameters: { type: 'object' } } },
    ];
    const messages = [{ role: 'user' as const, content: 'find the lamp' }];
    const plain = await program.chat.completions.create({ model: 'm', messages, tools, tool_choice: 'auto' });
    expect(plain.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'act', arguments: args },
    });
    const chunks = await readStream(
      await program.chat.completions.create({ model: 'm', messages, tools, stream: true }),
    );
    const streamedArgs = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .filter((t) => t.index === 0)
      .map((t) => t.function?.arguments ?? '')
      .join('');
    expect(streamedArgs).toBe(args);
    expect(chatBodies(fake)[0]?.tools).toEqual(tools);
    expect(chatBodies(fake)[0]?.tool_choice).toBe('auto');
    const [a, b] = episode.takeCalls();
    const expected = [
      { id: 'call_0_0', name: 'act', arguments: args },
      { id: 'call_0_1', name: 'note', arguments: '{"text":"x y"}' },
    ];
    expect(a?.reply).toEqual({ content: null, toolCalls: expected, finishReason: 'tool_calls' });
    expect(a?.request.tools).toEqual(tools);
    expect(b?.reply).toEqual({
      content: null,
      toolCalls: expected.map((c) => ({ ...c, id: c.id.replace('call_0', 'call_1') })),
      finishReason: 'tool_calls',
    });
  });

  it('passes n, response_format and any other field through untouched', async () => {
    const { fake, proxy } = await setup({ script: ['{"ok": true}'] });
    const episode = proxy.openEpisode({ episodeId: 'ep-f', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    const response_format = {
      type: 'json_schema' as const,
      json_schema: { name: 'answer', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
    };
    await program.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'json please' }],
      n: 2,
      response_format,
      max_completion_tokens: 64,
      // A field the openai types do not know: a server-specific sampling knob.
      ...({ top_k: 20, chat_template_kwargs: { enable_thinking: false } } as object),
    });
    const sent = chatBodies(fake)[0] as FakeChatRequest;
    expect(sent.n).toBe(2);
    expect(sent.response_format).toEqual(response_format);
    expect(sent.max_completion_tokens).toBe(64);
    expect(sent.top_k).toBe(20);
    expect(sent.chat_template_kwargs).toEqual({ enable_thinking: false });
    const [call] = episode.takeCalls();
    expect(call?.request).toMatchObject({ n: 2, response_format, top_k: 20 });
  });

  it('counts the choices of an n > 1 reply', async () => {
    // The fake answers one choice; a second endpoint shape is checked through the recorder directly.
    const { recordCompletion, StreamRecorder } = await import('../src/index.js');
    const twoChoices = {
      choices: [
        { index: 0, message: { content: 'a' }, finish_reason: 'stop' },
        { index: 1, message: { content: 'b' }, finish_reason: 'length' },
      ],
    };
    expect(recordCompletion(twoChoices).reply).toEqual({ content: 'a', finishReason: 'stop', choices: 2 });
    const recorder = new StreamRecorder();
    const event = (choice: object) => `data: ${JSON.stringify({ choices: [choice] })}\n\n`;
    const text = [
      event({ index: 0, delta: { content: 'h' } }),
      event({ index: 1, delta: { content: 'zz' } }),
      event({ index: 0, delta: { content: 'é!' }, finish_reason: 'stop' }),
      'data: [DONE]\n\n',
    ].join('');
    // Fed in 3-byte pieces: events and UTF-8 characters are split across chunks.
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 3) recorder.push(bytes.subarray(i, i + 3));
    recorder.finish();
    expect(recorder.done).toBe(true);
    expect(recorder.record().reply).toEqual({ content: 'hé!', finishReason: 'stop', choices: 2 });
  });

  it('passes GET /v1/models through, and answers the configured model when the upstream cannot list', async () => {
    const { proxy } = await setup({ models: ['served-model', 'another'] });
    const episode = proxy.openEpisode({ episodeId: 'ep-m', condition: 0 });
    const models = await programClient(proxy.url, episode.token).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['served-model', 'another']);

    // An upstream that is not there (a closed port).
    const gone = await startFakeOpenAI();
    const goneURL = gone.baseURL;
    await gone.close();
    const lonely = await startRecordingProxy({ upstream: { model: 'my-model', baseURL: goneURL }, env: {} });
    open.unshift(lonely);
    const other = lonely.openEpisode({ episodeId: 'ep-m2', condition: 0 });
    const fallback = await programClient(lonely.url, other.token).models.list();
    expect(fallback.data.map((m) => m.id)).toEqual(['my-model']);
    // Listing models is not a call of the episode.
    expect(episode.calls).toBe(0);
  });

  it('answers 501 with an OpenAI-style error for the routes it does not proxy', async () => {
    const { fake, proxy } = await setup();
    const episode = proxy.openEpisode({ episodeId: 'ep-501', condition: 0 });
    const program = programClient(proxy.url, episode.token, { maxRetries: 2 });
    const error = await program.responses.create({ model: 'm', input: 'hi' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 501 });
    for (const [method, path] of [
      ['POST', '/v1/responses'],
      ['POST', '/v1/completions'],
      ['POST', '/v1/embeddings'],
      ['GET', '/v1/models/served-model'],
    ] as const) {
      const res = await fetch(`${proxy.url.replace(/\/v1$/, '')}${path}`, {
        method,
        headers: { authorization: `Bearer ${episode.token}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(res.status).toBe(501);
      expect(await res.json()).toEqual({
        error: {
          message: `skillrl's proxy does not proxy ${method} ${path}: use /v1/chat/completions`,
          type: 'not_implemented',
          param: null,
          code: 'unsupported_route',
        },
      });
    }
    // The program's client was told not to retry, and nothing reached the upstream.
    expect(fake.requests).toHaveLength(0);
    expect(episode.calls).toBe(0);
  });

  it('answers 401 to an unknown token and to a token whose episode ended, never echoing the token', async () => {
    const { fake, proxy } = await setup();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const stranger = await programClient(proxy.url, 'sk-not-a-skillrl-token-123456')
      .chat.completions.create({ model: 'm', messages })
      .catch((e: unknown) => e as { status: number; error: { message: string; code: string } });
    expect(stranger).toMatchObject({
      status: 401,
      error: {
        message:
          'unknown token: this proxy only answers the per-episode OPENAI_API_KEY skillrl set for the program',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    });
    const missing = await fetch(`${proxy.url}/chat/completions`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);

    const episode = proxy.openEpisode({ episodeId: 'ep-ended', condition: 0 });
    const program = programClient(proxy.url, episode.token, { maxRetries: 2 });
    await program.chat.completions.create({ model: 'm', messages });
    episode.end();
    const late = await program.chat.completions
      .create({ model: 'm', messages })
      .catch((e: unknown) => e as { status: number; message: string });
    expect(late).toMatchObject({ status: 401 });
    expect((late as { message: string }).message).toContain(
      "episode ep-ended has ended: a call after the episode's end is not recorded",
    );
    expect(JSON.stringify(late)).not.toContain(episode.token);
    expect((late as { message: string }).message).not.toContain(episode.token);
    // One call reached the upstream; the late one (and its client's retries) did not, and is not recorded.
    expect(chatBodies(fake)).toHaveLength(1);
    expect(episode.takeCalls()).toHaveLength(1);
    expect(episode.calls).toBe(1);
    expect(proxy.stats()).toEqual({ calls: 1, failures: 0, episodesOpen: 0 });
  });

  it('injects the skill into the system message only under z = 1; a z = 0 episode never carries it', async () => {
    const { fake, proxy } = await setup({ script: ['ok'] });
    const z0 = proxy.openEpisode({ episodeId: 'ep-z0', condition: 0, skill: SKILL });
    const z1 = proxy.openEpisode({ episodeId: 'ep-z1', condition: 1, skill: SKILL });
    const withSystem = [
      { role: 'system' as const, content: 'You are a shopping agent.' },
      { role: 'user' as const, content: 'buy a red mug under $10' },
    ];
    const withoutSystem = [{ role: 'user' as const, content: 'buy a red mug under $10' }];
    for (const episode of [z0, z1]) {
      const program = programClient(proxy.url, episode.token);
      await program.chat.completions.create({ model: 'm', messages: withSystem });
      await readStream(
        await program.chat.completions.create({ model: 'm', messages: withoutSystem, stream: true }),
      );
    }
    const sent = chatBodies(fake);
    expect(sent).toHaveLength(4);
    // z = 0: the messages exactly as the program sent them.
    expect(sent[0]?.messages).toEqual(withSystem);
    expect(sent[1]?.messages).toEqual(withoutSystem);
    expect(JSON.stringify(sent.slice(0, 2))).not.toContain('SKILL-BODY-MARKER');
    expect(JSON.stringify(sent.slice(0, 2))).not.toContain(SKILL.name);
    // z = 1: the rendered skill in front of the system message, or as a new first system message.
    const skillText = `Follow this skill where it applies:\n\n<skill name="careful-shopper">\nBuy exactly what was asked for.\n\n${SKILL.body}\n</skill>`;
    expect(sent[2]?.messages).toEqual([
      { role: 'system', content: `${skillText}\n\nYou are a shopping agent.` },
      withSystem[1],
    ]);
    expect(sent[3]?.messages).toEqual([{ role: 'system', content: skillText }, ...withoutSystem]);
    // The record keeps the program's messages and says the skill was injected.
    const [a, b] = z1.takeCalls();
    expect(a?.request).toMatchObject({ messages: withSystem, injectedSkill: true });
    expect(b?.request).toMatchObject({ messages: withoutSystem, injectedSkill: true });
    const plain = z0.takeCalls();
    expect(plain.map((c) => c.request.injectedSkill)).toEqual([undefined, undefined]);
  });

  it("uses the caller's skill template, and injects nothing with injectSkill: 'none'", async () => {
    const { fake, proxy } = await setup({}, { skillTemplate: (s) => `SKILL ${s.name}: ${s.body}` });
    const episode = proxy.openEpisode({ episodeId: 'ep-tpl', condition: 1, skill: SKILL });
    await programClient(proxy.url, episode.token).chat.completions.create({
      model: 'm',
      messages: [{ role: 'developer', content: [{ type: 'text', text: 'be brief' }] }],
    });
    expect(chatBodies(fake)[0]?.messages?.[0]).toEqual({
      role: 'developer',
      content: [
        { type: 'text', text: `SKILL careful-shopper: ${SKILL.body}` },
        { type: 'text', text: 'be brief' },
      ],
    });

    const bare = await setup({}, { injectSkill: 'none' });
    const none = bare.proxy.openEpisode({ episodeId: 'ep-none', condition: 1, skill: SKILL });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await programClient(bare.proxy.url, none.token).chat.completions.create({ model: 'm', messages });
    expect(chatBodies(bare.fake)[0]?.messages).toEqual(messages);
    expect(none.takeCalls()[0]?.request.injectedSkill).toBeUndefined();
  });

  it('files each call on its own episode, in arrival order, under 128 concurrent calls', async () => {
    const { fake, proxy } = await setup({
      respond: (request) => `reply to ${String(request.messages?.at(-1)?.content)}`,
      latencyMs: [0, 20],
      seed: 3,
      record: false,
    });
    const episodes = Array.from({ length: 8 }, (_, i) =>
      proxy.openEpisode({ episodeId: `ep-${i}`, condition: 0 }),
    );
    const seen: RecordedCall[] = [];
    const replies = await Promise.all(
      Array.from({ length: 128 }, async (_, k) => {
        const episode = episodes[k % 8] as (typeof episodes)[number];
        const program = programClient(proxy.url, episode.token);
        const stream = k % 2 === 1;
        const messages = [{ role: 'user' as const, content: `q${k}` }];
        if (!stream) {
          const c = await program.chat.completions.create({ model: 'm', messages });
          return c.choices[0]?.message.content;
        }
        const chunks = await readStream(
          await program.chat.completions.create({ model: 'm', messages, stream }),
        );
        return chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      }),
    );
    expect(replies).toEqual(Array.from({ length: 128 }, (_, k) => `reply to q${k}`));
    for (const [i, episode] of episodes.entries()) {
      const calls = episode.takeCalls();
      seen.push(...calls);
      expect(calls.map((c) => c.index)).toEqual(Array.from({ length: 16 }, (_, j) => j));
      expect(calls.every((c) => c.episodeId === `ep-${i}`)).toBe(true);
      for (const c of calls) {
        const question = (c.request.messages[0] as { content: string }).content;
        expect(c.reply?.content).toBe(`reply to ${question}`);
        expect(Number(question.slice(1)) % 8).toBe(i);
      }
    }
    expect(seen).toHaveLength(128);
    expect(fake.stats().completed).toBe(128);
    expect(proxy.stats()).toEqual({ calls: 128, failures: 0, episodesOpen: 8 });
  });

  it('balances several equivalent endpoints by least in-flight calls', async () => {
    const a = await startFakeOpenAI({ latencyMs: 30, script: ['a'] });
    const b = await startFakeOpenAI({ latencyMs: 30, script: ['b'] });
    open.push(a, b);
    const proxy = await startRecordingProxy({
      upstream: { model: 'served-model', baseURLs: [a.baseURL, b.baseURL] },
      env: {},
    });
    open.unshift(proxy);
    const episode = proxy.openEpisode({ episodeId: 'ep-lb', condition: 0 });
    const program = programClient(proxy.url, episode.token);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        program.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
      ),
    );
    expect(a.stats().received).toBe(5);
    expect(b.stats().received).toBe(5);
  });

  it('calls onCall with every finished call', async () => {
    const calls: RecordedCall[] = [];
    const { proxy } = await setup({}, { onCall: (call) => calls.push(call) });
    const episode = proxy.openEpisode({ episodeId: 'ep-cb', condition: 0 });
    await programClient(proxy.url, episode.token).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(calls).toHaveLength(1);
    expect(episode.takeCalls()).toEqual(calls);
  });
});
