// The Tinker API's wire types, as the Python SDK (thinking-machines-lab/tinker) defines them in
// src/tinker/types/*.py; field names are the JSON's. Requests carry the SDK's `type` discriminators where it
// sends them. Only what skillrl uses is typed; servers may send more fields (the SDK ignores extras too).

/** src/tinker/types/model_id.py */
export type ModelId = string;

/** src/tinker/types/encoded_text_chunk.py (the only chunk kind skillrl sends: no images). */
export interface EncodedTextChunk {
  tokens: number[];
  type: 'encoded_text';
}

/** src/tinker/types/model_input.py */
export interface ModelInput {
  chunks: EncodedTextChunk[];
}

/** src/tinker/types/tensor_dtype.py */
export type TensorDtype = 'int64' | 'float32';

/** src/tinker/types/tensor_data.py (dense; `shape` of a 1-D tensor of N values is [N]). */
export interface TensorData {
  data: number[];
  dtype: TensorDtype;
  shape?: number[];
}

/** src/tinker/types/loss_fn_type.py */
export type LossFnType = 'cross_entropy' | 'importance_sampling' | 'ppo' | 'cispo' | 'dro';
export const LOSS_FN_TYPES: readonly LossFnType[] = [
  'cross_entropy',
  'importance_sampling',
  'ppo',
  'cispo',
  'dro',
];

/** src/tinker/types/datum.py: `target_tokens`, `weights`, `advantages`, `logprobs` (and clip thresholds). */
export interface Datum {
  model_input: ModelInput;
  loss_fn_inputs: Record<string, TensorData>;
}

/** src/tinker/types/forward_backward_input.py */
export interface ForwardBackwardInput {
  data: Datum[];
  loss_fn: LossFnType;
  /** e.g. `{ clip_low_threshold, clip_high_threshold }` (ppo, cispo), `{ beta }` (dro). */
  loss_fn_config?: Record<string, number>;
}

/** src/tinker/types/forward_backward_request.py */
export interface ForwardBackwardRequest {
  forward_backward_input: ForwardBackwardInput;
  model_id: ModelId;
  seq_id?: number;
}

/** src/tinker/types/forward_request.py */
export interface ForwardRequest {
  forward_input: ForwardBackwardInput;
  model_id: ModelId;
  seq_id?: number;
}

/** src/tinker/types/forward_backward_output.py */
export interface ForwardBackwardOutput {
  loss_fn_output_type: string;
  /** One per datum: `logprobs` is the learner's log-prob of each target token. */
  loss_fn_outputs: Record<string, TensorData>[];
  metrics: Record<string, number>;
}

/** `AdamParams` in src/tinker/types/optim_step_request.py (defaults: 1e-4, 0.9, 0.95, 1e-12, 0, 0). */
export interface AdamParams {
  learning_rate?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weight_decay?: number;
  grad_clip_norm?: number;
}

/** src/tinker/types/optim_step_request.py */
export interface OptimStepRequest {
  adam_params: AdamParams;
  model_id: ModelId;
  seq_id?: number;
  type?: 'optim_step';
}

/** src/tinker/types/optim_step_response.py */
export interface OptimStepResponse {
  metrics?: Record<string, number> | null;
}

/** src/tinker/types/lora_config.py */
export interface LoraConfig {
  rank: number;
  seed?: number;
  train_unembed?: boolean;
  train_mlp?: boolean;
  train_attn?: boolean;
}

/** src/tinker/types/create_session_request.py */
export interface CreateSessionRequest {
  tags: string[];
  user_metadata: Record<string, unknown> | null;
  sdk_version: string;
  project_id?: string;
  type?: 'create_session';
}

/** src/tinker/types/create_session_response.py */
export interface CreateSessionResponse {
  session_id: string;
  info_message?: string | null;
  warning_message?: string | null;
  error_message?: string | null;
}

/** src/tinker/types/session_heartbeat_response.py */
export interface SessionHeartbeatResponse {
  type?: string;
}

/** src/tinker/types/create_model_request.py */
export interface CreateModelRequest {
  session_id: string;
  model_seq_id: number;
  base_model: string;
  user_metadata?: Record<string, unknown>;
  lora_config?: LoraConfig;
  type?: 'create_model';
}

/** src/tinker/types/create_model_response.py */
export interface CreateModelResponse {
  model_id: ModelId;
}

/** src/tinker/types/unload_model_response.py */
export interface UnloadModelResponse {
  model_id?: ModelId;
}

/** src/tinker/types/get_info_response.py */
export interface GetInfoResponse {
  model_id: ModelId;
  model_data: { arch?: string | null; model_name?: string | null; tokenizer_id?: string | null };
  is_lora?: boolean | null;
  lora_rank?: number | null;
  model_name?: string | null;
}

/** src/tinker/types/save_weights_request.py */
export interface SaveWeightsRequest {
  model_id: ModelId;
  path?: string;
  seq_id?: number;
  ttl_seconds?: number;
  overwrite?: boolean;
  type?: 'save_weights';
}

