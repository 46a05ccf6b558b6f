import type { BankRow } from '../read/read-run-dir.js';
import { escapeHtml } from './escape-html.js';

const f = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(3));
const interval = (lo: number, hi: number) =>
  Number.isFinite(lo) && Number.isFinite(hi) ? ` [${f(lo)}, ${f(hi)}]` : '';

/**
 * The run's skill bank (`bank.jsonl`): each version, its parent, where it was carried, the mean reward under
 * it with its 95 % interval, and its utility (with − without, paired by task) where the run measured it.
 */
export function renderBank(all: readonly BankRow[], max = 200): string {
  if (all.length === 0) return '';
  // Evolve's candidates that were not carried stay in bank.jsonl; the table shows the lineage.
  const bank = all.filter((r) => r.carried !== false);
  const losers = all.length - bank.length;
  const rows = bank.slice(0, max).map((r) => {
    const retired = Object.entries(r.retiredAt ?? {})
      .map(([family, step]) => `${family} retired at step ${step}`)
      .join(', ');
    const where = [
      r.task,
      r.generation !== undefined ? `g${r.generation}` : '',
      r.candidate !== undefined ? `candidate ${r.candidate}` : '',
      r.families?.join(', ') ?? '',
      retired,
    ]
      .filter(Boolean)
      .join(' · ');
    const reward = r.reward
      ? `${f(r.reward.mean)}${interval(r.reward.lo, r.reward.hi)} (${r.reward.episodes})`
      : '—';
    const utility = r.utility
      ? `${f(r.utility.gap)}${interval(r.utility.lo, r.utility.hi)} (${r.utility.pairs} ${r.utility.pairedBy === 'episode' ? 'episode pairs' : 'tasks'}, ${escapeHtml(r.utility.split)})`
      : 'not measured';
    return (
      `<tr><td>${escapeHtml(r.name)}${r.final ? ' <span class="badge">final</span>' : ''}</td>` +
      `<td><code>${escapeHtml(r.hash)}</code></td><td>${r.parent ? `<code>${escapeHtml(r.parent)}</code>` : '—'}</td>` +
      `<td>${escapeHtml(where)}</td><td>${reward}</td><td>${utility}</td></tr>`
    );
  });
  const more = [
    bank.length > max ? `${bank.length - max} more versions in bank.jsonl.` : '',
    losers > 0 ? `${losers} candidates that were not carried are in bank.jsonl.` : '',
  ].filter(Boolean);
  const moreHtml = more.length > 0 ? `<p class="muted">${more.join(' ')}</p>` : '';
  return (
    '<section class="card" id="bank"><h2>Skill bank</h2>' +
    '<p class="muted">Every skill version the run holds (<code>bank.jsonl</code>): its parent, the mean reward of the ' +
    "run's episodes under it with a 95 % interval (episodes), and its utility — success with minus without, paired by " +
    'task, with a 95 % interval — where it was measured. <code>skillrl skills export</code> writes them as Agent Skills ' +
    'folders; <code>skillrl skills test</code> measures a utility.</p>' +
    '<table id="bank-table"><thead><tr><th>skill</th><th>version</th><th>parent</th><th>where</th>' +
    `<th>reward under it</th><th>utility</th></tr></thead><tbody>${rows.join('')}</tbody></table>${moreHtml}</section>`
  );
}
