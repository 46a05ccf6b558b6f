import { type ChartSpec, chartId, colorAt } from './chart-spec.js';

export interface MetricCharts {
  charts: ChartSpec[];
  /** Metrics not drawn because of the limit, so the page can say so. */
  omitted: string[];
}

/**
 * One small chart per training metric (loss, KL, entropy…): their scales differ by orders of magnitude, so
 * sharing an axis would flatten all but the largest.
 */
export function metricCharts(
  idPrefix: string,
  rows: readonly { x: number; metrics: Record<string, unknown> }[],
  xLabel: string,
  limit: number,
): MetricCharts {
  const keys: string[] = [];
  for (const row of rows) {
    for (const [key, value] of Object.entries(row.metrics)) {
      if (typeof value === 'number' && Number.isFinite(value) && !keys.includes(key)) keys.push(key);
    }
  }
  const drawn = keys.slice(0, Math.max(0, limit));
  const charts = drawn.map(
    (key, i): ChartSpec => ({
      id: chartId(idPrefix, key),
      title: key,
      xLabel,
      yLabel: key,
      size: 'small',
      series: [
        {
          label: key,
          color: colorAt(i),
          points: rows
            .filter((r) => typeof r.metrics[key] === 'number' && Number.isFinite(r.metrics[key]))
            .map((r) => [r.x, r.metrics[key] as number]),
        },
      ],
    }),
  );
  return { charts, omitted: keys.slice(drawn.length) };
}
