import type { SkillDiff } from '../diff/skill-diff.js';
import { escapeHtml } from './escape-html.js';

const MARK = { add: '+', del: '-', same: ' ', hunk: '' } as const;

/** A line diff as a readable block: added lines green with `+`, removed red with `-`, hunks grey. */
export function renderDiff(diff: SkillDiff): string {
  const lines = diff.lines.map((l) => {
    const text = l.kind === 'hunk' ? l.text : `${MARK[l.kind]} ${l.text}`;
    return `<span class="d-${l.kind}">${escapeHtml(text) || ' '}</span>`;
  });
  return `<pre class="diff" aria-label="${escapeHtml(`${diff.from} → ${diff.to}`)}">${lines.join('')}</pre>`;
}
