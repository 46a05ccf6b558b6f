import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '@skillrl/core';
import { createEpisodeServer } from './create-episode-server.js';
import type { EpisodeHandler } from './episode-handler.js';
import { createEpisodeState, type EpisodeState } from './episode-state.js';
import { episodeTools } from './episode-tools.js';

declare const __SKILLRL_MCP_VERSION__: string | undefined;
const VERSION = typeof __SKILLRL_MCP_VERSION__ === 'string' ? __SKILLRL_MCP_VERSION__ : '0.0.0';

export interface TaskMcpServerOptions {
  /**
   * Finds the episode for a token (the URL path's `<token>`); `undefined` for a token that names no live
   * episode, which the server answers with HTTP 404 and a JSON-RPC error saying "unknown or ended episode".
   * Asked once, at the episode's first `initialize`.
   */
  episode(token: string): EpisodeHandler | undefined;
  /** The port, on 127.0.0.1 always. Default 0: a free one. */
  port?: number;
  /** The server name in `initialize`'s `serverInfo`. Default `skillrl`. */
  name?: string;
}

export interface TaskMcpServer {
  /** The streamable-HTTP endpoint of one episode: `http://127.0.0.1:PORT/episodes/<token>/mcp`. */
  urlFor(token: string): string;
  /** Closes the episode's MCP session(s); any later request for the token is answered 404. */
  closeEpisode(token: string): Promise<void>;
  /** Closes every session and the HTTP server. */
  close(): Promise<void>;
  /** Live MCP sessions, and the episodes they belong to. */
  stats(): { sessions: number; episodes: number };
}

