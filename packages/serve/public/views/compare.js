import { getJson } from '../lib/api.js';
import { chartGrid } from '../lib/charts.js';
import { append, clear, el, link, routeHref } from '../lib/dom.js';
import { num, withInterval } from '../lib/format.js';
import { refresher } from '../lib/refresher.js';
import { progressCell, statusBadge } from '../lib/status-badge.js';

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

/** Picks the runs to compare when the address names fewer than two. */
function picker(main, chosen) {
  const selected = new Set(chosen);
  const button = el('button', { type: 'button' }, 'Compare');
  const list = el('ul', { class: 'picker' });
  main.append(
    el('h1', {}, 'Compare runs'),
    el(
      'p',
      { class: 'muted' },
      'Pick two or more runs (a SKILLC run and its control, or the seeds of a bench).',
    ),
    list,
    button,
  );
  button.addEventListener('click', () => {
    if (selected.size >= 2) location.hash = routeHref('compare', { run: [...selected] });
  });
  void getJson('/api/runs').then(({ runs }) => {
    for (const run of runs) {
      const box = el('input', { type: 'checkbox', value: run.id });
      box.checked = selected.has(run.id);
      box.addEventListener('change', () => (box.checked ? selected.add(run.id) : selected.delete(run.id)));
      list.append(
        el(
          'li',
          {},
          el(
            'label',
            {},
            box,
            ` ${run.id} `,
            el('span', { class: 'muted' }, `${run.method}${run.variant ? ` ${run.variant}` : ''}`),
          ),
        ),
      );
    }
  });
}

function pairedTable(paired) {
  if (paired.length === 0) {
    return el(
      'p',
      { class: 'muted' },
      'No held-out result the runs share yet (SKILLC writes its test at the end; Skill-R1 its final evaluation).',
    );
  }
  return el(
    'table',
    { class: 'paired', id: 'paired' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...[
          'runs',
          'held-out unit',
          'side',
          'tasks',
          'difference [95 % t interval]',
          'only first solved',
          'only second solved',
          'verdict',
        ].map((h) => el('th', {}, h)),
      ),
    ),
    el(
      'tbody',
      {},
      paired.map((p) =>
        el(
          'tr',
          {},
          el('td', {}, `${p.a} − ${p.b}`),
          el('td', {}, p.unit),
          el('td', {}, p.side === 'without' ? 'without skills' : 'with skills'),
          el('td', { class: 'num' }, String(p.tasks)),
          el(
            'td',
            { class: 'num' },
            p.result ? withInterval(p.result.difference, p.result.lower, p.result.upper) : 'needs 2+ tasks',
          ),
          el('td', { class: 'num' }, p.result ? String(p.result.onlyA) : '–'),
          el('td', { class: 'num' }, p.result ? String(p.result.onlyB) : '–'),
          el('td', {}, p.result?.verdict ?? '–'),
        ),
      ),
    ),
  );
}

/** Two or more runs: curves overlaid, and the held-out difference paired by task with its interval. */
export function compareView(main, params) {
  const ids = params.getAll('run');
  if (ids.length < 2) {
    picker(main, ids);
    return {};
  }
  const legend = el('section', { id: 'compare-runs' });
  const paired = el('section', { id: 'compare-paired' });
  const chartsBox = el('section', { class: 'charts', id: 'charts' });
  main.append(
    el('h1', {}, `Compare ${ids.length} runs`),
    legend,
    el('h2', {}, 'Held-out difference, paired by task'),
    paired,
    el('h2', {}, 'Curves'),
    chartsBox,
  );
  const grid = chartGrid(chartsBox, 'cmp:');
  const load = refresher(async () => {
    let data;
    try {
      data = await getJson('/api/compare', { run: ids });
    } catch (error) {
      append(clear(legend), el('p', { class: 'error' }, error.message));
      return;
    }
    append(
      clear(legend),
      el(
        'table',
        {},
        el(
          'tbody',
          {},
          data.runs.map((r, i) => {
            const swatch = el('span', { class: 'swatch' });
            swatch.style.background = PALETTE[i % PALETTE.length];
            return el(
              'tr',
              { 'data-run': r.id },
              el('td', {}, swatch),
              el('td', {}, link('run', { run: r.id }, r.id)),
              el('td', {}, `${r.method}${r.variant ? ` ${r.variant}` : ''}`),
              el('td', {}, statusBadge(r.status)),
              el('td', {}, progressCell(r.progress)),
              el('td', { class: 'num' }, `${r.rollouts} rollouts`),
            );
          }),
        ),
      ),
    );
    append(
      clear(paired),
      pairedTable(data.paired),
      el(
        'p',
        { class: 'muted small' },
        'Each run against the first: a − b per task on the same held-out tasks, so task difficulty cancels; an interval that contains 0 is a tie. ',
        `${num(data.paired.length, 0)} comparison(s).`,
      ),
    );
    grid.update(data.charts);
    main.dataset.loaded = 'true';
  });
  void load.run();
  return {
    onRun(summary) {
      if (ids.includes(summary.id)) void load.run();
    },
    dispose() {
      load.dispose();
      grid.destroy();
    },
  };
}
