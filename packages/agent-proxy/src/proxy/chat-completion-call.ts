import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Rng, redactSecrets } from '@skillrl/core';
import {
  type Endpoint,
  isRetryable,
  type RateLimiter,
  type ResolvedRetryOptions,
  retryDelay,
} from '@skillrl/rollout';
import { type CompletionRecord, recordCompletion } from './completion-record.js';
import type { ConcurrencyGate } from './concurrency-gate.js';
import type { EpisodeRegistry, EpisodeState, InFlightCall } from './episode-registry.js';
import { openAIErrorBody } from './openai-error-body.js';
import type { RecordedCall, RecordedCallRequest } from './recorded-call.js';
import type { ProxyEpisodeFailure } from './recording-proxy.js';
import { injectSkill } from './skill-injection.js';
import { StreamRecorder } from './stream-recorder.js';
import { ProxyUpstreamError } from './upstream-error.js';
import type { UpstreamTarget, UpstreamTransport } from './upstream-transport.js';

/** What every call shares: the upstream, its limits, and where calls are filed. */
export interface ChatProxyContext {
  readonly upstreamModel: string;
  readonly transport: UpstreamTransport;
  readonly gate: ConcurrencyGate;
  readonly rateLimiter: RateLimiter | undefined;
  readonly retry: ResolvedRetryOptions;
  readonly timeoutMs: number;
  readonly extraBody: Record<string, unknown> | undefined;
  /** Retry jitter; each call forks its own stream from it. */
  readonly rng: Rng;
  /** The real key, scrubbed from anything recorded. */
  readonly apiKey: string;
  readonly registry: EpisodeRegistry;
  readonly counters: { calls: number; failures: number };
}

/** Why a call stopped before its reply was complete: the episode ended, or the program hung up. */
interface CutReason {
  cut: true;
  message: string;
}

/** An upstream status that says the endpoint itself is wrong (key, URL, model), not the program's request. */
const ENDPOINT_STATUSES = new Set([401, 403, 404]);

/** The failure an episode records when the program's connection is cut by nothing of its own doing. */
const PROGRAM_GONE = 'the program closed the connection before the reply was complete';

function isCut(value: unknown): value is CutReason {
  return typeof value === 'object' && value !== null && (value as CutReason).cut === true;
}

function headerReader(headers: IncomingHttpHeaders) {
  return {
    get(name: string): string | null {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    },
  };
}

interface UpstreamErrorJson {
  error?: { message?: unknown; type?: unknown; code?: unknown } | string;
  message?: unknown;
}

/** An error status as a typed error carrying the upstream's own message, type and code where it sent them. */
function statusError(status: number, headers: IncomingHttpHeaders, body: Buffer): ProxyUpstreamError {
  let message = `the endpoint answered ${status}`;
  let type: string | undefined;
  let code: string | undefined;
  try {
    const json = JSON.parse(body.toString('utf8')) as UpstreamErrorJson;
    const error = json.error;
    if (typeof error === 'string') message = error;
    else if (error && typeof error.message === 'string') {
      message = error.message;
      if (typeof error.type === 'string') type = error.type;
      if (typeof error.code === 'string') code = error.code;
    } else if (typeof json.message === 'string') message = json.message;
  } catch {
    const kind = headers['content-type'] ?? 'no content type';
    message = `the endpoint answered ${status} with a body that is not JSON (${kind})`;
  }
  const error = new ProxyUpstreamError(message, {
    status,
    headers: headerReader(headers),
    failureCode: 'upstream_status',
  });
  return Object.assign(error, { upstreamType: type, upstreamCode: code });
}

function networkError(error: unknown): ProxyUpstreamError {
  const code = (error as { code?: unknown } | null)?.code;
  const errno = typeof code === 'string' ? code : 'ECONNRESET';
  const message = (error as { message?: unknown } | null)?.message;
  return new ProxyUpstreamError(
    `the endpoint could not be reached (${errno}): ${typeof message === 'string' ? message : String(error)}`,
    { errno, failureCode: 'upstream_unreachable', cause: error },
  );
}

function timeoutError(timeoutMs: number, what: string): ProxyUpstreamError {
  return new ProxyUpstreamError(`the endpoint ${what} within ${timeoutMs} ms`, {
    errno: 'ETIMEDOUT',
    failureCode: 'upstream_timeout',
    // rollout's isRetryable reads the network code from the cause.
    cause: Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }),
  });
}

