import type { ChartSpec } from '../view/chart-spec.js';
import { escapeHtml } from './escape-html.js';

/** The boxes the page script draws into: one canvas per chart spec, found by `chart-<id>`. */
export function renderChartGrid(charts: readonly ChartSpec[]): string {
  if (charts.length === 0) return '';
  const boxes = charts.map(
    (c) =>
      `<figure class="chart ${c.size}" data-chart="${escapeHtml(c.id)}"><h3>${escapeHtml(c.title)}</h3>` +
      `<div class="plot"><canvas id="chart-${escapeHtml(c.id)}" role="img" aria-label="${escapeHtml(c.title)}"></canvas></div></figure>`,
  );
  return `<div class="charts">${boxes.join('')}</div>`;
}
