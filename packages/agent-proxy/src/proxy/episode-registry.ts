import { randomBytes } from 'node:crypto';
import { type Condition, InvalidArgumentError, MissingFieldError, type Skill } from '@skillrl/core';
import type { RecordedCall } from './recorded-call.js';
import type { ProxyEpisode, ProxyEpisodeFailure } from './recording-proxy.js';

/** A call still in flight, which `end()` can cut. */
export interface InFlightCall {
  cut(reason: string): void;
}

/** What the proxy keeps of an open episode. */
export interface EpisodeState {
  readonly episodeId: string;
  readonly condition: Condition;
  /** The text injected into the system message, rendered once; undefined when nothing is injected. */
  readonly skillText: string | undefined;
  nextIndex: number;
  /** Finished calls not yet taken, in arrival order. */
  finished: RecordedCall[];
  failure: ProxyEpisodeFailure | undefined;
  ended: boolean;
  readonly inFlight: Set<InFlightCall>;
}

/** Ended tokens remembered so that a late call is told its episode ended rather than that its key is unknown. */
const ENDED_TOKENS_KEPT = 65_536;

export interface EpisodeRegistry {
  open(
    episode: { episodeId: string; condition: Condition; skill?: Skill },
    skillText: ((skill: Skill) => string) | undefined,
  ): ProxyEpisode;
  /** The open episode of a token, or the id of the ended episode it belonged to. */
  lookup(token: string): { episode: EpisodeState } | { endedEpisodeId: string } | undefined;
  /** Files a finished call under its episode (in arrival order) and tells `onCall`. */
  record(state: EpisodeState, call: RecordedCall): void;
  /** Episodes open now. */
  openCount(): number;
  endAll(): void;
}

/**
 * A random token: `sk-` so that the credential patterns of core's `redactSecrets` catch it in any text, then
 * 192 random bits.
 */
function newToken(): string {
  return `sk-skillrl-${randomBytes(24).toString('base64url')}`;
}

export function createEpisodeRegistry(onRecord: (call: RecordedCall) => void): EpisodeRegistry {
  const open = new Map<string, EpisodeState>();
  const ended = new Map<string, string>();

  const end = (token: string, state: EpisodeState) => {
    if (state.ended) return;
    state.ended = true;
    open.delete(token);
    ended.set(token, state.episodeId);
    if (ended.size > ENDED_TOKENS_KEPT) ended.delete(ended.keys().next().value as string);
    for (const call of [...state.inFlight])
      call.cut(`episode ${state.episodeId} ended while the call was in flight`);
  };

  return {
    open(episode, render) {
      if (!episode || typeof episode.episodeId !== 'string' || episode.episodeId.length === 0) {
        throw new InvalidArgumentError('episode.episodeId', 'expected a non-empty string naming the episode');
      }
      if (episode.condition !== 0 && episode.condition !== 1) {
        throw new InvalidArgumentError(
          'episode.condition',
          `expected 0 (without the skill) or 1 (with it), got ${JSON.stringify(episode.condition)}`,
        );
      }
      if (render && episode.condition === 1 && !episode.skill) {
        throw new MissingFieldError(
          'openEpisode',
          'skill',
          'condition 1 runs the episode with the skill, which the proxy injects: pass it (or injectSkill: "none")',
        );
      }
      const skillText =
        render && episode.condition === 1 && episode.skill ? render(episode.skill) : undefined;
      const token = newToken();
      const state: EpisodeState = {
        episodeId: episode.episodeId,
        condition: episode.condition,
        skillText,
        nextIndex: 0,
        finished: [],
        failure: undefined,
        ended: false,
        inFlight: new Set(),
      };
      open.set(token, state);
      return {
        episodeId: state.episodeId,
        token,
        takeCalls() {
          const calls = state.finished;
          state.finished = [];
          return calls;
        },
        get calls() {
          return state.nextIndex;
        },
        get failure() {
          return state.failure;
        },
        end() {
          end(token, state);
        },
      };
    },
    lookup(token) {
      const episode = open.get(token);
      if (episode) return { episode };
      const endedEpisodeId = ended.get(token);
      return endedEpisodeId === undefined ? undefined : { endedEpisodeId };
    },
    record(state, call) {
      const list = state.finished;
      // Calls mostly finish in the order they arrived; a slow one is slotted back into its place.
      let at = list.length;
      while (at > 0 && (list[at - 1] as RecordedCall).index > call.index) at--;
      list.splice(at, 0, call);
      onRecord(call);
    },
    openCount: () => open.size,
    endAll() {
      for (const [token, state] of [...open]) end(token, state);
    },
  };
}
