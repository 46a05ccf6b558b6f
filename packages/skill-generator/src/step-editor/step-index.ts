/**
 * The editor's token space: every distinct phrase of the vocabulary (first appearance, families in key
 * order) as ids 0..V−1, and the end-of-skill token as id V. Built once from the vocabulary, so a checkpoint
 * that stores the vocabulary rebuilds the same ids.
 */
export interface StepIndex {
  /** Phrases by id. */
  readonly steps: readonly string[];
  /** The end-of-skill token's id (= steps.length). */
  readonly end: number;
  /** Families in vocabulary order. */
  readonly families: readonly string[];
  /** Per family, its phrases' ids in the vocabulary's (plan) order. */
  readonly familySteps: ReadonlyMap<string, readonly number[]>;
  /** Id of a phrase, compared after `normalizeStep`. */
  idOf(phrase: string): number | undefined;
  /** A short hash of the phrase list: candidates carry it so an update can refuse foreign ids. */
  readonly hash: string;
}

/** Lower case, single spaces, no trailing period: how a rendered step is matched back to its phrase. */
export function normalizeStep(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[.\s]+$/, '')
    .toLowerCase();
}

/** FNV-1a over UTF-16 code units: a stable 32-bit hash for words and phrase lists. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function buildStepIndex(vocabulary: Readonly<Record<string, readonly string[]>>): StepIndex {
  const steps: string[] = [];
  const ids = new Map<string, number>();
  const familySteps = new Map<string, number[]>();
  for (const [family, phrases] of Object.entries(vocabulary)) {
    const list: number[] = [];
    for (const phrase of phrases) {
      const key = normalizeStep(phrase);
      let id = ids.get(key);
      if (id === undefined) {
        id = steps.length;
        ids.set(key, id);
        steps.push(phrase);
      }
      list.push(id);
    }
    familySteps.set(family, list);
  }
  return {
    steps,
    end: steps.length,
    families: Object.keys(vocabulary),
    familySteps,
    idOf: (phrase) => ids.get(normalizeStep(phrase)),
    hash: fnv1a(steps.map(normalizeStep).join('\n')).toString(16).padStart(8, '0'),
  };
}
