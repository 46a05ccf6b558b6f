import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRng, InvalidArgumentError, type Rng } from '@skillrl/core';
import { buildCompletion, buildStreamChunks } from './build-completion.js';
import { normalizeReply } from './normalize-reply.js';
import {
  ENDPOINT_FAULT_KINDS,
  FAULT_KINDS,
  type FakeChatRequest,
  type FakeOpenAIOptions,
  type FakeOpenAIServer,
  type FakeOpenAIStats,
  type FakeReply,
  type FaultKind,
  type RecordedRequest,
} from './types.js';

const ALL_FAULT_KINDS: readonly FaultKind[] = [...FAULT_KINDS, ...ENDPOINT_FAULT_KINDS];

const SECRET_HEADERS = new Set(['authorization', 'api-key', 'x-api-key', 'proxy-authorization']);

function validateOptions(options: FakeOpenAIOptions): void {
  const { latencyMs, faults } = options;
  const okMs = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (latencyMs !== undefined) {
    const ok = Array.isArray(latencyMs)
      ? latencyMs.length === 2 && okMs(latencyMs[0]) && okMs(latencyMs[1]) && latencyMs[0] <= latencyMs[1]
      : okMs(latencyMs);
    if (!ok) {
      throw new InvalidArgumentError(
        'options.latencyMs',
        `expected a number >= 0 or a [min, max] pair with 0 <= min <= max, got ${JSON.stringify(latencyMs)}`,
      );
    }
  }
  if (faults?.rate !== undefined && !(faults.rate >= 0 && faults.rate <= 1)) {
    throw new InvalidArgumentError(
      'options.faults.rate',
      `expected a probability in [0, 1], got ${faults.rate}`,
    );
  }
  for (const kind of faults?.kinds ?? []) {
    if (!ALL_FAULT_KINDS.includes(kind)) {
      throw new InvalidArgumentError(
        'options.faults.kinds',
        `unknown fault "${kind}"; use ${ALL_FAULT_KINDS.join(', ')}`,
      );
    }
  }
  if (faults?.kinds && faults.kinds.length === 0) {
    throw new InvalidArgumentError(
      'options.faults.kinds',
      'expected at least one fault kind, or leave it out',
    );
  }
  const die = options.dieAtRequest;
  if (die !== undefined && !(Number.isInteger(die) && die >= 0)) {
    throw new InvalidArgumentError(
      'options.dieAtRequest',
      `expected an integer >= 0 (the 0-based index of the first request that finds the server dead), got ${JSON.stringify(die)}`,
    );
  }
  if (options.script && options.script.length === 0 && !options.respond) {
    throw new InvalidArgumentError('options.script', 'expected at least one reply, or pass respond instead');
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

/** Cuts valid tool-call JSON so that `JSON.parse` fails on it, keeping a plausible prefix. */
function corruptArguments(args: string): string {
  const cut = args.slice(0, Math.max(1, Math.ceil(args.length / 2)));
  try {
    JSON.parse(cut);
    return `{"${cut}`;
  } catch {
    return cut;
  }
}

/**
 * Starts a real OpenAI-compatible HTTP server on 127.0.0.1 for tests: `POST /v1/chat/completions`
 * (plain JSON or `stream: true` server-sent events, tools, log-probs) and `GET /v1/models`, with seeded
 * latency and fault injection. Fake token ids are returned in `choices[i].token_ids` (vLLM's field) when the
 * request asks for `logprobs` or `return_token_ids`, and with `return_token_ids` the prompt's ids too
 * (`prompt_token_ids`, from a fake ChatML template: `fakePromptTokenIds`).
 */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  validateOptions(options);
  const seed = options.seed ?? 0;
  const record = options.record ?? true;
  const faults = options.faults ?? {};
  const kinds = faults.kinds ?? [...FAULT_KINDS];
  const rate = faults.rate ?? 0;
  const retryAfterMs = faults.retryAfterMs ?? 1000;
  const models = options.models ?? ['fake-model'];
  const requests: RecordedRequest[] = [];
  const attempts = new Map<string, number>();
  const controllers = new Set<AbortController>();
  const faulted = Object.fromEntries(ALL_FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  let received = 0;
  let completed = 0;
  let aborted = 0;
  let inFlight = 0;
  let scriptCursor = 0;
  let closing = false;
  let dead = false;
  // Set once the server exists: stops listening and drops every open socket, without waiting.
  let kill: () => void = () => {};

  const nextScripted = (): FakeReply | undefined => {
    const script = options.script ?? ['OK'];
    if (scriptCursor >= script.length && options.onScriptEnd === 'error') return undefined;
    const reply = script[scriptCursor % script.length];
    scriptCursor++;
    return reply;
  };

  const latencyFor = (rng: Rng): number => {
    const latency = options.latencyMs ?? 0;
    if (typeof latency === 'number') return latency;
    return latency[0] + rng.float() * (latency[1] - latency[0]);
  };

  async function handleChat(
    req: IncomingMessage,
    res: ServerResponse,
    recorded: RecordedRequest | undefined,
  ) {
    const index = received++;
    if (options.dieAtRequest !== undefined && index >= options.dieAtRequest) {
      dead = true;
      kill();
      req.socket.destroy();
      return;
    }
    inFlight++;
    const controller = new AbortController();
    controllers.add(controller);
    let fault: FaultKind | undefined;
    res.on('close', () => {
      inFlight--;
      controllers.delete(controller);
      if (res.writableFinished) return;
      if (fault !== 'drop') aborted++;
      // Only an unfinished request has anything to stop (a latency sleep, a hang); aborting a finished one
      // would build an AbortError per request for nothing.
      controller.abort();
    });
    const text = await readBody(req);
    if (recorded) recorded.index = index;
    let request: FakeChatRequest;
    try {
      request = JSON.parse(text) as FakeChatRequest;
      if (!request || typeof request !== 'object' || !Array.isArray(request.messages)) {
        throw new Error('messages must be an array');
      }
    } catch (error) {
      if (recorded) recorded.body = text;
      sendJson(
        res,
        400,
        errorBody(`Invalid request body: ${(error as Error).message}`, 'invalid_request_error', null),
      );
      return;
    }
    if (recorded) recorded.body = request;
    const bodyKey = createHash('sha1').update(text).digest('base64');
    const attempt = attempts.get(bodyKey) ?? 0;
    attempts.set(bodyKey, attempt + 1);
    const rng = createRng(`${seed}/${bodyKey}/${attempt}`);
    const context = { index, attempt, signal: controller.signal };
    if (faults.plan) fault = faults.plan({ ...context, request });
    else if (rate > 0 && rng.bernoulli(rate)) fault = rng.pick(kinds);
    if (fault) {
      faulted[fault]++;
      if (recorded) recorded.fault = fault;
    }
    if (fault === 'hang') return;
    await sleep(latencyFor(rng), controller.signal);
    if (controller.signal.aborted) return;

    if (fault === 'rate-limit') {
      sendJson(
        res,
        429,
        errorBody('Rate limit reached (injected fault).', 'rate_limit_error', 'rate_limit_exceeded'),
        {
          'retry-after': String(retryAfterMs / 1000),
          'retry-after-ms': String(retryAfterMs),
        },
      );
      return;
    }
    if (fault === 'server-error') {
      sendJson(res, 500, errorBody('Internal server error (injected fault).', 'server_error', null));
      return;
    }
    if (fault === 'unauthorized') {
      sendJson(
        res,
        401,
        errorBody('Incorrect API key provided (injected fault).', 'invalid_request_error', 'invalid_api_key'),
      );
      return;
    }
    if (fault === 'not-found') {
      sendJson(
        res,
        404,
        errorBody(
          `The model \`${String(request.model)}\` does not exist (injected fault).`,
          'invalid_request_error',
          'model_not_found',
        ),
      );
      return;
    }
    if (fault === 'bad-gateway-html') {
      const page =
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
      res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
      res.end(page);
      return;
    }
    if (fault === 'no-choices' || fault === 'missing-choices') {
      const body: Record<string, unknown> = {
        id: `chatcmpl-fake-${index}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: String(request.model ?? models[0]),
        ...(fault === 'no-choices' ? { choices: [] } : {}),
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      };
      sendJson(res, 200, body);
      return;
    }
    if (fault === 'non-json') {
      const text = 'upstream answered something that is not JSON (injected fault)';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }

    let reply: FakeReply | undefined;
    try {
      reply = options.respond ? await options.respond(request, context) : nextScripted();
    } catch (error) {
      if (!res.headersSent && !controller.signal.aborted) {
        sendJson(res, 500, errorBody(`respond() threw: ${(error as Error).message}`, 'server_error', null));
      }
      return;
    }
    if (controller.signal.aborted) return;
    if (reply === undefined) {
      sendJson(
        res,
        500,
        errorBody('The fake server script is exhausted.', 'server_error', 'script_exhausted'),
      );
      return;
    }
    const normalized = normalizeReply(reply, request);
    if (fault === 'malformed-tool-call') {
      const calls = normalized.toolCalls.length
        ? normalized.toolCalls
        : [
            {
              name: request.tools?.[0]?.function.name ?? 'act',
              arguments: JSON.stringify({ action: normalized.content }),
            },
          ];
      normalized.toolCalls = calls.map((call) => ({
        name: call.name,
        arguments: corruptArguments(call.arguments),
      }));
      normalized.finishReason = 'tool_calls';
    }
    const input = { reply: normalized, request, index, seed };

    if (request.stream === true) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      const events = buildStreamChunks(input).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
      if (fault === 'drop') {
        res.write(events.slice(0, Math.ceil(events.length / 2)).join(''));
        res.socket?.destroy();
        return;
      }
      if (fault === 'truncated-json') {
        const keep = Math.ceil(events.length / 2);
        const cut = events[keep] ?? events[events.length - 1] ?? '';
        res.end(events.slice(0, keep).join('') + cut.slice(0, Math.ceil(cut.length / 2)));
        return;
      }
      res.end(`${events.join('')}data: [DONE]\n\n`);
      if (!fault) completed++;
      return;
    }

    const body = JSON.stringify(buildCompletion(input));
    if (fault === 'drop') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.write(body.slice(0, Math.ceil(body.length / 2)));
      res.socket?.destroy();
      return;
    }
    if (fault === 'truncated-json') {
      const cut = body.slice(0, Math.ceil(body.length / 2));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(cut) });
      res.end(cut);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    if (!fault) completed++;
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let recorded: RecordedRequest | undefined;
    if (record) {
      const headers = { ...req.headers };
      for (const name of SECRET_HEADERS) delete headers[name];
      recorded = { index: -1, method: req.method ?? 'GET', path, headers, body: undefined };
      requests.push(recorded);
    }
    if (closing) {
      sendJson(res, 503, errorBody('The fake server is closing.', 'server_error', null), {
        connection: 'close',
      });
      return;
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      handleChat(req, res, recorded).catch((error: Error) => {
        if (!res.headersSent) sendJson(res, 500, errorBody(error.message, 'server_error', null));
        else res.destroy();
      });
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      req.resume();
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({
          id,
          object: 'model',
          created: 1_700_000_000,
          owned_by: 'skillrl-testkit',
        })),
      });
      return;
    }
    req.resume();
    sendJson(
      res,
      404,
      errorBody(`No route for ${req.method} ${path}.`, 'invalid_request_error', 'not_found'),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Hundreds of clients connect in one burst; the default backlog (511) would refuse some.
    server.listen({ port: options.port ?? 0, host: '127.0.0.1', backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  kill = () => {
    closing = true;
    server.close();
    server.closeAllConnections();
  };
  const url = `http://127.0.0.1:${port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    inFlight: () => inFlight,
    stats: (): FakeOpenAIStats => ({ received, completed, faulted: { ...faulted }, aborted }),
    died: () => dead,
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        closing = true;
        for (const controller of controllers) controller.abort();
        server.close(async () => {
          // Destroyed sockets emit their responses' `close` a tick later; wait so inFlight() reads 0 after close.
          for (let i = 0; inFlight > 0 && i < 100; i++) await new Promise((r) => setImmediate(r));
          resolve();
        });
        // Hanging requests and idle keep-alive sockets would hold `close` open forever.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
