import { createFutures } from './resources/futures.js';
import { createModelsResource } from './resources/models.js';
import { createSamplingResource } from './resources/sampling.js';
import { createServiceResource } from './resources/service.js';
import { createTrainingResource } from './resources/training.js';
import { createWeightsResource } from './resources/weights.js';
import type { TinkerClient } from './tinker-client.js';
import type { TinkerClientOptions } from './tinker-client-options.js';
import { createTinkerTransport } from './tinker-transport.js';
import { createTrainingSeqIds } from './training-seq-ids.js';

/**
 * A typed client of the Tinker HTTP API, as the Python SDK speaks it (routes from
 * src/tinker/resources/{service,models,training,weights,sampling,futures}.py of thinking-machines-lab/tinker;
 * also what NovaSky-AI/SkyRL's skyrl-tx serves, tx/tinker/api.py). One place for the transport
 * (`createTinkerTransport`): the API key from an environment variable as `X-API-Key`, redacted from every
 * error; retries with seeded equal-jitter backoff on 408/409/429/5xx and connection errors, honouring
 * `retry-after-ms`/`Retry-After` and `x-should-retry`; a timeout per call; an `X-Idempotency-Key` per request,
 * the same on every retry of it (so a retried `forward_backward` whose first answer was lost is not applied
 * twice); and futures polled with `retrieve_future` the way src/tinker/lib/api_future_impl.py does
 * (`try_again`, 408/5xx polled again, 429 and connection errors backed off, a bare 400 retried three times,
 * 410 resubmitting the request, a `RequestFailedResponse` thrown as `TinkerRequestFailedError`).
 */
export function createTinkerClient(options: TinkerClientOptions = {}): TinkerClient {
  const transport = createTinkerTransport(options);
  const futures = createFutures(transport);
  const seqs = createTrainingSeqIds();
  const training = createTrainingResource(transport, futures, seqs, options);
  const service = createServiceResource(transport);
  const models = createModelsResource(transport, futures);
  const weights = createWeightsResource(transport, futures, seqs);
  const sampling = createSamplingResource(transport, futures, service, options);
  return {
    baseURL: transport.baseURL,
    apiKey: transport.apiKey,
    stats: () => ({ ...transport.stats }),
    call: transport.call,
    submit: futures.submit,
    ...service,
    ...models,
    ...training,
    ...weights,
    ...sampling,
  };
}
