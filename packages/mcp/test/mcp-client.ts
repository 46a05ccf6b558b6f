// The official SDK client over streamable HTTP, as a program agent would connect with SKILLRL_MCP_URL.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const fixture = (path: string): string =>
  fileURLToPath(new URL(`../test-fixtures/${path}`, import.meta.url));

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

export async function connect(url: string): Promise<Connected> {
  const client = new Client({ name: 'skillrl-mcp-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  const first = content[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error('expected a text block');
  return first.text;
}

/** The headers a streamable-HTTP client sends with a POST (spec: Accept lists both content types). */
export const POST_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

export const initializeMessage = (id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-fetch', version: '0.0.0' },
  },
});
