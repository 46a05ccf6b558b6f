import type { ComponentSpec, RunConfig } from '@skillrl/core';
import { redactSecrets } from '@skillrl/core';

/** Where a kind of call goes, for error messages: the endpoint (credentials redacted) and the config field. */
export interface EndpointInfo {
  /** `http://host:8000/v1`, several joined by `, `, or a component's name when it has no URL option. */
  endpoint: string;
  /** The config path that sets it (`agent.options.baseURL`), when there is one. */
  field?: string;
}

const CREDENTIAL_PARAM = /key|token|secret|password|passwd|sig|auth|credential/i;

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

function carriesCredentials(url: URL): boolean {
  return (
    Boolean(url.username || url.password) ||
    [...url.searchParams.keys()].some((k) => CREDENTIAL_PARAM.test(k))
  );
}

/**
 * A URL as it may be shown or stored: user and password, and query parameters named like credentials,
 * replaced by `[REDACTED]`; then every registered secret. A URL without credentials is left as written, and
 * text that is not a URL is only run through `redactSecrets`.
 */
export function redactUrl(raw: string): string {
  const url = parseUrl(raw);
  if (!url || !carriesCredentials(url)) return redactSecrets(raw);
  const auth = url.username || url.password ? '[REDACTED]@' : '';
  const params = [...url.searchParams.entries()].map(([k, v]) =>
    CREDENTIAL_PARAM.test(k) ? `${k}=[REDACTED]` : `${k}=${v}`,
  );
  const query = params.length > 0 ? `?${params.join('&')}` : '';
  return redactSecrets(`${url.protocol}//${auth}${url.host}${url.pathname}${query}`);
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

/**
 * A deep copy with every URL that carries credentials redacted (`redactUrl`): what the run directory gets
 * of a config or an event, beside core's `redactObject` for secret-named fields. A credential inside a base
 * URL is therefore not kept on disk; a resume gives it again with `--set`.
 */
export function redactUrlsIn<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return URL_LIKE.test(v) ? redactUrl(v) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[k] = walk(inner);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

function optionsOf(spec: ComponentSpec | undefined): Record<string, unknown> | undefined {
  if (!spec || typeof spec === 'string') return undefined;
  const options = spec.options;
  return options && typeof options === 'object' ? (options as Record<string, unknown>) : undefined;
}

function nameOf(spec: ComponentSpec | undefined): string {
  if (!spec) return 'none';
  if (typeof spec === 'string') return spec;
  return spec.package ?? spec.name ?? 'component';
}

function urlsAt(options: Record<string, unknown> | undefined, prefix: string): EndpointInfo | undefined {
  if (!options) return undefined;
  const list = options.baseURLs;
  if (Array.isArray(list) && list.length > 0) {
    return { endpoint: list.map((u) => redactUrl(String(u))).join(', '), field: `${prefix}.baseURLs` };
  }
  if (typeof options.baseURL === 'string') {
    return { endpoint: redactUrl(options.baseURL), field: `${prefix}.baseURL` };
  }
  return undefined;
}

/** The task model's endpoint (`agent`), where rollouts' model calls go. */
export function rolloutEndpoint(config: RunConfig): EndpointInfo {
  const found = urlsAt(optionsOf(config.agent), 'agent.options');
  if (found) return found;
  const name = nameOf(config.agent);
  // The openai agent without a baseURL talks to the openai client's default.
  if (name === 'openai') return { endpoint: 'https://api.openai.com/v1', field: 'agent.options.baseURL' };
  return { endpoint: `the agent "${name}"` };
}

/** The skill editor's endpoint (`evolve.generator`), where an LLM editor's calls go. */
export function editorEndpoint(config: RunConfig): EndpointInfo {
  const spec = config.evolve?.generator;
  const options = optionsOf(spec);
  const model = options?.model;
  const nested =
    model && typeof model === 'object'
      ? urlsAt(model as Record<string, unknown>, 'evolve.generator.options.model')
      : undefined;
  return (
    nested ?? urlsAt(options, 'evolve.generator.options') ?? { endpoint: `the editor "${nameOf(spec)}"` }
  );
}