/** src/tinker/types/save_weights_response.py: a `tinker://<run>/weights/<name>` path. */
export interface SaveWeightsResponse {
  path: string;
}

/** src/tinker/types/save_weights_for_sampler_request.py */
export interface SaveWeightsForSamplerRequest {
  model_id: ModelId;
  path?: string;
  sampling_session_seq_id?: number;
  seq_id?: number;
  ttl_seconds?: number;
  type?: 'save_weights_for_sampler';
}

/** src/tinker/types/_pydantic_types/save_weights_for_sampler_response.py: `tinker://<run>/sampler_weights/<name>`. */
export interface SaveWeightsForSamplerResponse {
  path: string;
  sampling_session_id?: string | null;
}

/** src/tinker/types/load_weights_request.py (legacy addressing: the model, then the path). */
export interface LoadWeightsRequest {
  model_id: ModelId;
  path: string;
  seq_id?: number;
  /** Load Adam's moments too (a resumable checkpoint). */
  optimizer: boolean;
  type?: 'load_weights';
}

/** src/tinker/types/_pydantic_types/load_weights_response.py */
export interface LoadWeightsResponse {
  path?: string | null;
  model_id?: string | null;
}

/** src/tinker/types/_pydantic_types/sampling_params.py */
export interface SamplingParams {
  max_tokens?: number;
  seed?: number;
  /** Stop strings, or stop token ids. */
  stop?: string | string[] | number[];
  temperature?: number;
  top_k?: number;
  top_p?: number;
}

/** src/tinker/types/sample_request.py */
export interface SampleRequest {
  num_samples?: number;
  prompt: ModelInput;
  sampling_params: SamplingParams;
  base_model?: string;
  model_path?: string;
  sampling_session_id?: string;
  seq_id?: number;
  prompt_logprobs?: boolean;
  topk_prompt_logprobs?: number;
  type?: 'sample';
}

/** src/tinker/types/stop_reason.py */
export type StopReason = 'length' | 'stop';

/** src/tinker/types/sampled_sequence.py (the JSON form: lists). */
export interface SampledSequence {
  stop_reason: StopReason;
  tokens: number[];
  logprobs?: number[] | null;
}

/** src/tinker/types/sample_response.py (the JSON form). */
export interface SampleResponse {
  sequences: SampledSequence[];
  prompt_logprobs?: (number | null)[] | null;
}

/** src/tinker/types/create_sampling_session_request.py */
export interface CreateSamplingSessionRequest {
  session_id: string;
  sampling_session_seq_id: number;
  base_model?: string;
  model_path?: string;
  type?: 'create_sampling_session';
}

/** src/tinker/types/create_sampling_session_response.py */
export interface CreateSamplingSessionResponse {
  sampling_session_id: string;
}

/** src/tinker/types/shared/untyped_api_future.py: what a request that does work answers. */
export interface UntypedAPIFuture {
  request_id: string;
  model_id?: ModelId | null;
}

/** src/tinker/types/try_again_response.py */
export interface TryAgainResponse {
  type: 'try_again';
  request_id: string;
  queue_state: 'active' | 'paused_capacity' | 'paused_rate_limit';
  queue_state_reason?: string;
}

/** src/tinker/types/request_failed_response.py, request_error_category.py */
export interface RequestFailedResponse {
  error: string;
  category: 'unknown' | 'server' | 'user';
}

/** src/tinker/types/checkpoint.py */
export interface Checkpoint {
  checkpoint_id: string;
  checkpoint_type: 'training' | 'sampler';
  time: string;
  tinker_path: string;
  size_bytes?: number | null;
  public?: boolean;
  expires_at?: string | null;
}

/** src/tinker/types/checkpoints_list_response.py */
export interface CheckpointsListResponse {
  checkpoints: Checkpoint[];
  cursor?: unknown;
}

/** src/tinker/types/training_run.py */
export interface TrainingRun {
  training_run_id: string;
  base_model: string;
  model_owner: string;
  is_lora: boolean;
  corrupted?: boolean;
  lora_rank?: number | null;
  last_request_time: string;
  last_checkpoint?: Checkpoint | null;
  last_sampler_checkpoint?: Checkpoint | null;
  user_metadata?: Record<string, string> | null;
}

/** src/tinker/types/get_server_capabilities_response.py */
export interface GetServerCapabilitiesResponse {
  supported_models: { model_name?: string | null; max_context_length?: number | null }[];
}

/** src/tinker/types/health_response.py */
export interface HealthResponse {
  status: 'ok';
}

/** A 1-D `TensorData`. */
export function tensor(data: number[], dtype: TensorDtype): TensorData {
  return { data, dtype, shape: [data.length] };
}

/** `ModelInput.from_ints`. */
export function modelInput(tokens: number[]): ModelInput {
  return { chunks: [{ type: 'encoded_text', tokens }] };
}
