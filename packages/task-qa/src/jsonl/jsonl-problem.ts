/**
 * A line of a JSONL file that could not become a task as written. `error`: the line was left out (bad JSON,
 * a required field missing); `warning`: the task was kept but something is off (an attachment not found
 * beside the file, an unknown difficulty). Either way it is reported, never dropped in silence.
 */
export interface JsonlProblem {
  file: string;
  /** 1-based line number. */
  line: number;
  /** The field at fault, in the spelling(s) looked for; absent for a line that is not JSON at all. */
  field?: string;
  severity: 'error' | 'warning';
  message: string;
}

/** `file:line: field: message (severity)` — the shape compilers use, so editors can jump to it. */
export function formatProblem(problem: JsonlProblem): string {
  const field = problem.field ? `${problem.field}: ` : '';
  return `${problem.file}:${problem.line}: ${field}${problem.message} (${problem.severity})`;
}
