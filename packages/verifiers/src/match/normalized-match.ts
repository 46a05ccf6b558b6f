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

export interface NormalizedMatchOptions extends ReferenceOptions {
  /** Applied to both the answer and each reference before comparing. Default: SQuAD's `normalizeAnswer`. */
  normalize?: (text: string) => string;
}

/** Score 1 when the normalised answer equals a normalised reference, else 0. */
export function normalizedMatch(options: NormalizedMatchOptions = {}): AsyncVerifier {
  const name = options.name ?? 'normalizedMatch';
  const threshold = checkThreshold(name, options.threshold, 1);
  const normalize = options.normalize ?? normalizeAnswer;
  return {
    name,
    async verify(task, trajectory) {
      const references = referencesOf(name, task, options.reference);
      const answer = normalize((options.extract ?? answerOf)(trajectory));
      const hit = references.find((r) => normalize(r) === answer);
      return hit !== undefined
        ? makeVerdict(
            1,
            threshold,
            `normalised answer ${quote(answer)} matches the reference ${quote(hit)}`,
            { normalized: answer },
          )
        : makeVerdict(
            0,
            threshold,
            `normalised answer ${quote(answer)} matches none of ${references.length} reference(s)`,
            {
              normalized: answer,
              references: references.map(normalize),
            },
          );
    },
  };
}
