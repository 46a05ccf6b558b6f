/** A short, quoted, single-line rendering of a value for verdict reasons. */
export function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
