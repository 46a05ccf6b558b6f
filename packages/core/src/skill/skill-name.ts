/**
 * The Agent Skills `name` rules as skills-ref checks them (`validator.py`, `_validate_name`): the name is
 * trimmed and NFKC-normalised, then counted in code points, must equal its lowercase form, and may hold only
 * alphanumeric characters (Python's `str.isalnum`: Unicode letters and numbers) and `-`.
 */

/** Length in characters (Unicode code points, as Python's `len`), not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** The form the rules are checked on: trimmed, then NFKC (skills-ref: `unicodedata.normalize("NFKC", name.strip())`). */
export function normalizeSkillName(name: string): string {
  return name.trim().normalize('NFKC');
}

/** Whether a skill name and a folder name are the same name (both NFKC-normalised, as skills-ref compares them). */
export function skillNamesMatch(name: string, folder: string): boolean {
  return normalizeSkillName(name) === folder.normalize('NFKC');
}

/** Python's `c.isalnum()`: a Unicode letter (L*) or number (N*). Marks (M*) are not, as in Python. */
const ALNUM = /^[\p{L}\p{N}]$/u;

/** The characters of `name` (NFKC form) that are neither alphanumeric nor `-`, each once, in order. */
export function invalidNameCharacters(normalized: string): string[] {
  const bad = new Set<string>();
  for (const c of normalized) if (c !== '-' && !ALNUM.test(c)) bad.add(c);
  return [...bad];
}

/** Whether `normalized` equals its lowercase form (skills-ref: `name != name.lower()` is an error). */
export function isLowercaseName(normalized: string): boolean {
  return normalized === normalized.toLowerCase();
}
