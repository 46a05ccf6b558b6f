import { clear, el } from './dom.js';

// Chart.js comes from its own browser build (/vendor/chart.umd.min.js, loaded before this module) as
// `window.Chart`: the same library and version the report draws with.
const Chart = globalThis.Chart;

/** Charts on the page by id, for the browser tests (as the report exposes its own). */
const registry = {};
globalThis.__skillrlCharts = registry;

/** Vertical lines at given x values (skill types retired at those steps), drawn over the chart area. */
const markerPlugin = {
  id: 'skillrlMarkers',
  afterDatasetsDraw(chart) {
    const markers = chart.options.plugins.skillrlMarkers?.markers ?? [];
    const { ctx, chartArea, scales } = chart;
    ctx.save();
    for (const m of markers) {
      const x = scales.x.getPixelForValue(m.x);
      if (!Number.isFinite(x) || x < chartArea.left || x > chartArea.right) continue;
      ctx.strokeStyle = m.color;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(x, chartArea.top);
      ctx.lineTo(x, chartArea.bottom);
      ctx.stroke();
    }
    ctx.restore();
  },
};

function datasetsOf(spec) {
  return spec.series.map((s) => ({
    label: s.label,
    data: s.points.map(([x, y]) => ({ x, y })),
    borderColor: s.color,
    backgroundColor: s.color,
    borderDash: s.dashed ? [6, 4] : [],
    borderWidth: 2,
    pointRadius: s.points.length > 60 ? 0 : 2,
    spanGaps: false,
    tension: 0,
  }));
}

function optionsOf(spec) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    parsing: false,
    normalized: true,
    interaction: { mode: 'nearest', intersect: false },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12 } },
      skillrlMarkers: { markers: spec.markers ?? [] },
    },
    scales: {
      x: { type: 'linear', title: { display: true, text: spec.xLabel }, ticks: { precision: 0 } },
      y: {
        title: { display: true, text: spec.yLabel },
        ...(spec.yMin !== undefined ? { min: spec.yMin } : {}),
        ...(spec.yMax !== undefined ? { max: spec.yMax } : {}),
      },
    },
  };
}

/**
 * A grid of charts that updates in place: `update(specs)` redraws a chart whose id it already shows with
 * the new points (no flicker, no reload) and adds the others. `prefix` keeps two grids' ids apart.
 */
export function chartGrid(container, prefix = '') {
  const shown = new Map();
  return {
    update(specs) {
      for (const spec of specs) {
        const id = `${prefix}${spec.id}`;
        const empty = spec.series.every((s) => s.points.length === 0);
        let entry = shown.get(id);
        if (!entry) {
          const canvas = el('canvas', { 'aria-label': spec.title, role: 'img' });
          const title = el('h3', {}, spec.title);
          const note = el('p', { class: 'muted empty-note' }, 'no points yet');
          const card = el(
            'figure',
            { class: 'chart-card', 'data-chart': id },
            title,
            el('div', { class: 'chart-box' }, canvas),
            note,
          );
          container.append(card);
          const chart = new Chart(canvas, {
            type: 'line',
            data: { datasets: datasetsOf(spec) },
            options: optionsOf(spec),
            plugins: [markerPlugin],
          });
          entry = { chart, title, note, card };
          shown.set(id, entry);
          registry[id] = chart;
        } else {
          entry.title.textContent = spec.title;
          entry.chart.data.datasets = datasetsOf(spec);
          entry.chart.options.plugins.skillrlMarkers.markers = spec.markers ?? [];
          entry.chart.update('none');
        }
        entry.note.hidden = !empty;
        entry.card.dataset.points = String(spec.series.reduce((a, s) => a + s.points.length, 0));
      }
    },
    destroy() {
      for (const [id, entry] of shown) {
        entry.chart.destroy();
        delete registry[id];
      }
      shown.clear();
      clear(container);
    },
  };
}
