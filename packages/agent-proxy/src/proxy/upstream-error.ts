import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.proxy-upstream');

/** Response headers as rollout's `retryAfterMs` reads them. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * An upstream attempt that did not give a usable answer: an error status (`status` set, with the
 * response's headers for `Retry-After`), a timeout (`code` `ETIMEDOUT`), or a broken connection (the socket
 * error's `code`). Shaped so that rollout's `isRetryable` and `retryAfterMs` classify it; the message never
 * holds a secret.
 */
export class ProxyUpstreamError extends SkillrlError {
  readonly status: number | undefined;
  readonly headers: HeaderReader | undefined;
  /** The `failure.code` an episode gets when this is the final error. */
  readonly failureCode: string;
  /** The status the program is answered with when this is the final error. */
  readonly programStatus: number;
  /** The network error code (`ETIMEDOUT`, `ECONNRESET`…) when there is no status. */
  readonly errno: string | undefined;

  constructor(
    message: string,
    details: {
      status?: number;
      headers?: HeaderReader;
      errno?: string;
      failureCode: string;
      cause?: unknown;
    },
  ) {
    super('SKILLRL_PROXY_UPSTREAM', message, { cause: details.cause });
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'ProxyUpstreamError';
    this.status = details.status;
    this.headers = details.headers;
    this.errno = details.errno;
    this.failureCode = details.failureCode;
    this.programStatus = details.status !== undefined && details.status >= 400 ? details.status : 502;
  }

  static override isInstance(error: unknown): error is ProxyUpstreamError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
