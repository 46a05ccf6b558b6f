/**
 * The page's own script: turns the embedded chart specs into Chart.js charts. Plain ES5-style JavaScript in
 * a string, because it runs in the reader's browser, not in Node; every number it draws was computed by
 * the report builder. Charts are exposed on `window.__skillrlCharts` for tests and curious readers.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var root = document.documentElement;
  var charts = {};
  window.__skillrlCharts = charts;
  var data;
  try {
    data = JSON.parse(document.getElementById('report-data').textContent);
  } catch (error) {
    root.setAttribute('data-charts', 'error');
    console.error('skillrl report: the embedded data could not be read', error);
    return;
  }
  function fail(box, message) {
    var p = document.createElement('p');
    p.className = 'chart-error';
    p.textContent = message;
    box.appendChild(p);
  }
  if (typeof Chart === 'undefined') {
    root.setAttribute('data-charts', 'error');
    var boxes = document.querySelectorAll('.chart');
    for (var b = 0; b < boxes.length; b++) fail(boxes[b], 'Chart.js did not load, so this chart cannot be drawn.');
    console.error('skillrl report: Chart.js did not load');
    return;
  }
  function markerPlugin(markers) {
    return {
      id: 'skillrlMarkers',
      afterDatasetsDraw: function (chart) {
        if (!markers || markers.length === 0) return;
        var x = chart.scales.x;
        var area = chart.chartArea;
        var ctx = chart.ctx;
        ctx.save();
        ctx.font = '11px system-ui, sans-serif';
        markers.forEach(function (m, i) {
          var px = x.getPixelForValue(m.x);
          if (!(px >= area.left && px <= area.right)) return;
          ctx.strokeStyle = m.color;
          ctx.fillStyle = m.color;
          ctx.lineWidth = 1.5;
          ctx.setLineDash([4, 3]);
          ctx.beginPath();
          ctx.moveTo(px, area.top);
          ctx.lineTo(px, area.bottom);
          ctx.stroke();
          ctx.setLineDash([]);
          var width = ctx.measureText(m.label).width;
          var tx = px + 4 + width > area.right ? px - 4 - width : px + 4;
          ctx.fillText(m.label, tx, area.top + 12 + (i % 4) * 13);
        });
        ctx.restore();
      }
    };
  }
  function build(spec) {
    var many = spec.series.reduce(function (n, s) { return Math.max(n, s.points.length); }, 0) > 60;
    return {
      type: 'line',
      data: {
        datasets: spec.series.map(function (s) {
          return {
            label: s.label,
            data: s.points.map(function (p) { return { x: p[0], y: p[1] }; }),
            borderColor: s.color,
            backgroundColor: s.color,
            borderDash: s.dashed ? [6, 4] : [],
            borderWidth: 2,
            // A one-point series (a final re-run) is a marker, not a line: draw it large enough to see.
            pointRadius: s.points.length === 1 ? 6 : many ? 0 : 2.5,
            pointStyle: s.points.length === 1 ? 'rectRot' : 'circle',
            pointHoverRadius: 4,
            spanGaps: true,
            clip: 6,
            tension: 0
          };
        })
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        scales: {
          x: { type: 'linear', title: { display: true, text: spec.xLabel }, ticks: { precision: 0 } },
          y: { title: { display: true, text: spec.yLabel }, min: spec.yMin, max: spec.yMax }
        },
        plugins: {
          legend: {
            display: spec.series.length > 1 && spec.series.length <= 16,
            position: 'bottom',
            labels: { boxWidth: 14, boxHeight: 2, font: { size: 11 } }
          },
          tooltip: {
            callbacks: {
              label: function (item) {
                var y = item.parsed.y;
                return item.dataset.label + ': ' + (typeof y === 'number' ? Number(y.toFixed(4)) : y);
              }
            }
          }
        }
      },
      plugins: [markerPlugin(spec.markers)]
    };
  }
  var failed = 0;
  data.charts.forEach(function (spec) {
    var canvas = document.getElementById('chart-' + spec.id);
    if (!canvas) return;
    try {
      charts[spec.id] = new Chart(canvas, build(spec));
    } catch (error) {
      failed++;
      fail(canvas.parentNode, 'This chart could not be drawn: ' + error.message);
      console.error('skillrl report: chart ' + spec.id + ' failed', error);
    }
  });
  root.setAttribute('data-charts', failed > 0 ? 'error' : 'ready');
})();
`;
