import type { TinkerFuturesResource } from './resources/futures.js';
import type { TinkerModelsResource } from './resources/models.js';
import type { TinkerSamplingResource } from './resources/sampling.js';
import type { TinkerServiceResource } from './resources/service.js';
import type { TinkerTrainingResource } from './resources/training.js';
import type { TinkerWeightsResource } from './resources/weights.js';
import type { TinkerClientStats } from './tinker-client-options.js';
import type { TinkerApiKeyStatus, TinkerHttpMethod, TinkerRequestOptions } from './tinker-transport.js';

/**
 * A client of the Tinker HTTP API (what `createTinkerClient` returns): the routes of the SDK's resources, one
 * interface each (service, models, training, weights, sampling, futures), over one transport whose retries,
 * timeouts, idempotency keys and key redaction every route shares. The routes are methods of the client itself,
 * as skillrl has always called them (`client.forwardBackward(...)`); the resource interfaces name their groups.
 */
export interface TinkerClient
  extends TinkerServiceResource,
    TinkerModelsResource,
    TinkerTrainingResource,
    TinkerWeightsResource,
    TinkerSamplingResource,
    TinkerFuturesResource {
  /** The service's URL, without a trailing slash (routes are under `/api/v1`). */
  readonly baseURL: string;
  /** The variable the key is read from, and whether it was set (the key itself is never exposed). */
  readonly apiKey: TinkerApiKeyStatus;
  /** A copy of the client's counters. */
  stats(): TinkerClientStats;
  /** Any route, with the client's retries: the JSON answer (a route this client has no method for). */
  call<T>(
    method: TinkerHttpMethod,
    route: string,
    body?: unknown,
    options?: TinkerRequestOptions,
  ): Promise<T>;
}
