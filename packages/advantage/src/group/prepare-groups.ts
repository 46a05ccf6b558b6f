import type { AdvantageBatch } from '@skillrl/core';
import { type CheckedBatch, readBatch } from '../batch/read-batch.js';
import { type GroupBookkeeping, groupBookkeeping } from './group-bookkeeping.js';
import { buildGroupIndex, type GroupIndex } from './group-index.js';
import { computeGroupMoments, type GroupMoments } from './group-moments.js';

/** What every group-based estimator starts from: the checked batch, its groups, their moments, the bookkeeping. */
export interface PreparedGroups {
  checked: CheckedBatch;
  index: GroupIndex;
  moments: GroupMoments;
  bookkeeping: GroupBookkeeping;
}

/** Checks the batch, numbers `groupIds` once, and computes per-group moments and the shared metrics. */
export function prepareGroups(
  component: string,
  batch: AdvantageBatch,
  successThreshold?: number,
): PreparedGroups {
  const checked = readBatch(batch, component);
  const index = buildGroupIndex(batch.groupIds);
  const rule =
    successThreshold === undefined ? { successes: batch.successes } : { threshold: successThreshold };
  const moments = computeGroupMoments(checked.scores, index, rule);
  const bookkeeping = groupBookkeeping(moments);
  return { checked, index, moments, bookkeeping };
}
