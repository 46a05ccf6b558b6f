/**
 * The key a page is stored and looked up under: WHATWG URL parsing (scheme and host lower-cased, default
 * port dropped, `%` escapes normalised), no `#fragment`, and no trailing `/` on a path other than the root,
 * so `https://A.org/x/#top` and `https://a.org/x` are one page. The query is kept: `?id=2` is another page.
 * `undefined` for a string that is not an absolute http(s) URL.
 */
export function normalizeUrl(url: string, base?: string): string | undefined {
  let parsed: URL;
  try {
    parsed = base === undefined ? new URL(url.trim()) : new URL(url.trim(), base);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  parsed.hash = '';
  if (parsed.pathname.length > 1 && parsed.pathname.endsWith('/')) {
    parsed.pathname = parsed.pathname.replace(/\/+$/, '') || '/';
  }
  return parsed.href;
}

/** The same page over http and https, and with or without `www.`: tried when the exact key is not stored. */
export function urlVariants(key: string): string[] {
  const url = new URL(key);
  const hosts = url.hostname.startsWith('www.')
    ? [url.hostname, url.hostname.slice(4)]
    : [url.hostname, `www.${url.hostname}`];
  const out: string[] = [];
  for (const protocol of [url.protocol, url.protocol === 'https:' ? 'http:' : 'https:']) {
    for (const host of hosts) {
      const v = new URL(key);
      v.protocol = protocol;
      v.hostname = host;
      if (v.href !== key) out.push(v.href);
    }
  }
  return out;
}
