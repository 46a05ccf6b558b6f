/**
 * A short, single-line, JSON-quoted rendering of a value for a verdict reason (at most `max` characters,
 * cut with …): what every verifier, and a task package's own, quotes answers with.
 */
export function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
