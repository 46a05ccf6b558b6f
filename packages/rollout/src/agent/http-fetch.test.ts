import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startFakeOpenAI } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import { createHttpFetch } from './http-fetch.js';

const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: chat };

describe('createHttpFetch', () => {
  it('answers like fetch: status, headers and body, over reused keep-alive sockets', async () => {
    const server = await startFakeOpenAI({
      script: ['hello'],
      faults: { plan: ({ index }) => (index === 1 ? 'rate-limit' : undefined), retryAfterMs: 250 },
    });
    const httpFetch = createHttpFetch();
    try {
      const ok = await httpFetch(`${server.baseURL}/chat/completions`, post);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('application/json');
      expect(
        ((await ok.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content,
      ).toBe('hello');
      const limited = await httpFetch(new URL(`${server.baseURL}/chat/completions`), post);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after-ms')).toBe('250');
      await limited.text();
      const models = await httpFetch(`${server.baseURL}/models`);
      expect(models.ok).toBe(true);
      await models.text();
      // Every request asked the server to keep its connection open for the next one.
      expect(server.requests.every((r) => r.headers.connection === 'keep-alive')).toBe(true);
    } finally {
      httpFetch.destroy();
      await server.close();
    }
  });

  it('rejects with an AbortError on abort and a connection error when the socket dies mid-body', async () => {
    const server = await startFakeOpenAI({
      script: ['a long enough answer to be cut in the middle'],
      faults: { plan: ({ index }) => (index === 0 ? 'hang' : 'drop') },
    });
    const httpFetch = createHttpFetch();
    try {
      const controller = new AbortController();
      const hung = httpFetch(`${server.baseURL}/chat/completions`, { ...post, signal: controller.signal });
      await expect.poll(() => server.inFlight()).toBe(1);
      controller.abort();
      await expect(hung).rejects.toMatchObject({ name: 'AbortError' });
      await expect(httpFetch(`${server.baseURL}/chat/completions`, post)).rejects.toMatchObject({
        code: 'ECONNRESET',
      });
      await expect.poll(() => server.inFlight()).toBe(0);
    } finally {
      httpFetch.destroy();
      await server.close();
    }
  });

  it('decodes gzip bodies, and hands bodies it cannot send to the global fetch', async () => {
    const server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (p: Buffer) => parts.push(p));
      req.on('end', () => {
        const text = JSON.stringify({ echo: Buffer.concat(parts).toString() });
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(text));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const httpFetch = createHttpFetch();
    try {
      expect(await (await httpFetch(url, { method: 'POST', body: 'abc' })).json()).toEqual({ echo: 'abc' });
      const form = new URLSearchParams({ a: '1' });
      // URLSearchParams is not a string or bytes: the global fetch sends it (and decodes gzip itself).
      expect(await (await httpFetch(url, { method: 'POST', body: form })).json()).toEqual({ echo: 'a=1' });
    } finally {
      httpFetch.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
