import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import { createEndpointPool, type Endpoint, type EndpointPool } from '@skillrl/rollout';

/** One upstream base URL, parsed once. */
export interface UpstreamTarget {
  secure: boolean;
  hostname: string;
  port: string;
  /** The base URL's path without a trailing slash (`/v1`). */
  prefix: string;
}

export interface UpstreamTransport {
  readonly pool: EndpointPool<UpstreamTarget>;
  /**
   * Opens a request to `endpoint` at `path` (under its base URL) with the real key; the body, if any, is
   * sent at once. The caller listens for `response` and `error`.
   */
  open(
    endpoint: Endpoint<UpstreamTarget>,
    method: 'GET' | 'POST',
    path: string,
    body: Buffer | undefined,
    accept: string,
  ): ClientRequest;
  /** Closes the keep-alive sockets. */
  destroy(): void;
}

function targetOf(baseURL: string): UpstreamTarget {
  const url = new URL(baseURL);
  return {
    secure: url.protocol === 'https:',
    // `URL` keeps IPv6 hosts in brackets; `http.request` wants them bare.
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port,
    prefix: url.pathname.replace(/\/+$/, ''),
  };
}

/**
 * Requests to the upstream endpoints over `node:http(s)` with keep-alive agents, the transport rollout's
 * `createHttpFetch` uses for the same reason: a socket per concurrent call, reused call after call, with
 * none of the WHATWG stream machinery in between, so the proxy can pipe a stream chunk by chunk. Bodies go
 * out uncompressed (`accept-encoding: identity`) so that they can be recorded as they pass.
 */
export function createUpstreamTransport(baseURLs: string[], apiKey: string): UpstreamTransport {
  const agentOptions = {
    keepAlive: true,
    maxSockets: Number.POSITIVE_INFINITY,
    maxFreeSockets: 1024,
    scheduling: 'lifo' as const,
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const pool = createEndpointPool(baseURLs, targetOf);
  const authorization = `Bearer ${apiKey}`;
  return {
    pool,
    open(endpoint, method, path, body, accept) {
      const target = endpoint.client;
      const headers: http.OutgoingHttpHeaders = {
        authorization,
        accept,
        'accept-encoding': 'identity',
        'user-agent': 'skillrl-agent-proxy',
      };
      if (body) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = body.length;
      }
      const req = (target.secure ? https : http).request({
        hostname: target.hostname,
        ...(target.port ? { port: target.port } : {}),
        path: `${target.prefix}${path}`,
        method,
        headers,
        agent: target.secure ? agents.https : agents.http,
      });
      req.end(body);
      return req;
    },
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
