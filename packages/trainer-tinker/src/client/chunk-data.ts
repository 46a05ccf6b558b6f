import { InvalidArgumentError } from '@skillrl/core';
import type { Datum, TensorData } from './tinker-types.js';

/** The SDK's defaults (src/tinker/types/client_config_response.py): 1 024 data or 5 000 000 bytes a request. */
export const TINKER_MAX_CHUNK_DATA = 1024;
export const TINKER_MAX_CHUNK_BYTES = 5_000_000;

const tensorBytes = (t: TensorData) => t.data.length * (t.dtype === 'int64' ? 8 : 4);

/**
 * A datum's size on the wire. Protobuf: the SDK's estimate (`_estimate_datum_bytes_count_proto`: 4 bytes a
 * token, each tensor at its dtype's width). JSON: the length of its JSON text, which is what is sent.
 */
export function datumBytes(datum: Datum, wire: 'json' | 'protobuf'): number {
  if (wire === 'json') return Buffer.byteLength(JSON.stringify(datum));
  let bytes = 0;
  for (const chunk of datum.model_input.chunks) bytes += chunk.tokens.length * 4;
  for (const t of Object.values(datum.loss_fn_inputs)) bytes += tensorBytes(t);
  return bytes;
}

/**
 * Splits data into requests the way the SDK's `_chunked_requests_generator` does: a chunk closes when it
 * holds `maxData` data, or when the next datum would take it over `maxBytes` (a datum bigger than `maxBytes`
 * travels alone).
 */
export function chunkData(
  data: readonly Datum[],
  limits: { maxData?: number; maxBytes?: number; wire?: 'json' | 'protobuf'; keepJson?: boolean } = {},
): { data: Datum[]; bytes: number; json?: string[] }[] {
  const maxData = limits.maxData ?? TINKER_MAX_CHUNK_DATA;
  const maxBytes = limits.maxBytes ?? TINKER_MAX_CHUNK_BYTES;
  if (!(Number.isInteger(maxData) && maxData >= 1)) {
    throw new InvalidArgumentError('maxData', `expected an integer >= 1, got ${maxData}`);
  }
  if (!(maxBytes > 0)) throw new InvalidArgumentError('maxBytes', `expected a number > 0, got ${maxBytes}`);
  const wire = limits.wire ?? 'json';
  const keep = wire === 'json' && limits.keepJson === true;
  const chunks: { data: Datum[]; bytes: number; json?: string[] }[] = [];
  let current: Datum[] = [];
  let texts: string[] = [];
  let bytes = 0;
  const close = () => chunks.push(keep ? { data: current, bytes, json: texts } : { data: current, bytes });
  for (const datum of data) {
    // JSON: the text is what is sent, so its length is the size (and, kept, the body is written from it).
    const text = wire === 'json' ? JSON.stringify(datum) : undefined;
    const size = text === undefined ? datumBytes(datum, wire) : Buffer.byteLength(text);
    if (current.length > 0 && (bytes + size > maxBytes || current.length === maxData)) {
      close();
      current = [];
      texts = [];
      bytes = 0;
    }
    current.push(datum);
    if (keep) texts.push(text as string);
    bytes += size;
  }
  if (current.length > 0) close();
  return chunks;
}

/**
 * Refuses log-probs, advantages or weights that JSON cannot carry (NaN, ±Infinity would go out as `null`
 * and come back as a 422): the error names the datum, the input and the position.
 */
export function checkFiniteInputs(data: readonly Datum[], field: string): void {
  data.forEach((datum, i) => {
    for (const [name, t] of Object.entries(datum.loss_fn_inputs ?? {})) {
      const values = t?.data ?? [];
      for (let k = 0; k < values.length; k++) {
        const v = values[k];
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          throw new InvalidArgumentError(
            `${field}.data[${i}].loss_fn_inputs.${name}.data[${k}]`,
            `expected a finite number, got ${String(v)}; a sampler's -Infinity log-prob (a token it could not have drawn) must be clamped or its datum dropped before training`,
          );
        }
      }
    }
  });
}
