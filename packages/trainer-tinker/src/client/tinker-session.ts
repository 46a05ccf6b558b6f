import type { TinkerServiceResource } from './resources/service.js';

/**
 * The `sdk_version` this client reports in `create_session`: semver, as the SDK's is (`0.25.0`), carrying
 * this package's version with build metadata that names it (a server comparing versions reads `0.2.0`).
 */
export const SKILLRL_TINKER_CLIENT_VERSION = '0.2.0+skillrl-trainer-tinker';

export interface TinkerSessionOptions {
  tags?: string[];
  userMetadata?: Record<string, unknown>;
  /** Heartbeat period. Default 10 000 ms, the SDK's (src/tinker/lib/internal_client_holder.py). */
  heartbeatMs?: number;
  signal?: AbortSignal;
}

/** What a session is opened with: a client (`TinkerClient` is one), or its service routes alone. */
export interface TinkerSessionClient
  extends Pick<TinkerServiceResource, 'createSession' | 'sessionHeartbeat'> {
  /** Told of the session, so that the client creates its sampling sessions in it. */
  attachSession?(session: TinkerSession): void;
}

export interface TinkerSession {
  readonly id: string;
  /** The next `model_seq_id` of this session (training clients are numbered per session). */
  nextModelSeqId(): number;
  /** The next `sampling_session_seq_id`. */
  nextSamplingSeqId(): number;
  heartbeats(): { sent: number; failed: number; lastError?: string };
  /** Stops the heartbeats. */
  close(): void;
}

/**
 * A session with heartbeats, as the SDK's `InternalClientHolder` keeps one: `create_session`, then a
 * `session_heartbeat` every `heartbeatMs` (failures are counted, never thrown: the server ends a session
 * that misses them for long). The timer does not keep the process alive.
 */
export async function openTinkerSession(
  client: TinkerSessionClient,
  options: TinkerSessionOptions = {},
): Promise<TinkerSession> {
  const created = await client.createSession(
    {
      tags: options.tags ?? [],
      user_metadata: options.userMetadata ?? {},
      sdk_version: SKILLRL_TINKER_CLIENT_VERSION,
    },
    options.signal,
  );
  const id = created.session_id;
  let models = 0;
  let samplers = 0;
  const beats: { sent: number; failed: number; lastError?: string } = { sent: 0, failed: 0 };
  const timer = setInterval(() => {
    client.sessionHeartbeat(id).then(
      () => {
        beats.sent += 1;
      },
      (error: unknown) => {
        beats.failed += 1;
        beats.lastError = error instanceof Error ? error.message : String(error);
      },
    );
  }, options.heartbeatMs ?? 10_000);
  timer.unref();
  const session: TinkerSession = {
    id,
    nextModelSeqId: () => models++,
    nextSamplingSeqId: () => samplers++,
    heartbeats: () => ({ ...beats }),
    close: () => clearInterval(timer),
  };
  // Sampling sessions are created in this session from now on (the client's `sample` needs one).
  client.attachSession?.(session);
  return session;
}
