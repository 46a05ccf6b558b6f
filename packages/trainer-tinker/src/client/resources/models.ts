import type { TinkerTransport } from '../tinker-transport.js';
import type {
  CreateModelRequest,
  CreateModelResponse,
  GetInfoResponse,
  UnloadModelResponse,
} from '../tinker-types.js';
import type { TinkerFutures } from './futures.js';

/** Training clients (LoRA models) of a session (src/tinker/resources/models.py). */
export interface TinkerModelsResource {
  /** POST /api/v1/create_model (a LoRA training client), then its future. */
  createModel(request: CreateModelRequest, signal?: AbortSignal): Promise<CreateModelResponse>;
  /** POST /api/v1/get_info. */
  getInfo(modelId: string, signal?: AbortSignal): Promise<GetInfoResponse>;
  /** POST /api/v1/unload_model, then its future. */
  unloadModel(modelId: string, signal?: AbortSignal): Promise<UnloadModelResponse>;
}

export function createModelsResource(
  transport: TinkerTransport,
  futures: TinkerFutures,
): TinkerModelsResource {
  const { run } = futures;
  return {
    createModel: (request, signal) =>
      run<CreateModelResponse>('create_model', { type: 'create_model', ...request }, signal),
    getInfo: (modelId, signal) =>
      transport.post<GetInfoResponse>('get_info', { model_id: modelId, type: 'get_info' }, signal),
    unloadModel: (modelId, signal) =>
      run<UnloadModelResponse>('unload_model', { model_id: modelId, type: 'unload_model' }, signal),
  };
}
