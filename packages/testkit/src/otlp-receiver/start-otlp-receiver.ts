import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { InvalidArgumentError } from '@skillrl/core';
import { decodeJsonTraces } from './decode-json.js';
import { decodeProtobufTraces } from './decode-protobuf.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { JSON_TYPE, PROTOBUF_TYPE, sendFailure, sendSuccess } from './otlp-responses.js';
import type { OtlpReceiver, OtlpReceiverOptions, ReceivedExport, ReceivedSpan } from './types.js';

/** "It is RECOMMENDED to use 20 MiB as the default limit" (OTLP/HTTP Request). */
const DEFAULT_MAX_BODY = 20 * 1024 * 1024;

class TooLarge extends Error {}

/** The body, stopped as soon as it passes `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (part: Buffer) => {
      size += part.length;
      if (size > limit) {
        reject(new TooLarge());
        req.resume();
        return;
      }
      parts.push(part);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * A real OTLP/HTTP trace receiver on 127.0.0.1 (`POST /v1/traces`), for tests of code that exports traces:
 * point `OTEL_EXPORTER_OTLP_ENDPOINT` at `url` and read back `spans()`, decoded into plain objects with
 * attributes as a flat record. It follows opentelemetry-proto's docs/specification.md (OTLP/HTTP): both the
 * binary protobuf and the JSON encodings on one port, chosen by Content-Type; gzip or no compression; a
 * 20 MiB body limit (413 past it); 400 with a `Status` for a body that does not decode; the response in the
 * request's encoding. Nothing is forwarded or stored beyond the process.
 */
export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  if (!(Number.isInteger(maxBody) && maxBody > 0)) {
    throw new InvalidArgumentError('options.maxBodyBytes', `expected an integer > 0, got ${maxBody}`);
  }
  const received: ReceivedExport[] = [];
  const spans: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  let posts = 0;

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/v1/traces') {
      // A traces receiver: metrics (/v1/metrics), logs (/v1/logs) and profiles are not served here.
      sendFailure(res, 404, `no OTLP endpoint at ${path}; this receiver serves POST /v1/traces`);
      req.resume();
      return;
    }
    if (req.method !== 'POST') {
      sendFailure(res, 405, 'OTLP/HTTP sends telemetry with POST', 'json', { allow: 'POST' });
      req.resume();
      return;
    }
    const type = mediaType(req.headers['content-type']);
    const encoding = type === JSON_TYPE ? 'json' : type === PROTOBUF_TYPE ? 'protobuf' : undefined;
    if (!encoding) {
      sendFailure(res, 415, `Content-Type must be ${PROTOBUF_TYPE} or ${JSON_TYPE}, got "${type}"`);
      req.resume();
      return;
    }
    const compression = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (compression !== 'gzip' && compression !== 'identity') {
      sendFailure(res, 415, `Content-Encoding must be gzip or none, got "${compression}"`, encoding);
      req.resume();
      return;
    }
    const index = posts++;
    readBody(req, maxBody).then(
      (raw) => {
        let body: Buffer;
        try {
          body = compression === 'gzip' ? gunzipSync(raw, { maxOutputLength: maxBody }) : raw;
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === 'ERR_BUFFER_TOO_LARGE') {
            sendFailure(res, 413, `the body is larger than ${maxBody} bytes once decompressed`, encoding);
          } else
            sendFailure(res, 400, `the gzip body does not decompress: ${(error as Error).message}`, encoding);
          return;
        }
        const failure = options.failWith?.(index);
        if (failure !== undefined) {
          sendFailure(res, failure, `failWith(${index}) answered ${failure}`, encoding);
          return;
        }
        let decoded: ReceivedSpan[];
        try {
          decoded =
            encoding === 'json' ? decodeJsonTraces(body.toString('utf8')) : decodeProtobufTraces(body);
        } catch (error) {
          // Bad data is the sender's (400, not retried); anything else is this receiver's fault (500).
          if (error instanceof OtlpDecodeError) sendFailure(res, 400, error.message, encoding);
          else sendFailure(res, 500, `the receiver failed: ${(error as Error).message}`, encoding);
          return;
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) {
          if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        }
        received.push({ encoding, headers, body: new Uint8Array(body), spans: decoded });
        spans.push(...decoded);
        sendSuccess(res, encoding);
        for (const wake of [...waiters]) wake();
      },
      (error) => {
        if (error instanceof TooLarge)
          sendFailure(res, 413, `the body is larger than ${maxBody} bytes`, encoding);
        else res.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    port,
    spans: () => [...spans],
    exports: () => [...received],
    waitForSpans(done, timeoutMs = 10_000) {
      if (done([...spans])) return Promise.resolve([...spans]);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done([...spans])) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...spans]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`waitForSpans: not satisfied after ${timeoutMs} ms (${spans.length} spans received)`),
          );
        }, timeoutMs);
        waiters.add(check);
      });
    },
    clear() {
      received.length = 0;
      spans.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Exporters keep their connections alive; they would hold the close open.
        server.closeAllConnections();
      }),
  };
}
