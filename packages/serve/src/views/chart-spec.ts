import type { ChartSpec as ReportChartSpec } from '@skillrl/report';

// The report's chart shape and palette (one home, in @skillrl/report): the same key gets the same colour here
// as in report.html.
export { type ChartMarker, type ChartSeries, colorAt } from '@skillrl/report';

/**
 * A chart as plain data, the report's shape: everything the reader sees is computed (and tested) in Node, and
 * the page only hands it to Chart.js. The same `id` on the next update redraws in place. The page lays its
 * charts out itself, so the report's `size` is optional here.
 */
export type ChartSpec = Omit<ReportChartSpec, 'size'> & Partial<Pick<ReportChartSpec, 'size'>>;

/** The mean of the finite values, or null (a gap in the line) when there are none. */
export function meanOrNull(values: readonly number[]): number | null {
  const finite = values.filter((v) => Number.isFinite(v));
  return finite.length === 0 ? null : finite.reduce((a, b) => a + b, 0) / finite.length;
}
