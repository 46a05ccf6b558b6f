const MARKER = /final\s+answer\s*:/gi;

/**
 * The answer in GAIA's template ("… FINAL ANSWER: [YOUR FINAL ANSWER]"): the text after the last
 * `FINAL ANSWER:` marker (any case, any spacing between the words), trimmed. The template asks the model to
 * *finish* with the marker, so everything after the last one is the answer, including later lines; an earlier
 * marker (a draft the model revised) is ignored. Returns `undefined` when there is no marker, so a caller can
 * choose between scoring the whole text and scoring nothing.
 */
export function extractFinalAnswer(text: string): string | undefined {
  let end = -1;
  for (const match of text.matchAll(MARKER)) end = match.index + match[0].length;
  if (end < 0) return undefined;
  return text.slice(end).trim();
}
