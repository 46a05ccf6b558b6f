const LEADING_ID = /^\{"id":"((?:[^"\\]|\\.)*)"/;

/**
 * A trajectory line's id without parsing the line (trajectories are written with `id` first), so lines the
 * export does not need — validation rollouts — are skipped for the cost of a regular expression. `undefined`
 * when the line does not start with its id (the caller then parses it).
 */
export function leadingId(line: string): string | undefined {
  const m = LEADING_ID.exec(line);
  return m ? (JSON.parse(`"${m[1]}"`) as string) : undefined;
}
