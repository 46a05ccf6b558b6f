/** Where in a reply the SKILL.md was found. */
export type SkillTextSource =
  /** A fenced block holding frontmatter. */
  | 'fence'
  /** A `---` frontmatter line in the reply's own text. */
  | 'raw'
  /** A fenced markdown block, or a reply that is a markdown document, without frontmatter: a body only. */
  | 'body';

export interface ExtractedSkillText {
  text: string;
  source: SkillTextSource;
  /** True when the SKILL.md has no frontmatter and needs one added. */
  bodyOnly: boolean;
}

const MARKDOWN_LANGS = new Set(['', 'markdown', 'md', 'skill', 'skill.md', 'yaml', 'yml']);
const OPEN = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n`]*$/;

interface Fence {
  lang: string;
  content: string;
}

/**
 * Fenced blocks at the top level of `text`. A SKILL.md body often holds fenced code itself, so inside a block
 * a fence line with an info string (```` ```bash ````) opens a nested block and a bare one closes the
 * innermost; a longer outer fence (```` ```` ````) closes only on a fence at least as long.
 */
function fences(text: string): Fence[] {
  const lines = text.split('\n');
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i] ?? '');
    if (!open) continue;
    const marker = open[1] as string;
    const lang = (open[2] ?? '').toLowerCase();
    let depth = 0;
    let close = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const line = (lines[j] ?? '').trim();
      const inner = OPEN.exec(line);
      if (!inner || (inner[1] as string)[0] !== marker[0]) continue;
      const innerMarker = inner[1] as string;
      const bare = line === innerMarker;
      if (marker.length > 3) {
        // A longer outer fence is the author saying "nested fences inside": only its own length closes it.
        if (bare && innerMarker.length >= marker.length) {
          close = j;
          break;
        }
        continue;
      }
      if (!bare) depth++;
      else if (depth > 0) depth--;
      else {
        close = j;
        break;
      }
    }
    if (close === -1) {
      // An unclosed block (the reply was cut off by max tokens) runs to the end.
      out.push({ lang, content: lines.slice(i + 1).join('\n') });
      break;
    }
    out.push({ lang, content: `${lines.slice(i + 1, close).join('\n')}\n` });
    i = close;
  }
  return out;
}

const THINKING = /<think>[\s\S]*?(?:<\/think>|$)/g;
const FRONTMATTER_START = /^\s*---[ \t]*\r?\n/;
const FIELD_LINE = /^(name|description)\s*:/m;

function startsWithFrontmatter(text: string): boolean {
  if (!FRONTMATTER_START.test(text)) return false;
  const head = text.replace(FRONTMATTER_START, '').split(/\r?\n---/)[0] ?? '';
  return FIELD_LINE.test(head);
}

/**
 * Finds the SKILL.md in a model's reply, after dropping `<think>…</think>` reasoning: the last fenced block
 * holding frontmatter (markdown-labelled blocks first), else frontmatter in the reply's own text (from its `---` line to the end), else a fenced markdown
 * block or a reply that opens with a markdown heading, taken as a body without frontmatter. Anything else —
 * a refusal, chatter, an empty reply — gives `undefined`.
 */
export function extractSkillText(reply: string): ExtractedSkillText | undefined {
  if (typeof reply !== 'string' || reply.trim().length === 0) return undefined;
  // Reasoning models (Qwen3, DeepSeek-R1) think aloud first, often drafting the skill there.
  const text = reply.replace(/\r\n/g, '\n').replace(THINKING, '');
  if (text.trim().length === 0) return undefined;
  const blocks = fences(text).filter((f) => MARKDOWN_LANGS.has(f.lang));
  const withFrontmatter = blocks.filter((f) => startsWithFrontmatter(f.content));
  // The last one: a reply that quotes the old skill and then gives the new one ends with the revision.
  const labelled = [...withFrontmatter].reverse().find((f) => f.lang !== '') ?? withFrontmatter.at(-1);
  if (labelled) return { text: labelled.content.replace(/^\s*/, ''), source: 'fence', bodyOnly: false };

  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? '').trim() !== '---') continue;
    const rest = lines.slice(i).join('\n');
    if (startsWithFrontmatter(rest)) return { text: rest, source: 'raw', bodyOnly: false };
  }

  const body = blocks.find((f) => f.lang !== 'yaml' && f.lang !== 'yml' && f.content.trim().length > 0);
  if (body) return { text: body.content.replace(/^\s*\n/, ''), source: 'body', bodyOnly: true };
  if (/^#{1,6}\s+\S/.test(text.trimStart()))
    return { text: text.trimStart(), source: 'body', bodyOnly: true };
  return undefined;
}
