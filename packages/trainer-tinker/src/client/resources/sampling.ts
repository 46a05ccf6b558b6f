import { InvalidArgumentError } from '@skillrl/core';
import type { TinkerClientOptions } from '../tinker-client-options.js';
import { TinkerApiError } from '../tinker-errors.js';
import { openTinkerSession, type TinkerSession } from '../tinker-session.js';
import type { TinkerTransport } from '../tinker-transport.js';
import type { CreateSamplingSessionResponse, SampleRequest, SampleResponse } from '../tinker-types.js';
import type { TinkerFutures } from './futures.js';
import type { TinkerServiceResource } from './service.js';

/**
 * Sampling from a base model or a sampler checkpoint, through a sampling session per checkpoint
 * (src/tinker/resources/sampling.py, lib/public_interfaces/sampling_client.py).
 */
export interface TinkerSamplingResource {
  /**
   * POST /api/v1/asample, then its future. Given `model_path` or `base_model`, it samples through that
   * checkpoint's sampling session (created on first use) with the session's next `seq_id`, and sends
   * `X-Tinker-Sampling-Backpressure: 1`; a 429 is waited out (1–5 s, or the server's `Retry-After`) with
   * no count limit, until the call's or the client's `signal` ends it.
   */
  sample(request: SampleRequest, signal?: AbortSignal): Promise<SampleResponse>;
  /**
   * The session sampling sessions are created in (`openTinkerSession` attaches its session here). Without
   * one, the first sample opens a session of the client's own.
   */
  attachSession(session: TinkerSession): void;
  /** Stops the heartbeats of a session the client opened itself. */
  close(): Promise<void>;
}

export function createSamplingResource(
  transport: TinkerTransport,
  futures: TinkerFutures,
  service: Pick<TinkerServiceResource, 'createSession' | 'sessionHeartbeat'>,
  options: Pick<TinkerClientOptions, 'samplingSessions'>,
): TinkerSamplingResource {
  const { post, stats } = transport;

  // Sampling sessions, as the SDK's SamplingClient keeps them: one per sampler checkpoint (or base model),
  // created in the client's session, each numbering its own samples. A new checkpoint path (every update saves
  // one) gets a new session, so sampling follows the weights; an old one is dropped past `keep`.
  let session: TinkerSession | undefined;
  let ownSession: Promise<TinkerSession> | undefined;
  let sessionsSupported = options.samplingSessions ?? true;
  const samplers = new Map<string, Promise<string>>();
  const samplerSeqs = new Map<string, number>();
  const keep = 16;
  const attachSession = (s: TinkerSession) => {
    session = s;
  };
  const sessionFor = async (signal?: AbortSignal): Promise<TinkerSession> => {
    if (session) return session;
    ownSession ??= openTinkerSession(
      { createSession: service.createSession, sessionHeartbeat: service.sessionHeartbeat, attachSession },
      { ...(signal ? { signal } : {}) },
    ).catch((error: unknown) => {
      ownSession = undefined;
      throw error;
    });
    return ownSession;
  };
  const samplerFor = (
    key: { model_path?: string; base_model?: string },
    signal?: AbortSignal,
  ): Promise<string> => {
    const id = key.model_path ? `path:${key.model_path}` : `base:${key.base_model}`;
    let found = samplers.get(id);
    if (!found) {
      found = (async () => {
        const s = await sessionFor(signal);
        stats.samplingSessions += 1;
        const created = await post<CreateSamplingSessionResponse>(
          'create_sampling_session',
          {
            type: 'create_sampling_session',
            session_id: s.id,
            sampling_session_seq_id: s.nextSamplingSeqId(),
            ...(key.model_path ? { model_path: key.model_path } : { base_model: key.base_model }),
          },
          signal,
        );
        return created.sampling_session_id;
      })();
      found.catch(() => samplers.delete(id));
      samplers.set(id, found);
      while (samplers.size > keep) samplers.delete(samplers.keys().next().value as string);
    }
    return found;
  };

  async function sample(request: SampleRequest, signal?: AbortSignal): Promise<SampleResponse> {
    const promptBytes = request.prompt.chunks.reduce((n, c) => n + c.tokens.length * 10, 0);
    let body: Record<string, unknown> = { type: 'sample', ...request };
    if (request.sampling_session_id === undefined && sessionsSupported) {
      if ((request.model_path === undefined) === (request.base_model === undefined)) {
        throw new InvalidArgumentError('sample', 'expected exactly one of model_path or base_model');
      }
      try {
        const samplingSessionId = await samplerFor(request, signal);
        const { model_path: _p, base_model: _b, ...rest } = request;
        body = { type: 'sample', ...rest, sampling_session_id: samplingSessionId };
      } catch (error) {
        if (
          !(
            TinkerApiError.isInstance(error) &&
            error.status === 404 &&
            error.route === 'create_sampling_session'
          )
        ) {
          throw error;
        }
        // A server without sampling sessions (an older skyrl-tx): sample by path, as before.
        sessionsSupported = false;
      }
    }
    if (typeof body.sampling_session_id === 'string' && body.seq_id === undefined) {
      const id = body.sampling_session_id;
      const next = (samplerSeqs.get(id) ?? 0) + 1;
      samplerSeqs.set(id, next);
      body.seq_id = next;
    }
    const future = await futures.submit<SampleResponse>('asample', body, {
      headers: { 'X-Tinker-Sampling-Backpressure': '1' },
      backpressure: { promptBytes },
      ...(signal ? { signal } : {}),
    });
    return future.result();
  }

  return {
    sample,
    attachSession,
    close: async () => {
      const own = ownSession;
      ownSession = undefined;
      if (own) (await own.catch(() => undefined))?.close();
    },
  };
}
