import { retryAfterMs } from '@skillrl/rollout';
import { PROTOBUF_CONTENT_TYPE } from '../protobuf-wire.js';
import { outageDelayMs } from '../retry-policy.js';
import { TinkerApiError, TinkerFutureTimeoutError, TinkerRequestFailedError } from '../tinker-errors.js';
import {
  detailOf,
  type HttpAnswer,
  sleep,
  type TinkerRequestOptions,
  type TinkerTransport,
} from '../tinker-transport.js';
import type { RequestFailedResponse, UntypedAPIFuture } from '../tinker-types.js';

/** A request the server answered with a `request_id`; `result()` polls `retrieve_future` until it is done. */
export interface TinkerFuture<T> {
  readonly requestId: string;
  readonly route: string;
  result(options?: { signal?: AbortSignal }): Promise<T>;
}

/** `submit`'s settings: the request's, and how to read a protobuf result (asked for when given). */
export interface TinkerSubmitOptions<T> extends TinkerRequestOptions {
  decode?: (bytes: Uint8Array) => T;
}

/** Requests that answer with a future (resources/futures.py `retrieve`, lib/api_future_impl.py). */
export interface TinkerFuturesResource {
  /** Sends a request that answers with a future, and returns the future. */
  submit<T>(route: string, body: unknown, options?: TinkerSubmitOptions<T>): Promise<TinkerFuture<T>>;
}

/** The futures resource, and `run`: submit, then await the result (what most routes' methods do). */
export interface TinkerFutures extends TinkerFuturesResource {
  run<T>(route: string, body: unknown, signal?: AbortSignal): Promise<T>;
}

class Expired extends Error {}

/**
 * Futures polled with `retrieve_future` the way src/tinker/lib/api_future_impl.py does (`try_again`, 408/5xx
 * polled again, 429 and connection errors backed off, a bare 400 retried three times, 410 resubmitting the
 * request, a `RequestFailedResponse` thrown as `TinkerRequestFailedError`).
 */
