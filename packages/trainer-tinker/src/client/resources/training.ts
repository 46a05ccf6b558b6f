import { InvalidArgumentError } from '@skillrl/core';
import {
  checkFiniteInputs,
  chunkData,
  TINKER_MAX_CHUNK_BYTES,
  TINKER_MAX_CHUNK_DATA,
} from '../chunk-data.js';
import { decodeForwardBackwardOutput, encodeForwardBackwardRequest } from '../protobuf-wire.js';
import {
  TINKER_DEFAULT_BASE_URL,
  type TinkerClientOptions,
  type TinkerWireFormat,
} from '../tinker-client-options.js';
import { TinkerApiError } from '../tinker-errors.js';
import { JsonText, type TinkerTransport } from '../tinker-transport.js';
import type {
  Datum,
  ForwardBackwardInput,
  ForwardBackwardOutput,
  ForwardBackwardRequest,
  ForwardRequest,
  OptimStepRequest,
  OptimStepResponse,
} from '../tinker-types.js';
import type { TrainingSeqIds } from '../training-seq-ids.js';
import type { TinkerFuture, TinkerFutures } from './futures.js';

/** `forwardBackwardChunks`' request: any number of data, split into the service's requests. */
export interface ForwardBackwardChunksRequest {
  model_id: string;
  data: Datum[];
  loss_fn: ForwardBackwardInput['loss_fn'];
  loss_fn_config?: Record<string, number>;
}

export interface ForwardBackwardChunksOptions {
  /** Data per request. Default `TINKER_MAX_CHUNK_DATA`. */
  maxData?: number;
  /** Bytes per request. Default `TINKER_MAX_CHUNK_BYTES`. */
  maxBytes?: number;
  /** A forward pass (`forward`): the loss and log-probs without gradients. */
  forwardOnly?: boolean;
  /** Numbers the chunks (e.g. a policy's own counter); default the client's counter of the model. */
  nextSeqId?: () => number;
  signal?: AbortSignal;
}

/** One request of `forwardBackwardChunks`: its data, its `seq_id` and what the service answered. */
export interface ForwardBackwardChunk {
  data: Datum[];
  output: ForwardBackwardOutput;
  seqId: number;
}

/** `forwardBackwardChunks`' results, one per request, in order. */
export interface ForwardBackwardChunksResponse {
  chunks: ForwardBackwardChunk[];
}

/** Gradients and optimizer steps of a training client (src/tinker/resources/training.py). */
export interface TinkerTrainingResource {
  /** The wire format `forward_backward` speaks now (`auto` may have fallen back to `json`). */
  wire(): TinkerWireFormat;
  /** POST /api/v1/forward_backward (the SDK's JSON body), then its future. */
  forwardBackward(request: ForwardBackwardRequest, signal?: AbortSignal): Promise<ForwardBackwardOutput>;
  /** POST /api/v1/forward, then its future: the loss and log-probs without gradients. */
  forward(request: ForwardRequest, signal?: AbortSignal): Promise<ForwardBackwardOutput>;
  /**
   * `forward_backward` (or `forward`) over any number of data, the SDK's way: split into requests of at most
   * `maxData` data and `maxBytes` bytes, numbered with consecutive `seq_id`s, all submitted before any result
   * is awaited (the SDK's `parallel_fwdbwd_chunks`: every chunk but the first at once, then the first), and
   * their futures awaited together, so the chunks are worked on at once. Results come back per chunk, in order.
   */
  forwardBackwardChunks(
    request: ForwardBackwardChunksRequest,
    options?: ForwardBackwardChunksOptions,
  ): Promise<ForwardBackwardChunksResponse>;
  /** POST /api/v1/optim_step, then its future. */
  optimStep(request: OptimStepRequest, signal?: AbortSignal): Promise<OptimStepResponse>;
  /** The `seq_id` the next training call of a model would get from the client's counter. */
  nextSeqId(modelId: string): number;
}

