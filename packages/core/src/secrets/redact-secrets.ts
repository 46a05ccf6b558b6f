// Secrets are redacted where text leaves the process (errors, logs, run directories), so a key passed in
// a config or echoed back by a server can never be written out by accident.

const registered = new Set<string>();

/** Values shorter than this are not registered: redacting them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 8;

const PATTERNS: RegExp[] = [
  // OpenAI-style and similar provider keys.
  /\b(?:sk|rk|pk)-[A-Za-z0-9_-]{8,}/g,
  // Authorization headers.
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  // key=value or "key": "value" forms for names that carry credentials.
  /((?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret|password|passwd)["']?\s*[:=]\s*["']?)[^"'\s,&}]+/gi,
];

/** Adds a value (an API key read from config or the environment) to the set that is always redacted. */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) registered.add(value);
}

/** Replaces registered secrets and anything shaped like a credential with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of registered) {
    if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
  }
  out = out.replace(PATTERNS[0]!, '[REDACTED]');
  out = out.replace(PATTERNS[1]!, '$1 [REDACTED]');
  out = out.replace(PATTERNS[2]!, '$1[REDACTED]');
  return out;
}

const SECRET_KEY =
  /^(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|authorization|secret|password|passwd)$/i;

/**
 * A deep copy of a config-like value with secret-named fields replaced and secret-shaped strings
 * redacted; used before a config is written to a run directory.
 */
export function redactObject<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecrets(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        out[k] = SECRET_KEY.test(k) && inner != null && inner !== '' ? '[REDACTED]' : walk(inner);
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
