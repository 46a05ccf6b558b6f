import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebTools } from './create-web-tools.js';
import { fetchLivePage } from './fetch-live-page.js';
import { createHttpSearchBackend, type SearchApi } from './http-search-backend.js';

const KEY = 'search-key-0123456789abcdef';
const PDF = readFileSync(
  fileURLToPath(new URL('../../../test-fixtures/attachments/report.pdf', import.meta.url)),
);

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
let server: Server;
let base: string;

const RESULT = {
  url: 'https://en.example.org/wiki/Canberra',
  title: '<b>Canberra</b>',
  text: 'The capital &amp; seat',
};

/** A local stand-in for four search APIs and a small website. */
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://local');
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const { url: link, title, text } = RESULT;
      switch (url.pathname) {
        case '/searx/search':
          return json(200, { results: [{ url: link, title, content: text }] });
        case '/brave/res/v1/web/search':
          return json(200, { web: { results: [{ url: link, title, description: text }] } });
        case '/serper/search':
          return json(200, { organic: [{ link, title, snippet: text }] });
        case '/tavily/search':
          return json(200, { results: [{ url: link, title, content: text }] });
        case '/broken/search':
          // A server that echoes the key back in its error body: it must not reach the model or a log.
          return json(500, { error: `internal error for key ${KEY}` });
        case '/denied/search':
          return json(401, { error: `bad key ${KEY}` });
        case '/site/home':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(
            '<html><head><title>Home</title></head><body><h1>Welcome</h1><p>See <a href="/site/about">about</a>.</p></body></html>',
          );
        case '/site/moved':
          res.writeHead(302, { location: '/site/home' });
          return res.end();
        case '/site/report.pdf':
          res.writeHead(200, { 'content-type': 'application/pdf' });
          return res.end(PDF);
        case '/site/plain':
          res.writeHead(200, { 'content-type': 'text/plain' });
          return res.end('just text');
        case '/site/image':
          res.writeHead(200, { 'content-type': 'image/png' });
          return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        default:
          res.writeHead(404, { 'content-type': 'text/plain' });
          return res.end('not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('HTTP search backend (against a local server)', () => {
  it.each<[SearchApi, string, (s: Seen) => void]>([
    [
      'searxng',
      'searx',
      (s) => {
        expect(s.method).toBe('GET');
        expect(s.url).toBe('/searx/search?q=capital+of+Australia&format=json');
      },
    ],
    [
      'brave',
      'brave',
      (s) => {
        expect(s.url).toBe('/brave/res/v1/web/search?q=capital+of+Australia&count=3');
        expect(s.headers['x-subscription-token']).toBe(KEY);
      },
    ],
    [
      'serper',
      'serper',
      (s) => {
        expect(s.method).toBe('POST');
        expect(JSON.parse(s.body)).toEqual({ q: 'capital of Australia', num: 3 });
        expect(s.headers['x-api-key']).toBe(KEY);
      },
    ],
    [
      'tavily',
      'tavily',
      (s) => {
        expect(JSON.parse(s.body)).toEqual({ query: 'capital of Australia', max_results: 3 });
        expect(s.headers.authorization).toBe(`Bearer ${KEY}`);
      },
    ],
  ])(
    '%s: sends the query (and the key from the named variable), reads the results',
    async (api, path, check) => {
      process.env.SKILLRL_TEST_SEARCH_URL = `${base}/${path}`;
      process.env.SKILLRL_TEST_SEARCH_KEY = KEY;
      const backend = createHttpSearchBackend({
        api,
        baseURLEnv: 'SKILLRL_TEST_SEARCH_URL',
        apiKeyEnv: 'SKILLRL_TEST_SEARCH_KEY',
      });
      const [search] = createWebTools({ backend, results: 3 });
      const before = seen.length;
      const out = await search?.execute?.({ query: 'capital of Australia' });
      expect(seen.length).toBe(before + 1);
      check(seen[before] as Seen);
      expect(out).toBe(
        [
          `Search results for "capital of Australia" (${api}):`,
          '',
          '1. Canberra',
          '   https://en.example.org/wiki/Canberra',
          '   The capital & seat',
        ].join('\n'),
      );
    },
  );

  it('never shows the key: a failing API is text for the model, a refused key throws, both redacted', async () => {
    process.env.SKILLRL_TEST_SEARCH_KEY = KEY;
    const broken = createHttpSearchBackend({
      api: 'serper',
      baseURL: `${base}/broken`,
      apiKeyEnv: 'SKILLRL_TEST_SEARCH_KEY',
    });
    const [search] = createWebTools({ backend: broken });
    const out = (await search?.execute?.({ query: 'x' })) as string;
    expect(out).toMatch(/^Search failed: the serper search API answered HTTP 500: /);
    expect(out).not.toContain(KEY);
    expect(out).toContain('[REDACTED]');
    const denied = createHttpSearchBackend({
      api: 'serper',
      baseURL: `${base}/denied`,
      apiKeyEnv: 'SKILLRL_TEST_SEARCH_KEY',
    });
    const error = await denied.search('x', { limit: 1 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/refused the key \(HTTP 401\)/);
    expect((error as Error).message).not.toContain(KEY);
    const down = createHttpSearchBackend({ api: 'searxng', baseURL: 'http://127.0.0.1:9/', timeoutMs: 2000 });
    expect(await down.search('x', { limit: 1 })).toEqual({
      error: expect.stringMatching(/^the searxng search API could not be reached/),
    });
  });

  it('refuses a config without what the API needs, naming the option', () => {
    expect(() => createHttpSearchBackend({ api: 'searxng' })).toThrow(/baseURL/);
    expect(() => createHttpSearchBackend({ api: 'brave' })).toThrow(/needs a key/);
    expect(() => createHttpSearchBackend({ api: 'brave', apiKeyEnv: 'SKILLRL_TEST_UNSET_VARIABLE' })).toThrow(
      /SKILLRL_TEST_UNSET_VARIABLE is not set/,
    );
    expect(() => createHttpSearchBackend({ api: 'bing' as SearchApi })).toThrow(/expected one of/);
  });
});

describe('fetch_page live (against a local server)', () => {
  const open = { allowPrivateNetwork: true, timeoutMs: 5000 };

  it('shows HTML as text and links, follows redirects, reads PDFs and plain text', async () => {
    const backend = createHttpSearchBackend({ api: 'searxng', baseURL: `${base}/searx`, ...open });
    const [, fetchPage] = createWebTools({ backend });
    expect(await fetchPage?.execute?.({ url: `${base}/site/moved` })).toBe(
      [
        'Title: Home',
        `URL: ${base}/site/home`,
        '',
        'Welcome\n\nSee about.',
        '',
        'Links (1):',
        `[1] about -> ${base}/site/about`,
      ].join('\n'),
    );
    expect(await fetchLivePage(`${base}/site/report.pdf`, open)).toMatchObject({
      text: '## Page 1\nAnnual report 2024\nTotal staff: 42\n\n## Page 2\nPage two\nOffices: Oslo and Bergen',
    });
    expect(await fetchLivePage(`${base}/site/plain`, open)).toMatchObject({ text: 'just text', links: [] });
  });

  it('returns failures as text: 404, a non-text type, a bad URL, a private address by default', async () => {
    expect(await fetchLivePage(`${base}/site/nothing`, open)).toEqual({
      error: `${base}/site/nothing answered HTTP 404 Not Found`,
    });
    expect(await fetchLivePage(`${base}/site/image`, open)).toEqual({
      error: `${base}/site/image is image/png, which fetch_page cannot show as text`,
    });
    expect(await fetchLivePage('ftp://x.org/', open)).toEqual({
      error: '"ftp://x.org/" is not an http(s) URL',
    });
    expect(await fetchLivePage(`${base}/site/home`)).toEqual({
      error: 'not fetched: 127.0.0.1 is a non-public address',
    });
    expect(await fetchLivePage('http://localhost:1/')).toEqual({
      error: 'not fetched: localhost is this machine',
    });
    expect(await fetchLivePage('http://[::1]:1/')).toMatchObject({
      error: 'not fetched: ::1 is a non-public address',
    });
    const none = createHttpSearchBackend({ api: 'searxng', baseURL: base, pages: 'none' });
    expect(await none.fetchPage(`${base}/site/home`)).toEqual({
      error: 'fetch_page is off for this backend (search only)',
    });
  });
});
