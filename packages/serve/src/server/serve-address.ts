import { isIP } from 'node:net';

/** Whether a host name or address reaches this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || h.startsWith('::ffff:127.');
  return false;
}

/** `host:port` as a URL authority (IPv6 in brackets). */
export function authority(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** The address to open: with the token in it when there is one, so that the printed line is all one needs. */
export function serveUrl(host: string, port: number, token?: string): string {
  return `http://${authority(host, port)}/${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/**
 * The line `skillrl serve` prints once it listens. A token-carrying address is a secret: the line says so,
 * since a terminal's scrollback and shared screens are where such addresses leak.
 */
export function serveCommandLine(url: string, token?: string): string {
  const open = `skillrl serve: open ${url}`;
  return token
    ? `${open}\n  (the address carries the token: share it only with whom may read these runs)`
    : open;
}
