import { startFakeOpenAI } from '@skillrl/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { BufferedResponse, ResponseHeaders } from './buffered-response.js';
import { createHttpFetch } from './http-fetch.js';

const headers = () =>
  new ResponseHeaders(
    {
      'x-request-id': 'req_1',
      'set-cookie': ['a=1', 'b=2'],
      'content-type': 'application/json',
      'content-length': '9',
    },
    ['content-length'],
  );

describe('ResponseHeaders', () => {
  it('reads like fetch Headers: case-insensitive get, joined repeats, sorted iteration, omitted names gone', () => {
    const h = headers();
    expect(h.get('X-Request-ID')).toBe('req_1');
    expect(h.get('set-cookie')).toBe('a=1, b=2');
    expect(h.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(h.has('content-length')).toBe(false);
    expect(h.get('content-length')).toBeNull();
    expect([...h]).toEqual([
      ['content-type', 'application/json'],
      ['set-cookie', 'a=1, b=2'],
      ['x-request-id', 'req_1'],
    ]);
    // The same pairs as a WHATWG Headers built from them (apart from set-cookie, which Headers keeps apart).
    const web = new Headers({ 'x-request-id': 'req_1', 'content-type': 'application/json' });
    expect([...h.entries()].filter(([k]) => k !== 'set-cookie')).toEqual([...web.entries()]);
  });
});

describe('BufferedResponse', () => {
  const make = (status = 200) =>
    new BufferedResponse(Buffer.from('{"a":[1,2]}'), {
      status,
      statusText: 'OK',
      headers: headers(),
      url: 'http://x/',
    });

  it('reads its body once, as fetch does; a clone taken before reading reads again', async () => {
    const response = make();
    const copy = response.clone();
    expect(response.ok).toBe(true);
    expect(await response.json()).toEqual({ a: [1, 2] });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/already been read/);
    expect(() => response.clone()).toThrow(TypeError);
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe('{"a":[1,2]}');
  });

  it('streams its body on demand and reports non-2xx as not ok', async () => {
    const response = make(503);
    expect(response.ok).toBe(false);
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(Buffer.from(value!).toString()).toBe('{"a":[1,2]}');
    expect((await reader.read()).done).toBe(true);
    expect(
      new BufferedResponse(null, { status: 204, statusText: '', headers: headers(), url: '' }).body,
    ).toBeNull();
  });

  it('carries the openai client through plain and streamed chat completions', async () => {
    const server = await startFakeOpenAI({ script: ['hello there', 'streamed answer'] });
    const httpFetch = createHttpFetch();
    const client = new OpenAI({
      baseURL: server.baseURL,
      apiKey: 'sk-test',
      fetch: httpFetch,
      maxRetries: 0,
    });
    try {
      const plain = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(plain.choices[0]?.message.content).toBe('hello there');
      const stream = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('streamed answer');
    } finally {
      httpFetch.destroy();
      await server.close();
    }
  });
});
