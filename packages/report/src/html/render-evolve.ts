import type { EvolveView, TaskEvolution } from '../view/evolve-view.js';
import { escapeHtml } from './escape-html.js';
import { formatReward } from './format-value.js';
import { renderChartGrid } from './render-chart-grid.js';
import { renderDiff } from './render-diff.js';

// A trailing newline would show as an empty last line in the box.
const trimEnd = (text: string) => text.replace(/\s+$/, '');

function renderTask(task: TaskEvolution, open: boolean): string {
  const first = task.rows[0];
  const last = task.rows[task.rows.length - 1];
  const changed = task.changes.filter((c) => c.diff).length;
  const meta = [
    task.family ? escapeHtml(task.family) : '',
    first && last ? `reward ${formatReward(first.meanReward)} → ${formatReward(last.meanReward)}` : '',
    `${changed} change${changed === 1 ? '' : 's'} to the skill`,
  ]
    .filter(Boolean)
    .join(' · ');
  const rows = task.rows.map(
    (r) =>
      `<tr><td class="num">${r.generation}</td><td class="num">${formatReward(r.meanReward)}</td>` +
      `<td class="num">${formatReward(r.bestReward)}</td><td>${r.bestSkill ? `<code>${escapeHtml(r.bestSkill)}</code>` : '<span class="muted">no skill</span>'}</td></tr>`,
  );
  const table =
    '<table class="generations"><thead><tr><th class="num">Generation</th><th class="num">Mean reward</th>' +
    `<th class="num">Best reward</th><th>Best skill</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  const withText = task.rows.filter((r) => r.skillText !== undefined);
  const latest = withText[withText.length - 1];
  const finalText = latest
    ? `<h3>Best skill at generation ${latest.generation}</h3><pre class="skill">${escapeHtml(trimEnd(latest.skillText as string))}</pre>`
    : '<p class="muted">No skill text was found for this task.</p>';
  const changes = task.changes.map((c) => {
    const head = `generation ${c.fromGeneration} → ${c.toGeneration}`;
    if (!c.diff) return `<p class="change-head">${head}: <span class="muted">unchanged</span></p>`;
    return (
      `<p class="change-head">${head}: <span class="plus">+${c.diff.added}</span> ` +
      `<span class="minus">−${c.diff.removed}</span> lines</p>${renderDiff(c.diff)}`
    );
  });
  const earlier = withText
    .slice(0, -1)
    .map(
      (r) =>
        `<details class="text"><summary>Text at generation ${r.generation}</summary><pre class="skill">${escapeHtml(trimEnd(r.skillText as string))}</pre></details>`,
    );
  return (
    `<details class="task"${open ? ' open' : ''}><summary>${escapeHtml(task.taskId)}<span class="meta">${meta}</span></summary>` +
    `${table}${finalText}${changes.length ? `<h3>Changes across generations</h3>${changes.join('')}` : ''}${earlier.join('')}</details>`
  );
}

/** Skill-R1: the reward charts, then per task the generations, the best skill and its diffs. */
export function renderEvolve(view: EvolveView, maxSkillTasks: number): string {
  if (view.tasks.length === 0) {
    return '<section class="card" id="evolve"><h2>Skill-R1: skill evolution</h2><p class="muted">No generation has finished yet.</p></section>';
  }
  const shown = view.tasks.slice(0, maxSkillTasks);
  const hidden = view.tasks.length - shown.length;
  const omitted = view.omittedMetrics.length
    ? `<p class="muted">Also recorded, not drawn: ${view.omittedMetrics.map(escapeHtml).join(', ')}.</p>`
    : '';
  return (
    '<section id="evolve"><h2>Skill-R1: reward per generation</h2>' +
    `${renderChartGrid(view.charts)}${omitted}` +
    '<h2>Best skill per generation</h2>' +
    shown.map((t, i) => renderTask(t, i === 0)).join('') +
    (hidden > 0
      ? `<p class="muted">${hidden} more task(s) not shown (raise maxSkillTasks to include them).</p>`
      : '') +
    '</section>'
  );
}
