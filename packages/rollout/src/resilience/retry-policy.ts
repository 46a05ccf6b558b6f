import { InvalidArgumentError, type Rng } from '@skillrl/core';
import { NoChoiceError } from './no-choice-error.js';

export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Backoff before retry k (0-based) is drawn from [d/2, d] with d = min(maxDelayMs, baseDelayMs·2^k). Default 250. */
  baseDelayMs?: number;
  /** Default 20 000. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is ignored in favour of the backoff. Default 60 000. */
  maxRetryAfterMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved = {
    maxRetries: options.maxRetries ?? 4,
    baseDelayMs: options.baseDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 20_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
  };
  for (const [key, value] of Object.entries(resolved)) {
    if (!(Number.isFinite(value) && value >= 0)) {
      throw new InvalidArgumentError(`retry.${key}`, `expected a finite number >= 0, got ${value}`);
    }
  }
  if (!Number.isInteger(resolved.maxRetries)) {
    throw new InvalidArgumentError('retry.maxRetries', `expected an integer, got ${resolved.maxRetries}`);
  }
  return resolved;
}

interface ErrorShape {
  status?: unknown;
  name?: unknown;
  code?: unknown;
  headers?: { get?(name: string): string | null | undefined };
  cause?: unknown;
}

/** The HTTP status of an error thrown by the `openai` client, when it carries one. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as ErrorShape | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

const RETRYABLE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET']);

/**
 * Whether a failed call is worth repeating: rate limits (429), timeouts (408 and client-side), lock
 * conflicts (409), server errors (5xx), connection resets and refusals, a body cut off mid-JSON (a
 * proxy or server that died while answering), and a 200 with no usable choice (`NoChoiceError`). Client
 * errors (400, 401, 403, 404, 422) and a user abort are not.
 */
export function isRetryable(error: unknown): boolean {
  const e = error as ErrorShape | null;
  if (!e || typeof e !== 'object') return false;
  if (NoChoiceError.isInstance(error)) return true;
  if (e.name === 'AbortError' || e.constructor?.name === 'APIUserAbortError') return false;
  const status = statusOf(error);
  if (status !== undefined) return status === 408 || status === 409 || status === 429 || status >= 500;
  if (error instanceof SyntaxError) return true;
  const name = e.constructor?.name;
  if (name === 'APIConnectionError' || name === 'APIConnectionTimeoutError') return true;
  if (typeof e.code === 'string' && RETRYABLE_CODES.has(e.code)) return true;
  return e.cause !== undefined && e.cause !== error && isRetryable(e.cause);
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms` (OpenAI's), else `Retry-After` as seconds
 * (fractions allowed) or as an HTTP date.
 */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  const headers = (error as ErrorShape | null)?.headers;
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/**
 * Delay before retry `retry` (0 for the first retry): the server's `Retry-After` when it gave a usable one,
 * else exponential backoff with "equal jitter" — half the cap plus a seeded uniform draw over the other
 * half — so concurrent clients spread out without ever retrying instantly.
 */
export function retryDelay(retry: number, error: unknown, options: ResolvedRetryOptions, rng: Rng): number {
  const asked = retryAfterMs(error);
  if (asked !== undefined && asked <= options.maxRetryAfterMs) return asked;
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return cap / 2 + rng.float() * (cap / 2);
}
