import type { BankRow } from '../read/read-run-dir.js';
import type { ReportSummary } from '../report-types.js';
import type { ChartSpec } from '../view/chart-spec.js';
import type { EvolveView } from '../view/evolve-view.js';
import type { InternalizeView } from '../view/internalize-view.js';
import { chartLibrarySource } from './chart-library.js';
import { embedJson, embedScript } from './embed-script.js';
import { escapeHtml } from './escape-html.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import { renderBank } from './render-bank.js';
import { renderEvolve } from './render-evolve.js';
import { renderInternalize } from './render-internalize.js';
import { renderSummary } from './render-summary.js';

export interface PageParts {
  title: string;
  summary: ReportSummary;
  evolve?: EvolveView;
  internalize?: InternalizeView;
  charts: ChartSpec[];
  maxSkillTasks: number;
  /** The run's skill bank (`bank.jsonl`), when it wrote one. */
  bank?: readonly BankRow[];
}

/**
 * The whole report as one HTML file: style, data, Chart.js and the drawing script all inline, and a CSP
 * that forbids fetching anything, so the page reads the same offline, from an archive, or attached to a mail.
 */
export function renderPage(parts: PageParts): string {
  const { summary } = parts;
  const statusClass = summary.status.replace(/\s+/g, '-');
  const notes =
    summary.notes.length === 0
      ? ''
      : `<aside class="notes" id="notes"><h2>Notes on this run directory</h2><ul>${summary.notes
          .map((n) => `<li>${escapeHtml(n)}</li>`)
          .join('')}</ul></aside>`;
  const body = [
    `<header><h1>${escapeHtml(parts.title)}<span class="badge">${escapeHtml(summary.methodLabel)}</span>` +
      `<span class="badge ${escapeHtml(statusClass)}">${escapeHtml(summary.status)}</span></h1>` +
      `<p>Run <code>${escapeHtml(summary.runId)}</code> in <code>${escapeHtml(summary.dir)}</code></p></header>`,
    notes,
    renderSummary(summary),
    parts.evolve ? renderEvolve(parts.evolve, parts.maxSkillTasks) : '',
    parts.internalize ? renderInternalize(parts.internalize) : '',
    renderBank(parts.bank ?? []),
    '<footer>Made by @skillrl/report. Every chart and table is inside this file; it needs no network.</footer>',
  ].join('\n');
  const csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script type="application/json" id="report-data">${embedJson({ summary, charts: parts.charts })}</script>
<script>${embedScript(chartLibrarySource())}</script>
<script>${embedScript(PAGE_SCRIPT)}</script>
</body>
</html>
`;
}
