import type { ReportSummary } from '../report-types.js';
import { escapeHtml } from './escape-html.js';
import { formatDuration, formatGap, formatRate, formatTime } from './format-value.js';

const row = (label: string, value: string) => `<tr><th>${escapeHtml(label)}</th><td>${value}</td></tr>`;

/** The run summary table and the per-family success table. */
export function renderSummary(summary: ReportSummary): string {
  const errors =
    summary.rolloutErrors === 0
      ? '0'
      : `${summary.rolloutErrors} (${Object.entries(summary.errorCodes)
          .sort((a, b) => b[1] - a[1])
          .map(([code, n]) => `${escapeHtml(code)}: ${n}`)
          .join(', ')})`;
  const rows = [
    row('Method', escapeHtml(summary.methodLabel)),
    row('Seed', summary.seed === undefined ? '—' : String(summary.seed)),
    row('Status', escapeHtml(summary.status)),
    row('Started', escapeHtml(formatTime(summary.startedAt))),
    row('Duration', formatDuration(summary.durationMs)),
    row('Rollouts', String(summary.rollouts)),
    ...(summary.generations !== undefined ? [row('Generations', String(summary.generations))] : []),
    ...(summary.steps !== undefined ? [row('Training steps', String(summary.steps))] : []),
    row('Rollout errors', errors),
    ...(summary.runError ? [row('Run error', `<code>${escapeHtml(summary.runError)}</code>`)] : []),
  ];
  const hasValidation = summary.families.some((f) => f.lastValidation);
  // A side no rollout ever took (Skill-R1 runs all carry a skill) would only fill the table with dashes.
  const hasWith = summary.families.some((f) => f.withSkill.episodes + f.withSkill.errored > 0);
  const hasWithout = summary.families.some((f) => f.withoutSkill.episodes + f.withoutSkill.errored > 0);
  // Errored rollouts are not results: their own column, shown once any family has one.
  const erroredOf = (f: (typeof summary.families)[number]) => f.withSkill.errored + f.withoutSkill.errored;
  const hasErrored = summary.families.some((f) => erroredOf(f) > 0);
  const familyRows = summary.families.map((f) => {
    const gap =
      f.withSkill.rate !== null && f.withoutSkill.rate !== null
        ? f.withSkill.rate - f.withoutSkill.rate
        : undefined;
    const v = f.lastValidation;
    const cells = [
      `<td>${escapeHtml(f.family)}</td>`,
      ...(hasWith
        ? [
            `<td class="num">${formatRate(f.withSkill.rate)}</td>`,
            `<td class="num muted">${f.withSkill.episodes}</td>`,
          ]
        : []),
      ...(hasWithout
        ? [
            `<td class="num">${formatRate(f.withoutSkill.rate)}</td>`,
            `<td class="num muted">${f.withoutSkill.episodes}</td>`,
          ]
        : []),
      ...(hasWith && hasWithout ? [`<td class="num">${formatGap(gap)}</td>`] : []),
      ...(hasErrored ? [`<td class="num muted">${erroredOf(f)}</td>`] : []),
      ...(hasValidation
        ? [
            `<td class="num">${v ? formatRate(v.withSkill) : '—'}</td>`,
            `<td class="num">${v ? formatRate(v.withoutSkill) : '—'}</td>`,
            `<td>${f.retiredAt !== undefined ? `retired at step ${f.retiredAt}` : 'active'}</td>`,
          ]
        : []),
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  const head = [
    '<th>Family</th>',
    ...(hasWith ? ['<th class="num">Success with skill</th>', '<th class="num">n</th>'] : []),
    ...(hasWithout ? ['<th class="num">Success without</th>', '<th class="num">n</th>'] : []),
    ...(hasWith && hasWithout ? ['<th class="num">Gap</th>'] : []),
    ...(hasErrored ? ['<th class="num">Errored</th>'] : []),
    ...(hasValidation
      ? [
          '<th class="num">Last validation with</th>',
          '<th class="num">Last validation without</th>',
          '<th>Skill</th>',
        ]
      : []),
  ];
  const sides = !hasWithout
    ? ' Every rollout of this run had the skill in its prompt.'
    : !hasWith
      ? ' No rollout of this run had a skill in its prompt.'
      : '';
  const familyTable =
    summary.families.length === 0
      ? '<p class="muted">No rollouts recorded yet.</p>'
      : `<table id="families"><thead><tr>${head.join('')}</tr></thead><tbody>${familyRows.join('')}</tbody></table>` +
        `<p class="muted">Success over every rollout of the run that ended without an error, each as it finally ended, by whether the skill was in the prompt (n: those rollouts${hasErrored ? '; errored: rollouts that ended in an error, left out of the rates' : ''}).${sides}</p>`;
  return (
    `<section class="card"><h2>Run summary</h2><table id="summary" class="kv"><tbody>${rows.join('')}</tbody></table></section>` +
    `<section class="card"><h2>Success per family</h2>${familyTable}</section>`
  );
}
