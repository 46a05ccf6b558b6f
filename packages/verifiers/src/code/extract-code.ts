const FENCE = /```([a-zA-Z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g;
const JS_LANGS = new Set(['', 'js', 'javascript', 'node', 'nodejs', 'cjs', 'mjs', 'jsx']);

/**
 * The program in a model's answer: the last fenced block tagged as JavaScript (or untagged), else the last
 * fenced block of any language, else the whole answer. Models often show usage first and the solution last.
 */
export function extractCode(answer: string): string {
  const blocks = [...answer.matchAll(FENCE)].map((m) => ({
    lang: (m[1] ?? '').toLowerCase(),
    body: m[2] ?? '',
  }));
  const js = blocks.filter((b) => JS_LANGS.has(b.lang));
  const chosen = js[js.length - 1] ?? blocks[blocks.length - 1];
  return chosen ? chosen.body : answer;
}
