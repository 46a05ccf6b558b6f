/** GET a JSON endpoint of this server; throws with the server's own message on an error status. */
export async function getJson(path, params = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) query.append(k, String(x));
    else if (v !== undefined && v !== null && v !== '') query.set(k, String(v));
  }
  const q = query.toString();
  const response = await fetch(`${path}${q ? `?${q}` : ''}`, { headers: { accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

/**
 * The server's stream of changes (server-sent events): `runs` when the set of runs changed, `run` with a
 * run's new row when it did. The browser reconnects by itself when the connection drops.
 */
export function connectLive(handlers) {
  const source = new EventSource('/api/live');
  source.addEventListener('ready', () => handlers.status?.('live'));
  source.addEventListener('runs', (e) => handlers.runs?.(JSON.parse(e.data)));
  source.addEventListener('run', (e) => handlers.run?.(JSON.parse(e.data)));
  source.addEventListener('error', () => handlers.status?.('reconnecting…'));
  return source;
}
