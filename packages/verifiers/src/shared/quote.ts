/** A short, single-line rendering of a value for a verdict reason. */
export function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