export function createTrainingResource(
  transport: TinkerTransport,
  futures: TinkerFutures,
  seqs: TrainingSeqIds,
  options: Pick<TinkerClientOptions, 'wire'>,
): TinkerTrainingResource {
  const { stats } = transport;
  const { submit } = futures;
  const { seqFor, numbered } = seqs;
  const wire = options.wire ?? (transport.baseURL === TINKER_DEFAULT_BASE_URL ? 'auto' : 'json');
  if (wire !== 'json' && wire !== 'protobuf' && wire !== 'auto') {
    throw new InvalidArgumentError(
      'wire',
      `expected "json", "protobuf" or "auto", got ${JSON.stringify(wire)}`,
    );
  }
  let protobuf = wire !== 'json';

  const refusesProtobuf = (error: unknown) =>
    TinkerApiError.isInstance(error) &&
    (error.status === 415 ||
      error.status === 422 ||
      (error.status === 400 && /json|protobuf|content-type/i.test(error.message)));

  /** Submits one forward(_backward) request in the wire format in use (see the `wire` option). */
  async function submitForward(
    kind: 'forward_backward' | 'forward',
    parts: {
      model_id: string;
      seq_id: number;
      data: readonly Datum[];
      loss_fn: string;
      loss_fn_config?: Record<string, number>;
    },
    json: () => unknown,
    signal?: AbortSignal,
  ): Promise<TinkerFuture<ForwardBackwardOutput>> {
    if (protobuf) {
      try {
        // The SDK sends both passes to forward_backward, a forward one with `forward_only`.
        return await submit<ForwardBackwardOutput>(
          'forward_backward',
          encodeForwardBackwardRequest({ ...parts, forwardOnly: kind === 'forward' }),
          { decode: decodeForwardBackwardOutput, ...(signal ? { signal } : {}) },
        );
      } catch (error) {
        if (wire !== 'auto' || !refusesProtobuf(error)) throw error;
        if (protobuf) stats.wireFallbacks += 1;
        protobuf = false;
      }
    }
    return submit<ForwardBackwardOutput>(kind, json(), signal ? { signal } : {});
  }

  async function forwardOnce(
    kind: 'forward_backward' | 'forward',
    request: ForwardBackwardRequest | ForwardRequest,
    signal?: AbortSignal,
  ): Promise<ForwardBackwardOutput> {
    const input =
      kind === 'forward'
        ? (request as ForwardRequest).forward_input
        : (request as ForwardBackwardRequest).forward_backward_input;
    const field = kind === 'forward' ? 'forward_input' : 'forward_backward_input';
    checkFiniteInputs(input?.data ?? [], field);
    const body = numbered(request);
    const future = await submitForward(
      kind,
      {
        model_id: body.model_id,
        seq_id: body.seq_id,
        data: input.data,
        loss_fn: input.loss_fn,
        ...(input.loss_fn_config ? { loss_fn_config: input.loss_fn_config } : {}),
      },
      () => body,
      signal,
    );
    return future.result();
  }

  async function forwardBackwardChunks(
    request: ForwardBackwardChunksRequest,
    chunkOptions: ForwardBackwardChunksOptions = {},
  ): Promise<ForwardBackwardChunksResponse> {
    const route = chunkOptions.forwardOnly ? 'forward' : 'forward_backward';
    checkFiniteInputs(request.data, route);
    if (request.data.length === 0) throw new InvalidArgumentError(route, 'expected at least one datum');
    const chunks = chunkData(request.data, {
      maxData: chunkOptions.maxData ?? TINKER_MAX_CHUNK_DATA,
      maxBytes: chunkOptions.maxBytes ?? TINKER_MAX_CHUNK_BYTES,
      wire: protobuf ? 'protobuf' : 'json',
      keepJson: !protobuf,
    });
    const signal = chunkOptions.signal;
    // Numbered in order first, so the server (which works a model's calls in seq_id order) sees one sequence.
    const numberedChunks = chunks.map((chunk) => {
      const seqId = seqFor(request.model_id, chunkOptions.nextSeqId?.());
      // The JSON body is written from the data's JSON made while chunking (each datum serialized once).
      const json = () => {
        const data = chunk.json ?? chunk.data.map((d) => JSON.stringify(d));
        const input = `{"data":[${data.join(',')}],"loss_fn":${JSON.stringify(request.loss_fn)}${
          request.loss_fn_config ? `,"loss_fn_config":${JSON.stringify(request.loss_fn_config)}` : ''
        }}`;
        const key = chunkOptions.forwardOnly ? 'forward_input' : 'forward_backward_input';
        return new JsonText(
          `{"model_id":${JSON.stringify(request.model_id)},"seq_id":${seqId},"${key}":${input}}`,
        );
      };
      return { data: chunk.data, seqId, json };
    });
    const send = (c: (typeof numberedChunks)[number]) =>
      submitForward(
        route,
        {
          model_id: request.model_id,
          seq_id: c.seqId,
          data: c.data,
          loss_fn: request.loss_fn,
          ...(request.loss_fn_config ? { loss_fn_config: request.loss_fn_config } : {}),
        },
        c.json,
        signal,
      );
    // The SDK's parallel mode: every chunk but the first at once, then the first, so that when the server can
    // start (at the first seq_id) the rest are already queued and are worked on together.
    const [head, ...rest] = numberedChunks;
    const restFutures = await Promise.all(rest.map(send));
    const headFuture = await send(head as (typeof numberedChunks)[number]);
    const submitted = numberedChunks.map((c, i) => ({
      data: c.data,
      seqId: c.seqId,
      future: i === 0 ? headFuture : (restFutures[i - 1] as TinkerFuture<ForwardBackwardOutput>),
    }));
    const outputs = await Promise.all(submitted.map((s) => s.future.result()));
    return {
      chunks: submitted.map((s, i) => ({
        data: s.data,
        seqId: s.seqId,
        output: outputs[i] as ForwardBackwardOutput,
      })),
    };
  }

  return {
    wire: () => (protobuf ? 'protobuf' : 'json'),
    forwardBackward: (request, signal) => forwardOnce('forward_backward', request, signal),
    forward: (request, signal) => forwardOnce('forward', request, signal),
    forwardBackwardChunks,
    optimStep: (request, signal) =>
      futures.run<OptimStepResponse>('optim_step', { type: 'optim_step', ...numbered(request) }, signal),
    nextSeqId: seqs.next,
  };
}
