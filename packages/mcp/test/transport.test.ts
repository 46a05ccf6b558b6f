// The streamable-HTTP side, against the MCP spec's transport rules (revision 2025-11-25, the SDK's latest:
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http): sessions, 404s,
// the Origin check, closing; and the handler's failures as tool results.
import { request } from 'node:http';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { Task, ToolDefinition } from '@skillrl/core';
import { createHouseholdAdapter } from '@skillrl/task-household';
import { afterEach, describe, expect, it } from 'vitest';
import { type ActResult, type EpisodeHandler, startTaskMcpServer, type TaskMcpServer } from '../src/index.js';
import { type Connected, connect, initializeMessage, POST_HEADERS, textOf } from './mcp-client.js';
import { createStepBridge } from './step-bridge.js';

const household = createHouseholdAdapter();
const servers: TaskMcpServer[] = [];
const clients: Connected[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.client.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handlers: Record<string, EpisodeHandler>): Promise<TaskMcpServer> {
  const server = await startTaskMcpServer({ episode: (token) => handlers[token] });
  servers.push(server);
  return server;
}

async function open(server: TaskMcpServer, token: string): Promise<Connected> {
  const connected = await connect(server.urlFor(token));
  clients.push(connected);
  return connected;
}

async function householdHandler(id = 'h'): Promise<EpisodeHandler> {
  const [task] = await household.load({ split: 'valid_seen', limit: 1, seed: 3 });
  return createStepBridge(household, task as Task, id);
}

/** A raw POST of JSON-RPC messages, as a client without an SDK would send them. */
function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body) });
}

