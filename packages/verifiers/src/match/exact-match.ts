import {
  type AsyncVerifier,
  answerOf,
  checkThreshold,
  makeVerdict,
  quote,
  type ReferenceOptions,
  referencesOf,
} from '../shared/index.js';

export interface ExactMatchOptions extends ReferenceOptions {
  /** Trim surrounding whitespace of both sides before comparing. Default `true`. */
  trim?: boolean;
}

/** Score 1 when the answer equals one of the reference answers character for character, else 0. */
export function exactMatch(options: ExactMatchOptions = {}): AsyncVerifier {
  const name = options.name ?? 'exactMatch';
  const threshold = checkThreshold(name, options.threshold, 1);
  const trim = options.trim ?? true;
  const prep = (s: string) => (trim ? s.trim() : s);
  return {
    name,
    async verify(task, trajectory) {
      const references = referencesOf(name, task, options.reference);
      const answer = prep((options.extract ?? answerOf)(trajectory));
      const hit = references.find((r) => prep(r) === answer);
      return hit !== undefined
        ? makeVerdict(1, threshold, `answer equals the reference ${quote(hit)}`)
        : makeVerdict(
            0,
            threshold,
            `answer ${quote(answer)} equals none of ${references.length} reference(s), e.g. ${quote(references[0] ?? '')}`,
          );
    },
  };
}
