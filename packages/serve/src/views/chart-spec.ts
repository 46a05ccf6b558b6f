/** One line on a chart: points (x, y) in x order; a `null` y leaves a gap. */
export interface ChartSeries {
  label: string;
  points: [number, number | null][];
  color: string;
  dashed?: boolean;
}

/** A vertical line at `x` (a skill type retired at that step). */
export interface ChartMarker {
  x: number;
  label: string;
  color: string;
}

/**
 * A chart as plain data, the shape the report draws too: everything the reader sees is computed (and tested)
 * in Node, and the page only hands it to Chart.js. The same `id` on the next update redraws in place.
 */
export interface ChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  markers?: ChartMarker[];
  yMin?: number;
  yMax?: number;
}

// Tableau 10, as the report uses: distinct in print and for the common colour-vision deficiencies.
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

/** The colour of the i-th family, task or run; the same key gets the same colour on every chart. */
export function colorAt(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length] as string;
}

/** The mean of the finite values, or null (a gap in the line) when there are none. */
export function meanOrNull(values: readonly number[]): number | null {
  const finite = values.filter((v) => Number.isFinite(v));
  return finite.length === 0 ? null : finite.reduce((a, b) => a + b, 0) / finite.length;
}
