export type { TinkerFuture, TinkerFuturesResource, TinkerSubmitOptions } from './futures.js';
export type { TinkerModelsResource } from './models.js';
export type { TinkerSamplingResource } from './sampling.js';
export type { TinkerServiceResource } from './service.js';
export type {
  ForwardBackwardChunk,
  ForwardBackwardChunksOptions,
  ForwardBackwardChunksRequest,
  ForwardBackwardChunksResponse,
  TinkerTrainingResource,
} from './training.js';
export type { TinkerWeightsResource } from './weights.js';
