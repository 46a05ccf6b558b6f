import {
  type AsyncVerifier,
  answerOf,
  checkThreshold,
  makeVerdict,
  quote,
  type ReferenceOptions,
  referencesOf,
} from '../shared/index.js';
import { normalizeAnswer } from './normalize-answer.js';

export interface TokenF1Options extends ReferenceOptions {
  /** Applied before splitting on whitespace. Default: SQuAD's `normalizeAnswer`. */
  normalize?: (text: string) => string;
}

export interface TokenF1 {
  f1: number;
  precision: number;
  recall: number;
}

/**
 * SQuAD's `f1_score` on two texts: bag-of-tokens overlap after normalisation. When either side has no tokens,
 * F1 is 1 if both are empty and 0 otherwise (the SQuAD v2 convention for no-answer questions).
 */
export function tokenF1Score(prediction: string, reference: string, normalize = normalizeAnswer): TokenF1 {
  const p = normalize(prediction).split(/\s+/).filter(Boolean);
  const r = normalize(reference).split(/\s+/).filter(Boolean);
  if (p.length === 0 || r.length === 0) {
    const same = p.length === r.length ? 1 : 0;
    return { f1: same, precision: same, recall: same };
  }
  const counts = new Map<string, number>();
  for (const t of r) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of p) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common += 1;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return { f1: 0, precision: 0, recall: 0 };
  const precision = common / p.length;
  const recall = common / r.length;
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}

/** Score = the best token F1 over the reference answers (SQuAD's max over golds). Default threshold 0.5. */
export function tokenF1(options: TokenF1Options = {}): AsyncVerifier {
  const name = options.name ?? 'tokenF1';
  const threshold = checkThreshold(name, options.threshold, 0.5);
  const normalize = options.normalize ?? normalizeAnswer;
  return {
    name,
    async verify(task, trajectory) {
      const references = referencesOf(name, task, options.reference);
      const answer = (options.extract ?? answerOf)(trajectory);
      let best = {
        ...tokenF1Score(answer, references[0] as string, normalize),
        reference: references[0] as string,
      };
      for (const r of references.slice(1)) {
        const s = tokenF1Score(answer, r, normalize);
        if (s.f1 > best.f1) best = { ...s, reference: r };
      }
      return makeVerdict(
        best.f1,
        threshold,
        `token F1 ${best.f1.toFixed(3)} (precision ${best.precision.toFixed(3)}, recall ${best.recall.toFixed(3)}) against ${quote(best.reference)}`,
        best,
      );
    },
  };
}
