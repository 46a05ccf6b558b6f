import type { InternalizeView } from '../view/internalize-view.js';
import { escapeHtml } from './escape-html.js';
import { formatGap } from './format-value.js';
import { renderChartGrid } from './render-chart-grid.js';

/** SKILLC: success with/without per type, the gap, λ and ρ, retirements, training metrics. */
export function renderInternalize(view: InternalizeView): string {
  const validationCharts = view.charts.filter((c) => !c.id.startsWith('skillc-metric'));
  const metricCharts = view.charts.filter((c) => c.id.startsWith('skillc-metric'));
  const validation =
    view.validations.length === 0
      ? '<p class="muted">No validation has been recorded yet, so there is no with/without-skill curve.</p>'
      : renderChartGrid(validationCharts);
  const retirements =
    view.retirements.length === 0
      ? '<p class="muted">No skill has been retired.</p>'
      : '<table id="retirements"><thead><tr><th>Family</th><th class="num">Step</th><th>Event</th><th class="num">Gap then</th></tr></thead><tbody>' +
        view.retirements
          .map(
            (r) =>
              `<tr><td>${escapeHtml(r.family)}</td><td class="num">${r.step}</td><td>${r.kind === 'retired' ? 'skill retired' : 'skill back in use'}</td><td class="num">${formatGap(r.gap)}</td></tr>`,
          )
          .join('') +
        '</tbody></table>';
  const metrics =
    metricCharts.length === 0
      ? '<p class="muted">No training step has been recorded yet.</p>'
      : renderChartGrid(metricCharts);
  const omitted = view.omittedMetrics.length
    ? `<p class="muted">Also recorded, not drawn: ${view.omittedMetrics.map(escapeHtml).join(', ')}.</p>`
    : '';
  return (
    '<section id="internalize"><h2>SKILLC: success with and without skills</h2>' +
    validation +
    `<section class="card"><h2>Retirements</h2>${retirements}</section>` +
    `<h2>Training metrics per step</h2>${metrics}${omitted}</section>`
  );
}
