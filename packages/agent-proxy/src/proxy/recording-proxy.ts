import type { Condition, Skill } from '@skillrl/core';
import type { RecordedCall } from './recorded-call.js';

/** What went wrong with an episode's calls for good: its rollout is an errored one, not a failed one. */
export interface ProxyEpisodeFailure {
  /**
   * `upstream_status` (the endpoint kept answering an error status, or answered 401/403/404),
   * `upstream_timeout`, `upstream_unreachable` (connection refused or reset), `stream_stalled` (a stream went
   * quiet for longer than `timeoutMs`), `stream_broken` (a stream's connection broke after it began).
   */
  code: string;
  /** Secrets redacted. */
  message: string;
}

/** One episode's door into the proxy: its token, and the calls the program made with it. */
export interface ProxyEpisode {
  readonly episodeId: string;
  /** Random, scoped to this episode: what the program gets as `OPENAI_API_KEY`. */
  readonly token: string;
  /** The calls finished since the last take, in arrival order; each is returned once and then forgotten. */
  takeCalls(): RecordedCall[];
  /** Calls received so far (finished or not). */
  readonly calls: number;
  /** Set when an upstream call failed past its retry budget, or a stream was cut: the episode errored. */
  readonly failure: ProxyEpisodeFailure | undefined;
  /** Revokes the token: in-flight calls are cut (and recorded), later calls get 401 "episode … has ended". */
  end(): void;
}

export interface ProxyStats {
  /** Chat completions received from programs (recorded or still in flight). */
  calls: number;
  /** Recorded calls that ended in an error. */
  failures: number;
  episodesOpen: number;
}

/** A local OpenAI-compatible endpoint that records each episode's calls and forwards them upstream. */
export interface RecordingProxy {
  /** `http://127.0.0.1:PORT/v1`: the program's `OPENAI_BASE_URL`. */
  readonly url: string;
  openEpisode(episode: { episodeId: string; condition: Condition; skill?: Skill }): ProxyEpisode;
  stats(): ProxyStats;
  /** Ends every open episode, stops listening and closes the upstream sockets. */
  close(): Promise<void>;
}
