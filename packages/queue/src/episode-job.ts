import type { Trajectory } from '@skillrl/core';
import type { PlannedEpisode } from '@skillrl/rollout';

/**
 * What a job carries: one planned episode and the hashes of the blobs a worker builds its parts from. No
 * API key: the components blob names environment variables (`apiKeyEnv`), which each worker reads itself.
 */
export interface EpisodeJobData {
  /** Payload format. */
  v: 1;
  /** The run it belongs to (its id): for the worker's progress, and so two runs never share a job. */
  run: string;
  episode: PlannedEpisode;
  /** Hash of the components blob (`putBlob`): what the worker resolves adapter, agent and verifier from. */
  context: string;
  /** Hash of the agent-state blob (a trained policy's weights at this unit), when the agent has state. */
  state?: string;
  generation?: number;
  maxSteps?: number;
  /** The worker gives up on the episode after this long; the job fails and BullMQ retries it. */
  timeoutMs?: number;
}

/** What a job returns: the one trajectory of its episode. */
export type EpisodeJobResult = Trajectory;

export const JOB_NAME = 'episode';
