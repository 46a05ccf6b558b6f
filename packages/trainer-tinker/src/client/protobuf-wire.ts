import {
  create,
  createFileRegistry,
  type DescMessage,
  fromBinary,
  type MessageShape,
  toBinary,
} from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { TINKER_PUBLIC_DESCRIPTOR_B64 } from '@skillrl/core';
import type { Datum, ForwardBackwardOutput, TensorData } from './tinker-types.js';

/** The content type of the SDK's protobuf bodies (src/tinker/resources/training.py). */
export const PROTOBUF_CONTENT_TYPE = 'application/x-protobuf';

// The schema, from the SDK's own descriptor; messages are built reflectively (no generated code).
let registry: ReturnType<typeof createFileRegistry> | undefined;
function message(name: string): DescMessage {
  registry ??= createFileRegistry(
    fromBinary(FileDescriptorProtoSchema, Buffer.from(TINKER_PUBLIC_DESCRIPTOR_B64, 'base64')),
    () => undefined,
  );
  const found = registry.getMessage(`tinker_public.${name}`);
  if (!found) throw new Error(`tinker_public.${name} is not in the SDK's descriptor`);
  return found;
}

// DType (tinker_public.DType): 1 float32, 2 int64, 3 int32, 4 bfloat16.
const DTYPE = { float32: 1, int64: 2 } as const;

function packTensor(t: TensorData): Uint8Array {
  const n = t.data.length;
  const out = new Uint8Array(n * (t.dtype === 'int64' ? 8 : 4));
  const view = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    const v = t.data[i] as number;
    if (t.dtype === 'int64') view.setBigInt64(i * 8, BigInt(Math.trunc(v)), true);
    else view.setFloat32(i * 4, v, true);
  }
  return out;
}

function packTokens(tokens: readonly number[]): Uint8Array {
  const out = new Uint8Array(tokens.length * 4);
  const view = new DataView(out.buffer);
  tokens.forEach((t, i) => {
    view.setInt32(i * 4, t, true);
  });
  return out;
}

/**
 * A `forward_backward` (or, with `forwardOnly`, `forward`) request as the SDK 0.25 sends it: the protobuf
 * `ForwardBackwardRequest` (request_conv.py: tokens as little-endian int32 bytes, dense tensors as their
 * dtype's little-endian bytes, `forward_only` for a forward pass on the same route).
 */
export function encodeForwardBackwardRequest(request: {
  model_id: string;
  seq_id: number;
  data: readonly Datum[];
  loss_fn: string;
  loss_fn_config?: Record<string, number>;
  forwardOnly?: boolean;
}): Uint8Array {
  const Request = message('ForwardBackwardRequest');
  const value = create(Request, {
    modelId: request.model_id,
    seqId: request.seq_id,
    lossFn: request.loss_fn,
    lossFnConfig: { ...request.loss_fn_config },
    forwardOnly: request.forwardOnly === true,
    data: request.data.map((d) => ({
      modelInput: d.model_input.chunks.map((c) => ({
        chunk: { case: 'encodedText', value: { tokens: packTokens(c.tokens) } },
      })),
      lossFnInputs: Object.fromEntries(
        Object.entries(d.loss_fn_inputs).map(([name, t]) => [
          name,
          {
            encoding: { case: 'dense', value: packTensor(t) },
            dtype: DTYPE[t.dtype],
            shape: t.shape ?? [t.data.length],
          },
        ]),
      ),
    })),
  } as never);
  return toBinary(Request, value);
}

function readValues(
  bytes: Uint8Array,
  dtype: number,
): { values: number[]; width: number; type: TensorData['dtype'] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  if (dtype === 1) for (let i = 0; i + 4 <= bytes.length; i += 4) out.push(view.getFloat32(i, true));
  else if (dtype === 2)
    for (let i = 0; i + 8 <= bytes.length; i += 8) out.push(Number(view.getBigInt64(i, true)));
  else if (dtype === 3) for (let i = 0; i + 4 <= bytes.length; i += 4) out.push(view.getInt32(i, true));
  else if (dtype === 4) {
    // bfloat16: the upper 16 bits of a float32.
    const f = new DataView(new ArrayBuffer(4));
    for (let i = 0; i + 2 <= bytes.length; i += 2) {
      f.setUint32(0, view.getUint16(i, true) << 16, false);
      out.push(f.getFloat32(0, false));
    }
  } else throw new Error(`unsupported DType ${dtype} in a ForwardBackwardOutput`);
  const width = dtype === 2 ? 8 : dtype === 4 ? 2 : 4;
  return { values: out, width, type: dtype === 2 || dtype === 3 ? 'int64' : 'float32' };
}

/**
 * A protobuf `ForwardBackwardOutput` in the JSON shape (response_conv.py): each `ArrayRecord` field is a
 * `BatchedTensor` whose byte `offsets` cut its data into one tensor a datum.
 */
export function decodeForwardBackwardOutput(bytes: Uint8Array): ForwardBackwardOutput {
  const Output = message('ForwardBackwardOutput');
  const out = fromBinary(Output, bytes) as MessageShape<DescMessage> & {
    lossFnOutputType: string;
    lossFnOutputs: {
      fields: Record<
        string,
        { data: Uint8Array; offsets: Uint8Array; dtype: number; trailingShape: bigint[] }
      >;
    }[];
    metrics: Record<string, number>;
  };
  const datums: Record<string, TensorData>[] = [];
  for (const record of out.lossFnOutputs) {
    const base = datums.length;
    for (const [name, bt] of Object.entries(record.fields)) {
      const { values, width, type } = readValues(bt.data, bt.dtype);
      const offsets = new DataView(bt.offsets.buffer, bt.offsets.byteOffset, bt.offsets.byteLength);
      const trailing = bt.trailingShape.map(Number);
      const inner = trailing.reduce((a, b) => a * b, 1);
      for (let i = 0; (i + 1) * 8 < bt.offsets.length; i++) {
        const start = Number(offsets.getBigInt64(i * 8, true)) / width;
        const end = Number(offsets.getBigInt64((i + 1) * 8, true)) / width;
        const data = values.slice(start, end);
        datums[base + i] ??= {};
        (datums[base + i] as Record<string, TensorData>)[name] = {
          data,
          dtype: type,
          shape: [data.length / inner, ...trailing],
        };
      }
    }
  }
  return {
    loss_fn_output_type: (out.lossFnOutputType || 'ArrayRecord').split(':').at(-1) as string,
    loss_fn_outputs: datums,
    metrics: { ...out.metrics },
  };
}
