import type { TinkerTransport } from '../tinker-transport.js';
import type {
  CheckpointsListResponse,
  LoadWeightsRequest,
  LoadWeightsResponse,
  SaveWeightsForSamplerRequest,
  SaveWeightsForSamplerResponse,
  SaveWeightsRequest,
  SaveWeightsResponse,
  TrainingRun,
} from '../tinker-types.js';
import type { TrainingSeqIds } from '../training-seq-ids.js';
import type { TinkerFutures } from './futures.js';

/**
 * Checkpoints: saving and loading a model's weights (src/tinker/resources/weights.py), and the training run
 * they belong to (src/tinker/lib/public_interfaces/rest_client.py).
 */
export interface TinkerWeightsResource {
  /** POST /api/v1/save_weights (a resumable checkpoint: weights and optimizer state), then its future. */
  saveWeights(request: SaveWeightsRequest, signal?: AbortSignal): Promise<SaveWeightsResponse>;
  /** POST /api/v1/save_weights_for_sampler (weights a sampler can load), then its future. */
  saveWeightsForSampler(
    request: SaveWeightsForSamplerRequest,
    signal?: AbortSignal,
  ): Promise<SaveWeightsForSamplerResponse>;
  /** POST /api/v1/load_weights (with `optimizer: true`, Adam's moments too), then its future. */
  loadWeights(request: LoadWeightsRequest, signal?: AbortSignal): Promise<LoadWeightsResponse>;
  /** GET /api/v1/training_runs/{id} (rest_client.py). */
  getTrainingRun(trainingRunId: string, signal?: AbortSignal): Promise<TrainingRun>;
  /** GET /api/v1/training_runs/{id}/checkpoints (resources/weights.py `list`). */
  listCheckpoints(trainingRunId: string, signal?: AbortSignal): Promise<CheckpointsListResponse>;
}

export function createWeightsResource(
  transport: TinkerTransport,
  futures: TinkerFutures,
  seqs: TrainingSeqIds,
): TinkerWeightsResource {
  const { run } = futures;
  const { numbered } = seqs;
  return {
    saveWeights: (request, signal) =>
      run<SaveWeightsResponse>('save_weights', { type: 'save_weights', ...numbered(request) }, signal),
    saveWeightsForSampler: (request, signal) =>
      run<SaveWeightsForSamplerResponse>(
        'save_weights_for_sampler',
        { type: 'save_weights_for_sampler', ...numbered(request) },
        signal,
      ),
    loadWeights: (request, signal) =>
      run<LoadWeightsResponse>('load_weights', { type: 'load_weights', ...numbered(request) }, signal),
    getTrainingRun: (trainingRunId, signal) =>
      transport.get<TrainingRun>(`training_runs/${encodeURIComponent(trainingRunId)}`, signal),
    listCheckpoints: (trainingRunId, signal) =>
      transport.get<CheckpointsListResponse>(
        `training_runs/${encodeURIComponent(trainingRunId)}/checkpoints`,
        signal,
      ),
  };
}
