import { describe, expect, it } from 'vitest';
import { metricCharts } from './metric-charts.js';

describe('metricCharts', () => {
  it('draws one chart per finite metric up to the limit and names the rest', () => {
    const rows = [
      { x: 1, metrics: { loss: 1, kl: 0.1, note: 'text', bad: Number.NaN } },
      { x: 2, metrics: { loss: 0.5, entropy: 2 } },
    ];
    const { charts, omitted } = metricCharts('m', rows, 'step', 2);
    expect(charts.map((c) => c.id)).toEqual(['m-loss', 'm-kl']);
    expect(charts[0]?.series[0]?.points).toEqual([
      [1, 1],
      [2, 0.5],
    ]);
    expect(charts[1]?.series[0]?.points).toEqual([[1, 0.1]]);
    expect(omitted).toEqual(['entropy']);
  });
});
