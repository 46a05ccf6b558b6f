import { createHash } from 'node:crypto';

/** The queue runs and workers meet on when the config names none. */
export const DEFAULT_QUEUE = 'skillrl-rollouts';

/** BullMQ's key prefix for every key this package writes (queues and blobs alike). */
export const KEY_PREFIX = 'skillrl';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Where a content-addressed blob (a run's components, a policy's weights) lives in Redis. */
export function blobKey(queue: string, hash: string): string {
  return `${KEY_PREFIX}:${queue}:blob:${hash}`;
}

/**
 * A job's id is the hash of its whole payload: the same episode of the same run with the same components
 * and policy state is one job however often it is enqueued (BullMQ ignores an add whose id exists), and a
 * payload that differs in anything is another job. BullMQ ids may not contain ':'.
 */
export function jobIdOf(payload: unknown): string {
  return `ep-${sha256(JSON.stringify(payload)).slice(0, 32)}`;
}
