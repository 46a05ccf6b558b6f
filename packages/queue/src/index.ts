/**
 * @skillrl/queue — rollout workers on BullMQ (Redis). A run enqueues its planned episodes as jobs keyed by
 * their payload's hash; `skillrl worker` processes on any machine run them with the run's parts; the run
 * collects each trajectory once by rollout id, behind the same contract as rollout's `collectRollouts`.
 */
export { checkRedisUrl, connectRedis, describeRedisUrl } from './connect-redis.js';
export { checkEpisodeQueue, type QueueCheck } from './check-queue.js';
export { packDir, unpackDir } from './dir-blob.js';
export { type EpisodeJobData, type EpisodeJobResult, JOB_NAME } from './episode-job.js';
export {
  createEpisodeQueue,
  type EpisodeQueue,
  type EpisodeQueueOptions,
  type QueuedRolloutsOptions,
  type QueueNotice,
} from './episode-queue.js';
export {
  DEFAULT_RESUME_COMMAND,
  EpisodeJobError,
  EpisodeResultError,
  NoWorkerError,
  RedisUnavailableError,
} from './queue-errors.js';
export { blobKey, DEFAULT_QUEUE, jobIdOf, KEY_PREFIX } from './queue-keys.js';
export {
  type EpisodeBlobs,
  type EpisodeParts,
  type RolloutWorker,
  type RolloutWorkerOptions,
  startRolloutWorker,
  type WorkerJobEvent,
} from './rollout-worker.js';
