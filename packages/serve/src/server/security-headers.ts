/**
 * The Content-Security-Policy of every response. Scripts and styles come from this server only and never
 * inline; Trusted Types with no policy make any string-to-HTML sink (`innerHTML`…) throw, so run content (a
 * SKILL.md, an observation) cannot become markup even through a mistake in the page's code. No frames, no
 * forms, no base-URI tricks, and requests go back to this server alone.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** Headers set on every response. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The first address carries the token: no page of this server may send it on as a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
