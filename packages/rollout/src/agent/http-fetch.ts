import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { BufferedResponse, ResponseHeaders } from './buffered-response.js';

export interface HttpFetchOptions {
  /** Sockets per origin. Default: unlimited (the agent's `concurrency` is the real cap). */
  maxSockets?: number;
  /** Idle keep-alive sockets kept per origin. Default 1024. */
  maxFreeSockets?: number;
}

/** A `fetch` for the `openai` client, plus a way to close its idle keep-alive sockets. */
export type HttpFetch = typeof fetch & { destroy(): void };

const NULL_BODY = new Set([101, 204, 205, 304]);

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError');
}

function headersOf(init: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  // The openai client hands a `Headers`; read it in place rather than copying it into another one.
  const source = init instanceof Headers ? init : new Headers(init);
  source.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

interface Target {
  secure: boolean;
  hostname: string;
  port: string;
  path: string;
  /** `user:password` from the URL, for endpoints behind basic auth. */
  auth?: string;
}

/** Parsed request targets: a client posts to the same few URLs, so each is parsed once. */
function createTargetCache(limit = 256): (input: string | URL) => Target {
  const cache = new Map<string, Target>();
  return (input) => {
    const key = typeof input === 'string' ? input : input.href;
    let target = cache.get(key);
    if (!target) {
      const url = new URL(key);
      target = {
        secure: url.protocol === 'https:',
        // `URL` keeps IPv6 hosts in brackets; `http.request` wants them bare.
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port,
        path: `${url.pathname}${url.search}`,
        ...(url.username
          ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
          : {}),
      };
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(key, target);
    }
    return target;
  };
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  return body;
}

/**
 * A minimal `fetch` over `node:http(s)` with keep-alive agents, for buffered (non-streaming) JSON calls. It
 * resolves to a `BufferedResponse` (the body already in memory) rather than a WHATWG `Response`, whose
 * stream machinery cost more CPU per call than the rest of the exchange.
 * Node 20's built-in fetch (undici) spent 3–4× the CPU per request of this path in `pnpm bench` on the
 * development machine, which capped rollout throughput at a few hundred requests per second. Bodies it
 * cannot send (streams, forms) fall back to the global `fetch`.
 */
export function createHttpFetch(options: HttpFetchOptions = {}): HttpFetch {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? Number.POSITIVE_INFINITY,
    maxFreeSockets: options.maxFreeSockets ?? 1024,
    scheduling: 'lifo' as const,
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const targetOf = createTargetCache();

  const httpFetch = ((input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = init.body;
    if (
      input instanceof Request ||
      (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))
    ) {
      return fetch(input, init);
    }
    const target = targetOf(input);
    const secure = target.secure;
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const req = (secure ? https : http).request(
        {
          hostname: target.hostname,
          ...(target.port ? { port: target.port } : {}),
          path: target.path,
          ...(target.auth ? { auth: target.auth } : {}),
          method: init.method ?? 'GET',
          headers: headersOf(init.headers),
          agent: secure ? agents.https : agents.http,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            settle(() => {
              try {
                const status = res.statusCode ?? 0;
                const raw = decode(Buffer.concat(chunks), res.headers['content-encoding']);
                const response = new BufferedResponse(NULL_BODY.has(status) ? null : raw, {
                  status,
                  statusText: res.statusMessage ?? '',
                  // The body is decoded here, so its encoding and length no longer describe it.
                  headers: new ResponseHeaders(res.headers, ['content-encoding', 'content-length']),
                  url: typeof input === 'string' ? input : input.href,
                });
                resolve(response as unknown as Response);
              } catch (error) {
                reject(error);
              }
            });
          });
          res.on('close', () => {
            if (!res.complete) {
              settle(() =>
                reject(
                  Object.assign(new Error('the connection closed mid-response'), { code: 'ECONNRESET' }),
                ),
              );
            }
          });
          res.on('error', (error) => settle(() => reject(error)));
        },
      );
      const onAbort = () => {
        req.destroy();
        settle(() => reject(abortError()));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => settle(() => reject(error)));
      req.end(body ?? undefined);
    });
  }) as HttpFetch;
  httpFetch.destroy = () => {
    agents.http.destroy();
    agents.https.destroy();
  };
  return httpFetch;
}
