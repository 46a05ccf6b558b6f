import { redactSecrets } from './redact-secrets.js';

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
