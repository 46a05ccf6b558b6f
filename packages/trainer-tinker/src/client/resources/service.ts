import type { TinkerTransport } from '../tinker-transport.js';
import type {
  CreateSamplingSessionRequest,
  CreateSamplingSessionResponse,
  CreateSessionRequest,
  CreateSessionResponse,
  GetServerCapabilitiesResponse,
  HealthResponse,
  SessionHeartbeatResponse,
} from '../tinker-types.js';

/** The service itself: health, what it serves, sessions and sampling sessions (src/tinker/resources/service.py). */
export interface TinkerServiceResource {
  /** GET /api/v1/healthz (resources/service.py `health_check`). */
  healthz(signal?: AbortSignal): Promise<HealthResponse>;
  /** GET /api/v1/get_server_capabilities: the base models served. */
  getServerCapabilities(signal?: AbortSignal): Promise<GetServerCapabilitiesResponse>;
  /** POST /api/v1/create_session. */
  createSession(request: CreateSessionRequest, signal?: AbortSignal): Promise<CreateSessionResponse>;
  /** POST /api/v1/session_heartbeat (the SDK sends one every 10 s, with no retries). */
  sessionHeartbeat(sessionId: string, signal?: AbortSignal): Promise<SessionHeartbeatResponse>;
  /** POST /api/v1/create_sampling_session (`sample` creates its own; this is the route itself). */
  createSamplingSession(
    request: CreateSamplingSessionRequest,
    signal?: AbortSignal,
  ): Promise<CreateSamplingSessionResponse>;
}

export function createServiceResource(transport: TinkerTransport): TinkerServiceResource {
  const { get, post } = transport;
  return {
    healthz: (signal) => get<HealthResponse>('healthz', signal),
    getServerCapabilities: (signal) => get<GetServerCapabilitiesResponse>('get_server_capabilities', signal),
    createSession: (request, signal) =>
      post<CreateSessionResponse>('create_session', { type: 'create_session', ...request }, signal),
    sessionHeartbeat: (sessionId, signal) =>
      transport.call<SessionHeartbeatResponse>(
        'POST',
        'session_heartbeat',
        { session_id: sessionId, type: 'session_heartbeat' },
        { maxRetries: 0, timeoutMs: 10_000, ...(signal ? { signal } : {}) },
      ),
    createSamplingSession: (request, signal) =>
      post<CreateSamplingSessionResponse>(
        'create_sampling_session',
        { type: 'create_sampling_session', ...request },
        signal,
      ),
  };
}
