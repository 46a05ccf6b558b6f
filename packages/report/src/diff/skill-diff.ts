import { structuredPatch } from 'diff';

export interface DiffLine {
  kind: 'add' | 'del' | 'same' | 'hunk';
  text: string;
}

/** The line diff between two versions of a SKILL.md, ready to render. */
export interface SkillDiff {
  from: string;
  to: string;
  added: number;
  removed: number;
  /** Hunks with `context` unchanged lines around each change; empty when the texts are equal. */
  lines: DiffLine[];
}

/**
 * Line diff of two skill texts in unified-diff hunks: a reader sees what the editor changed between two
 * generations without the unchanged bulk of a long skill.
 */
export function diffSkills(
  before: string,
  after: string,
  labels: { from: string; to: string },
  context = 3,
): SkillDiff {
  const patch = structuredPatch(labels.from, labels.to, before, after, undefined, undefined, { context });
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    lines.push({
      kind: 'hunk',
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    });
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '+') {
        added++;
        lines.push({ kind: 'add', text });
      } else if (mark === '-') {
        removed++;
        lines.push({ kind: 'del', text });
      } else if (mark === ' ') {
        lines.push({ kind: 'same', text });
      }
      // '\ No newline at end of file' says nothing about the skill itself.
    }
  }
  return { from: labels.from, to: labels.to, added, removed, lines };
}
