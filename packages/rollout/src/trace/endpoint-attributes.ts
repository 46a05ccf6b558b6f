import { redactSecrets } from '@skillrl/core';

/** Where a model call went, as a span may show it. */
export interface EndpointAttributes {
  /** `server.address`: the host name or IP, IPv6 without brackets. */
  address: string;
  /** `server.port`: the URL's port, else the scheme's default. */
  port: number;
  /** The base URL without user, password, query or fragment: `https://host:8000/v1`. */
  endpoint: string;
}

const known = new Map<string, EndpointAttributes | undefined>();

/**
 * A base URL as span attributes. Built from the URL's parts rather than redacted from its text: user and
 * password (`https://user:key@host`) and the query (`?api-key=…`, as some gateways take keys) are never
 * copied, whatever they are named; registered secrets are then redacted from what is left (a key inside a
 * path). Parsed once per base URL: a run sends thousands of calls to a few.
 */
export function endpointAttributes(baseURL: string): EndpointAttributes | undefined {
  if (known.has(baseURL)) return known.get(baseURL);
  let out: EndpointAttributes | undefined;
  try {
    const url = new URL(baseURL);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    out = {
      address: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      endpoint: redactSecrets(`${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`),
    };
  } catch {
    out = undefined;
  }
  if (known.size >= 256) known.clear();
  known.set(baseURL, out);
  return out;
}
