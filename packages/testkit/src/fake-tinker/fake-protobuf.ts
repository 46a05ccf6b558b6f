import { create, createFileRegistry, type DescMessage, fromBinary, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { TINKER_PUBLIC_DESCRIPTOR_B64 } from '@skillrl/core';

// The fake's side of the SDK 0.25 protobuf wire, written from the SDK's descriptor and its request_conv.py /
// response_conv.py (independently of the client's codec, so the two check each other).

export const PROTOBUF = 'application/x-protobuf';

let registry: ReturnType<typeof createFileRegistry> | undefined;
function message(name: string): DescMessage {
  registry ??= createFileRegistry(
    fromBinary(FileDescriptorProtoSchema, Buffer.from(TINKER_PUBLIC_DESCRIPTOR_B64, 'base64')),
    () => undefined,
  );
  const found = registry.getMessage(`tinker_public.${name}`);
  if (!found) throw new Error(`tinker_public.${name} missing from the descriptor`);
  return found;
}

function values(bytes: Uint8Array, dtype: number): number[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  if (dtype === 1) for (let i = 0; i + 4 <= buf.length; i += 4) out.push(buf.readFloatLE(i));
  else if (dtype === 2) for (let i = 0; i + 8 <= buf.length; i += 8) out.push(Number(buf.readBigInt64LE(i)));
  else if (dtype === 3) for (let i = 0; i + 4 <= buf.length; i += 4) out.push(buf.readInt32LE(i));
  else throw new Error(`unsupported dtype ${dtype}`);
  return out;
}

interface ProtoRequest {
  modelId: string;
  seqId: number;
  lossFn: string;
  lossFnConfig: Record<string, number>;
  forwardOnly: boolean;
  data: {
    modelInput: { chunk: { case: string | undefined; value?: { tokens?: Uint8Array } } }[];
    lossFnInputs: Record<
      string,
      { encoding: { case: string | undefined; value?: unknown }; dtype: number; shape: bigint[] }
    >;
  }[];
}

/**
 * A protobuf `ForwardBackwardRequest` as the JSON body the fake's handlers read: `forward_backward_input`, or
 * `forward_input` (and the route `forward`) when `forward_only` is set.
 */
export function decodeForwardBackwardRequest(bytes: Uint8Array): {
  route: 'forward_backward' | 'forward';
  body: Record<string, unknown>;
} {
  const m = fromBinary(message('ForwardBackwardRequest'), bytes) as unknown as ProtoRequest;
  const data = m.data.map((d) => ({
    model_input: {
      chunks: d.modelInput.map((c) => {
        if (c.chunk.case !== 'encodedText') throw new Error(`chunk kind ${c.chunk.case} is not served here`);
        return { type: 'encoded_text', tokens: values(c.chunk.value?.tokens ?? new Uint8Array(), 3) };
      }),
    },
    loss_fn_inputs: Object.fromEntries(
      Object.entries(d.lossFnInputs).map(([name, t]) => {
        if (t.encoding.case !== 'dense') throw new Error(`${name}: only dense tensors are served here`);
        return [
          name,
          {
            data: values(t.encoding.value as Uint8Array, t.dtype),
            dtype: t.dtype === 2 ? 'int64' : 'float32',
            shape: t.shape.map(Number),
          },
        ];
      }),
    ),
  }));
  const input = {
    data,
    loss_fn: m.lossFn,
    ...(Object.keys(m.lossFnConfig).length > 0 ? { loss_fn_config: { ...m.lossFnConfig } } : {}),
  };
  return m.forwardOnly
    ? { route: 'forward', body: { model_id: m.modelId, seq_id: m.seqId, forward_input: input } }
    : {
        route: 'forward_backward',
        body: { model_id: m.modelId, seq_id: m.seqId, forward_backward_input: input },
      };
}

/** A forward result (`loss_fn_outputs` of float32 `logprobs`) as a protobuf `ForwardBackwardOutput`. */
export function encodeForwardBackwardOutput(result: {
  loss_fn_output_type: string;
  loss_fn_outputs: { logprobs: { data: number[] } }[];
  metrics: Record<string, number>;
}): Uint8Array {
  const all = result.loss_fn_outputs.flatMap((o) => o.logprobs.data);
  const data = Buffer.alloc(all.length * 4);
  all.forEach((v, i) => {
    data.writeFloatLE(v, i * 4);
  });
  const offsets = Buffer.alloc((result.loss_fn_outputs.length + 1) * 8);
  let at = 0;
  result.loss_fn_outputs.forEach((o, i) => {
    offsets.writeBigInt64LE(BigInt(at), i * 8);
    at += o.logprobs.data.length * 4;
  });
  offsets.writeBigInt64LE(BigInt(at), result.loss_fn_outputs.length * 8);
  const Output = message('ForwardBackwardOutput');
  return toBinary(
    Output,
    create(Output, {
      lossFnOutputType: `tinker.types:${result.loss_fn_output_type}`,
      metrics: { ...result.metrics },
      lossFnOutputs: [
        {
          typeTag: result.loss_fn_output_type,
          numDatums: BigInt(result.loss_fn_outputs.length),
          fields: { logprobs: { data, offsets, dtype: 1, trailingShape: [] } },
        },
      ],
    } as never),
  );
}
