import { InvalidArgumentError, redactSecrets, registerSecret } from '@skillrl/core';
import { convert } from 'html-to-text';
import { fetchLivePage, type LiveFetchOptions } from './fetch-live-page.js';
import type { PageCache } from './page-cache.js';
import type { SearchHit, WebBackend, WebPage } from './web-page.js';

/** The search APIs the HTTP backend speaks. */
export type SearchApi = 'searxng' | 'brave' | 'serper' | 'tavily';

export interface HttpSearchBackendOptions extends Omit<LiveFetchOptions, 'signal'> {
  api: SearchApi;
  /** The API's base URL. Default: the API's public endpoint (SearXNG has none: give yours). */
  baseURL?: string;
  /** An environment variable holding the base URL; read when the backend is created, wins over `baseURL`. */
  baseURLEnv?: string;
  /** The key, for use from code. From a config file, name the variable instead (`apiKeyEnv`). */
  apiKey?: string;
  /** An environment variable holding the key. The key is registered for redaction and never logged. */
  apiKeyEnv?: string;
  /**
   * Where `fetch_page` gets pages: `live` (default) GETs the URL, `none` refuses (search only), or a page
   * cache serves them offline.
   */
  pages?: 'live' | 'none' | PageCache;
}

interface ApiSpec {
  defaultBaseURL?: string;
  needsKey: boolean;
  request(
    base: string,
    query: string,
    limit: number,
    key: string | undefined,
  ): { url: string; init: RequestInit };
  results(body: unknown): SearchHit[] | undefined;
}

type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] | undefined =>
  Array.isArray(value) ? value.filter((r): r is Row => !!r && typeof r === 'object') : undefined;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
// Brave and SearXNG put <strong> and entities in their snippets.
const plain = (html: string): string => convert(html, { wordwrap: false }).replace(/\s+/g, ' ').trim();
const hits = (list: Row[] | undefined, url: string, snippet: string): SearchHit[] | undefined =>
  list
    ?.filter((r) => str(r[url]) !== '')
    .map((r) => ({ url: str(r[url]), title: plain(str(r.title)), snippet: plain(str(r[snippet])) }));
const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

const APIS: Record<SearchApi, ApiSpec> = {
  // GET /search?q=…&format=json (the instance must enable the json format).
  searxng: {
    needsKey: false,
    request: (base, q, _limit, key) => ({
      url: `${join(base, '/search')}?${new URLSearchParams({ q, format: 'json' })}`,
      init: { headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) } },
    }),
    results: (body) => hits(rows((body as Row)?.results), 'url', 'content'),
  },
  // GET /res/v1/web/search?q=…&count=… with X-Subscription-Token.
  brave: {
    defaultBaseURL: 'https://api.search.brave.com',
    needsKey: true,
    request: (base, q, limit, key) => ({
      url: `${join(base, '/res/v1/web/search')}?${new URLSearchParams({ q, count: String(limit) })}`,
      init: { headers: { accept: 'application/json', 'x-subscription-token': key ?? '' } },
    }),
    results: (body) => hits(rows(((body as Row)?.web as Row)?.results), 'url', 'description'),
  },
  // POST /search {q, num} with X-API-KEY.
  serper: {
    defaultBaseURL: 'https://google.serper.dev',
    needsKey: true,
    request: (base, q, limit, key) => ({
      url: join(base, '/search'),
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key ?? '' },
        body: JSON.stringify({ q, num: limit }),
      },
    }),
    results: (body) => hits(rows((body as Row)?.organic), 'link', 'snippet'),
  },
  // POST /search {query, max_results} with a bearer key.
  tavily: {
    defaultBaseURL: 'https://api.tavily.com',
    needsKey: true,
    request: (base, q, limit, key) => ({
      url: join(base, '/search'),
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key ?? ''}` },
        body: JSON.stringify({ query: q, max_results: limit }),
      },
    }),
    results: (body) => hits(rows((body as Row)?.results), 'url', 'content'),
  },
};

function fromEnv(name: string | undefined, option: string): string | undefined {
  if (name === undefined) return undefined;
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new InvalidArgumentError(option, `the environment variable ${name} is not set`);
  }
  return value;
}

/**
 * A live backend: `web_search` calls a search API (SearXNG, Brave, Serper or Tavily), `fetch_page` GETs the
 * page (or serves it from a page cache). The base URL and key come from environment variables the user
 * names; the key is registered with core's `registerSecret`, so it is redacted from every error, result and
 * trajectory. A 401/403 from the API throws (a wrong key should stop the run, not quietly return nothing);
 * other failures come back to the model as text.
 */
export function createHttpSearchBackend(options: HttpSearchBackendOptions): WebBackend {
  const spec = APIS[options.api];
  if (!spec) {
    throw new InvalidArgumentError(
      'api',
      `expected one of ${Object.keys(APIS).join(', ')}, got ${JSON.stringify(options.api)}`,
    );
  }
  const base = fromEnv(options.baseURLEnv, 'baseURLEnv') ?? options.baseURL ?? spec.defaultBaseURL;
  if (!base) {
    throw new InvalidArgumentError(
      'baseURL',
      `${options.api} has no public endpoint: give baseURL or baseURLEnv`,
    );
  }
  const key = fromEnv(options.apiKeyEnv, 'apiKeyEnv') ?? options.apiKey;
  registerSecret(key);
  if (spec.needsKey && !key) {
    throw new InvalidArgumentError(
      'apiKeyEnv',
      `${options.api} needs a key: name the environment variable that holds it`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 20_000;
  const pages = options.pages ?? 'live';
  return {
    name: options.api,
    async search(query, { limit, signal }) {
      const { url, init } = spec.request(base, query, limit, key);
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await fetch(url, {
          ...init,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const why = timeout.aborted ? `timed out after ${timeoutMs} ms` : (error as Error).message;
        return { error: redactSecrets(`the ${options.api} search API could not be reached: ${why}`) };
      }
      const text = await response.text();
      if (response.status === 401 || response.status === 403) {
        throw new InvalidArgumentError(
          options.apiKeyEnv ?? 'apiKey',
          redactSecrets(
            `the ${options.api} search API refused the key (HTTP ${response.status}): ${text.slice(0, 200)}`,
          ),
        );
      }
      if (!response.ok) {
        return {
          error: redactSecrets(
            `the ${options.api} search API answered HTTP ${response.status}: ${text.slice(0, 200)}`,
          ),
        };
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return { error: `the ${options.api} search API did not answer JSON` };
      }
      const found = spec.results(body);
      if (!found) return { error: `the ${options.api} search API's answer has no result list` };
      return found.slice(0, limit);
    },
    async fetchPage(url, fetchOptions): Promise<WebPage | { error: string }> {
      if (pages === 'none') return { error: 'fetch_page is off for this backend (search only)' };
      if (pages !== 'live') {
        return pages.get(url) ?? { error: `${url} is not in the offline page cache (${pages.size} pages)` };
      }
      return fetchLivePage(url, {
        timeoutMs,
        ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
        ...(options.allowPrivateNetwork !== undefined
          ? { allowPrivateNetwork: options.allowPrivateNetwork }
          : {}),
        ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
        ...(fetchOptions?.signal ? { signal: fetchOptions.signal } : {}),
      });
    },
  };
}
