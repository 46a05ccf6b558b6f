import { HttpError } from './http-error.js';
import { str } from './read-request.js';

// The SDK's client sessions (`create_session`, kept alive by `session_heartbeat` every 10 s): training runs
// and sampling sessions are created in one.

export interface ClientSession {
  id: string;
  heartbeats: number;
  tags: string[];
  sdkVersion: string;
}

export interface ClientSessions {
  /** `create_session`'s work; the new session's id. */
  create(body: Record<string, unknown>): string;
  /** The session a request names by `session_id`; 404 when there is none. */
  require(body: Record<string, unknown>): ClientSession;
  list(): ClientSession[];
}

export function createClientSessions(): ClientSessions {
  const sessions = new Map<string, ClientSession>();
  let created = 0;
  return {
    create(b) {
      created += 1;
      const id = `session-${String(created).padStart(6, '0')}`;
      const tags = Array.isArray(b.tags) ? (b.tags as unknown[]).map(String) : [];
      sessions.set(id, { id, heartbeats: 0, tags, sdkVersion: String(b.sdk_version ?? '') });
      return id;
    },
    require(b) {
      const session = sessions.get(str(b, 'session_id'));
      if (!session) throw new HttpError(404, 'Session not found');
      return session;
    },
    list: () =>
      [...sessions.values()].map(({ id, heartbeats, tags, sdkVersion }) => ({
        id,
        heartbeats,
        tags: [...tags],
        sdkVersion,
      })),
  };
}
