import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';

/** The program: the real `openai` client pointed at the proxy with an episode's token. */
export function programClient(baseURL: string, token: string, options: { maxRetries?: number } = {}): OpenAI {
  return new OpenAI({ baseURL, apiKey: token, maxRetries: options.maxRetries ?? 0, timeout: 20_000 });
}

export interface ScriptedUpstream {
  baseURL: string;
  /** Every request's headers (authorization included) and body, as received. */
  received: { headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

/**
 * A real HTTP server for the few behaviours the testkit's fake cannot show (a stream that stalls after its
 * first chunks, the headers the proxy sends upstream); `handle` writes the answer.
 */
export async function startScriptedUpstream(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<ScriptedUpstream> {
  const received: ScriptedUpstream['received'] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      received.push({ headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One SSE event of a chat-completion chunk. */
export function sseChunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-x',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: null, ...extra }],
  })}\n\n`;
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
