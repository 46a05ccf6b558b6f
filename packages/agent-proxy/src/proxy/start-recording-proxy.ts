import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRng, registerSecret } from '@skillrl/core';
import { createRateLimiter, resolveRetryOptions } from '@skillrl/rollout';
import { ChatCompletionCall, type ChatProxyContext } from './chat-completion-call.js';
import { createConcurrencyGate } from './concurrency-gate.js';
import { createEpisodeRegistry } from './episode-registry.js';
import { answerModels } from './models-route.js';
import { openAIErrorBody } from './openai-error-body.js';
import { checkRecordingProxyOptions, type RecordingProxyOptions } from './proxy-options.js';
import type { RecordingProxy } from './recording-proxy.js';
import { defaultSkillTemplate } from './skill-injection.js';
import { createUpstreamTransport } from './upstream-transport.js';

/** A program's request body larger than this is refused (413) rather than held in memory. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const UNKNOWN_TOKEN =
  'unknown token: this proxy only answers the per-episode OPENAI_API_KEY skillrl set for the program';

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-should-retry': 'false',
  });
  res.end(text);
}

function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Starts the recording proxy on 127.0.0.1: a program (any OpenAI client) is pointed at `proxy.url` with an
 * episode's token as its API key, and every chat completion it makes is sent to the configured upstream
 * (the configured model, the real key, the skill in the system message under condition 1), answered to the
 * program as the upstream answered it (streams chunk by chunk), and recorded on the episode.
 *
 * Routes: `POST /v1/chat/completions`, `GET /v1/models`; any other route under `/v1` is a 501. Every route
 * needs a live episode token (401 otherwise); the real key is never echoed, recorded or logged.
 */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  checkRecordingProxyOptions(options);
  const upstream = options.upstream;
  const env = options.env ?? process.env;
  const apiKey = env[upstream.apiKeyEnv ?? 'OPENAI_API_KEY'] || 'EMPTY';
  registerSecret(apiKey);
  const timeoutMs = upstream.timeoutMs ?? 60_000;
  const baseURLs = upstream.baseURLs ?? [upstream.baseURL ?? 'https://api.openai.com/v1'];
  const transport = createUpstreamTransport(baseURLs, apiKey);
  const rateLimited = upstream.requestsPerMinute !== undefined || upstream.tokensPerMinute !== undefined;
  const render =
    (options.injectSkill ?? 'system') === 'system'
      ? (options.skillTemplate ?? defaultSkillTemplate)
      : undefined;
  const counters = { calls: 0, failures: 0 };
  const registry = createEpisodeRegistry((call) => {
    if (!options.onCall) return;
    try {
      options.onCall(call);
    } catch (error) {
      process.emitWarning(`skillrl agent-proxy: onCall threw: ${(error as Error)?.message ?? String(error)}`);
    }
  });
  const ctx: ChatProxyContext = {
    upstreamModel: upstream.model,
    transport,
    gate: createConcurrencyGate(upstream.concurrency ?? 256),
    rateLimiter: rateLimited
      ? createRateLimiter({
          ...(upstream.requestsPerMinute === undefined
            ? {}
            : { requestsPerMinute: upstream.requestsPerMinute }),
          ...(upstream.tokensPerMinute === undefined ? {} : { tokensPerMinute: upstream.tokensPerMinute }),
        })
      : undefined,
    retry: resolveRetryOptions(upstream.retry),
    timeoutMs,
    extraBody: upstream.extraBody,
    rng: createRng('skillrl-agent-proxy'),
    apiKey,
    registry,
    counters,
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '') ?? '';
    const method = req.method ?? 'GET';
    if (path !== '/v1' && !path.startsWith('/v1/')) {
      req.resume();
      sendJson(
        res,
        404,
        openAIErrorBody(
          `no route ${method} ${path || '/'}: the proxy's base URL ends in /v1`,
          'invalid_request_error',
          'not_found',
        ),
      );
      return;
    }
    const token = bearerOf(req);
    const found = token === undefined ? undefined : registry.lookup(token);
    if (!found || !('episode' in found)) {
      req.resume();
      const message = found
        ? `episode ${found.endedEpisodeId} has ended: a call after the episode's end is not recorded`
        : UNKNOWN_TOKEN;
      sendJson(
        res,
        401,
        openAIErrorBody(message, 'invalid_request_error', found ? 'episode_ended' : 'invalid_api_key'),
      );
      return;
    }
    const episode = found.episode;
    if (method === 'POST' && path === '/v1/chat/completions') {
      const parts: Buffer[] = [];
      let size = 0;
      req.on('data', (part: Buffer) => {
        size += part.length;
        if (size <= MAX_BODY_BYTES) parts.push(part);
      });
      req.on('end', () => {
        if (size > MAX_BODY_BYTES) {
          sendJson(
            res,
            413,
            openAIErrorBody(
              `the request body is over ${MAX_BODY_BYTES} bytes`,
              'invalid_request_error',
              null,
            ),
          );
          return;
        }
        if (episode.ended) {
          sendJson(
            res,
            401,
            openAIErrorBody(
              `episode ${episode.episodeId} has ended: a call after the episode's end is not recorded`,
              'invalid_request_error',
              'episode_ended',
            ),
          );
          return;
        }
        void new ChatCompletionCall(ctx, episode, res, Buffer.concat(parts)).run();
      });
      return;
    }
    req.resume();
    if (method === 'GET' && path === '/v1/models') {
      answerModels(res, transport, upstream.model, timeoutMs);
      return;
    }
    sendJson(
      res,
      501,
      openAIErrorBody(
        `skillrl's proxy does not proxy ${method} ${path}: use /v1/chat/completions`,
        'not_implemented',
        'unsupported_route',
      ),
    );
  };

  const server = createServer(handle);
  // Hundreds of programs may connect in one burst; the default backlog (511) would refuse some.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host: '127.0.0.1', backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    openEpisode: (episode) => registry.open(episode, render),
    stats: () => ({ calls: counters.calls, failures: counters.failures, episodesOpen: registry.openCount() }),
    close() {
      closed ??= new Promise<void>((resolve) => {
        registry.endAll();
        server.close(() => {
          transport.destroy();
          resolve();
        });
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
