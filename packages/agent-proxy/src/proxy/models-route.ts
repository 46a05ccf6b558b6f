import type { ServerResponse } from 'node:http';
import type { UpstreamTransport } from './upstream-transport.js';

/** The list a program gets when the endpoint cannot list its models: the configured model alone. */
function fallbackList(model: string): string {
  return JSON.stringify({
    object: 'list',
    data: [{ id: model, object: 'model', created: 0, owned_by: 'skillrl' }],
  });
}

/**
 * `GET /v1/models`, passed through from an upstream endpoint; when it fails (an error status, no answer
 * within `timeoutMs`, a body that is not JSON) the program gets the configured model as the only one, since
 * that is what its calls are sent with whatever model they name.
 */
export function answerModels(
  res: ServerResponse,
  transport: UpstreamTransport,
  model: string,
  timeoutMs: number,
): void {
  let answered = false;
  const answer = (status: number, contentType: string, body: Buffer | string) => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const fallback = () => {
    req.destroy();
    answer(200, 'application/json', fallbackList(model));
  };
  const endpoint = transport.pool.acquire();
  const req = transport.open(endpoint, 'GET', '/models', undefined, 'application/json');
  const timer = setTimeout(fallback, timeoutMs);
  req.on('error', fallback);
  req.on('close', () => transport.pool.release(endpoint));
  req.on('response', (up) => {
    const parts: Buffer[] = [];
    up.on('data', (part: Buffer) => parts.push(part));
    up.on('error', fallback);
    up.on('end', () => {
      const body = Buffer.concat(parts);
      const status = up.statusCode ?? 0;
      if (status < 200 || status >= 300) return fallback();
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        return fallback();
      }
      answer(status, up.headers['content-type'] ?? 'application/json', body);
    });
  });
}
