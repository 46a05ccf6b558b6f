import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { isLoopbackHost } from './serve-address.js';

export interface AccessGuardOptions {
  /** When set, every request must carry it (query `token`, `Authorization: Bearer`, or the cookie). */
  token?: string;
}

const sameSecret = (a: string, b: string): boolean => {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
};

/** The cookie that carries the token after the first visit; named by the token so two servers never mix. */
export const tokenCookieName = (token: string): string =>
  `skillrl_serve_${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;

/**
 * Who may read. Without a token the server listens on loopback only, and a request whose Host is not a
 * loopback name is refused: a web page elsewhere could otherwise point a name of its own at 127.0.0.1 (DNS
 * rebinding) and read the runs through the visitor's browser. With a token, every request must carry it;
 * the printed address carries it once, the page then keeps it in an HttpOnly, SameSite=Strict cookie and the
 * address bar drops it.
 */
export function accessGuard(options: AccessGuardOptions): MiddlewareHandler {
  const { token } = options;
  const cookie = token ? tokenCookieName(token) : '';
  return async (c, next) => {
    if (!token) {
      const host = c.req.header('host') ?? '';
      const name = host.replace(/:\d+$/, '');
      if (!isLoopbackHost(name)) {
        return c.text(
          `Refused: this skillrl serve answers loopback addresses only (Host: ${host || 'none'}).`,
          403,
        );
      }
      return next();
    }
    const query = c.req.query('token');
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const fromCookie = getCookie(c, cookie);
    if (query !== undefined && sameSecret(query, token)) {
      if (c.req.method === 'GET' && c.req.path === '/') {
        setCookie(c, cookie, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
        return c.redirect('/', 302);
      }
      return next();
    }
    if (
      (bearer !== undefined && sameSecret(bearer, token)) ||
      (fromCookie !== undefined && sameSecret(fromCookie, token))
    ) {
      return next();
    }
    return c.text(
      'Unauthorized: this skillrl serve needs its token. Open the address it printed (…/?token=…), or send Authorization: Bearer <token>.',
      401,
    );
  };
}
