/** What a program's stdout says about its answer. */
export type StdoutAnswer =
  | { kind: 'answer'; answer: string }
  | { kind: 'none' }
  | { kind: 'malformed'; line: string; why: string };

/**
 * The answer on the last non-empty line of stdout, `{"answer": ...}`. A line that does not start with `{` is
 * no answer (the program printed its own text): the episode is verified as it stands. A line that starts with
 * `{` but is not valid JSON with an `answer` is malformed: the program meant to answer and could not.
 * A non-string answer is kept as its JSON text.
 */
export function readStdoutAnswer(stdout: string): StdoutAnswer {
  const lines = stdout.split(/\r?\n/);
  let last = '';
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    if (line) {
      last = line;
      break;
    }
  }
  if (!last.startsWith('{')) return { kind: 'none' };
  let value: unknown;
  try {
    value = JSON.parse(last);
  } catch (e) {
    return { kind: 'malformed', line: clip(last), why: `not valid JSON (${(e as Error).message})` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || !('answer' in value)) {
    return { kind: 'malformed', line: clip(last), why: 'a JSON object without an "answer" field' };
  }
  const answer = (value as { answer: unknown }).answer;
  if (answer === null || answer === undefined) return { kind: 'none' };
  return { kind: 'answer', answer: typeof answer === 'string' ? answer : JSON.stringify(answer) };
}

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
