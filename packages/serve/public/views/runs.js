import { getJson } from '../lib/api.js';
import { clear, el, link, routeHref } from '../lib/dom.js';
import { ago } from '../lib/format.js';
import { refresher } from '../lib/refresher.js';
import { progressCell, statusBadge } from '../lib/status-badge.js';

function configText(pairs) {
  return pairs.map(([k, v]) => `${k} ${v}`).join(' · ');
}

/** The runs under the served folder, kept current by the live stream; pick two or more to compare. */
export function runsView(main, params) {
  const selected = new Set(params.getAll('run'));
  const heading = el('h1', {}, 'Runs');
  const where = el('p', { class: 'muted' });
  const compareButton = el('button', { type: 'button', disabled: true }, 'Compare selected');
  const body = el('tbody');
  const table = el(
    'table',
    { class: 'runs', id: 'runs-table' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['', 'run', 'method', 'status', 'progress', 'rollouts', 'config', 'updated'].map((h) =>
          el('th', {}, h),
        ),
      ),
    ),
    body,
  );
  const empty = el(
    'p',
    { class: 'muted', hidden: true },
    'No run directories here yet: start one with skillrl run <config>.',
  );
  main.append(heading, where, el('div', { class: 'toolbar' }, compareButton), table, empty);

  const syncButton = () => {
    compareButton.disabled = selected.size < 2;
    compareButton.textContent = `Compare selected (${selected.size})`;
  };
  compareButton.addEventListener('click', () => {
    location.hash = routeHref('compare', { run: [...selected] });
  });

  const rowOf = (run) => {
    const box = el('input', { type: 'checkbox', 'aria-label': `select ${run.id}` });
    box.checked = selected.has(run.id);
    box.addEventListener('change', () => {
      if (box.checked) selected.add(run.id);
      else selected.delete(run.id);
      syncButton();
    });
    const errored = run.errored > 0 ? el('span', { class: 'bad' }, ` (${run.errored} errored)`) : null;
    return el(
      'tr',
      { 'data-run': run.id, 'data-version': run.version },
      el('td', {}, box),
      el(
        'td',
        {},
        link('run', { run: run.id }, run.id),
        run.name !== run.id.split('/').pop() ? el('div', { class: 'muted' }, run.name) : null,
      ),
      el('td', {}, run.method, run.variant ? el('span', { class: 'muted' }, ` ${run.variant}`) : null),
      el(
        'td',
        {},
        statusBadge(run.status),
        run.status.state !== 'running' && run.status.state !== 'completed'
          ? el('div', { class: 'muted small' }, run.status.error ?? run.status.label)
          : null,
      ),
      el('td', {}, progressCell(run.progress)),
      el('td', { class: 'num' }, String(run.rollouts), errored),
      el('td', { class: 'config' }, configText(run.config)),
      el('td', { class: 'muted' }, ago(run.updatedAt)),
    );
  };

  const rows = new Map();
  const load = refresher(async () => {
    const { root, runs } = await getJson('/api/runs');
    where.textContent = `${runs.length} run${runs.length === 1 ? '' : 's'} under ${root}`;
    clear(body);
    rows.clear();
    for (const run of runs) {
      const row = rowOf(run);
      rows.set(run.id, row);
      body.append(row);
    }
    empty.hidden = runs.length > 0;
    main.dataset.loaded = 'true';
  });
  void load.run();
  syncButton();

  return {
    onRuns: () => void load.run(),
    onRun(run) {
      const old = rows.get(run.id);
      if (!old) return void load.run();
      const row = rowOf(run);
      old.replaceWith(row);
      rows.set(run.id, row);
    },
    dispose: () => load.dispose(),
  };
}