export function createFutures(transport: TinkerTransport): TinkerFutures {
  const { baseURL, stats, retry, futures } = transport;
  const { backoff, scaled, report } = transport;

  /** Polls one future until it is done (the loop of api_future_impl.py `_result_async`). */
  async function poll<T>(
    requestId: string,
    route: string,
    callSignal?: AbortSignal,
    decode?: (bytes: Uint8Array) => T,
  ): Promise<T> {
    const signal = transport.signalOf(callSignal);
    const started = Date.now();
    let badRequests = 0;
    let connectionErrors = 0;
    let billingSince: number | undefined;
    for (let iteration = 0; ; iteration++) {
      if (signal?.aborted) throw signal.reason;
      const waited = Date.now() - started;
      if (waited > futures.timeoutMs) {
        stats.failures += 1;
        throw new TinkerFutureTimeoutError(
          `the ${route} request ${requestId} was still queued after ${Math.round(waited / 1000)} s (futures.timeoutMs ${futures.timeoutMs}) [${baseURL}]`,
          { requestId, route, waitedMs: waited },
        );
      }
      stats.polls += 1;
      let answer: HttpAnswer;
      try {
        answer = await transport.exchange(
          'POST',
          'retrieve_future',
          { request_id: requestId, allow_metadata_only: false },
          {
            'X-Tinker-Request-Iteration': String(iteration),
            'X-Tinker-Request-Type': route,
            // The SDK asks for protobuf results of the types it can read so (response_conv.py); a server
            // that has none answers JSON, which is read as before.
            ...(decode ? { accept: `${PROTOBUF_CONTENT_TYPE}, application/json` } : {}),
          },
          signal,
          futures.requestTimeoutMs,
        );
      } catch (_error) {
        if (signal?.aborted) throw signal.reason;
        // No answer at all: back off as the SDK does for connection errors (2^k s, at most 30 s).
        await sleep(outageDelayMs(retry, connectionErrors++), signal);
        continue;
      }
      if (answer.status === 200 && answer.bytes && decode) return decode(answer.bytes);
      if (answer.status === 200) {
        connectionErrors = 0;
        const json = answer.json as Record<string, unknown> | undefined;
        if (json === undefined) {
          await sleep(futures.pollIntervalMs, signal);
          continue;
        }
        if (json.type === 'try_again') {
          stats.tryAgain += 1;
          await sleep(futures.pollIntervalMs, signal);
          continue;
        }
        if (typeof json.error === 'string') {
          const failed = json as unknown as RequestFailedResponse;
          stats.failures += 1;
          throw new TinkerRequestFailedError(
            `the ${route} request ${requestId} failed (${failed.category ?? 'unknown'}): ${failed.error} [${baseURL}]`,
            { requestId, route, category: String(failed.category ?? 'unknown') },
          );
        }
        return json as T;
      }
      if (answer.status === 410) throw new Expired(`promise ${requestId} expired`);
      if (answer.status === 408 || answer.status >= 500) {
        await sleep(futures.pollIntervalMs, signal);
        continue;
      }
      if (answer.status === 429) {
        const asked = retryAfterMs({ headers: answer.headers });
        await sleep(
          asked !== undefined && asked <= retry.maxRetryAfterMs ? scaled(asked) : backoff(connectionErrors++),
          signal,
        );
        continue;
      }
      if (answer.status === 402) {
        // The SDK's futures wait out billing like its calls do (api_future_impl.py, `_should_pause_on_billing`).
        billingSince ??= Date.now();
        if (Date.now() - billingSince < scaled(retry.billingPauseMs)) {
          stats.billingPauses += 1;
          const delayMs = scaled(retry.billingWaitMs);
          report({
            route: 'retrieve_future',
            retry: iteration + 1,
            delayMs,
            error: detailOf(answer),
            reason: 'billing',
          });
          await sleep(delayMs, signal);
          continue;
        }
      }
      // A bare 400 may come from a proxy on the way: tried three more times (skyrl-tx answers a failed
      // future with 400 and its reason, which is what the error then says).
      if (answer.status === 400 && badRequests < 3) {
        badRequests += 1;
        await sleep(futures.pollIntervalMs, signal);
        continue;
      }
      stats.failures += 1;
      throw new TinkerApiError(
        `retrieving the ${route} request ${requestId} failed: status ${answer.status}: ${detailOf(answer)} [${baseURL}]`,
        { route: 'retrieve_future', status: answer.status, attempts: iteration + 1, retryable: false },
      );
    }
  }

  async function submit<T>(
    route: string,
    body: unknown,
    opts: TinkerSubmitOptions<T> = {},
  ): Promise<TinkerFuture<T>> {
    const first = await transport.call<UntypedAPIFuture>('POST', route, body, opts);
    let current = first;
    return {
      get requestId() {
        return current.request_id;
      },
      route,
      async result(resultOptions = {}) {
        const signal = resultOptions.signal ?? opts.signal;
        for (let resubmits = 0; ; resubmits++) {
          if (typeof current?.request_id !== 'string') {
            throw new TinkerApiError(`POST /api/v1/${route} answered no request_id [${baseURL}]`, {
              route,
              attempts: 1,
              retryable: false,
            });
          }
          try {
            return await poll<T>(current.request_id, route, signal, opts.decode);
          } catch (error) {
            if (!(error instanceof Expired) || resubmits >= futures.maxResubmits) {
              if (error instanceof Expired) {
                throw new TinkerApiError(
                  `the ${route} request expired ${resubmits + 1} times (410) [${baseURL}]`,
                  {
                    route,
                    status: 410,
                    attempts: resubmits + 1,
                    retryable: true,
                  },
                );
              }
              throw error;
            }
            // The promise is gone before the work ran (the SDK's RetryableException): send the request again.
            stats.resubmits += 1;
            current = await transport.call<UntypedAPIFuture>('POST', route, body, {
              ...opts,
              ...(signal ? { signal } : {}),
            });
          }
        }
      },
    };
  }

  const run = async <T>(route: string, body: unknown, signal?: AbortSignal): Promise<T> =>
    (await submit<T>(route, body, signal ? { signal } : {})).result();

  return { submit, run };
}
