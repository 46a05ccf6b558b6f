/**
 * The files a SKILL.md body refers to, as the spec's "File references" section writes them: "use relative
 * paths from the skill root" — markdown links (`[the reference guide](references/REFERENCE.md)`), and bare
 * paths under the conventional folders (`scripts/extract.py`, in text or code).
 */

/** Markdown inline links and images: `[text](target "title")`, `![alt](<target>)`. */
const INLINE_LINK = /!?\[[^\]\n]*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
/** Reference-style link definitions: `[id]: target`. */
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm;
/** Bare paths under the spec's folders, not part of a longer path or URL. */
const BARE_PATH = /(?<![\w./\\-])(?:\.\/)?(?:scripts|references|assets)\/[^\s"'`()[\]<>|,;]+/g;
/** A placeholder or pattern, not a file: `scripts/<name>.py`, `references/*.md`, `assets/{a,b}`, `$DIR`. */
const PATTERN = /[*?{}$%<>]/;

function clean(target: string): string | undefined {
  let t = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
  if (t.length === 0 || t.startsWith('#')) return undefined;
  // A scheme (`https:`, `mailto:`, `file:`), or a drive letter, is not a path relative to the skill.
  if (/^[a-z][a-z0-9+.-]*:/i.test(t)) return undefined;
  if (t.startsWith('/') || t.startsWith('\\') || t.startsWith('~')) return undefined;
  t = t.replace(/[#?].*$/, '');
  try {
    t = decodeURIComponent(t);
  } catch {
    // Not percent-encoded after all: keep it as written.
  }
  t = t.replace(/[.:!]+$/, '');
  if (t.length === 0 || PATTERN.test(t)) return undefined;
  return t;
}

/** The relative paths the body refers to, each once, in the order they first appear. */
export function findSkillReferences(body: string): string[] {
  const found = new Set<string>();
  const add = (raw: string | undefined) => {
    const path = raw === undefined ? undefined : clean(raw);
    if (path !== undefined) found.add(path.replace(/^\.\//, ''));
  };
  for (const m of body.matchAll(INLINE_LINK)) add(m[1]);
  for (const m of body.matchAll(LINK_DEFINITION)) add(m[1]);
  for (const m of body.matchAll(BARE_PATH)) add(m[0]);
  found.delete('');
  return [...found];
}
