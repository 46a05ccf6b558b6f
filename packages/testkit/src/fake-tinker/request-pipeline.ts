import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeForwardBackwardRequest, PROTOBUF } from './fake-protobuf.js';
import type { FaultDraw } from './faults.js';
import type { FakeAnswer } from './futures.js';
import { HttpError } from './http-error.js';
import { isObject } from './read-request.js';
import type { RouteHandler } from './routes.js';
import type {
  FakeTinkerOptions,
  FakeTinkerRecordedRequest,
  FakeTinkerRequestInfo,
  FakeTinkerStats,
} from './types.js';

// What every request goes through before its route: the body read (JSON, or SDK 0.25's protobuf
// `forward_backward`), recorded, the API key checked, a fault drawn, and an idempotency key's earlier answer
// replayed; then the answer sent, after `latencyMs`.

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'api-key', 'proxy-authorization']);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

export function createRequestPipeline(parts: {
  options: Pick<FakeTinkerOptions, 'apiKey' | 'echoKeyInErrors' | 'latencyMs' | 'faults'>;
  wire: 'json' | 'protobuf' | 'both';
  record: boolean;
  requests: FakeTinkerRecordedRequest[];
  stats: FakeTinkerStats;
  drawFault: FaultDraw;
  handle: RouteHandler;
}): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { options, wire, record, requests, stats, drawFault, handle } = parts;
  const seen = new Map<string, number>();
  const idempotent = new Map<string, FakeAnswer>();

  return async (req, res) => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const baseRoute = url.pathname.replace(/^\/api\/v1\//, '');
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      return;
    }
    const contentType = String(req.headers['content-type'] ?? '');
    const binary = contentType.includes(PROTOBUF);
    // A protobuf body is identified (idempotency, fault draws) by its bytes.
    const text = binary ? raw.toString('base64') : raw.toString('utf8');
    let route = baseRoute;
    stats.received += 1;
    stats.byRoute[route.startsWith('training_runs/') ? 'training_runs' : route] =
      (stats.byRoute[route.startsWith('training_runs/') ? 'training_runs' : route] ?? 0) + 1;
    let body: Record<string, unknown> | undefined;
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !SECRET_HEADERS.has(k.toLowerCase())),
    );
    const key = req.headers['x-idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : undefined;
    const entry: FakeTinkerRecordedRequest = {
      method,
      route,
      status: 0,
      body: undefined,
      headers,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    };
    if (record) requests.push(entry);
    const send = (
      status: number,
      payload: unknown,
      extra: Record<string, string> = {},
      bytes?: Uint8Array,
    ) => {
      entry.status = status;
      const out = bytes ?? JSON.stringify(payload);
      const write = () => {
        if (res.destroyed) return;
        res.writeHead(status, {
          'content-type': bytes ? PROTOBUF : 'application/json',
          'content-length': typeof out === 'string' ? Buffer.byteLength(out) : out.byteLength,
          ...extra,
        });
        res.end(out);
      };
      if (options.latencyMs) setTimeout(write, options.latencyMs);
      else write();
    };
    try {
      if (binary) {
        // The SDK 0.25's forward_backward (a forward pass too, with forward_only); skyrl-tx reads JSON only.
        if (wire === 'json') {
          throw new HttpError(
            415,
            'this server reads JSON bodies only (like skyrl-tx), not application/x-protobuf',
          );
        }
        if (!(method === 'POST' && baseRoute === 'forward_backward')) {
          throw new HttpError(
            415,
            `POST /api/v1/${baseRoute} takes JSON; only forward_backward takes protobuf`,
          );
        }
        try {
          const decoded = decodeForwardBackwardRequest(raw);
          route = decoded.route;
          body = decoded.body;
          entry.route = route;
        } catch (error) {
          throw new HttpError(
            400,
            `the protobuf ForwardBackwardRequest does not parse: ${(error as Error).message}`,
          );
        }
      } else if (wire === 'protobuf' && (baseRoute === 'forward_backward' || baseRoute === 'forward')) {
        throw new HttpError(
          415,
          `this server reads ${baseRoute} as protobuf only (application/x-protobuf), as SDK 0.25 sends it`,
        );
      } else if (text.length > 0) {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (!isObject(parsed)) throw new HttpError(400, 'expected a JSON object');
          body = parsed;
        } catch (error) {
          if (error instanceof HttpError) throw error;
          throw new HttpError(
            400,
            "the body is not JSON (this server reads the SDK's JSON requests, not protobuf)",
          );
        }
      }
      if (record) entry.body = body;
      if (options.apiKey !== undefined) {
        const given = req.headers['x-api-key'];
        if (given !== options.apiKey) {
          const named = options.echoKeyInErrors && typeof given === 'string' ? ` "${given}"` : '';
          throw new HttpError(401, `Invalid API key${named}; set TINKER_API_KEY`);
        }
      }
      const signature = `${method} ${route} ${text}`;
      const attempt = seen.get(signature) ?? 0;
      seen.set(signature, attempt + 1);
      const info: FakeTinkerRequestInfo = { method, route, body, attempt };
      const fault = drawFault(info);
      if (fault) {
        entry.fault = fault;
        stats.faulted[fault] = (stats.faulted[fault] ?? 0) + 1;
      }
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault === 'rate-limit') {
        const wait = options.faults?.retryAfterMs ?? 5;
        // 0: a 429 that does not say how long to wait (the client's own backoff decides).
        return send(
          429,
          { detail: 'rate limited' },
          wait > 0 ? { 'retry-after-ms': String(wait), 'retry-after': String(Math.ceil(wait / 1000)) } : {},
        );
      }
      if (fault === 'server-error') return send(500, { detail: 'internal server error (planned fault)' });
      if (fault === 'unauthorized') return send(401, { detail: 'Invalid API key' });
      if (fault === 'payment-required') {
        return send(402, { detail: 'Billing: the organization has no credits left (planned fault)' });
      }
      // A retried request with a key seen before gets the first answer again, without doing the work twice.
      const cacheKey = idempotencyKey && method !== 'GET' ? `${route} ${idempotencyKey}` : undefined;
      const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
      let answer: FakeAnswer;
      if (cached) {
        stats.idempotentReplays += 1;
        answer = cached;
      } else {
        answer = await handle(method, route, body, info, entry);
        if (answer.bytes) {
          // Binary answers are not kept for replays (only futures' results are binary, and polls have no key).
          if (fault === 'drop-after-commit') {
            req.socket.destroy();
            return;
          }
          return send(answer.status, undefined, {}, answer.bytes);
        }
        if (cacheKey && answer.status < 500) idempotent.set(cacheKey, answer);
      }
      if (fault === 'drop-after-commit') {
        req.socket.destroy();
        return;
      }
      send(answer.status, answer.body);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      send(status, { detail: message });
    }
  };
}
