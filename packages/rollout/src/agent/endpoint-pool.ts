import { InvalidArgumentError } from '@skillrl/core';

export interface Endpoint<Client> {
  baseURL: string;
  client: Client;
  inFlight: number;
  requests: number;
}

export interface EndpointPool<Client> {
  readonly endpoints: readonly Endpoint<Client>[];
  /** The endpoint with the fewest requests in flight; ties go round-robin. Counts the request as started. */
  acquire(): Endpoint<Client>;
  release(endpoint: Endpoint<Client>): void;
}

/**
 * Balances requests over equivalent servers (a fleet of vLLM replicas, say) by least in-flight requests,
 * which adapts to a slow or overloaded replica without any health checks.
 */
export function createEndpointPool<Client>(
  baseURLs: string[],
  makeClient: (baseURL: string) => Client,
): EndpointPool<Client> {
  if (baseURLs.length === 0) throw new InvalidArgumentError('baseURLs', 'expected at least one base URL');
  const endpoints = baseURLs.map((baseURL) => ({
    baseURL,
    client: makeClient(baseURL),
    inFlight: 0,
    requests: 0,
  }));
  let cursor = 0;
  return {
    endpoints,
    acquire() {
      let best: Endpoint<Client> | undefined;
      for (let k = 0; k < endpoints.length; k++) {
        const candidate = endpoints[(cursor + k) % endpoints.length] as Endpoint<Client>;
        if (!best || candidate.inFlight < best.inFlight) best = candidate;
      }
      cursor = (cursor + 1) % endpoints.length;
      const chosen = best as Endpoint<Client>;
      chosen.inFlight++;
      chosen.requests++;
      return chosen;
    },
    release(endpoint) {
      endpoint.inFlight--;
    },
  };
}
