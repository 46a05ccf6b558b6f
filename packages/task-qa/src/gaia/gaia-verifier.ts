import type { Trajectory, Verifier } from '@skillrl/core';
import { answerOf, quote } from '@skillrl/verifiers';
import { extractFinalAnswer } from './extract-final-answer.js';
import { gaiaScoreDetails } from './gaia-score.js';

export interface GaiaVerifierOptions {
  /** Default `gaia`. */
  name?: string;
  /**
   * Only score the text after `FINAL ANSWER:`; without the marker the answer is missing (the official `None`).
   * Default false: without the marker, the whole answer text (trimmed) is scored.
   */
  requireTemplate?: boolean;
  /** Where the answer text comes from. Default: the trajectory's `answer`, else its last action. */
  extract?: (trajectory: Trajectory) => string;
}

/**
 * GAIA's official scorer as a verifier: score 1 when `gaiaScore` accepts the answer, else 0. A task without a
 * reference answer (GAIA's test split, `?`) cannot be scored: the verdict then says so (`details.unlabeled`)
 * and scores 0 — a number a report must leave out, not average in.
 */
export function createGaiaVerifier(options: GaiaVerifierOptions = {}): Verifier {
  const name = options.name ?? 'gaia';
  return {
    name,
    verify(task, trajectory) {
      if (task.answer === undefined || task.answer === null) {
        return {
          score: 0,
          passed: false,
          reason: `task ${task.id} is unlabeled (no reference answer, e.g. GAIA's test split): it cannot be scored here; submit test answers to the official leaderboard`,
          details: { unlabeled: true, official: true },
        };
      }
      const truth = typeof task.answer === 'string' ? task.answer : JSON.stringify(task.answer);
      const text = (options.extract ?? answerOf)(trajectory);
      const extracted = extractFinalAnswer(text);
      const answer = extracted ?? (options.requireTemplate ? null : text.trim());
      const result = gaiaScoreDetails(answer, truth);
      const shown = answer === null ? 'no FINAL ANSWER (scored as "None")' : quote(answer);
      return {
        score: result.correct ? 1 : 0,
        passed: result.correct,
        reason: `GAIA ${result.rule} rule: ${shown} ${result.correct ? 'matches' : 'does not match'} ${quote(truth)}`,
        details: {
          official: true,
          rule: result.rule,
          answer,
          groundTruth: truth,
          usedTemplate: extracted !== undefined,
          ...(result.elements ? { elements: result.elements } : {}),
          ...(result.lengths ? { lengths: result.lengths } : {}),
        },
      };
    },
  };
}
