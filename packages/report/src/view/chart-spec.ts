/** One line on a chart: points (x, y) in x order; `null` y leaves a gap. */
export interface ChartSeries {
  label: string;
  points: [number, number | null][];
  color: string;
  dashed?: boolean;
}

/** A vertical line at `x` (a skill retired at that step). */
export interface ChartMarker {
  x: number;
  label: string;
  color: string;
}

/**
 * A chart as plain data: the page's script turns it into a Chart.js line chart, so everything the reader
 * sees is computed (and tested) in Node, and the browser only draws.
 */
export interface ChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  markers?: ChartMarker[];
  /** Fixed y range (success rates and ρ live in [0, 1]). */
  yMin?: number;
  yMax?: number;
  /** Wide charts take the full row; small ones go two or three to a row. */
  size: 'wide' | 'small';
}

// Tableau 10: distinct in print and for the common colour-vision deficiencies.
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

/** The colour of the i-th family or task; the same key gets the same colour on every chart. */
export function colorAt(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length] as string;
}

/** Makes a string safe as an HTML id and a DOM lookup key. */
export function chartId(...parts: string[]): string {
  return parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
