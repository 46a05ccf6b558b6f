import type { JsonObject } from '@skillrl/core';

/** One flat training row (`--format jsonl`). */
export interface ExportRow {
  /** What the trained component saw. */
  prompt: string;
  /** What it produced. */
  completion: string;
  /** Per-token log-probs of the completion under the sampling policy, when recorded. */
  logProbs: number[] | null;
  tokenIds: number[] | null;
  advantage: number;
  /** Where the row came from: `{ unit, taskId, candidate }` or `{ unit, trajectoryId, step, condition }`. */
  meta: JsonObject;
}