/** The largest POST body read (the SDK transport's own default bound). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const ENDPOINT = /^\/episodes\/([^/]+)\/mcp\/?$/;

interface Episode {
  state: EpisodeState;
  tools: Tool[];
  sessions: Set<string>;
}

interface Session {
  token: string;
  transport: StreamableHTTPServerTransport;
  server: Server;
}

class HttpReply extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON-RPC error with no id, as the SDK transport writes its own HTTP-level refusals. */
function reply(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpReply(413, -32000, `Payload Too Large: the body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpReply(400, -32700, 'Parse error: Invalid JSON');
  }
}

function tokenOf(pathname: string): string | undefined {
  const match = ENDPOINT.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/**
 * Serves episodes over MCP's streamable HTTP transport, on 127.0.0.1: `POST`, `GET` (the SSE stream) and
 * `DELETE` at `/episodes/<token>/mcp`. An episode's first `initialize` opens a session (one SDK transport and
 * one MCP server); its `Mcp-Session-Id` must come with every later request, and a session or episode that is
 * not (or no longer) there is answered 404. Every tool call is forwarded to the episode's handler.
 */
export async function startTaskMcpServer(options: TaskMcpServerOptions): Promise<TaskMcpServer> {
  if (typeof options?.episode !== 'function') {
    throw new InvalidArgumentError(
      'options.episode',
      'expected a function from a token to an EpisodeHandler',
    );
  }
  const port = options.port ?? 0;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new InvalidArgumentError(
      'options.port',
      `expected an integer from 0 to 65535, got ${String(port)}`,
    );
  }
  const name = options.name ?? 'skillrl';
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidArgumentError('options.name', 'expected a non-empty string');
  }

  const episodes = new Map<string, Episode>();
  const sessions = new Map<string, Session>();
  // Tokens whose episode was closed: refused even if `options.episode` still knows them, so that a client
  // that re-initializes after a 404 (as the spec tells it to) cannot reopen an ended episode.
  const ended = new Set<string>();
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const forget = (id: string): void => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    episodes.get(session.token)?.sessions.delete(id);
  };

  const isLive = (token: string): boolean =>
    !ended.has(token) && (episodes.has(token) || options.episode(token) !== undefined);

  const openEpisode = (token: string): Episode | undefined => {
    if (ended.has(token)) return undefined;
    const open = episodes.get(token);
    if (open) return open;
    const handler = options.episode(token);
    if (handler === undefined) return undefined;
    const episode: Episode = {
      state: createEpisodeState(handler),
      tools: episodeTools(handler.tools ?? []),
      sessions: new Set(),
    };
    episodes.set(token, episode);
    return episode;
  };

  const unknownEpisode = (token: string) =>
    new HttpReply(
      404,
      -32001,
      `Not Found: unknown or ended episode ${JSON.stringify(token)}; the token names no live episode`,
    );

  async function openSession(
    token: string,
    episode: Episode,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const server = createEpisodeServer(episode.state, episode.tools, { name, version: VERSION });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // One JSON body per request: the episode tools send no progress, and a program without an MCP SDK
      // (plain HTTP) reads the answer directly. The spec lets the server choose JSON or an SSE stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        // The episode may have been closed while this initialize was on its way.
        if (episodes.get(token) !== episode) return;
        sessions.set(id, { token, transport, server });
        episode.sessions.add(id);
      },
      onsessionclosed: (id) => forget(id),
    });
    // Set before `connect`, which chains its own handler after this one.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) forget(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // A refused initialize (a wrong Accept header, say) leaves no session to keep.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Spec, transports § security warning: validate Origin on every request (403 when present and invalid)
    // against DNS rebinding; the Host check closes the same hole for clients that send no Origin.
    const host = req.headers.host;
    if (host === undefined || !allowedHosts.has(host)) {
      throw new HttpReply(403, -32000, `Forbidden: Host ${JSON.stringify(host ?? '')} is not this server`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      throw new HttpReply(403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);
    }
    const url = new URL(req.url ?? '/', `http://${host}`);
    const token = tokenOf(url.pathname);
    if (token === undefined) {
      throw new HttpReply(404, -32000, `Not Found: the MCP endpoint of an episode is /episodes/<token>/mcp`);
    }
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') {
      res.setHeader('Allow', 'GET, POST, DELETE');
      throw new HttpReply(405, -32000, 'Method Not Allowed');
    }
    if (ended.has(token)) throw unknownEpisode(token);
    const body = method === 'POST' ? await readJson(req) : undefined;

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session !== undefined && session.token === token) {
        await session.transport.handleRequest(req, res, body);
        return;
      }
      if (!isLive(token)) throw unknownEpisode(token);
      // Spec, session management: a session the server does not have (ended, or another episode's) → 404,
      // after which the client starts a new session with a fresh initialize.
      throw new HttpReply(404, -32001, 'Session not found');
    }
    if (method === 'POST' && isInitialize(body)) {
      const episode = openEpisode(token);
      if (episode === undefined) throw unknownEpisode(token);
      await openSession(token, episode, req, res, body);
      return;
    }
    if (!isLive(token)) throw unknownEpisode(token);
    // Spec, session management: a server that requires sessions answers a request without one (other than
    // initialize) with 400.
    throw new HttpReply(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpReply) {
        reply(res, error.status, error.code, error.message);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      reply(res, 500, -32603, `Internal error: ${message}`);
    });
  });
  // Spec, transports § security warning: a local server binds to localhost only.
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const actualPort = (http.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${actualPort}`, `localhost:${actualPort}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${actualPort}`, `http://localhost:${actualPort}`]);

  async function closeSessions(token: string): Promise<void> {
    const episode = episodes.get(token);
    episodes.delete(token);
    if (!episode) return;
    const open = [...episode.sessions].map((id) => sessions.get(id)).filter((s) => s !== undefined);
    for (const session of open) forget(session.transport.sessionId as string);
    // `Server.close` closes its transport, which ends the session's open streams.
    await Promise.allSettled(open.map((s) => s.server.close()));
  }

  let closing: Promise<void> | undefined;
  return {
    urlFor(token) {
      if (typeof token !== 'string' || token === '') {
        throw new InvalidArgumentError('token', 'expected a non-empty string');
      }
      return `http://127.0.0.1:${actualPort}/episodes/${encodeURIComponent(token)}/mcp`;
    },
    async closeEpisode(token) {
      ended.add(token);
      await closeSessions(token);
    },
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...episodes.keys()].map((token) => closeSessions(token)));
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })();
      return closing;
    },
    stats: () => ({ sessions: sessions.size, episodes: episodes.size }),
  };
}
