import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { InvalidArgumentError } from '@skillrl/core';
import { HostNeedsTokenError } from '../errors/host-needs-token-error.js';
import { createServeApp, type ServeAppOptions } from './create-serve-app.js';
import { isLoopbackHost, serveUrl } from './serve-address.js';

export interface StartServeOptions extends Omit<ServeAppOptions, 'token'> {
  /** Where to listen. Default `127.0.0.1`: this machine only. Any other address requires `token`. */
  host?: string;
  /** Default 0: a free port, chosen by the system (the URL says which). */
  port?: number;
  /** Required for a non-loopback host; every request must then carry it. At least 16 characters. */
  token?: string;
  /** Aborting it closes the server. */
  signal?: AbortSignal;
}

export interface ServeHandle {
  /** The address to open; it carries the token when there is one. */
  url: string;
  host: string;
  port: number;
  /** Stops listening, ends the live streams and closes every connection. */
  close(): Promise<void>;
}

const MIN_TOKEN = 16;

/**
 * Starts `skillrl serve` over the runs under `dir`: listens on loopback (or `host`, with a token), and
 * resolves once it listens, with the URL to open.
 */
export async function startServe(options: StartServeOptions): Promise<ServeHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError(
      'port',
      `expected an integer from 0 (any free port) to 65535, got ${port}`,
    );
  }
  const { token } = options;
  if (token !== undefined && token.length < MIN_TOKEN) {
    throw new InvalidArgumentError(
      'token',
      `it has ${token.length} characters; use at least ${MIN_TOKEN} (a guessable token on a network is no lock)`,
    );
  }
  if (!isLoopbackHost(host) && !token) throw new HostNeedsTokenError(host);
  if (options.signal?.aborted)
    throw new InvalidArgumentError('signal', 'it was aborted before the server started');
  const serve = createServeApp({ ...options, ...(token ? { token } : {}) });
  const server = createAdaptorServer({ fetch: serve.app.fetch, hostname: host, port });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((done) => {
      serve.close();
      server.close(() => done());
      // Live pages hold their connections open; they are cut, not waited for.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    return closing;
  };
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: serveUrl(host, address.port, token), host, port: address.port, close };
}
