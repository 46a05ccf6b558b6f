import { redactSecrets, type Verdict } from '@skillrl/core';

/**
 * Builds a verdict whose `passed` follows from the score and the threshold, so every verifier derives
 * pass/fail the same way. Reasons go through `redactSecrets`: they end up in run directories.
 */
export function makeVerdict(
  score: number,
  threshold: number,
  reason: string,
  details?: Record<string, unknown>,
): Verdict {
  const clamped = Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
  const verdict: Verdict = { score: clamped, passed: clamped >= threshold, reason: redactSecrets(reason) };
  if (details !== undefined) verdict.details = details;
  return verdict;
}
