import { HttpError } from './http-error.js';
import {
  requiredLossInputs,
  TINKER_LOSSES,
  type TinkerLossConfig,
  type TinkerLossName,
} from './tinker-losses.js';

// Reading the SDK's JSON request bodies (src/tinker/types/*.py as `model_dump(..., exclude_none=True)` writes
// them); anything malformed is refused with a 400 that names the field.

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function need<T>(value: T | undefined | null, message: string): T {
  if (value === undefined || value === null) throw new HttpError(400, message);
  return value;
}

export function str(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value === '')
    throw new HttpError(400, `${key}: expected a non-empty string`);
  return value;
}

function ints(value: unknown, what: string): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v))) {
    throw new HttpError(400, `${what}: expected a list of integers`);
  }
  return value as number[];
}

/** `ModelInput.chunks` (only `encoded_text` chunks: the fake has no images). */
export function modelInputTokens(value: unknown, what: string): number[] {
  if (!isObject(value) || !Array.isArray(value.chunks))
    throw new HttpError(400, `${what}: expected { chunks: [...] }`);
  const tokens: number[] = [];
  value.chunks.forEach((chunk, i) => {
    if (!isObject(chunk)) throw new HttpError(400, `${what}.chunks[${i}]: expected an object`);
    if (chunk.type !== undefined && chunk.type !== 'encoded_text') {
      throw new HttpError(
        400,
        `${what}.chunks[${i}]: chunk type "${String(chunk.type)}" is not supported here`,
      );
    }
    tokens.push(...ints(chunk.tokens, `${what}.chunks[${i}].tokens`));
  });
  return tokens;
}

/** `TensorData` ({ data, dtype, shape? }), flattened; sparse CSR tensors are expanded. */
function tensorData(value: unknown, what: string, length: number): number[] {
  if (!isObject(value) || !Array.isArray(value.data))
    throw new HttpError(400, `${what}: expected TensorData { data, dtype }`);
  if (value.dtype !== 'float32' && value.dtype !== 'int64') {
    throw new HttpError(400, `${what}.dtype: expected "float32" or "int64"`);
  }
  let data = value.data as unknown[];
  if (Array.isArray(value.sparse_crow_indices)) {
    const shape = need(value.shape as number[] | undefined, `${what}.shape: required for a sparse tensor`);
    const crow = ints(value.sparse_crow_indices, `${what}.sparse_crow_indices`);
    const col = ints(value.sparse_col_indices, `${what}.sparse_col_indices`);
    const cols = shape[1] ?? 1;
    const dense = new Array<number>((shape[0] ?? 0) * cols).fill(0);
    for (let row = 0; row + 1 < crow.length; row++) {
      for (let j = crow[row] as number; j < (crow[row + 1] as number); j++) {
        dense[row * cols + (col[j] as number)] = Number(data[j]);
      }
    }
    data = dense;
  }
  if (!data.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new HttpError(400, `${what}.data: expected finite numbers`);
  }
  if (data.length !== length) {
    throw new HttpError(400, `${what}: has ${data.length} values, the model input has ${length} tokens`);
  }
  return data as number[];
}

export interface ParsedDatum {
  inputs: number[];
  targets: number[];
  logprobs: number[];
  advantages: number[];
  weights: number[];
}

/** A `ForwardBackwardInput`: its datums (every loss input the loss needs, one value per token) and loss. */
export function parseDatums(
  input: unknown,
  what: string,
): { datums: ParsedDatum[]; lossFn: TinkerLossName; config: TinkerLossConfig } {
  if (!isObject(input) || !Array.isArray(input.data))
    throw new HttpError(400, `${what}: expected { data, loss_fn }`);
  const lossFn = input.loss_fn as TinkerLossName;
  if (!TINKER_LOSSES.includes(lossFn)) {
    throw new HttpError(
      400,
      `${what}.loss_fn: expected one of ${TINKER_LOSSES.join(', ')}, got ${JSON.stringify(input.loss_fn)}`,
    );
  }
  if (input.data.length === 0) throw new HttpError(400, `${what}.data: no datums`);
  const config = (isObject(input.loss_fn_config) ? input.loss_fn_config : {}) as TinkerLossConfig;
  const datums = input.data.map((datum, i) => {
    const at = `${what}.data[${i}]`;
    if (!isObject(datum) || !isObject(datum.loss_fn_inputs))
      throw new HttpError(400, `${at}: expected { model_input, loss_fn_inputs }`);
    const inputs = modelInputTokens(datum.model_input, `${at}.model_input`);
    const fields = datum.loss_fn_inputs;
    for (const key of requiredLossInputs(lossFn)) {
      if (fields[key] === undefined)
        throw new HttpError(400, `${at}.loss_fn_inputs.${key}: required by loss_fn "${lossFn}"`);
    }
    const n = inputs.length;
    const read = (key: string, fill: number) =>
      fields[key] === undefined
        ? new Array<number>(n).fill(fill)
        : tensorData(fields[key], `${at}.loss_fn_inputs.${key}`, n);
    return {
      inputs,
      targets: read('target_tokens', 0).map((t) => Math.trunc(t)),
      logprobs: read('logprobs', 0),
      advantages: read('advantages', 0),
      weights: read('weights', 1),
    };
  });
  return { datums, lossFn, config };
}
