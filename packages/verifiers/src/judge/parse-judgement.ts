/** Reads a score in [0, 1] from a judge's reply, or undefined when the reply does not contain one. */
export type JudgementParser = (text: string) => number | undefined;

export const DEFAULT_GRADES: Readonly<Record<string, number>> = Object.freeze({ A: 1, B: 0.5, C: 0 });

/**
 * `GRADE: <letter>` (the last one in the reply wins, so a judge may discuss grades before concluding),
 * mapped through `grades`. Letters not in `grades` are unparseable.
 */
export function gradeParser(grades: Record<string, number> = DEFAULT_GRADES): JudgementParser {
  return (text) => {
    const matches = [...text.matchAll(/GRADE\s*[:=]\s*\**\s*([A-Za-z][+-]?)\b/gi)];
    const letter = matches[matches.length - 1]?.[1];
    if (letter === undefined) return undefined;
    const score = grades[letter] ?? grades[letter.toUpperCase()];
    return typeof score === 'number' ? score : undefined;
  };
}

/** `SCORE: 0.8` or `SCORE: 8/10` (the last one wins). Values outside [0, 1] are unparseable, not clamped. */
export function scoreParser(): JudgementParser {
  return (text) => {
    const matches = [
      ...text.matchAll(/SCORE\s*[:=]\s*\**\s*(-?\d+(?:\.\d+)?|-?\.\d+)(?:\s*\/\s*(\d+(?:\.\d+)?))?/gi),
    ];
    const last = matches[matches.length - 1];
    if (!last) return undefined;
    const value = Number(last[1]);
    const denominator = last[2] === undefined ? 1 : Number(last[2]);
    if (!(denominator > 0)) return undefined;
    const score = value / denominator;
    return score >= 0 && score <= 1 ? score : undefined;
  };
}