/** Opens a session by hand; returns its id. */
async function initialize(url: string): Promise<string> {
  const response = await post(url, initializeMessage());
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id') as string;
  await response.text();
  const ack = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'Mcp-Session-Id': id },
  );
  expect(ack.status).toBe(202);
  return id;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('sessions (spec: session management)', () => {
  it('spec: the server assigns Mcp-Session-Id on the InitializeResult; the response is application/json or text/event-stream', async () => {
    const server = await serve({ t: await householdHandler() });
    const response = await post(server.urlFor('t'), initializeMessage());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(application\/json|text\/event-stream)/);
    const sessionId = response.headers.get('mcp-session-id');
    // Spec: the session ID SHOULD be globally unique and cryptographically secure; visible ASCII only.
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    const body = (await response.json()) as {
      id: number;
      result: { protocolVersion: string; serverInfo: object };
    };
    expect(body.id).toBe(1);
    expect(body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(body.result.serverInfo).toMatchObject({ name: 'skillrl' });
    expect(server.stats()).toEqual({ sessions: 1, episodes: 1 });
  });

  it('a plain-HTTP client can call a tool with the session id and the negotiated MCP-Protocol-Version', async () => {
    const handler = await householdHandler();
    const server = await serve({ t: handler });
    const url = server.urlFor('t');
    const sessionId = await initialize(url);
    const response = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'observe', arguments: {} } },
      { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { content: { text: string }[] } };
    expect(body.result.content[0]?.text).toBe(await handler.initialObservation());
  });

  it('spec: a request without Mcp-Session-Id other than initialize → 400 Bad Request', async () => {
    const server = await serve({ t: await householdHandler() });
    const response = await post(server.urlFor('t'), { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('Mcp-Session-Id') },
    });
  });

  it('spec: a session id the server does not have → 404 Not Found, also one of another episode', async () => {
    const server = await serve({ a: await householdHandler('a'), b: await householdHandler('b') });
    const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const unknown = await post(server.urlFor('a'), listTools, { 'Mcp-Session-Id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });

    const sessionOfB = await initialize(server.urlFor('b'));
    const crossed = await post(server.urlFor('a'), listTools, {
      'Mcp-Session-Id': sessionOfB,
      'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION,
    });
    expect(crossed.status).toBe(404);
  });

  it('spec: DELETE with the session id ends the session; later requests with it → 404', async () => {
    const server = await serve({ t: await householdHandler() });
    const { transport } = await open(server, 't');
    const sessionId = transport.sessionId as string;
    expect(server.stats().sessions).toBe(1);
    await transport.terminateSession();
    expect(server.stats()).toEqual({ sessions: 0, episodes: 1 });
    const after = await post(
      server.urlFor('t'),
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION },
    );
    expect(after.status).toBe(404);
    // The episode itself lives on: a new session may open (spec: the client re-initializes after a 404).
    const { client } = await open(server, 't');
    await expect(client.callTool({ name: 'observe' })).resolves.toMatchObject({
      structuredContent: { done: false },
    });
  });

  it('spec: GET with the session id opens the SSE stream; closeEpisode ends it', async () => {
    const server = await serve({ t: await householdHandler() });
    const url = server.urlFor('t');
    const sessionId = await initialize(url);
    const controller = new AbortController();
    const stream = await fetch(url, {
      headers: {
        Accept: 'text/event-stream',
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION,
      },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reading = stream.text();
    await server.closeEpisode('t');
    // The stream ends when the session does (no hang).
    await expect(reading).resolves.toBeTypeOf('string');
  });
});

describe('episodes by token', () => {
  it('an unknown token → 404 with a JSON body saying "unknown or ended episode"', async () => {
    const server = await serve({});
    const response = await post(server.urlFor('nobody'), initializeMessage());
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('unknown or ended episode');
    expect(body.error.message).toContain('"nobody"');

    const error = await rejection(connect(server.urlFor('nobody')));
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(404);
    expect(server.stats()).toEqual({ sessions: 0, episodes: 0 });
  });

  it('tokens travel URL-encoded in the path', async () => {
    const handler = await householdHandler();
    const server = await serve({ 'run 1/episode#7': handler });
    expect(server.urlFor('run 1/episode#7')).toMatch(/\/episodes\/run%201%2Fepisode%237\/mcp$/);
    const { client } = await open(server, 'run 1/episode#7');
    expect(textOf(await client.callTool({ name: 'observe' }))).toBe(await handler.initialObservation());
  });

  it('closeEpisode closes the session: later calls, and a new initialize for the token, → 404', async () => {
    const server = await serve({ t: await householdHandler() });
    const { client } = await open(server, 't');
    await open(server, 't'); // a second session of the same episode
    expect(server.stats()).toEqual({ sessions: 2, episodes: 1 });
    await server.closeEpisode('t');
    expect(server.stats()).toEqual({ sessions: 0, episodes: 0 });

    const error = await rejection(client.callTool({ name: 'observe' }));
    expect((error as StreamableHTTPError).code).toBe(404);
    // Spec: after a 404 the client starts a new session; an ended episode refuses it too.
    const again = await post(server.urlFor('t'), initializeMessage());
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain(
      'unknown or ended episode',
    );
  });

  it('other paths → 404 naming the endpoint; other methods → 405', async () => {
    const server = await serve({ t: await householdHandler() });
    const base = new URL(server.urlFor('t')).origin;
    const elsewhere = await post(`${base}/mcp`, initializeMessage());
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).toContain('/episodes/<token>/mcp');
    const put = await fetch(server.urlFor('t'), { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});

describe('security (spec: transports, security warning)', () => {
  it('binds to 127.0.0.1', async () => {
    const server = await serve({});
    expect(new URL(server.urlFor('t')).hostname).toBe('127.0.0.1');
  });

  it("an Origin header other than the server's own → 403 Forbidden; its own origin is served", async () => {
    const server = await serve({ t: await householdHandler() });
    const url = server.urlFor('t');
    const foreign = await post(url, initializeMessage(), { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringContaining('Origin') },
    });
    const own = await post(url, initializeMessage(), { Origin: new URL(url).origin });
    expect(own.status).toBe(200);
  });

  it('a Host header that is not this server (DNS rebinding) → 403', async () => {
    const server = await serve({ t: await householdHandler() });
    const url = new URL(server.urlFor('t'));
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...POST_HEADERS, Host: `attacker.example:${url.port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(initializeMessage()));
    });
    expect(status).toBe(403);
  });
});

describe("the handler's failures are tool results (isError), not protocol errors", () => {
  it('an action after the episode is over, a missing argument, a throwing task tool', async () => {
    const failing: ToolDefinition = {
      name: 'lookup',
      description: 'Looks something up in a backend that is down in this test.',
      parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    };
    let over = false;
    const handler: EpisodeHandler = {
      episodeId: 'e',
      tools: [failing],
      initialObservation: () => 'Say anything.',
      async act(action): Promise<ActResult> {
        if (over) throw new Error('the episode is over: no more actions');
        over = true;
        return { observation: `You said ${action}.`, done: true };
      },
      async callTool(name) {
        throw new Error(`${name}: the backend is down`);
      },
      submit: async () => {
        throw new Error('the episode is over: no more actions');
      },
      admissibleActions: () => undefined,
    };
    const server = await serve({ e: handler });
    const { client } = await open(server, 'e');

    const done = await client.callTool({ name: 'act', arguments: { action: 'hello' } });
    expect(textOf(done)).toBe('You said hello.\n\n[episode done]');
    const again = await client.callTool({ name: 'act', arguments: { action: 'hello again' } });
    expect(again).toMatchObject({ isError: true });
    expect(textOf(again)).toBe('the episode is over: no more actions');
    expect(again.structuredContent).toBeUndefined();

    const missing = await client.callTool({ name: 'act', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('the argument "action" must be a string, got nothing');

    const tool = await client.callTool({ name: 'lookup', arguments: { key: 'x' } });
    expect(tool.isError).toBe(true);
    expect(textOf(tool)).toBe('lookup: the backend is down');

    // A tool that does not exist is the protocol's error (-32602), not the episode's.
    const unknown = await rejection(client.callTool({ name: 'teleport', arguments: {} }));
    expect(unknown).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: teleport'),
    });
  });

  it('a task tool named like a built-in is refused when the episode opens, naming the tool', async () => {
    const handler = await householdHandler();
    const clash = {
      ...handler,
      tools: [{ name: 'act', description: 'clash', parameters: { type: 'object' } }],
    } as EpisodeHandler;
    const server = await serve({ t: clash });
    const response = await post(server.urlFor('t'), initializeMessage());
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      '"act" is the name of a built-in episode tool',
    );
  });
});

describe('closing', () => {
  it('close() ends open sessions and SSE streams, and refuses new connections', async () => {
    const handler = await householdHandler();
    const server = await startTaskMcpServer({ episode: (t) => (t === 'c' ? handler : undefined) });
    const url = server.urlFor('c');
    const { client } = await connect(url);
    await client.callTool({ name: 'observe' });
    const sessionId = await initialize(url);
    const stream = await fetch(url, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId },
    });
    expect(stream.status).toBe(200);
    const reading = stream.text();
    await server.close();
    await expect(reading).resolves.toBeTypeOf('string');
    expect(server.stats()).toEqual({ sessions: 0, episodes: 0 });
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
    await client.close();
  });

  it('checks its options', async () => {
    await expect(startTaskMcpServer({} as never)).rejects.toThrow(/options\.episode/);
    await expect(startTaskMcpServer({ episode: () => undefined, port: -1 })).rejects.toThrow(/options\.port/);
    await expect(startTaskMcpServer({ episode: () => undefined, name: ' ' })).rejects.toThrow(
      /options\.name/,
    );
  });
});
