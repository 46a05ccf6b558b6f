import { SkillrlError } from '@skillrl/core';

const API = Symbol.for('skillrl.error.tinker-api');
const FAILED = Symbol.for('skillrl.error.tinker-request-failed');
const TIMEOUT = Symbol.for('skillrl.error.tinker-future-timeout');

const marked = (error: unknown, symbol: symbol) =>
  typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[symbol] === true;

/**
 * An HTTP call to the Tinker API failed for good: a status that is not worth repeating (400, 401, 404…), or
 * the retry budget ran out (429, 5xx, connection errors). The message names the route, the status, the
 * server's detail and the attempts; API keys are redacted (`SkillrlError`).
 */
export class TinkerApiError extends SkillrlError {
  readonly route: string;
  readonly status: number | undefined;
  readonly attempts: number;
  readonly retryable: boolean;

  constructor(
    message: string,
    details: { route: string; status?: number; attempts: number; retryable: boolean; cause?: unknown },
  ) {
    super('SKILLRL_TINKER_API', message, { cause: details.cause });
    Object.defineProperty(this, API, { value: true });
    this.name = 'TinkerApiError';
    this.route = details.route;
    this.status = details.status;
    this.attempts = details.attempts;
    this.retryable = details.retryable;
  }

  static override isInstance(error: unknown): error is TinkerApiError {
    return marked(error, API);
  }
}

/**
 * The server accepted a request but could not carry it out: `retrieve_future` answered a
 * `RequestFailedResponse` (`category`: `user` for a request that cannot work as sent, `server`, `unknown`).
 */
export class TinkerRequestFailedError extends SkillrlError {
  readonly requestId: string;
  readonly route: string;
  readonly category: string;

  constructor(message: string, details: { requestId: string; route: string; category: string }) {
    super('SKILLRL_TINKER_REQUEST_FAILED', message);
    Object.defineProperty(this, FAILED, { value: true });
    this.name = 'TinkerRequestFailedError';
    this.requestId = details.requestId;
    this.route = details.route;
    this.category = details.category;
  }

  static override isInstance(error: unknown): error is TinkerRequestFailedError {
    return marked(error, FAILED);
  }
}

/** A future was still `try_again` when `futures.timeoutMs` ran out. */
export class TinkerFutureTimeoutError extends SkillrlError {
  readonly requestId: string;
  readonly route: string;
  readonly waitedMs: number;

  constructor(message: string, details: { requestId: string; route: string; waitedMs: number }) {
    super('SKILLRL_TINKER_FUTURE_TIMEOUT', message);
    Object.defineProperty(this, TIMEOUT, { value: true });
    this.name = 'TinkerFutureTimeoutError';
    this.requestId = details.requestId;
    this.route = details.route;
    this.waitedMs = details.waitedMs;
  }

  static override isInstance(error: unknown): error is TinkerFutureTimeoutError {
    return marked(error, TIMEOUT);
  }
}
