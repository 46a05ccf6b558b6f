import type { ServerResponse } from 'node:http';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

export const JSON_TYPE = 'application/json';
export const PROTOBUF_TYPE = 'application/x-protobuf';

/**
 * "The server MUST use the same Content-Type in the response as it received in the request": an empty
 * `ExportTraceServiceResponse` (no `partial_success`: "The server MUST leave the partial_success field
 * unset in case of a successful response"), `{}` in JSON and zero bytes in protobuf.
 */
export function sendSuccess(res: ServerResponse, encoding: 'json' | 'protobuf'): void {
  const body = encoding === 'json' ? Buffer.from('{}') : Buffer.alloc(0);
  res.writeHead(200, {
    'content-type': encoding === 'json' ? JSON_TYPE : PROTOBUF_TYPE,
    'content-length': body.length,
  });
  res.end(body);
}

/**
 * A failure: "The response body for all HTTP 4xx and HTTP 5xx responses MUST be a Protobuf-encoded Status
 * message", in the request's encoding (JSON when the request's was not one the receiver knows). Only
 * `message` is set: the spec does not use `Status.code`, and `details` is left empty (see the test).
 */
export function sendFailure(
  res: ServerResponse,
  status: number,
  message: string,
  encoding: 'json' | 'protobuf' = 'json',
  headers: Record<string, string> = {},
): void {
  const body =
    encoding === 'json'
      ? Buffer.from(JSON.stringify({ message }))
      : Buffer.from(new BinaryWriter().tag(2, WireType.LengthDelimited).string(message).finish());
  res.writeHead(status, {
    ...headers,
    'content-type': encoding === 'json' ? JSON_TYPE : PROTOBUF_TYPE,
    'content-length': body.length,
  });
  res.end(body);
}