/** The connection broke after the response began; retryable like a reset (before a stream's first byte). */
function brokenError(message: string): ProxyUpstreamError {
  return new ProxyUpstreamError(message, {
    errno: 'ECONNRESET',
    failureCode: 'upstream_unreachable',
    cause: Object.assign(new Error(message), { code: 'ECONNRESET' }),
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function readAll(stream: IncomingMessage, done: (body: Buffer) => void): void {
  const parts: Buffer[] = [];
  stream.on('data', (part: Buffer) => parts.push(part));
  stream.on('end', () => done(Buffer.concat(parts)));
}

/**
 * One chat completion from a program: parsed once, the skill injected when the episode runs with it, sent
 * upstream with retries, answered (piped chunk by chunk when it streams), and filed on its episode exactly
 * once — when it finishes, fails, or is cut by the episode's end or the program hanging up.
 */
export class ChatCompletionCall implements InFlightCall {
  /** Created only when a call has to wait (a full gate, a rate limit, a retry's backoff). */
  private controller: AbortController | undefined;
  /** Stops the attempt in flight; an AbortSignal per call cost a measurable share of the proxy's CPU. */
  private stopAttempt: ((reason: CutReason) => void) | undefined;
  private cutReason: CutReason | undefined;
  private readonly startedAt = new Date().toISOString();
  private readonly t0 = performance.now();
  private readonly index: number;
  private readonly stream: boolean;
  private readonly recorder: StreamRecorder | undefined;
  private request: RecordedCallRequest = { messages: [] };
  private payload: Buffer | undefined;
  private maxTokens = 0;
  private attempts = 0;
  /** The program's response has its status line: a stream can no longer be retried. */
  private committed = false;
  private done = false;

  constructor(
    private readonly ctx: ChatProxyContext,
    private readonly episode: EpisodeState,
    private readonly res: ServerResponse,
    body: Buffer,
  ) {
    this.index = episode.nextIndex++;
    ctx.counters.calls++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
    this.stream = isObject && (parsed as { stream?: unknown }).stream === true;
    this.recorder = this.stream ? new StreamRecorder() : undefined;
    if (isObject) this.prepare(parsed as RecordedCallRequest);
    episode.inFlight.add(this);
    res.on('close', () => {
      if (!this.done) this.cut(PROGRAM_GONE);
    });
  }

  private prepare(request: RecordedCallRequest): void {
    const { ctx, episode } = this;
    const messages = Array.isArray(request.messages) ? request.messages : undefined;
    const upstream: Record<string, unknown> = { ...request, ...ctx.extraBody, model: ctx.upstreamModel };
    const inject = episode.skillText !== undefined && messages !== undefined;
    if (inject) upstream.messages = injectSkill(messages, episode.skillText as string);
    this.payload = Buffer.from(JSON.stringify(upstream));
    this.request = inject ? { ...request, injectedSkill: true } : request;
    const max = upstream.max_completion_tokens ?? upstream.max_tokens;
    const n = typeof upstream.n === 'number' && upstream.n > 0 ? upstream.n : 1;
    this.maxTokens = typeof max === 'number' && max > 0 ? max * n : 0;
  }

  /** Runs the call to its end; never rejects. */
  async run(): Promise<void> {
    if (!this.payload) {
      this.answerError(
        400,
        'the body is not a JSON object: send a chat completion request',
        'invalid_request_error',
        null,
      );
      this.finish(400, {}, 'the program sent a body that is not a JSON object');
      return;
    }
    const { ctx } = this;
    let rng: Rng | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.attempt();
        return;
      } catch (error) {
        if (this.done || isCut(error)) return;
        const retryable = isRetryable(error);
        // A stream that began is answered (and filed) by the attempt itself; only a failure before it gets here.
        if (!retryable || attempt >= ctx.retry.maxRetries) {
          this.fail(error, retryable);
          return;
        }
        rng ??= ctx.rng.fork(`${this.episode.episodeId}/${this.index}`);
        try {
          await sleep(retryDelay(attempt, error, ctx.retry, rng), this.signal());
        } catch {
          return;
        }
      }
    }
  }

  /** A signal that aborts when the call is cut, for the waits that take one. */
  private signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cutReason) this.controller.abort(this.cutReason);
    }
    return this.controller.signal;
  }

  private async attempt(): Promise<void> {
    const { ctx } = this;
    if (ctx.rateLimiter) {
      await ctx.rateLimiter.acquire(
        Math.ceil((this.payload as Buffer).length / 4) + this.maxTokens,
        this.signal(),
      );
    }
    if (!ctx.gate.tryAcquire()) await ctx.gate.acquire(this.signal());
    if (this.cutReason) {
      ctx.gate.release();
      throw this.cutReason;
    }
    const endpoint = ctx.transport.pool.acquire();
    this.attempts++;
    try {
      if (this.stream) await this.streamAttempt(endpoint);
      else await this.bufferedAttempt(endpoint);
    } finally {
      ctx.transport.pool.release(endpoint);
      ctx.gate.release();
    }
  }

  /** A plain call: the whole answer within `timeoutMs`, forwarded byte for byte when it is a usable 2xx. */
  private bufferedAttempt(endpoint: Endpoint<UpstreamTarget>): Promise<void> {
    const { ctx } = this;
    return new Promise<void>((resolve, reject) => {
      const req = ctx.transport.open(endpoint, 'POST', '/chat/completions', this.payload, 'application/json');
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.stopAttempt = undefined;
        fn();
      };
      const fail = (error: unknown) => {
        req.destroy();
        settle(() => reject(error));
      };
      const timer = setTimeout(() => fail(timeoutError(ctx.timeoutMs, 'did not answer')), ctx.timeoutMs);
      this.stopAttempt = fail;
      req.on('error', (error) => fail(networkError(error)));
      req.on('response', (up) => {
        const status = up.statusCode ?? 0;
        const broken = () => fail(brokenError('the endpoint closed the connection mid-answer'));
        up.on('error', broken);
        up.on('close', () => {
          if (!up.complete) broken();
        });
        readAll(up, (body) => {
          if (settled) return;
          if (status < 200 || status >= 300) {
            fail(statusError(status, up.headers, body));
            return;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch (error) {
            fail(
              new ProxyUpstreamError(`the endpoint answered ${status} with a body that is not JSON`, {
                failureCode: 'upstream_status',
                // A body cut off mid-JSON is retried, as rollout retries it.
                cause: error,
              }),
            );
            return;
          }
          settle(() => {
            if (this.done) return;
            this.res.writeHead(status, {
              'content-type': up.headers['content-type'] ?? 'application/json',
              'content-length': body.length,
            });
            this.res.end(body);
            this.finish(status, recordCompletion(parsed));
            resolve();
          });
        });
      });
    });
  }

  /**
   * A streaming call: retried until its first byte, then piped chunk by chunk (each written as it arrives),
   * with `timeoutMs` as the longest silence allowed. A stream that breaks or stalls after it began is ended
   * with an SSE `error` event, which the `openai` clients raise as an `APIError`.
   */
  private streamAttempt(endpoint: Endpoint<UpstreamTarget>): Promise<void> {
    const { ctx, res } = this;
    const recorder = this.recorder as StreamRecorder;
    return new Promise<void>((resolve, reject) => {
      const req = ctx.transport.open(
        endpoint,
        'POST',
        '/chat/completions',
        this.payload,
        'text/event-stream',
      );
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.stopAttempt = undefined;
        fn();
      };
      const fail = (error: ProxyUpstreamError | CutReason) => {
        req.destroy();
        if (!this.committed || isCut(error)) {
          settle(() => reject(error));
          return;
        }
        settle(() => {
          this.breakStream(error);
          resolve();
        });
      };
      const timer = setTimeout(() => {
        fail(
          this.committed
            ? new ProxyUpstreamError(`the stream sent nothing for ${ctx.timeoutMs} ms and was cut`, {
                errno: 'ETIMEDOUT',
                failureCode: 'stream_stalled',
              })
            : timeoutError(ctx.timeoutMs, 'sent no byte'),
        );
      }, ctx.timeoutMs);
      this.stopAttempt = fail;
      req.on('error', (error) => fail(networkError(error)));
      req.on('response', (up) => {
        const status = up.statusCode ?? 0;
        const broken = () => fail(brokenError('the endpoint closed the connection mid-stream'));
        up.on('error', broken);
        up.on('close', () => {
          if (!up.complete) broken();
        });
        if (status < 200 || status >= 300) {
          readAll(up, (body) => fail(statusError(status, up.headers, body)));
          return;
        }
        up.on('data', (chunk: Buffer) => {
          if (settled) return;
          timer.refresh();
          if (!this.committed) {
            this.committed = true;
            res.writeHead(status, {
              'content-type': up.headers['content-type'] ?? 'text/event-stream',
              'cache-control': 'no-cache',
            });
          }
          recorder.push(chunk);
          if (!res.write(chunk)) {
            up.pause();
            res.once('drain', () => up.resume());
          }
        });
        up.on('end', () => {
          if (settled) return;
          if (!this.committed) {
            fail(brokenError('the endpoint ended the stream without sending anything'));
            return;
          }
          settle(() => {
            res.end();
            recorder.finish();
            this.finish(status, recorder.record(), recorder.error);
            resolve();
          });
        });
      });
    });
  }

  /** Ends a stream that had begun with an SSE `error` event, and files the call as the episode's failure. */
  private breakStream(error: ProxyUpstreamError): void {
    if (this.done) return;
    const code = error.failureCode === 'upstream_unreachable' ? 'stream_broken' : error.failureCode;
    const body = openAIErrorBody(`skillrl's proxy cut the stream: ${error.message}`, 'upstream_error', code);
    this.res.end(`\n\nevent: error\ndata: ${JSON.stringify(body)}\n\n`);
    this.recorder?.finish();
    this.finish(200, this.recorder?.record() ?? {}, error.message, { code, message: body.error.message });
  }

  /** The final failure of a call that had not begun answering. */
  private fail(error: unknown, retryable: boolean): void {
    const upstream = ProxyUpstreamError.isInstance(error) ? error : undefined;
    const status = upstream ? upstream.programStatus : 502;
    const raw = error instanceof Error ? error.message : String(error);
    const message = retryable
      ? `upstream chat completion failed after ${this.attempts} attempts: ${raw}`
      : raw;
    const extra = (error ?? {}) as { upstreamType?: string; upstreamCode?: string };
    const type = extra.upstreamType ?? 'upstream_error';
    const code = extra.upstreamCode ?? upstream?.failureCode ?? 'upstream_error';
    this.answerError(status, message, type, code);
    // The endpoint itself is wrong, or kept failing: the episode errored. A request the endpoint rejected
    // (400, 422…) is the program's, and the program may well handle it.
    const failed = retryable || upstream?.status === undefined || ENDPOINT_STATUSES.has(upstream.status);
    const failure = failed
      ? { code: upstream?.failureCode ?? 'upstream_unreachable', message: redactSecrets(message) }
      : undefined;
    this.finish(status, {}, message, failure);
  }

  /** Answers with an OpenAI-style error that tells the program's client not to retry (the proxy did). */
  private answerError(status: number, message: string, type: string, code: string | null): void {
    if (this.res.headersSent || this.res.destroyed) return;
    const text = JSON.stringify(openAIErrorBody(message, type, code));
    this.res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'x-should-retry': 'false',
    });
    this.res.end(text);
  }

  /** Cuts the call (the episode ended, or the program hung up) and files it at once. */
  cut(reason: string): void {
    if (this.done) return;
    const gone = reason === PROGRAM_GONE;
    if (!gone) {
      if (this.committed) {
        const body = openAIErrorBody(
          `skillrl's proxy cut the stream: ${reason}`,
          'invalid_request_error',
          'episode_ended',
        );
        this.res.end(`\n\nevent: error\ndata: ${JSON.stringify(body)}\n\n`);
      } else {
        this.answerError(
          401,
          `${reason}: a call after the episode's end is not recorded`,
          'invalid_request_error',
          'episode_ended',
        );
      }
    }
    this.recorder?.finish();
    this.finish(gone ? 499 : this.committed ? 200 : 401, this.recorder?.record() ?? {}, reason);
    this.cutReason = { cut: true, message: reason };
    this.stopAttempt?.(this.cutReason);
    this.controller?.abort(this.cutReason);
  }

  /** Files the call on its episode, once. */
  private finish(
    status: number,
    record: CompletionRecord,
    error?: string,
    failure?: ProxyEpisodeFailure,
  ): void {
    if (this.done) return;
    this.done = true;
    const { ctx, episode } = this;
    episode.inFlight.delete(this);
    const call: RecordedCall = {
      index: this.index,
      episodeId: episode.episodeId,
      startedAt: this.startedAt,
      latencyMs: Math.round((performance.now() - this.t0) * 100) / 100,
      status,
      stream: this.stream,
      request: this.request,
      upstreamModel: ctx.upstreamModel,
      attempts: this.attempts,
      ...scrubbed(record, ctx.apiKey),
    };
    if (error !== undefined) {
      call.error = redactSecrets(error);
      ctx.counters.failures++;
    }
    if (failure && !episode.failure) episode.failure = failure;
    ctx.registry.record(episode, call);
  }
}

/** The record without the real key, in the unlikely case that the endpoint echoed it into a reply. */
function scrubbed(record: CompletionRecord, key: string): CompletionRecord {
  const reply = record.reply;
  if (!reply || key.length < 8) return record;
  const clean = (text: string) => (text.includes(key) ? text.split(key).join('[REDACTED]') : text);
  const out = { ...reply, content: reply.content === null ? null : clean(reply.content) };
  if (reply.toolCalls) {
    out.toolCalls = reply.toolCalls.map((call) => ({ ...call, arguments: clean(call.arguments) }));
  }
  return { ...record, reply: out };
}
